"""End to end in a real browser: Debian's chromium driven by Playwright.

A real server process (bots without delay, seeds allowed so a deal can be
chosen) on a free loopback port; the page is used by clicking and typing,
as a person would. Screenshots at 1280 and 360 px go to
artifacts/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from pyrummy.core.melds import explain_meld
from pyrummy.core.rules import find_rules
from web_helpers import (
    base_url,
    browser,
    draw_from_stock,
    errors_of,
    invalid_trio,
    open_page,
    shot,
    start_rummy_with_four_card_meld,
)

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures


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
        draw_from_stock(page)
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
        # Deal 2 has begun: its board, or already its showdown when the bots
        # (instant) moved first and one of them knocked at once.
        expect(page.locator(".table-head h1")).to_contain_text("Deal 2 of 3")
        expect(page.locator(".board, #showdown").first).to_be_visible()
    assert not errors_of(page)
    page.context.close()


def test_rummy_meld_layoff_invalid_meld_and_russian(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    four = start_rummy_with_four_card_meld(page)
    expect(page.locator(".melds")).to_have_count(0)

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
    rules = find_rules("rummy")
    trio = invalid_trio(page, rules)
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
    assert not errors_of(page)
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
    expect(page.locator(".faq-item")).to_have_count(9)
    page.goto(base_url + "/#/history")
    expect(page.locator("h1")).to_have_text("Finished matches")
    assert not errors_of(page)
    page.context.close()
