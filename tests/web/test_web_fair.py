"""Fair deals in the browser: the page re-derives each revealed deal's
shuffle itself and says "verified", or warns loudly when the reveal does not
match (a state whose revealed deck has one card moved)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from web_helpers import (
    SLOW,
    base_url,
    browser,
    errors_of,
    knock_now,
    knock_to_match_end,
    open_page,
    shot,
    start,
)

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures


def table_id(page: Page) -> str:
    return page.url.rsplit("/", 1)[-1]


def move_one_card(route: Route) -> None:
    """The server's state, with one card of the revealed deck moved to the end."""
    response = route.fetch()
    state: dict[str, Any] = response.json()
    fair = (state.get("last_deal") or {}).get("fair")
    if fair:
        deck = fair["deck"]
        deck.append(deck.pop(3))
    route.fulfill(response=response, body=json.dumps(state))


def test_a_showdown_and_the_match_end_show_verified(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    start(page, bots=1)  # Knock Rummy with one bot: two deals
    page.wait_for_selector("#stock:not([disabled]), #showdown", timeout=SLOW)
    if page.locator("#showdown").count() == 0:
        # Before the first card: the deal's commitment, beside the score.
        expect(page.locator("#fair-commitment")).to_contain_text("Shuffle commitment")
        knock_now(page)
    badge = page.locator("#showdown .fair-check")
    expect(badge).to_have_attribute("data-fair", "verified", timeout=SLOW)
    expect(badge).to_contain_text("Deal 1 verified")
    shot(page, "fair-showdown-1280")
    page.click("#btn-next")
    knock_to_match_end(page)
    end_badge = page.locator("#match-end .fair-check")
    expect(end_badge).to_have_attribute("data-fair", "verified", timeout=SLOW)
    expect(end_badge).to_contain_text("Deal 2 verified")
    end_badge.locator("summary").click()
    expect(end_badge).to_contain_text("SHA-256")
    assert errors_of(page) == []


def test_a_tampered_reveal_shows_the_warning(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url, width=390, lang="ru")
    start(page, bots=1, length="one")
    knock_to_match_end(page)
    expect(page.locator("#match-end .fair-check")).to_have_attribute(
        "data-fair", "verified", timeout=SLOW
    )
    expect(page.locator("#match-end .fair-check")).to_contain_text("проверена")
    assert page.locator("#fair-commitment").count() == 0  # no deal under way
    # The same table again, its state changed on the way: one card of the
    # revealed deck moved. The page must not call it verified.
    page.route(f"**/api/tables/{table_id(page)}/state*", move_one_card)
    page.reload()
    badge = page.locator("#match-end .fair-check")
    expect(badge).to_have_attribute("data-fair", "warning", timeout=SLOW)
    expect(badge).to_have_attribute("role", "alert")
    expect(badge).to_contain_text("ВНИМАНИЕ")
    expect(badge).to_contain_text("сдаёт не те карты")
    shot(page, "fair-warning-390-ru")
    assert errors_of(page) == []
