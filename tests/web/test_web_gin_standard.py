"""Standard Gin through the page, in Debian's chromium: the lobby's choice of
Gin's rules (the standard ones or the source's, with the bonuses the server
serves) and the Oklahoma house rule, remembered; the first up-card's offer
(whose offer, Pass and Take) and a deal played on to its end; Oklahoma's
knock limit and spade note at the table; the Moves list naming passes and
taken up-cards. Screenshots at phone and laptop sizes in English and
Russian, each checked to fit one screen (no page scroll, the hand and the
buttons in view).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from pyrummy.core.cards import parse_card
from pyrummy.core.match import new_match
from pyrummy.core.rules import find_rules
from pyrummy.server.tables import TABLE_SHUFFLE
from server_process import running_server
from web_helpers import SLOW, browser, errors_of, keep_errors, shot

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the shared fixture

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SIZES = [(1280, 800), (390, 844), (360, 740), (740, 360)]

#: What must hold on the screen during play; a list of what does not.
FITS = """() => {
  const vw = innerWidth, vh = innerHeight, out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > vh) out.push(`the page scrolls: ${page.scrollHeight} > ${vh}`);
  if (page.scrollWidth > vw) out.push(`the page scrolls sideways: ${page.scrollWidth} > ${vw}`);
  const inside = (el, what) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;
    if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
      out.push(`${what} ${el.id || el.dataset.card || el.textContent.trim().slice(0, 24)}`);
    }
  };
  document.querySelectorAll(".hand .card").forEach((el) => inside(el, "hand card"));
  document.querySelectorAll(".actions button, #discard-pile:not([disabled]), #status-line, #oklahoma")
    .forEach((el) => inside(el, "shown"));
  // The turn's words (whose offer it is) keep room to be read where they are shown.
  const status = document.querySelector("#status-line");
  if (status && status.offsetParent && status.textContent.trim() && status.clientWidth < 150) {
    out.push(`the status line is squeezed to ${status.clientWidth}px`);
  }
  document.querySelectorAll("button:not(.pile)").forEach((b) => {
    if (b.offsetParent && b.scrollWidth > b.clientWidth + 1) out.push(`text overflows button ${b.id}`);
  });
  return out;
}"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server as in web_helpers, with room for the dozen tables this module starts."""
    data_dir = tmp_path_factory.mktemp("gin-standard-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    arguments += ["--rate-limit", "off", "--max-tables-per-client", "100"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


def pretty(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def offered_first_seed(up_card: str = "", preset: str = "gin-standard") -> tuple[int, str]:
    """A seed whose first standard gin deal offers the up-card to the person
    (seat 0: the bot deals), and that up-card; ``up_card`` a regular
    expression it must match (a spade of 2-9: ``[2-9]S``)."""
    rules = find_rules(preset)
    for seed in range(2000):
        deal = new_match(rules, players=2, seed=seed, shuffle=TABLE_SHUFFLE).deal
        up = str(deal.discard_pile[-1])
        if deal.dealer == 1 and re.fullmatch(up_card or "..", up):
            return seed, up
    raise AssertionError("no seed found")


def oklahoma_limit(card: str) -> int:
    """The knock limit Oklahoma takes from an up-card (the rules' own reading)."""
    return find_rules("gin", oklahoma=True).in_force(parse_card(card).index).knock_limit


def device(browser: Browser, width: int, height: int, lang: str = "en") -> BrowserContext:
    phone = width < 1000
    return browser.new_context(
        viewport={"width": width, "height": height}, locale=lang, has_touch=phone, is_mobile=phone
    )


def lobby(context: BrowserContext, base_url: str) -> Page:
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_enabled(timeout=SLOW)
    return page


def choose_gin(page: Page, *, standard: bool = True, oklahoma: bool = False) -> None:
    """Gin in the lobby's list, then its rules and the house rule."""
    page.click("#options-button")
    page.click("label[for=game-gin]")
    expect(page.locator("#gin-rules")).to_be_visible()
    page.click(f"label[for=gin-rules-{'standard' if standard else 'source'}]")
    box = page.locator("#opt-oklahoma")
    if box.is_checked() != oklahoma:
        box.click()


def deal_seeded(page: Page, seed: int) -> None:
    page.fill("#seed", str(seed))
    page.click("#deal-button")
    page.wait_for_selector("#btn-decline, #stock:not([disabled]), #showdown", timeout=SLOW)


def test_the_lobby_chooses_gin_rules_from_the_servers_facts(
    browser: Browser, base_url: str
) -> None:
    context = device(browser, 1280, 800)
    page = lobby(context, base_url)
    page.click("#options-button")
    page.click("label[for=game-gin]")
    # The standard rules the first time: what players of other sites expect.
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    expect(page.locator("#gin-rules-standard")).to_be_checked()
    # Gin's two rule sets are one entry of the list, not two.
    expect(page.locator("#game-gin-standard")).to_have_count(0)
    presets = {
        p["name"]: p for p in page.evaluate("fetch('/api/presets').then(r => r.json())")["presets"]
    }
    facts = presets["gin-standard"]["gin"]
    standard = page.locator("#gin-rules-standard-facts")
    for words in (
        "first up-card offered",
        f"gin {facts['gin_bonus']}",
        f"undercut {facts['undercut_bonus']}",
        f"big gin {facts['big_gin_bonus']}",
        f"game {facts['game_bonus']}",
        f"{facts['line_bonus']} per deal won",
        "shutout doubles",
    ):
        expect(standard).to_contain_text(words)
    source = page.locator("#gin-rules-source-facts")
    expect(source).to_contain_text(f"gin {presets['gin']['gin']['gin_bonus']}")
    expect(source).not_to_contain_text("big gin")
    page.click("label[for=gin-rules-source]")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy")
    page.click("label[for=gin-rules-standard]")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    page.click("#opt-oklahoma")
    expect(page.locator("#play-summary")).to_contain_text("Oklahoma")
    shot(page, "gin-standard-lobby-1280-en")
    seed, _ = offered_first_seed()
    deal_seeded(page, seed)
    table_id = page.evaluate("location.hash.split('/')[2]")
    info = page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
    assert info["preset"] == "gin-standard" and info["rules"]["gin"]["oklahoma"] is True
    # Remembered: the lobby offers standard gin with Oklahoma again.
    page.goto(base_url + "/")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    expect(page.locator("#play-summary")).to_contain_text("Oklahoma")
    page.click("#options-button")
    expect(page.locator("#gin-rules-standard")).to_be_checked()
    expect(page.locator("#opt-oklahoma")).to_be_checked()
    # Another game and back: Gin comes back with the rules chosen last.
    page.click("label[for=game-knock]")
    expect(page.locator("#gin-rules")).to_have_count(0)
    page.click("label[for=game-gin]")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    assert not errors_of(page)
    context.close()


def test_a_remembered_choice_of_the_source_rules_wins(browser: Browser, base_url: str) -> None:
    """Standard is only the first-time default: a person who dealt Gin by the
    source's rules gets them again, also after another game."""
    context = device(browser, 1280, 800)
    page = lobby(context, base_url)
    choose_gin(page, standard=False)
    page.click("#deal-button")
    page.wait_for_selector(".table-view .board, #showdown, #match-end", timeout=SLOW)
    table_id = page.evaluate("location.hash.split('/')[2]")
    info = page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
    assert info["preset"] == "gin" and info["rules"]["gin"]["up_card_offer"] is False
    page.goto(base_url + "/")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy")
    page.click("#options-button")
    expect(page.locator("#gin-rules-source")).to_be_checked()
    page.click("label[for=game-knock]")
    page.click("#deal-button")
    page.wait_for_selector(".table-view .board, #showdown, #match-end", timeout=SLOW)
    page.goto(base_url + "/")
    page.click("#options-button")
    page.click("label[for=game-gin]")
    expect(page.locator("#gin-rules-source")).to_be_checked()
    expect(page.locator("#play-title")).to_have_text("Gin Rummy")
    assert not errors_of(page)
    context.close()


def play_to_deal_end(page: Page) -> int:
    """Play the person's turns (draw from the stock, discard the card drawn)
    until the deal ends; the number of turns played."""
    for turns in range(40):
        page.wait_for_selector(".me.playing, #showdown, #match-end", timeout=SLOW)
        if page.locator("#showdown, #match-end").count():
            return turns
        if page.locator("#stock:not([disabled])").count():
            page.click("#stock")
            expect(page.locator("#stock")).to_be_disabled()
        drawn = page.locator(".hand .card.drawn")
        card = drawn.get_attribute("data-card") if drawn.count() else None
        if card is None:  # no draw of one's own this turn (a taken card cannot go back)
            card = page.locator(".hand .card:not(.taken-card)").last.get_attribute("data-card")
        page.click(f"#hand-card-{card}")
        page.click("#btn-discard")
        expect(page.locator(f"#hand-card-{card}")).to_have_count(0, timeout=SLOW)
        assert page.evaluate(FITS) == [], f"turn {turns + 1}"
    raise AssertionError("the deal did not end")


def test_the_offer_pass_then_play_to_the_deals_end(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = lobby(context, base_url)
    choose_gin(page, standard=True, oklahoma=False)
    seed, up = offered_first_seed()
    deal_seeded(page, seed)
    # The person is offered the up-card first: Take or Pass, no draw from the stock.
    status = page.locator("#status-line")
    expect(status).to_have_text(f"First up-card {pretty(up)}: take it or pass.")
    expect(page.locator("#btn-decline")).to_have_text("Pass")
    expect(page.locator("#btn-pile")).to_be_enabled()
    expect(page.locator("#stock")).to_be_disabled()
    expect(page.locator("#oklahoma")).to_have_count(0)
    # The keys' hint names X by the button's word too.
    expect(page.locator("#keys-hint")).to_contain_text("X pass")
    expect(page.locator("#keys-hint")).not_to_contain_text("decline")
    assert page.evaluate(FITS) == []
    page.click("#btn-decline")
    moves = page.locator("#moves")
    expect(moves).to_contain_text("You passed the up-card")
    # Then the bot: it takes the up-card (named in Moves) or passes, and then
    # the person may only draw from the stock.
    page.wait_for_selector(".me.playing, #showdown", timeout=SLOW)
    history = page.evaluate(
        "fetch('/api/tables/' + location.hash.split('/')[2] + '/state').then(r => r.json())"
        ".then(s => s.observation.history)"
    )
    if history[1][1] == "decline":
        expect(moves).to_contain_text("Bot 1 passed the up-card")
        expect(status).to_have_text("Both passed the up-card: draw from the stock.")
        expect(page.locator("#btn-pile")).to_be_disabled()
    else:
        expect(moves).to_contain_text(f"Bot 1 took {pretty(up)} from the discard pile")
    turns = play_to_deal_end(page)
    expect(page.locator("#showdown, #match-end")).to_be_visible()
    assert turns >= 1
    assert not errors_of(page)
    context.close()


def test_take_the_up_card_and_see_it_named(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = lobby(context, base_url)
    choose_gin(page, standard=True, oklahoma=False)
    seed, up = offered_first_seed()
    deal_seeded(page, seed)
    page.click("#btn-pile")
    # Taken: in the hand, marked, and it may not go straight back.
    expect(page.locator(f"#hand-card-{up}.taken-card")).to_be_visible()
    expect(page.locator("#moves")).to_contain_text(f"You took {pretty(up)} from the discard pile")
    page.click(f"#hand-card-{up}")
    expect(page.locator("#btn-discard")).to_be_disabled()
    other = page.locator(".hand .card:not(.taken-card)").last.get_attribute("data-card")
    page.click(f"#hand-card-{up}")
    page.click(f"#hand-card-{other}")
    page.click("#btn-discard")
    expect(page.locator(f"#hand-card-{other}")).to_have_count(0)
    # After a reload the Moves list still names the card.
    page.reload()
    expect(page.locator("#moves")).to_contain_text(
        f"You took {pretty(up)} from the discard pile", timeout=SLOW
    )
    assert not errors_of(page)
    context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_oklahoma_at_the_table_fits_every_screen(
    browser: Browser, base_url: str, width: int, height: int, lang: str
) -> None:
    context = device(browser, width, height, lang)
    page = lobby(context, base_url)
    choose_gin(page, standard=True, oklahoma=True)
    if width == 1280 or (width, height) == (360, 740):
        page.locator("#gin-rules").scroll_into_view_if_needed()
        shot(page, f"gin-standard-lobby-{width}-{lang}")
    seed, up = offered_first_seed("[2-9]S")
    deal_seeded(page, seed)
    limit = oklahoma_limit(up)
    note = page.locator("#oklahoma")
    expect(note).to_be_visible()
    if lang == "en":
        said = f"Oklahoma: knock at {limit} or less" if limit else "Oklahoma: ace up-card, gin only"
        expect(note).to_contain_text(said)
        expect(note).to_contain_text("spade up-card: the deal scores double")
        expect(page.locator("#btn-decline")).to_have_text("Pass")
    else:
        said = (
            f"Оклахома: стук при {limit} и меньше" if limit else "Оклахома: открыт туз, только джин"
        )
        expect(note).to_contain_text(said)
        expect(note).to_contain_text("открыта пика: очки сдачи вдвойне")
        expect(page.locator("#btn-decline")).to_have_text("Пас")
        if width == 1280:  # the keys' hint is shown beside a keyboard
            expect(page.locator("#keys-hint")).to_contain_text("X пас")
            expect(page.locator("#keys-hint")).not_to_contain_text("отказаться")
    page.wait_for_timeout(700)  # the deal's cards settle before the picture
    problems = page.evaluate(FITS)
    shot(page, f"gin-standard-offer-{width}x{height}-{lang}")
    assert problems == [], problems
    # Taking the up-card leaves the note and the hand in view.
    page.click("#btn-pile")
    expect(page.locator("#btn-discard")).to_be_visible()
    page.wait_for_timeout(700)
    problems = page.evaluate(FITS)
    shot(page, f"gin-standard-taken-{width}x{height}-{lang}")
    assert problems == [], problems
    assert not errors_of(page)
    context.close()


def test_an_ace_up_card_under_oklahoma_allows_gin_only(browser: Browser, base_url: str) -> None:
    context = device(browser, 390, 844)
    page = lobby(context, base_url)
    choose_gin(page, standard=False, oklahoma=True)
    seed, up = offered_first_seed("A[HDC]", preset="gin")
    page.fill("#seed", str(seed))
    page.click("#deal-button")
    # The source's rules offer no up-card: the person draws at once.
    page.wait_for_selector("#stock:not([disabled]), #showdown", timeout=SLOW)
    expect(page.locator(".discard-stack .card").last).to_have_attribute("data-card", up)
    expect(page.locator("#oklahoma")).to_have_text("Oklahoma: ace up-card, gin only")
    expect(page.locator("#btn-decline")).to_have_count(0)
    assert page.evaluate(FITS) == []
    assert not errors_of(page)
    context.close()
