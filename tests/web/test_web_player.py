"""End to end in Debian's chromium: what a newcomer trips on (issue 11).

The Moves list against the deal's record, the phone layout on the person's
turn, Continue for a closed tab's game, Play again in view, an invalid meld
explained with no request, focus after Deal, the Russian verb forms.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, FloatRect, Page, expect

from pyrummy.core.melds import explain_meld
from pyrummy.core.rules import find_rules
from web_helpers import (
    base_url,
    browser,
    draw_from_stock,
    errors_of,
    invalid_trio,
    knock_to_match_end,
    open_page,
    shot,
    start,
    start_rummy_with_four_card_meld,
)

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures


def table_id(page: Page) -> str:
    address: str = page.evaluate("location.hash")
    return address.split("/")[-1]


def seat_state(page: Page, base: str) -> dict[str, Any]:
    """The table's state for the page's seat, read straight from the API."""
    tokens = json.loads(page.evaluate("localStorage.getItem('pyrummy.tokens')"))
    tid = table_id(page)
    response = httpx.get(
        f"{base}/api/tables/{tid}/state", headers={"X-Seat-Token": tokens[tid]["token"]}
    )
    state: dict[str, Any] = response.json()
    return state


def in_viewport(page: Page, selector: str) -> bool:
    result: bool = page.locator(selector).evaluate_all(
        """nodes => nodes.length > 0 && nodes.every(n => {
            const r = n.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
        })"""
    )
    return result


def moves_of_deal(page: Page, deal: int) -> list[str]:
    items: list[str] = page.locator(f'.log-deal[data-deal="{deal}"] .moves li').all_inner_texts()
    return items


def test_moves_list_is_the_deals_record_and_survives_reload(
    browser: Browser, base_url: str
) -> None:
    page = open_page(browser, base_url)
    start(page, seed=7)  # a deal where the person gets a turn
    # Focus is on the hand right after Deal: the cards are one keypress away.
    expect(page.locator(".hand")).to_be_focused()
    for _ in range(2):
        page.wait_for_selector("#stock:not([disabled])", timeout=20000)
        draw_from_stock(page)
        page.locator(".hand .card").last.click()
        page.click("#btn-discard")
        # The bot answers; wait until it is our turn again (or the deal ended).
        page.wait_for_selector("#stock:not([disabled]), #showdown, #match-end", timeout=20000)
        if page.locator("#showdown, #match-end").count():
            break
    state = seat_state(page, base_url)
    history = (
        state["observation"]["history"]
        if not state["deal_histories"]
        else state["deal_histories"][0]
    )
    shown = moves_of_deal(page, 1)
    assert len(shown) == len(history) >= 4
    for text, (seat, action) in zip(shown, history, strict=True):
        assert text.startswith("You " if seat == state["seat"] else "Bot 1 "), (text, action)
    assert sum(1 for text in shown if text.startswith("You discarded")) >= 1
    assert sum(1 for text in shown if text.startswith("You drew from the stock")) >= 1
    # Numbered from 1 within the deal, under its own heading.
    expect(page.locator('.log-deal[data-deal="1"] h3')).to_have_text("Deal 1")
    expect(page.locator("#moves")).to_have_attribute("role", "log")
    page.reload()
    page.wait_for_selector(".log-deal")
    assert moves_of_deal(page, 1) == shown
    # Russian: "Вы" with the verb agreeing, no "(а)" anywhere.
    page.click("#lang-switch")
    expect(page.locator("#moves-title")).to_have_text("Ходы")
    russian = moves_of_deal(page, 1)
    assert any(text.startswith("Вы взяли из колоды") for text in russian), russian
    assert "(а)" not in page.locator("body").inner_text()
    assert not errors_of(page)
    page.context.close()


def uncovered(page: Page, selector: str) -> bool:
    """The element is what a finger on its middle touches (no sticky panel over it).

    Cards in flight (the bots' draws gliding from the stock) are waited out
    first: they cross the stock for a moment by design, a panel would stay.
    """
    page.wait_for_function("!document.querySelector('.flyer')")
    result: bool = page.locator(selector).evaluate(
        """node => {
            const r = node.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !!top && node.contains(top);
        }"""
    )
    return result


@pytest.mark.parametrize(
    ("width", "height", "lang"), [(360, 740, "en"), (390, 844, "en"), (360, 740, "ru")]
)
def test_phone_turn_keeps_hand_and_buttons_in_view(
    browser: Browser, base_url: str, width: int, height: int, lang: str
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    page = context.new_page()
    page.goto(base_url + "/")
    start(page, bots=2, seed=7)  # a chosen deal: our first turn comes before any knock
    # The turn starts with a draw: the stock and the pile are in view, not under the hand.
    assert in_viewport(page, "#stock") and uncovered(page, "#stock")
    assert uncovered(page, "#discard-pile")
    draw_from_stock(page)
    assert in_viewport(page, ".hand .card")
    assert in_viewport(page, ".actions .action")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"table-turn-{width}-{lang}")
    context.close()


def test_closed_tab_offers_continue_and_play_again_in_view(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(base_url + "/")
    start(page, bots=1, length="one", seed=7)
    tid = table_id(page)
    page.close()  # the tab is closed mid-game
    page = context.new_page()
    page.goto(base_url + "/")
    button = page.locator("#continue-game")
    expect(button).to_have_text("Continue")
    assert in_viewport(page, "#continue-game")
    shot(page, "lobby-continue-360")
    button.click()
    expect(page).to_have_url(f"{base_url}/#/table/{tid}")
    # Knock at once (Knock Rummy allows any deadwood): a one-deal match ends.
    knock_to_match_end(page)
    expect(page.locator("#btn-again")).to_have_text("Play again")
    page.evaluate("scrollTo(0, 0)")
    assert in_viewport(page, "#btn-again")
    shot(page, "match-end-360")
    # A finished game is no longer offered.
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_visible()
    expect(page.locator("#continue-game")).to_have_count(0)
    context.close()


def test_invalid_meld_is_explained_without_a_request(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    start_rummy_with_four_card_meld(page)
    rules = find_rules("rummy")
    trio = invalid_trio(page, rules)
    for card in trio:
        page.click(f"#hand-card-{card}")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.click("#btn-meld")
    expect(page.locator("#status-line")).to_have_text(explain_meld(" ".join(trio), rules) or "")
    page.wait_for_timeout(300)
    assert not [url for url in requests if "/api/" in url]
    page.context.close()


def test_disabled_knock_looks_disabled(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    # A chosen deal where the person plays first: with instant bots, one that
    # knocks at once would redraw the table under the check.
    start(page, seed=7)
    # The lobby left the bot speed alone: the server's --bot-delay 0 applies.
    expect(page.locator("#table-speed")).to_have_value("instant")
    # Knock is offered once the card is drawn (only the actions of the moment are shown).
    draw_from_stock(page)
    knock = page.locator("#btn-knock")
    expect(knock).to_be_disabled()
    style = knock.evaluate(
        "b => { const s = getComputedStyle(b); return [s.borderTopStyle, s.color]; }"
    )
    assert style[0] == "dashed"
    assert style[1] != "rgb(179, 38, 30)"  # not the live red of Knock
    page.context.close()


def test_hint_is_off_by_default_and_names_a_legal_move(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    start(page, seed=7)
    expect(page.locator("#btn-hint")).to_have_count(0)
    page.check("#hints-toggle")
    page.click("#btn-hint")
    status = page.locator("#status-line")
    expect(status).to_contain_text("Hint:")
    state = seat_state(page, base_url)
    text = status.inner_text()
    assert "draw from the stock" in text or "take " in text, text
    assert set(state["legal_actions"]) >= {"draw stock"}
    # After the draw the hint names a legal discard or knock, and selects its card.
    draw_from_stock(page)
    page.click("#btn-hint")
    expect(status).to_contain_text("Hint:")
    selected = page.locator('.hand .card[aria-selected="true"]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    legal = seat_state(page, base_url)["legal_actions"]
    assert len(selected) == 1
    assert f"discard {selected[0]}" in legal or f"knock {selected[0]}" in legal
    # The choice is remembered per browser.
    page.reload()
    expect(page.locator("#hints-toggle")).to_be_checked()
    assert page.evaluate("JSON.parse(localStorage.getItem('pyrummy.hints'))")[table_id(page)] == 2
    assert not errors_of(page)
    page.context.close()


def test_statistics_count_a_finished_match_and_sound_persists(
    browser: Browser, base_url: str
) -> None:
    page = open_page(browser, base_url)
    # Sound: off by default, the choice kept across reloads.
    sound = page.locator("#sound-toggle")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#sound-toggle")).to_have_text("Sound: on")
    page.goto(base_url + "/#/stats")
    expect(page.locator("#stats-played")).to_have_text("0")
    page.goto(base_url + "/")
    start(page, bots=1, length="one", seed=7)
    knock_to_match_end(page)
    tid = table_id(page)
    page.click("nav >> text=Statistics")
    expect(page.locator("h1")).to_have_text("Your statistics")
    expect(page.locator("#stats-played")).to_have_text("1")
    expect(page.locator(".stats-chart .bar")).to_have_count(1)
    expect(page.locator(f'#my-games a[href="#/replay/{tid}"]')).to_have_count(1)
    shot(page, "stats-1280")
    # History shows my games first, with "You" in them.
    page.goto(base_url + "/#/history")
    expect(page.locator("#my-games")).to_be_visible()
    expect(page.locator("#my-games tbody tr")).to_have_count(1)
    shot(page, "history-1280")
    page.click("#lang-switch")
    expect(page.locator("h1")).to_have_text("Сыгранные партии")
    # On a phone, in either language, History's tables fit: no column runs off to the right.
    page.set_viewport_size({"width": 360, "height": 740})
    for language in ("Сыгранные партии", "Finished matches"):
        expect(page.locator("h1")).to_have_text(language)
        expect(page.locator("#my-games tbody tr")).to_have_count(1)
        overflowing: list[int] = page.locator(".ledger-wrap").evaluate_all(
            "ws => ws.map(w => w.scrollWidth - w.clientWidth).filter(d => d > 0)"
        )
        assert overflowing == []
        shot(page, f"history-360-{'ru' if language.startswith('С') else 'en'}")
        if language.startswith("С"):
            # On a phone the language is in the header's menu.
            page.click("#menu-button")
            page.click("#lang-switch")
    assert not errors_of(page)
    page.context.close()


def cards_at_rest(page: Page) -> None:
    """Wait until no card is gliding (a person grabs a card where they see it)."""
    for _ in range(100):
        if not page.evaluate("document.getAnimations().filter(a => a.id === 'glide').length"):
            return
        page.wait_for_timeout(20)
    raise AssertionError("cards kept moving")


def box_of(page: Page, selector: str) -> FloatRect:
    """Where the element is on the screen; asked again if the table was being
    drawn anew (a state arriving) just as it was asked."""
    for _ in range(50):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(20)
    raise AssertionError(f"{selector} is not on the screen")


def drag(page: Page, source: str, target: str, right: bool = True) -> None:
    """Drag with the mouse as a person does: press, move in steps, release."""
    cards_at_rest(page)
    start_box = box_of(page, source)
    end_box = box_of(page, target)
    page.mouse.move(start_box["x"] + 10, start_box["y"] + 20)
    page.mouse.down()
    x = end_box["x"] + end_box["width"] * (0.8 if right else 0.2)
    page.mouse.move(x, end_box["y"] + end_box["height"] / 2, steps=8)
    page.mouse.up()


def test_a_drag_outlives_a_new_state_drawn_meanwhile(browser: Browser, base_url: str) -> None:
    """The table is drawn again while a card is held (here: the language
    changes, as a new state from the server would): the card still lands."""
    page = open_page(browser, base_url)
    start(page, seed=7)
    order = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    first, last = order[0], order[-1]
    cards_at_rest(page)
    start_box = box_of(page, f"#hand-card-{first}")
    end_box = box_of(page, f"#hand-card-{last}")
    page.mouse.move(start_box["x"] + 10, start_box["y"] + 20)
    page.mouse.down()
    page.mouse.move(start_box["x"] + 60, start_box["y"] + 20, steps=4)
    page.evaluate("import('/static/js/i18n.js').then((m) => m.setLang('ru'))")
    page.mouse.move(end_box["x"] + end_box["width"] * 0.8, end_box["y"] + 20, steps=4)
    page.mouse.up()
    # Drawn in the new language once the card landed, in its new place.
    expect(page.locator(".piles figcaption").first).to_contain_text("Колода")
    moved = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert moved == [*order[1:], first]
    assert not errors_of(page)


def test_drag_reorders_the_hand_and_discards(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    start(page, seed=7)
    order = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    first, last = order[0], order[-1]
    drag(page, f"#hand-card-{first}", f"#hand-card-{last}")
    moved = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert moved == [*order[1:], first]
    # A drag is not a click: nothing got selected.
    expect(page.locator('.hand .card[aria-selected="true"]')).to_have_count(0)
    # The new order survives the next state (a draw).
    draw_from_stock(page)
    after_draw = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert after_draw[: len(moved)] == moved
    # Dragging a card onto the discard pile discards it.
    drawn = after_draw[-1]
    drag(page, f"#hand-card-{drawn}", "#discard-pile")
    expect(page.locator(f"#hand-card-{drawn}")).to_have_count(0)
    state = seat_state(page, base_url)
    assert [state["seat"], f"discard {drawn}"] in state["observation"]["history"]
    assert not errors_of(page)
    page.context.close()


@pytest.mark.slow
def test_rummy_deal_nobody_won_says_why(browser: Browser, base_url: str) -> None:
    """Rummy against a random bot, drawing and throwing back the drawn card
    every turn: with seed 5 nobody goes out, the discard pile is turned over
    as the new stock (the page says so), and the stock runs out again."""
    page = open_page(browser, base_url)
    page.click("label[for=game-rummy]")
    page.select_option("#bot-count", "1")
    page.select_option("#bot-0", "random")
    page.fill("#seed", "5")
    page.click("#deal-button")
    saw_recycling = False
    for _ in range(120):
        page.wait_for_selector("#stock:not([disabled]), #btn-decline, #showdown", timeout=20000)
        if page.locator("#showdown").count():
            break
        saw_recycling = saw_recycling or page.locator(".piles .recycled").count() > 0
        if page.locator("#btn-decline").count():
            page.click("#btn-decline")
            continue
        page.click("#stock")
        drawn = page.locator(".hand .card.drawn")
        expect(drawn).to_have_count(1)
        drawn.click()
        page.click("#btn-discard")
        # A card that fits a table meld asks first ("discard anyway?").
        page.wait_for_selector("dialog[open], .hand:not(:has(.card.drawn)), #showdown")
        if page.locator("dialog[open]").count():
            page.locator("dialog[open] .danger").click()
    showdown = page.locator("#showdown")
    expect(showdown).to_be_visible()
    expect(showdown.locator(".end-reason")).to_contain_text("Nobody went out")
    assert saw_recycling
    shot(page, "showdown-rummy-exhausted-1280")
    assert not errors_of(page)
    page.context.close()
