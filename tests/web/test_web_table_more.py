"""More of the table in Debian's chromium (issue 11): card movement that never
waits and stops under prefers-reduced-motion, the landscape phone, touch
drags (onto a meld, within the hand), the meld chooser for one real card and
two jokers (Rotham), and the number of deals for pay per point."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from pyrummy.core.match import new_match
from pyrummy.core.rules import find_rules
from pyrummy.server.tables import TABLE_SHUFFLE
from test_web_player import cards_at_rest, drag, in_viewport, seat_state
from web_helpers import (
    base_url,
    browser,
    draw_from_stock,
    errors_of,
    keep_errors,
    shot,
    start,
    start_rummy_with_four_card_meld,
)

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": 1280, "height": 800})
    yield made
    made.close()


# Every card animation the page starts, logged (a glide lasts a quarter of a
# second: a busy test machine may look later than that).
LOG_GLIDES = """
const animate = Element.prototype.animate;
window.glides = [];
Element.prototype.animate = function (...args) {
  if (this.classList.contains("card")) window.glides.push(this.dataset.card || "back");
  return animate.apply(this, args);
};
"""


def new_page(context: BrowserContext, base: str) -> Page:
    page = keep_errors(context.new_page())
    page.add_init_script(LOG_GLIDES)
    page.goto(base + "/")
    return page


def moved_cards(page: Page) -> list[str]:
    """The cards the page has set moving since the last call."""
    found: list[str] = page.evaluate("window.glides.splice(0)")
    return found


def test_cards_glide_without_delaying_the_next_click(
    context: BrowserContext, base_url: str
) -> None:
    page = new_page(context, base_url)
    # Bots at normal speed: the discard is on the pile before the bot answers.
    page.select_option("#bot-speed", "normal")
    start(page, seed=7)
    before = set(page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    moved_cards(page)
    page.click("#stock")
    drawn = page.locator(".hand .card.drawn")
    expect(drawn).to_have_count(1)
    card = drawn.get_attribute("data-card")
    assert card and card not in before
    # The drawn card travels from the stock into the hand...
    assert card in moved_cards(page)
    # ...while the page already takes the next move: select it and discard at once.
    drawn.click()
    page.click("#btn-discard")
    # The discarded card travels from the hand onto the pile.
    expect(page.locator(f".discard-stack .card[data-card='{card}']")).to_have_count(1)
    assert card in moved_cards(page)
    state = seat_state(page, base_url)
    assert [state["seat"], f"discard {card}"] in state["observation"]["history"]
    # The bot's draw travels to the bot's box: face down from the stock, or
    # the pile's card face up; then its discard from the bot's seat onto the pile.
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    history = seat_state(page, base_url)["observation"]["history"]
    (drawer, draw), (seat, action) = history[-2:]
    assert drawer == seat != state["seat"] and action.startswith("discard ")
    moved = moved_cards(page)
    assert (card if draw == "draw discard" else "back") in moved
    assert draw in ("draw discard", "draw stock")
    assert action.split()[1] in moved
    assert not errors_of(page)


def test_nothing_moves_under_reduced_motion(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = new_page(context, base_url)
    start(page, seed=7)
    page.click("#stock")
    expect(page.locator(".hand .card.drawn")).to_have_count(1)
    page.locator(".hand .card.drawn").click()
    page.click("#btn-discard")
    expect(page.locator(".hand .card.drawn")).to_have_count(0)
    # The bots' turns too (their draws and discards): nothing travels.
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    history = seat_state(page, base_url)["observation"]["history"]
    assert history[-1][0] != seat_state(page, base_url)["seat"]
    assert moved_cards(page) == []
    assert page.locator(".card.flyer").count() == 0
    assert page.evaluate("document.getAnimations().length") == 0
    context.close()


@pytest.mark.parametrize(("width", "height"), [(740, 360), (844, 390)])
def test_landscape_phone_keeps_hand_and_buttons_in_view(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = new_page(context, base_url)
    start(page, bots=2, seed=7)
    draw_from_stock(page)
    assert in_viewport(page, ".hand .card")
    assert in_viewport(page, ".actions .action")
    assert in_viewport(page, "#stock")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The hand panel (the action buttons with it) covers no opponent's box.
    overlaps: list[str] = page.evaluate(
        """() => {
            const panel = document.querySelector(".me").getBoundingClientRect();
            return [...document.querySelectorAll(".opponent")].filter(box => {
                const r = box.getBoundingClientRect();
                return r.left < panel.right && panel.left < r.right
                    && r.top < panel.bottom && panel.top < r.bottom;
            }).map(box => box.dataset.seat);
        }"""
    )
    assert overlaps == []
    shot(page, f"table-turn-{width}x{height}")
    context.close()


def touch_drag(session: CDPSession, page: Page, source: str, target: str) -> None:
    """A finger on the card, moved in steps onto the target, lifted (real touch
    events through the DevTools protocol, as a phone's screen sends them)."""
    cards_at_rest(page)
    start_box = page.locator(source).bounding_box()
    end_box = page.locator(target).bounding_box()
    assert start_box and end_box
    # A hand card is held by its index: the strip of it that the next card leaves in view.
    x0, y0 = start_box["x"] + 8, start_box["y"] + start_box["height"] / 2
    x1, y1 = end_box["x"] + end_box["width"] * 0.75, end_box["y"] + end_box["height"] / 2

    def touch(kind: str, x: float, y: float) -> None:
        points: list[dict[str, Any]] = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x0, y0)
    for step in range(1, 9):
        touch("touchMove", x0 + (x1 - x0) * step / 8, y0 + (y1 - y0) * step / 8)
    touch("touchEnd", x1, y1)


