"""The guided Knock Rummy deal (#/learn, issue 11): every number the coach
says comes from the rules core, both languages say every step, and a
newcomer can play it through by mouse or keyboard, get coached after a wrong
move, skip it, and have the choice remembered."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pyrummy.core.settlement import settle
from pyrummy.core.solver import deadwood
from web_helpers import base_url, browser, run_node, shot

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]

JS = Path(__file__).resolve().parents[2] / "src/pyrummy/web/static/js"


def run_module(module: str, expression: str) -> Any:
    script = (
        f"import * as m from {json.dumps((JS / module).as_uri())};\n"
        f"process.stdout.write(JSON.stringify({expression}));\n"
    )
    return run_node(script)


def test_the_coachs_numbers_are_the_cores() -> None:
    deal = run_module("tutorial_deal.js", "m.TUTORIAL_DEAL")
    hand, bot = deal["hand"], deal["botHand"]
    cards = [*hand, deal["upcard"], deal["stockTop"], *bot, deal["botDraws"]]
    assert len(cards) == len(set(cards)) == 23  # one deck, no card twice
    assert len(hand) == len(bot) == 10  # two players: ten cards each
    assert deal["botDiscards"] == deal["botDraws"]
    said = deal["deadwood"]
    after_draw = [*hand, deal["stockTop"]]
    after_discard = [c for c in after_draw if c != deal["yourDiscard"]]
    after_take = [*after_discard, deal["botDiscards"]]
    shown = [c for c in after_take if c != deal["yourKnock"]]
    assert said == {
        "dealt": deadwood(" ".join(hand)),
        "afterDraw": deadwood(" ".join(after_draw)),
        "afterDiscard": deadwood(" ".join(after_discard)),
        "afterTake": deadwood(" ".join(after_take)),
        "afterKnock": deadwood(" ".join(shown)),
        "bot": deadwood(" ".join(bot)),
    }
    # The coach's advice is the best play: the discard and the knock card
    # each leave the least deadwood.
    assert said["afterDiscard"] == min(
        deadwood(" ".join(c for c in after_draw if c != out)) for out in after_draw
    )
    assert said["afterKnock"] == min(
        deadwood(" ".join(c for c in after_take if c != out)) for out in after_take
    )
    # The settlement the coach describes is the core's: the bot pays the difference.
    result = settle([" ".join(shown), " ".join(bot)], knocker=0, rules="knock")
    assert [str(amount) for amount in result.net] == [
        str(deal["payment"]),
        str(-deal["payment"]),
    ]


def test_both_languages_say_every_step() -> None:
    source = (JS / "tutorial.js").read_text()
    blocks = re.search(r"\n  en: \{(.*?)\n  \},\n  ru: \{(.*?)\n  \},\n\};", source, re.S)
    assert blocks
    english, russian = (re.findall(r"^    (\w+):", block, re.M) for block in blocks.groups())
    # No key written twice (the second would silently replace the first).
    assert len(english) == len(set(english)) and len(russian) == len(set(russian))
    assert english == russian
    assert "(а)" not in blocks.group(2)


def table_of(page: Page) -> str:
    return str(page.evaluate("location.hash"))


def play_through(page: Page) -> None:
    coach = page.locator("#coach")
    expect(coach).to_contain_text("deadwood is 47")
    # A wrong move is coached, not played.
    page.click("#tutorial-take")
    expect(coach).to_contain_text("draw from the stock this time")
    expect(page.locator(".hand .card")).to_have_count(10)
    page.click("#tutorial-draw")
    expect(page.locator("#tutorial-deadwood")).to_have_text("Deadwood 29")
    expect(page.locator(".hand .card")).to_have_count(11)
    page.click("#tutorial-card-QS")
    page.click("#tutorial-discard")
    expect(coach).to_contain_text("Throw the K♠")
    page.click("#tutorial-card-KS")
    page.click("#tutorial-discard")
    expect(coach).to_contain_text("threw the A♣")
    expect(page.locator("#tutorial-deadwood")).to_have_text("Deadwood 19")
    page.click("#tutorial-pile")
    expect(page.locator("#tutorial-deadwood")).to_have_text("Deadwood 14")
    page.click("#tutorial-card-QS")
    page.click("#tutorial-knock")
    expect(page.locator("#tutorial-result")).to_have_text("Bot pays you 17")


def test_a_newcomer_plays_the_guided_deal_and_it_is_remembered(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "/")
    # A first visit: the offer is in the first screen, beside the Deal button.
    start = page.locator("#tutorial-start")
    expect(start).to_be_in_viewport()
    offer_box, deal_box = start.bounding_box(), page.locator("#deal-button").bounding_box()
    assert offer_box is not None and deal_box is not None
    assert offer_box["y"] >= deal_box["y"]
    start.click()
    expect(page.locator("#tutorial-title")).to_contain_text("Guided deal")
    play_through(page)
    shot(page, "tutorial-showdown-1280")
    expect(page.locator("#tutorial-play")).to_be_focused()
    # Finished: the lobby offers it again as a plain link, not as an offer.
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_visible()
    expect(page.locator("#tutorial-start")).to_have_count(0)
    expect(page.locator("#tutorial-again")).to_be_visible()
    # And from the Knock Rummy rules.
    page.goto(base_url + "/#/rules/knock")
    page.click("#rules-tutorial")
    expect(page.locator("#coach")).to_be_visible()
    # "Play Knock Rummy against a bot" starts a real table.
    page.evaluate("location.hash = '#/learn'")
    play_through(page)
    page.click("#tutorial-play")
    page.wait_for_selector("#stock:not([disabled]), #showdown, #match-end", timeout=20000)
    assert table_of(page).startswith("#/table/")
    assert not errors
    context.close()


def test_skipping_is_remembered_and_keyboard_and_russian_work(
    browser: Browser, base_url: str
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru")
    page = context.new_page()
    page.goto(base_url + "/")
    # Skipped at its first step: the lobby then offers it as a plain link.
    page.click("#tutorial-start")
    page.click("#tutorial-skip")
    expect(page.locator("#deal-button")).to_be_visible()
    expect(page.locator("#tutorial-start")).to_have_count(0)
    page.reload()
    expect(page.locator("#deal-button")).to_be_visible()
    expect(page.locator("#tutorial-start")).to_have_count(0)
    page.click("#tutorial-again")
    expect(page.locator("#coach")).to_contain_text("Сейчас ваш остаток 47")
    shot(page, "tutorial-step1-360-ru")
    # The keyboard alone: Tab to a button, arrows and Enter in the hand.
    page.focus("#tutorial-draw")
    page.keyboard.press("Enter")
    expect(page.locator("#tutorial-deadwood")).to_have_text("Остаток 29")
    expect(page.locator(".hand")).to_be_focused()
    order = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.keyboard.press("Home")
    for _ in range(order.index("KS")):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#tutorial-card-KS")).to_have_attribute("aria-selected", "true")
    page.focus("#tutorial-discard")
    page.keyboard.press("Enter")
    expect(page.locator("#coach")).to_contain_text("сбросил A♣")
    # Skip at any step: back to the lobby, still remembered.
    page.click("#tutorial-skip")
    expect(page.locator("#deal-button")).to_be_visible()
    expect(page.locator("#tutorial-start")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('pyrummy.tutorial')") == "skipped"
    context.close()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (740, 360), (844, 390)])
def test_the_guided_deal_fits_a_phone(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(base_url + "/#/learn")
    page.click("#tutorial-draw")
    for selector in ("#tutorial-card-KS", "#tutorial-discard", "#coach"):
        page.locator(selector).scroll_into_view_if_needed()
        expect(page.locator(selector)).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"tutorial-step2-{width}x{height}")
    context.close()
