"""The profile page (#/profile) in Chromium: a played match makes the
profile, the page renames it and shows its statistics, a passkey is
registered with Chromium's virtual authenticator, a second browser signs in
with that passkey and sees the same profile, then signs out; deletion asks
first. At 127.0.0.1 the page says passkeys need a domain name.

The page is opened at ``localhost`` (WebAuthn needs a domain, not an IP).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from server_process import running_server
from web_helpers import (
    SLOW,
    axe_source,
    browser,
    errors_of,
    keep_errors,
    knock_to_match_end,
    serious,
    shot,
    start,
)

pytestmark = pytest.mark.browser
__all__ = ["axe_source", "browser"]  # the shared fixtures

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("profile-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


def at_localhost(url: str) -> str:
    return url.replace("127.0.0.1", "localhost")


def context_with_authenticator(
    browser: Browser, lang: str = "en", width: int = 1280, height: int = 800
) -> tuple[BrowserContext, Page, Any, str]:
    """A new browser (context) whose page has a virtual platform authenticator."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = keep_errors(context.new_page())
    session = context.new_cdp_session(page)
    session.send("WebAuthn.enable")
    authenticator = session.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return context, page, session, authenticator["authenticatorId"]


def rated_loss(page: Page, url: str) -> None:
    """A rated friends' table against the Easy bot, resigned at once: a rated
    loss for the page's profile (its context's cookies make the requests)."""
    made = page.request.post(
        url + "/api/rooms",
        data={"seats": [{"kind": "you"}, {"kind": "open"}], "name": "Me", "rated": True},
    )
    assert made.status == 201, made.text()
    code, token = made.json()["room"]["code"], made.json()["token"]
    seat = page.request.put(url + f"/api/rooms/{code}/seats/2", data={"kind": "bot", "bot": "easy"})
    assert seat.ok, seat.text()
    started = page.request.post(url + f"/api/rooms/{code}/start")
    assert started.ok, started.text()
    table_id = started.json()["table_id"]
    resigned = page.request.post(
        url + f"/api/tables/{table_id}/resign", headers={"X-Seat-Token": token}
    )
    assert resigned.ok, resigned.text()
    rating = page.request.get(url + f"/api/tables/{table_id}/rating").json()
    assert rating["rated"] and rating["over"] and rating["changes"], rating


def test_profile_rename_passkey_second_browser_sign_in_out_delete(
    browser: Browser, server_url: str
) -> None:
    base = at_localhost(server_url)
    first, page, session, authenticator = context_with_authenticator(browser)
    # No profile before the first play: the page says so and offers sign-in.
    page.goto(base + "/#/profile")
    expect(page.locator("#profile-none")).to_contain_text("play a game")
    expect(page.locator("#passkey-signin")).to_be_visible()
    # A played match makes the profile and its statistics.
    page.goto(base + "/")
    start(page, bots=1, length="one")
    knock_to_match_end(page)
    page.click("#topbar a[href='#/profile']")  # the header's link
    expect(page.locator("#profile-name")).to_be_visible(timeout=SLOW)
    expect(page.locator("#profile-stats")).to_contain_text("1")
    expect(page.locator("#profile-matches tbody tr")).to_have_count(1)
    # A bad name is refused next to the field; a good one is kept.
    page.fill("#profile-name", "bad<name>")
    page.click("#profile-rename")
    expect(page.locator("#profile-name-error")).to_contain_text("1–24")
    page.fill("#profile-name", "Anna K")
    page.click("#profile-rename")
    expect(page.locator("#profile-status")).to_have_text("Name saved.")
    expect(page.locator("#profile-name")).to_have_value("Anna K")
    # A passkey, made by the virtual authenticator.
    expect(page.locator("#passkeys-none")).to_be_visible()
    page.click("#passkey-add")
    expect(page.locator("#passkey-list li")).to_have_count(1, timeout=SLOW)
    expect(page.locator("#profile-status")).to_have_text("Passkey added.")
    credentials = session.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
        "credentials"
    ]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]
    page.wait_for_timeout(3000)  # the match end's falling suits are gone
    shot(page, "profile-1280-en")

    # A second browser holds the same passkey and signs in with it.
    second, other, other_session, other_authenticator = context_with_authenticator(browser)
    other_session.send(
        "WebAuthn.addCredential",
        {"authenticatorId": other_authenticator, "credential": credentials[0]},
    )
    other.goto(base + "/#/profile")
    expect(other.locator("#profile-none")).to_be_visible()
    other.click("#passkey-signin")
    expect(other.locator("#profile-name")).to_have_value("Anna K", timeout=SLOW)
    expect(other.locator("#profile-status")).to_have_text("Signed in as Anna K.")
    expect(other.locator("#profile-matches tbody tr")).to_have_count(1)
    # Signing out there leaves the first browser signed in.
    other.click("#profile-signout")
    expect(other.locator("#profile-none")).to_be_visible()
    page.reload()
    expect(page.locator("#profile-name")).to_have_value("Anna K")

    # Removing the passkey: the list is empty again.
    page.click(".passkey-remove")
    expect(page.locator("#passkeys-none")).to_be_visible()
    # Delete: Cancel keeps the profile, Delete removes it.
    page.click("#profile-delete")
    page.click("#profile-delete-cancel")
    expect(page.locator("#profile-name")).to_have_value("Anna K")
    page.click("#profile-delete")
    page.click("#profile-delete-confirm")
    expect(page.locator("#profile-none")).to_be_visible()
    expect(page.locator("#profile-status")).to_have_text("Your profile is deleted.")
    assert errors_of(page) == [] and errors_of(other) == []
    first.close()
    second.close()


def test_profile_page_sizes_languages_and_ip_address(
    browser: Browser, server_url: str, axe_source: str
) -> None:
    """Screenshots (1280x800 and 360x740, English and Russian); at 127.0.0.1
    the page says passkeys need a domain name and names the localhost address."""
    context, page, _, _ = context_with_authenticator(browser, width=360, height=740)
    page.goto(server_url + "/")
    start(page, bots=1, length="one")
    knock_to_match_end(page)
    rated_loss(page, server_url)
    page.goto(server_url + "/#/profile")
    # The rating, provisional after one rated match, as the API gives it.
    expect(page.locator("#profile-ratings tbody tr")).to_have_count(1)
    expect(page.locator("#profile-ratings tbody td").nth(1)).to_have_text(re.compile(r"^\d+\?$"))
    expect(page.locator("#profile-ratings-note")).to_contain_text("provisional")
    unavailable = page.locator("#passkeys-unavailable")
    expect(unavailable).to_contain_text(at_localhost(server_url))
    expect(page.locator("#passkeys-localhost")).to_have_attribute(
        "href", at_localhost(server_url) + "/#/profile"
    )
    expect(page.locator("#passkey-add")).to_have_count(0)
    page.wait_for_timeout(3000)  # the match end's falling suits are gone
    shot(page, "profile-360-en")
    assert serious(page, axe_source) == []
    page.click("#menu-button")  # the header folds into a menu on a phone
    page.click("#lang-switch")
    expect(page.locator("h1")).to_have_text("Ваш профиль")
    expect(unavailable).to_contain_text("доменное имя")
    page.keyboard.press("Escape")  # the menu closes
    shot(page, "profile-360-ru")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "profile-1280-ru")
    assert errors_of(page) == []
    context.close()