def test_touch_drags_onto_a_meld_and_within_the_hand(browser: Browser, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = new_page(context, base_url)
    session = context.new_cdp_session(page)
    four = start_rummy_with_four_card_meld(page, tap=True)
    for card in four[:3]:
        page.tap(f"#hand-card-{card}", position={"x": 8, "y": 30})
    moved_cards(page)
    page.tap("#btn-meld")
    meld = page.locator('.meld[data-meld="0"]')
    expect(meld.locator(".card")).to_have_count(3)
    # The melded cards travel from the hand to the table.
    assert set(four[:3]) <= set(moved_cards(page))
    # A finger drags the fourth card onto the meld on the table: it is laid off.
    touch_drag(session, page, f"#hand-card-{four[3]}", '.meld[data-meld="0"]')
    expect(meld.locator(".card")).to_have_count(4)
    assert four[3] in moved_cards(page)
    state = seat_state(page, base_url)
    assert [state["seat"], f"layoff {four[3]} 0"] in state["observation"]["history"]
    # And within the hand, the first card dragged past the last one goes to the end.
    order = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    touch_drag(session, page, f"#hand-card-{order[0]}", f"#hand-card-{order[-1]}")
    moved = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert moved == [*order[1:], order[0]]
    expect(page.locator('.hand .card[aria-selected="true"]')).to_have_count(0)
    assert not errors_of(page)
    context.close()


def test_mouse_drags_a_card_onto_a_meld_to_lay_it_off(
    context: BrowserContext, base_url: str
) -> None:
    page = new_page(context, base_url)
    four = start_rummy_with_four_card_meld(page)
    for card in four[:3]:
        page.click(f"#hand-card-{card}")
    page.click("#btn-meld")
    meld = page.locator('.meld[data-meld="0"]')
    expect(meld.locator(".card")).to_have_count(3)
    # The fourth card, dragged with the mouse onto the meld (no button): laid off.
    drag(page, f"#hand-card-{four[3]}", '.meld[data-meld="0"]')
    expect(meld.locator(".card")).to_have_count(4)
    expect(page.locator(f"#hand-card-{four[3]}")).to_have_count(0)
    state = seat_state(page, base_url)
    assert [state["seat"], f"layoff {four[3]} 0"] in state["observation"]["history"]
    # A card dropped where nothing takes it (a bot's box) stays in the hand.
    kept = page.locator(".hand .card").first.get_attribute("data-card")
    drag(page, f"#hand-card-{kept}", ".opponent")
    expect(page.locator(f"#hand-card-{kept}")).to_have_count(1)
    assert seat_state(page, base_url)["observation"]["history"] == state["observation"]["history"]
    assert not errors_of(page)


def rotham_seed_with_one_card_and_two_jokers() -> tuple[int, str]:
    """A seed whose first Rotham deal lets the person (who plays first) meld
    one real card with both jokers once they draw: as a set or as runs."""
    rules = find_rules("rotham")
    for seed in range(2000):
        # Dealt as the server's tables deal a seed.
        deal = new_match(rules, players=2, seed=seed, shuffle=TABLE_SHUFFLE).deal
        if deal.current_seat != 0:
            continue
        draw = next((a for a in deal.legal_actions() if str(a) == "draw stock"), None)
        if draw is not None:
            deal.apply(draw)  # the deal changes in place
        actions = {str(a) for a in deal.legal_actions()}
        for action in sorted(actions):
            words = action.split()
            if words[:2] == ["meld", "run"] and words[2:] == [words[2], "X1", "X2"]:
                real = words[2]
                if f"meld {real} X1 X2" in actions and f"meld run X1 X2 {real}" in actions:
                    return seed, real
    raise AssertionError("no seed found")


def test_rotham_names_the_meld_of_one_card_and_two_jokers(
    context: BrowserContext, base_url: str
) -> None:
    seed, real = rotham_seed_with_one_card_and_two_jokers()
    page = new_page(context, base_url)
    page.click("summary")  # Rotham is among "More variants"
    page.click("label[for=game-rotham]")
    page.select_option("#bot-count", "1")
    page.fill("#seed", str(seed))
    page.click("#deal-button")
    page.wait_for_selector("#stock:not([disabled]), .hand .card", timeout=20000)
    if page.locator("#stock:not([disabled])").count():
        draw_from_stock(page)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for card in (real, "X1", "X2"):
        page.click(f"#hand-card-{card}")
    page.click("#btn-meld")
    dialog = page.locator("dialog.meld-choice[open]")
    expect(dialog).to_be_visible()
    options = dialog.locator(".meld-options button")
    # The set and each run the jokers can make, in words; nothing sent yet.
    expect(options).to_have_count(4)
    expect(options.filter(has_text="Set:")).to_have_count(1)
    expect(options.filter(has_text="Run:")).to_have_count(3)
    assert not [url for url in requests if "/actions" in url]
    expect(options.first).to_be_focused()
    shot(page, "table-rotham-meld-choice-1280")
    dialog.locator(f'button[data-action="meld run {real} X1 X2"]').click()
    expect(page.locator('.meld[data-meld="0"] .card')).to_have_count(3)
    state = seat_state(page, base_url)
    assert [state["seat"], f"meld run {real} X1 X2"] in state["observation"]["history"]
    assert not errors_of(page)


def test_pay_per_point_chooses_the_number_of_deals(context: BrowserContext, base_url: str) -> None:
    page = new_page(context, base_url)
    page.click("summary")
    page.click("label[for=game-basic]")
    page.select_option("#opt-scoring", "pay_per_point")
    expect(page.locator("#opt-scoring")).to_be_focused()
    length = page.locator("#match-length")
    expect(length.locator("option")).to_have_count(9)
    page.select_option("#bot-count", "1")
    page.select_option("#match-length", "deals-2")
    page.click("#deal-button")
    page.wait_for_selector(".table-head", timeout=20000)
    expect(page.locator(".table-head h1")).to_contain_text("Deal 1 of 2")
    assert not errors_of(page)
