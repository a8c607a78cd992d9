"""End to end in a real browser: Debian's chromium driven by Playwright.

A real server process (bots without delay, seeds allowed so a deal can be
chosen) on a free loopback port; the page is used by clicking and typing,
as a person would. Screenshots at 1280 and 360 px go to
artifacts/screenshots/.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from pyrummy.core.cards import CardSet
from pyrummy.core.match import new_match
from pyrummy.core.melds import all_melds_in, explain_meld
from pyrummy.core.rules import find_rules
from server_process import kill_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("web-data")
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyrummy.cli.main",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
            "--bot-delay",
            "0",
            "--allow-seed",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "DATABASE_URL": ""},
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60  # a busy machine imports slowly
    try:
        while True:
            try:
                if httpx.get(f"{url}/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)
        yield url
    finally:
        # Also when the server was too slow to start: never leave it running.
        kill_server(process)  # and its process group: no worker left behind


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


def open_page(browser: Browser, base_url: str, width: int = 1280, lang: str = "en") -> Page:
    # The page's own Content-Security-Policy stays in force (no bypass_csp).
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base_url + "/")
    return page


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def rummy_seed_with_four_card_meld() -> tuple[int, list[str]]:
    """A seed whose first Rummy deal gives the person (who plays first) a
    four-card meld once they draw the top of the stock."""
    rules = find_rules("rummy")
    for seed in range(5000):
        deal = new_match(rules, players=2, seed=seed).deal
        hand = deal.hands(0) | CardSet([deal.stock[0]])
        fours = [m for m in all_melds_in(hand, rules) if len(m) == 4]
        if fours:
            return seed, [str(c) for c in fours[0]]
    raise AssertionError("no seed found")


def test_knock_rummy_against_two_bots_to_the_settlement(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    expect(page.locator("#game-knock")).to_be_checked()  # the flagship is preselected
    expect(page.locator("#bot-count")).to_have_value("2")
    shot(page, "lobby-1280")
    page.click("#deal-button")
    # Either our turn comes, or a bot knocks first: both end at the showdown.
    page.wait_for_selector("#stock:not([disabled]), #showdown", timeout=20000)
    if page.locator("#showdown").count() == 0:
        expect(page.locator(".opponent")).to_have_count(2)
        page.click("#stock")
        expect(page.locator("#btn-stock")).to_be_disabled()
        expect(page.locator("#deadwood")).to_contain_text("Deadwood")
        shot(page, "table-knock-1280")
        last = page.locator(".hand .card").last
        last.click()
        expect(last).to_have_attribute("aria-selected", "true")
        expect(page.locator("#btn-discard")).to_be_enabled()
        page.click("#btn-knock")
        dialog = page.locator("dialog[open]")
        if dialog.count():
            expect(dialog).to_contain_text("10")
            dialog.locator(".danger").click()
    showdown = page.locator("#showdown, #match-end").first
    expect(showdown).to_be_visible(timeout=20000)
    expect(showdown.locator(".showdown-hand")).to_have_count(3)
    expect(showdown.locator(".transfers li, .outcome").first).to_be_visible()
    shot(page, "showdown-knock-1280")
    if page.locator("#btn-next").count():
        page.click("#btn-next")
        expect(page.locator(".board")).to_be_visible()
        expect(page.locator(".table-head h1")).to_contain_text("Deal 2 of 3")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_rummy_meld_layoff_invalid_meld_and_russian(browser: Browser, base_url: str) -> None:
    seed, four = rummy_seed_with_four_card_meld()
    page = open_page(browser, base_url)
    page.click("label[for=game-rummy]")
    page.select_option("#bot-count", "1")
    page.fill("#seed", str(seed))
    page.click("#deal-button")
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    expect(page.locator(".melds")).to_have_count(0)
    page.click("#stock")
    expect(page.locator("#btn-stock")).to_be_disabled()

    # A meld of three of the four cards...
    for card in four[:3]:
        page.click(f"#hand-card-{card}")
    page.click("#btn-meld")
    meld = page.locator('.meld[data-meld="0"]')
    expect(meld).to_be_visible()
    expect(meld.locator(".card")).to_have_count(3)
    # ...then the fourth laid off: selecting it outlines the meld, a click lays it off.
    page.click(f"#hand-card-{four[3]}")
    expect(page.locator(".meld.target")).to_have_count(1)
    shot(page, "table-rummy-layoff-1280")
    page.click(".meld.target")
    expect(meld.locator(".card")).to_have_count(4)
    expect(meld.locator(".laid-by")).to_have_count(0)  # laid off by its owner

    # An invalid meld is refused with the reason in words.
    hand = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    rules = find_rules("rummy")
    trio = next(
        (a, b, c)
        for i, a in enumerate(hand)
        for j, b in enumerate(hand[i + 1 :], i + 1)
        for c in hand[j + 1 :]
        if explain_meld(f"{a} {b} {c}", rules) is not None
    )
    for card in trio:
        page.click(f"#hand-card-{card}")
    page.click("#btn-meld")
    status = page.locator("#status-line")
    expect(status).to_have_text(explain_meld(" ".join(trio), rules, "en") or "")
    shot(page, "table-rummy-invalid-1280")

    # Russian: every label switches, the explanation too.
    page.click("#lang-switch")
    expect(page.locator("#btn-meld")).to_have_text("Выложить")
    expect(page.locator("#btn-discard")).to_have_text("Сбросить")
    page.click("#btn-meld")
    expect(status).to_have_text(explain_meld(" ".join(trio), rules, "ru") or "")
    shot(page, "table-rummy-ru-1280")

    # Keyboard: the hand is one tab stop; Escape clears, arrows move, Enter selects, D discards.
    hand_box = page.locator(".hand")
    hand_box.focus()
    page.keyboard.press("Escape")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    expect(page.locator('.hand .card[aria-selected="true"]')).to_have_count(1)
    cards_before = page.locator(".hand .card").count()
    page.keyboard.press("d")
    # A locator, not wait_for_function: the page's CSP forbids evaluating strings.
    expect(page.locator(".hand .card")).to_have_count(cards_before - 1)
    # The language choice is remembered.
    page.reload()
    expect(page.locator("#lang-switch")).to_have_text("English")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_small_screen_pages(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url, width=360)
    shot(page, "lobby-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.click("#deal-button")
    page.wait_for_selector(".hand .card, #showdown", timeout=20000)
    shot(page, "table-360")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.goto(base_url + "/#/rules/knock")
    flow = page.locator(".flow-scroll")
    expect(flow).to_be_visible()
    # The diagram scrolls sideways inside its box; the page itself does not.
    assert flow.evaluate("el => el.scrollWidth > el.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "rules-360")
    page.goto(base_url + "/#/faq")
    expect(page.locator(".faq-item")).to_have_count(8)
    page.goto(base_url + "/#/history")
    expect(page.locator("h1")).to_have_text("Finished matches")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
