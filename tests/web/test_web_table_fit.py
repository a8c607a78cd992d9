"""The table fits one screen: whole deals of Knock Rummy, Rummy (three bots,
melds on the table) and Gin (by the standard rules, whose first up-card is
offered first, and by the source's) played through the page at phone and desktop
sizes, portrait and landscape, in English and Russian, by mouse, touch and
keyboard. After every move of the person the page must not scroll, every
hand card, every enabled action and every meld on the table must lie inside
the viewport, no button's text may overflow it, and a phone shows at most
four action buttons. The deal's end and the match's end are checked too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Position, expect

from server_process import running_server
from web_helpers import SLOW, browser, errors_of, keep_errors, start

__all__ = ["browser"]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server as in web_helpers, without the per-client limit on new
    tables: this module starts a few dozen tables in a few minutes."""
    data_dir = tmp_path_factory.mktemp("fit-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    with running_server([*arguments, "--rate-limit", "off"], env={"DATABASE_URL": ""}) as server:
        yield server.url


SIZES = [(360, 640), (360, 740), (390, 844), (740, 360), (1280, 800)]

#: What must hold on the screen now; a list of what does not.
FITS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > vh) out.push(`the page scrolls: ${page.scrollHeight} > ${vh}`);
  if (page.scrollWidth > vw) out.push(`the page scrolls sideways: ${page.scrollWidth} > ${vw}`);
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      const name = el.id || el.dataset.card || el.dataset.meld || el.textContent.trim().slice(0, 24);
      out.push(`${what} ${name} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
  };
  document.querySelectorAll(".hand .card").forEach((el) => inside(el, "hand card"));
  document.querySelectorAll(".actions button:not([disabled]), #stock:not([disabled]), #discard-pile:not([disabled]), #btn-next, #btn-again")
    .forEach((el) => inside(el, "button"));
  document.querySelectorAll(".board .meld").forEach((el) => inside(el, "meld"));
  document.querySelectorAll("button:not(.pile):not(.meld)").forEach((b) => {
    if (b.offsetParent && b.scrollWidth > b.clientWidth + 1) out.push(`text overflows button ${b.id || b.textContent.trim()}`);
  });
  if (vw <= 740 && document.querySelectorAll(".actions button").length > 4) out.push("more than four action buttons");
  const small = [...document.querySelectorAll(".hand .idx-rank")].filter((el) => parseFloat(getComputedStyle(el).fontSize) < 14);
  if (small.length) out.push(`${small.length} hand card indices under 14 px`);
  return out;
}"""

STATE = "async () => (await fetch('/api/tables/' + location.hash.split('/')[2] + '/state')).json()"


def assert_fits(page: Page, moment: str) -> None:
    problems = page.evaluate(FITS)
    assert problems == [], f"{moment}: {problems}"


def my_turn(page: Page) -> bool:
    """Wait for the person's turn or the deal's end; True on the person's turn."""
    page.wait_for_selector(".me.playing, #showdown, #match-end", timeout=SLOW)
    return page.locator(".me.playing").count() == 1


def press(page: Page, selector: str, how: str) -> None:
    """Press a button or card by mouse, touch or keyboard (a card is chosen with the arrows and Enter)."""
    target = page.locator(selector)
    # A hand card is pressed where a finger sees it: its uncovered left strip, by its index.
    where: Position | None = {"x": 7, "y": 24} if selector.startswith("#hand-card-") else None
    if how == "touch":
        target.tap(position=where)
    elif how == "keyboard" and selector.startswith("#hand-card-"):
        card = selector.removeprefix("#hand-card-")
        order = page.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        page.locator(".hand").focus()
        page.keyboard.press("Home")
        for _ in range(order.index(card)):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    else:
        target.click(position=where)


KEY_OF = {
    "#stock": "s",
    "#btn-discard": "d",
    "#btn-knock": "k",
    "#btn-meld": "m",
    "#btn-layoff": "l",
}


def act(page: Page, selector: str, how: str) -> None:
    if how == "keyboard" and selector in KEY_OF:
        page.locator(".hand").focus()
        page.keyboard.press(KEY_OF[selector])
    else:
        press(page, selector, how)
    page.wait_for_timeout(120)
    dialog = page.locator("dialog[open]")
    if dialog.count():
        dialog.locator(".danger").click()


def play_turn(page: Page, game: str, how: str) -> None:
    """One turn of the person: draw, meld and lay off what the page offers, then knock or discard."""
    state: dict[str, Any] = page.evaluate(STATE)
    legal: list[str] = state["legal_actions"]
    if page.locator(".me.playing").count() == 0:
        return
    if "draw stock" in legal:
        act(page, "#stock", how)
    elif "draw discard" in legal:
        act(page, "#discard-pile", "mouse")
    elif "decline" in legal:
        act(page, "#btn-decline", "mouse")
    else:
        return
    page.wait_for_selector(".me.playing #btn-discard, #showdown, #match-end", timeout=SLOW)
    assert_fits(page, f"{game} after the draw")
    if page.locator("#showdown, #match-end").count():
        return
    state = page.evaluate(STATE)
    if game == "rummy":
        melds = [a for a in state["legal_actions"] if a.startswith("meld ")]
        if melds:
            for card in melds[0].split(" ")[1:]:
                if card != "run":
                    press(page, f"#hand-card-{card}", how if how != "keyboard" else "mouse")
            act(page, "#btn-meld", how)
            assert_fits(page, "rummy after a meld")
            state = page.evaluate(STATE)
        layoffs = [a for a in state["legal_actions"] if a.startswith("layoff ")]
        if layoffs:
            press(page, f"#hand-card-{layoffs[0].split(' ')[1]}", "mouse")
            assert_fits(page, "rummy with a lay-off target shown")
            act(page, "#btn-layoff", how)
            state = page.evaluate(STATE)
    if page.locator("#showdown, #match-end").count():
        return
    knocks: dict[str, int] = state.get("knock_deadwood") or {}
    # Knock Rummy knocks at once (any deadwood); Gin knocks as soon as it may.
    if knocks and (game == "knock" or min(knocks.values()) <= 10):
        card = min(knocks, key=lambda c: knocks[c])
        press(page, f"#hand-card-{card}", how)
        assert_fits(page, f"{game} with a card chosen")
        act(page, "#btn-knock", how)
        return
    discards = [a.split(" ")[1] for a in state["legal_actions"] if a.startswith("discard ")]
    if not discards:
        return
    card = discards[-1]
    if how == "touch":
        # A double tap discards.
        page.tap(f"#hand-card-{card}", position={"x": 7, "y": 24})
        page.tap(f"#hand-card-{card}", position={"x": 7, "y": 24})
        page.wait_for_timeout(300)
        if page.locator(f".me.playing #hand-card-{card}").count():
            # Two taps further apart than a double tap (a slow machine): the button instead.
            if page.locator(f"#hand-card-{card}.selected").count() == 0:
                press(page, f"#hand-card-{card}", how)
            act(page, "#btn-discard", how)
    else:
        press(page, f"#hand-card-{card}", how)
        assert_fits(page, f"{game} with a card chosen")
        act(page, "#btn-discard", how)


def play_deal(page: Page, game: str, how: str, shoot: Any = None) -> None:
    """Play the person's turns until the deal ends, checking the screen at each."""
    for turn in range(150):
        if not my_turn(page):
            break
        assert_fits(page, f"{game}, turn {turn}")
        if shoot and turn == 4:
            shoot("play")
        before = page.evaluate(STATE)["seq"]
        play_turn(page, game, how)
        page.wait_for_timeout(50)
        if page.locator(".me.playing").count() and page.evaluate(STATE)["seq"] == before:
            raise AssertionError(
                f"{game}: turn {turn} made no move: {page.evaluate(STATE)['legal_actions']}"
            )
    page.wait_for_selector("#showdown, #match-end", timeout=SLOW)
    page.wait_for_timeout(300)
    assert_fits(page, f"{game}: the deal's end")


CASES = [
    ("knock", 1, 360, 640, "en", "touch"),
    ("knock", 2, 740, 360, "ru", "keyboard"),
    ("knock", 1, 1280, 800, "ru", "mouse"),
    ("rummy", 3, 360, 640, "en", "touch"),
    ("rummy", 3, 360, 740, "ru", "mouse"),
    ("rummy", 3, 390, 844, "en", "touch"),
    ("rummy", 3, 740, 360, "en", "mouse"),
    ("rummy", 3, 1280, 800, "ru", "keyboard"),
    ("rummy", 3, 1920, 1080, "en", "mouse"),
    ("gin-standard", 1, 360, 740, "en", "touch"),
    ("gin-standard", 1, 390, 844, "ru", "mouse"),
    ("gin", 1, 740, 360, "ru", "touch"),
    ("gin-standard", 1, 1280, 800, "en", "keyboard"),
    ("gin", 1, 360, 640, "ru", "keyboard"),
]

#: The lobby's entry and Gin's rules of each preset the cases play.
LOBBY = {"gin": ("gin", "source"), "gin-standard": ("gin", "standard")}


@pytest.mark.parametrize(("game", "bots", "width", "height", "lang", "how"), CASES)
def test_a_whole_deal_fits_the_screen(
    browser: Browser,
    base_url: str,
    game: str,
    bots: int,
    width: int,
    height: int,
    lang: str,
    how: str,
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=lang,
        has_touch=how == "touch",
        is_mobile=how == "touch",
    )
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    entry, gin_rules = LOBBY.get(game, (game, None))
    start(
        page,
        game=entry,
        bots=bots,
        length="one" if game == "knock" else None,
        seed=7,
        ready=".table-view .board, #showdown, #match-end",
        gin_rules=gin_rules,
    )
    play_deal(page, game, how)
    if game == "knock":
        # A one-deal match ends with its screen: the winner, a summary, Play again in view.
        expect(page.locator("#match-end")).to_be_visible(timeout=SLOW)
        expect(page.locator("#match-end .headline")).not_to_be_empty()
        expect(page.locator("#summary-points")).not_to_be_empty()
        assert_fits(page, f"{game}: the match's end")
    else:
        # The deal's banner says what happened, with Next deal in view.
        expect(page.locator(".deal-banner .banner-outcome")).not_to_be_empty()
        expect(page.locator("#btn-next")).to_be_in_viewport()
    assert errors_of(page) == []
    context.close()


@pytest.mark.parametrize(("width", "height"), [(360, 640), (740, 360)])
def test_rummy_showdown_and_seats_fit(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    """A Rummy deal of three deals stops at its showdown: the banner's Next deal is in view, the melds are drawn."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    start(page, game="rummy", bots=3, seed=11, ready=".table-view .board, #showdown, #match-end")
    # Three compact seats: each no taller than a fifth of the screen.
    heights = page.locator(".opponent").evaluate_all(
        "os => os.map(o => o.getBoundingClientRect().height)"
    )
    assert len(heights) == 3 and max(heights) <= height / 5
    play_deal(page, "rummy", "mouse")
    if page.locator("#showdown").count():
        expect(page.locator("#btn-next")).to_be_in_viewport()
        expect(page.locator(".deal-banner .banner-outcome")).not_to_be_empty()
    assert errors_of(page) == []
    context.close()


def test_the_taken_up_card_is_named_in_the_moves(browser: Browser, base_url: str) -> None:
    """Gin's first choice is the up-card: whoever takes it, the Moves list names it."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = keep_errors(context.new_page())
    for seed in range(1, 9):
        page.goto(base_url + "/")
        start(
            page,
            game="gin",
            bots=1,
            seed=seed,
            ready=".table-view .board, #showdown, #match-end",
            gin_rules="standard",
        )
        page.wait_for_selector(".me.playing, #showdown, #match-end", timeout=SLOW)
        if page.locator(".me.playing #btn-decline").count():
            # Offered to the person: taken here.
            page.click("#discard-pile")
            expect(page.locator("#stock")).to_be_disabled()
        first = page.locator("#moves .log-deal").last.locator("li").first
        if first.count() and "discard pile" in first.inner_text():
            assert re.search("[♠♥♦♣]", first.inner_text()), first.inner_text()
            break
    else:
        raise AssertionError("no deal where the up-card was taken")
    assert errors_of(page) == []
    context.close()


#: The box of each element, for the seats' places.
BOXES = """(selectors) => selectors.map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, x: (r.left + r.right) / 2 };
})"""


@pytest.mark.parametrize(("width", "height"), [(740, 360), (1280, 800), (1920, 1080)])
def test_opponents_sit_around_the_table_on_wide_screens(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    """The next to play on your left, the one after across, the last on your
    right; each a compact seat inside the screen, none over your hand."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    start(page, game="rummy", bots=3, seed=7, ready=".table-view .board, #showdown, #match-end")
    me = page.evaluate(STATE)["seat"]
    order = [f".opponent[data-seat='{(me + step) % 4}']" for step in (1, 2, 3)]
    boxes = page.evaluate(BOXES, [*order, ".piles", ".table-melds", ".me"])
    left, across, right, piles, melds, hand = boxes
    assert left["right"] <= piles["left"] and right["left"] >= piles["right"]
    assert left["right"] <= melds["left"] and right["left"] >= melds["right"]
    assert left["x"] < across["x"] < right["x"]
    # Across the table: above the melds (and above the piles where the screen is tall enough).
    assert across["bottom"] <= melds["top"] + 1
    if height > 520:
        assert across["bottom"] <= piles["top"] + 1 and across["top"] < left["top"]
    for seat in (left, across, right):
        assert seat["bottom"] <= hand["top"] + 1
        assert seat["left"] >= 0 and seat["right"] <= width and seat["top"] >= 0
        assert seat["bottom"] - seat["top"] <= height / 4
    assert_fits(page, "seats around the table")
    assert errors_of(page) == []
    context.close()


def test_a_portrait_phone_keeps_the_seats_in_one_row(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    start(page, game="rummy", bots=3, seed=7, ready=".table-view .board, #showdown, #match-end")
    seats = page.evaluate(BOXES, [".opponent:nth-child(1)", ".piles"])
    tops = page.locator(".opponent").evaluate_all(
        "os => os.map(o => Math.round(o.getBoundingClientRect().top))"
    )
    assert len(tops) == 3 and len(set(tops)) == 1
    assert seats[0]["bottom"] <= seats[1]["top"]
    assert errors_of(page) == []
    context.close()
