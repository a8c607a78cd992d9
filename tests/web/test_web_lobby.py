"""The landing page is the game, in Debian's chromium (issue 29).

The Deal button in the first screen at every size and in both languages, a
first card in reach without scrolling, the header's menu on phones, "Your
games" (continue or abandon), the per-client cap's 429 opening that list,
Resign at the table, errors said next to their control in the page's
language and gone once the server is back, and the smaller promises (one
Russian name per game, "You" in a replay, no guided-deal offer after a
finished match).

Abandon and Resign (the last three tests) need the server's
``POST /api/tables/{id}/resign``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from server_process import running_server, start_server
from test_web_player import box_of, cards_at_rest
from web_helpers import (
    SLOW,
    axe_source,
    browser,
    draw_from_stock,
    errors_of,
    keep_errors,
    serious,
    shot,
    until_my_turn,
    wait_until_ready,
)

pytestmark = pytest.mark.browser
__all__ = ["axe_source", "browser"]  # the shared fixtures

STATIC = Path(__file__).resolve().parents[2] / "src" / "pyrummy" / "web" / "static"
#: The sizes a person plays at: phones upright and on their side, a laptop.
SIZES = [(360, 640), (360, 740), (390, 844), (740, 360), (1280, 800)]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """As the other browser tests' server, with room for the many unfinished
    tables this module leaves (the cap's own test has its own server)."""
    data_dir = tmp_path_factory.mktemp("lobby-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    arguments += ["--max-tables-per-client", "100"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


def device(browser: Browser, width: int, height: int, lang: str = "en") -> BrowserContext:
    """A new browser context as the device: a touch screen below laptop size."""
    phone = width < 1000
    return browser.new_context(
        viewport={"width": width, "height": height}, locale=lang, has_touch=phone, is_mobile=phone
    )


def landing(context: BrowserContext, base: str) -> Page:
    page = keep_errors(context.new_page())
    page.goto(base + "/")
    expect(page.locator("#deal-button")).to_be_enabled()
    return page


def box_in_view(page: Page, selector: str) -> bool:
    """The element lies wholly inside the viewport as it is now."""
    result: bool = page.locator(selector).evaluate(
        """n => { const r = n.getBoundingClientRect();
                  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""
    )
    return result


def top_of(page: Page, selector: str) -> float:
    """Where the element's top is in the viewport (px)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"]


def no_sideways_scroll(page: Page) -> bool:
    result: bool = page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    return result


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_deal_is_in_the_first_screen_at_every_size(
    browser: Browser, base_url: str, lang: str
) -> None:
    for width, height in SIZES:
        context = device(browser, width, height, lang)
        page = landing(context, base_url)
        where = f"{width}x{height} {lang}"
        assert box_in_view(page, "#deal-button"), where
        assert page.evaluate("scrollY") == 0, where
        # The game is named above it, Knock Rummy the first time.
        expect(page.locator("#play-title")).to_have_text(
            "Knock Rummy" if lang == "en" else "Нок-рамми"
        )
        # The guided deal is offered beside the button, not above it.
        expect(page.locator("#tutorial-start")).to_be_visible()
        assert top_of(page, "#tutorial-start") >= top_of(page, "#deal-button"), where
        assert box_in_view(page, "#options-button"), where
        assert no_sideways_scroll(page), where
        assert not errors_of(page), where
        context.close()
    # The narrowest phone in use: nothing runs off sideways either.
    context = device(browser, 320, 640, lang)
    page = landing(context, base_url)
    assert box_in_view(page, "#deal-button")
    assert no_sideways_scroll(page)
    context.close()


def drag_to_pile(page: Page, card: str) -> None:
    """One gesture: press on the card, move onto the discard pile, release."""
    cards_at_rest(page)
    start, end = box_of(page, card), box_of(page, "#discard-pile")
    page.mouse.move(start["x"] + 10, start["y"] + 20)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (740, 360), (1280, 800)])
def test_a_first_card_without_scrolling(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    """From a cold landing, with no scrolling: Deal (1) opens the table on the
    person's turn, the stock (2) gives the first card, and one drag (3) plays
    a card onto the discard pile."""
    context = device(browser, width, height)
    page = landing(context, base_url)
    page.evaluate(
        "window.scrolled = 0; addEventListener('scroll', () => { window.scrolled += 1; })"
    )
    phone = width < 1000
    if phone:
        page.tap("#deal-button")
    else:
        page.click("#deal-button")
    wait_until_ready(page, name=f"first-card-not-ready-{width}x{height}")
    if page.locator("#stock:not([disabled])").count():
        draw_from_stock(page, tap=phone)
        drawn = page.locator(".hand .card.drawn")
        expect(drawn).to_have_count(1)
        card = drawn.get_attribute("data-card")
        drag_to_pile(page, f"#hand-card-{card}")
        expect(page.locator(f"#hand-card-{card}")).to_have_count(0)
    assert page.evaluate("window.scrolled") == 0
    # The last game is remembered: the next landing offers it again.
    page.goto(base_url + "/")
    expect(page.locator("#play-title")).to_have_text("Knock Rummy")
    context.close()


def test_a_changed_game_is_the_one_offered_next(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = landing(context, base_url)
    page.click("#options-button")
    expect(page.locator("#game-knock")).to_be_focused()
    page.click("label[for=game-gin]")
    # Gin by the standard rules the first time (what players of other sites expect).
    expect(page.locator("#gin-rules-standard")).to_be_checked()
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    expect(page.locator("#play-summary")).to_contain_text("You against 1 bot (easy)")
    page.select_option("#match-length", "50")
    expect(page.locator("#play-summary")).to_contain_text("Play to 50 points")
    page.click("#deal-button")
    # The first up-card is offered before anybody draws from the stock.
    page.wait_for_selector(
        "#btn-decline, #stock:not([disabled]), #showdown, #match-end", timeout=SLOW
    )
    page.goto(base_url + "/")
    expect(page.locator("#play-title")).to_have_text("Gin Rummy (standard)")
    expect(page.locator("#play-summary")).to_contain_text("Play to 50 points")
    context.close()


def test_the_header_folds_into_a_menu_on_phones(browser: Browser, base_url: str) -> None:
    for width, height in [(360, 740), (740, 360)]:
        context = device(browser, width, height)
        page = landing(context, base_url)
        menu = page.locator("#menu-button")
        history = page.locator("#topbar nav a[href='#/history']")
        expect(menu).to_be_visible()
        expect(menu).to_have_attribute("aria-expanded", "false")
        expect(history).to_be_hidden()
        expect(page.locator("#lang-switch")).to_be_hidden()
        menu.tap()
        expect(menu).to_have_attribute("aria-expanded", "true")
        expect(history).to_be_visible()
        # A setting changed in the menu leaves it open, in the new language.
        page.tap("#lang-switch")
        expect(page.locator("#menu-button")).to_have_text(re.compile("Меню"))
        expect(page.locator("#lang-switch")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#lang-switch")).to_be_hidden()
        expect(page.locator("#menu-button")).to_be_focused()
        page.tap("#menu-button")
        page.tap("#topbar nav a[href='#/history']")
        expect(page.locator("h1")).to_have_text("Сыгранные партии")
        # The page moved on: the menu is closed again.
        expect(page.locator("#topbar nav a[href='#/history']")).to_be_hidden()
        assert no_sideways_scroll(page)
        context.close()
    # A laptop has room: no menu button, the links in the bar.
    context = device(browser, 1280, 800)
    page = landing(context, base_url)
    expect(page.locator("#menu-button")).to_be_hidden()
    expect(page.locator("#topbar nav a[href='#/history']")).to_be_visible()
    context.close()


def start_one(page: Page, seed: int = 7) -> str:
    """A one-deal Knock Rummy table against one bot, opened; its id."""
    page.click("#options-button")
    page.select_option("#bot-count", "1")
    page.select_option("#match-length", "one")
    page.fill("#seed", str(seed))
    page.click("#deal-chosen")
    wait_until_ready(page)
    address: str = page.evaluate("location.hash")
    return address.split("/")[-1]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_your_games_lists_every_unfinished_table(
    browser: Browser, base_url: str, axe_source: str, lang: str
) -> None:
    context = device(browser, 360, 740, lang)
    page = landing(context, base_url)
    expect(page.locator("#your-games")).to_be_hidden()
    first = start_one(page, seed=7)
    page.goto(base_url + "/")
    second = start_one(page, seed=8)
    page.goto(base_url + "/")
    rows = page.locator("#your-games-list li")
    expect(rows).to_have_count(2)
    # The newest first, its Continue in the first screen under the Deal button.
    expect(rows.first).to_have_attribute("id", f"your-game-{second}")
    expect(page.locator("#continue-game")).to_have_text(
        "Continue" if lang == "en" else "Продолжить"
    )
    assert box_in_view(page, "#deal-button")
    shot(page, f"lobby-your-games-360-{lang}")
    # The lobby with its list, its open menu and the Abandon dialog, for axe-core.
    found = {"lobby with your games": serious(page, axe_source)}
    page.tap("#menu-button")
    found["menu"] = serious(page, axe_source)
    page.keyboard.press("Escape")
    page.tap(f"#abandon-{first}")
    expect(page.locator("#resign-dialog")).to_be_visible()
    found["abandon dialog"] = serious(page, axe_source)
    page.keyboard.press("Escape")
    expect(page.locator("#resign-dialog")).to_have_count(0)
    expect(rows).to_have_count(2)
    assert {name: issues for name, issues in found.items() if issues} == {}
    page.click(f"#your-game-{first} a")
    expect(page).to_have_url(f"{base_url}/#/table/{first}")
    # A table this browser lost track of (its server forgot it) is dropped.
    page.evaluate(
        """() => { const all = JSON.parse(localStorage.getItem('pyrummy.tokens'));
                   all['nosuchtable'] = {token: 'x', saved: Date.now()};
                   localStorage.setItem('pyrummy.tokens', JSON.stringify(all)); }"""
    )
    page.goto(base_url + "/")
    expect(rows).to_have_count(2)
    assert "nosuchtable" not in json.loads(page.evaluate("localStorage.getItem('pyrummy.tokens')"))
    assert not errors_of(page)
    context.close()


@pytest.fixture(scope="module")
def capped_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that lets one client keep only two unfinished tables."""
    data_dir = tmp_path_factory.mktemp("capped-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--max-tables-per-client", "2"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


def test_the_cap_opens_your_games(browser: Browser, capped_url: str) -> None:
    context = device(browser, 390, 844)
    page = landing(context, capped_url)
    for _ in range(2):
        page.click("#deal-button")
        wait_until_ready(page)
        page.goto(capped_url + "/")
        expect(page.locator("#deal-button")).to_be_enabled()
    page.click("#deal-button")
    # No new table: the error under the button says what to do, and the list is open.
    error = page.locator("#deal-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("You have 2 unfinished games")
    expect(error).to_contain_text("abandon")
    expect(page.locator("#your-games")).to_be_visible()
    expect(page.locator("#your-games-list li")).to_have_count(2)
    expect(page.locator("#your-games-title")).to_be_focused()
    assert page.evaluate("location.hash") in ("", "#/")
    shot(page, "lobby-cap-390-en")
    assert not errors_of(page)
    # Another browser of the same address has none of those tables to list:
    # the error says where they are, in its language.
    other = device(browser, 1280, 800, "ru")
    elsewhere = landing(other, capped_url)
    elsewhere.click("#deal-button")
    expect(elsewhere.locator("#deal-error")).to_contain_text("в другом браузере")
    expect(elsewhere.locator("#your-games-list li")).to_have_count(0)
    assert not errors_of(elsewhere)
    other.close()
    context.close()


def test_errors_are_translated_and_retried(browser: Browser, base_url: str) -> None:
    """The lobby without its server: a sentence in Russian next to Deal (not
    the browser's English "Failed to fetch"), then by itself back to normal."""
    context = device(browser, 360, 740, "ru")
    page = keep_errors(context.new_page())
    page.route("**/api/presets", lambda route: route.abort())
    page.goto(base_url + "/")
    error = page.locator("#deal-error")
    expect(error).to_contain_text("Нет связи с сервером")
    assert "fetch" not in error.inner_text().lower()
    assert box_in_view(page, "#deal-error")
    expect(page.locator("#deal-button")).to_be_disabled()
    expect(page.locator("#lobby-retry")).to_be_visible()
    page.unroute("**/api/presets")
    expect(page.locator("#deal-button")).to_be_enabled(timeout=SLOW)
    expect(error).to_be_hidden()
    expect(page.locator("#lobby-retry")).to_be_hidden()
    # Deal while the server is away: said under the button, gone once it is back.
    page.route("**/api/presets", lambda route: route.abort())
    page.route("**/api/tables", lambda route: route.abort())
    page.tap("#deal-button")
    expect(error).to_contain_text("Не удалось раздать карты: Нет связи с сервером")
    expect(page.locator("#deal-button")).to_be_enabled()
    page.unroute("**/api/presets")
    page.unroute("**/api/tables")
    expect(error).to_be_hidden(timeout=SLOW)
    page.tap("#deal-button")
    wait_until_ready(page)
    assert not errors_of(page)
    context.close()


def test_a_move_while_the_server_is_down(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The server goes down mid-game and comes back on its address: the move
    made meanwhile is refused in the page's language, and the message goes
    once the connection is back."""
    data_dir = tmp_path_factory.mktemp("restart-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    server = start_server(arguments, env={"DATABASE_URL": ""})
    try:
        context = device(browser, 360, 740, "ru")
        page = landing(context, server.url)
        page.tap("#deal-button")
        until_my_turn(page, tap=True)
        server.kill()
        expect(page.locator(".connection")).to_be_visible(timeout=SLOW)
        page.tap("#stock")
        status = page.locator("#status-line")
        expect(status).to_contain_text("Нет связи с сервером")
        assert "fetch" not in status.inner_text().lower()
        server = start_server(arguments, env={"DATABASE_URL": ""}, port=server.port)
        expect(page.locator(".connection")).to_be_hidden(timeout=SLOW)
        expect(status).not_to_contain_text("Нет связи")
        # And the move can be made now.
        draw_from_stock(page, tap=True)
        assert not errors_of(page)
        context.close()
    finally:
        server.kill()


def test_no_guided_deal_offer_after_a_finished_match(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = landing(context, base_url)
    expect(page.locator("#tutorial-start")).to_be_visible()
    page.evaluate(
        """localStorage.setItem('pyrummy.myGames', JSON.stringify([{id: 'x', preset: 'knock',
           seat: 0, seats: [], finished: 1, started: 1, won: true, total: '5', totals: ['5', '-5'],
           winners: [0], deals: 1, hints: 0}]))"""
    )
    page.reload()
    expect(page.locator("#deal-button")).to_be_enabled()
    expect(page.locator("#tutorial-start")).to_have_count(0)
    expect(page.locator("#tutorial-again")).to_have_count(0)
    context.close()


def test_one_russian_name_per_game() -> None:
    """Knock Rummy is «Нок-рамми» everywhere (as in the rules and the
    seeds), never «Кнок-рамми»; Rotham Rummy is «Ротам-рамми», as in its seed."""
    texts = {p.name: p.read_text() for p in (STATIC / "js").glob("*.js")}
    for other in ("кнок", "ротхэм"):
        assert [name for name, text in texts.items() if re.search(other, text, re.IGNORECASE)] == []
    assert any("Нок-рамми" in text for text in texts.values())
    assert any("Ротам-рамми" in text for text in texts.values())


def test_a_replay_names_you_as_history_does(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = landing(context, base_url)
    table = start_one(page, seed=7)
    if page.locator("#match-end").count() == 0:
        draw_from_stock(page)
        page.locator(".hand .card").last.click()
        page.click("#btn-knock")
        page.wait_for_timeout(200)
        dialog = page.locator("dialog[open]")
        if dialog.count():
            dialog.locator(".danger").click()
    expect(page.locator("#match-end")).to_be_visible(timeout=SLOW)
    page.goto(f"{base_url}/#/replay/{table}")
    expect(page.locator(".replay-hand strong").first).to_have_text("You")
    page.goto(f"{base_url}/#/history")
    expect(page.locator("#my-games tbody tr")).to_have_count(1)
    context.close()


# -- leaving a game: these need the server's POST /api/tables/{id}/resign ----------


def test_abandon_in_your_games_is_a_resigned_loss(browser: Browser, base_url: str) -> None:
    context = device(browser, 360, 740)
    page = landing(context, base_url)
    table = start_one(page, seed=11)
    page.goto(base_url + "/")
    abandon = page.locator(f"#abandon-{table}")
    expect(abandon).to_be_visible()
    # Cancel keeps the game.
    abandon.tap()
    expect(page.locator("#resign-dialog")).to_be_visible()
    expect(page.locator("#resign-cancel")).to_be_focused()
    page.tap("#resign-cancel")
    expect(page.locator(f"#your-game-{table}")).to_have_count(1)
    abandon.tap()
    page.tap("#resign-confirm")
    expect(page.locator(f"#your-game-{table}")).to_have_count(0)
    expect(page.locator("#abandon-error-" + table)).to_have_count(0)
    # A loss in the statistics and in History.
    page.goto(base_url + "/#/stats")
    expect(page.locator("#stats-played")).to_have_text("1")
    expect(page.locator("#stats-won")).to_have_text("0")
    expect(page.locator("#my-games")).to_contain_text("resigned")
    # The server knows it is over for this seat too.
    page.goto(base_url + "/")
    expect(page.locator("#deal-button")).to_be_enabled()
    expect(page.locator(f"#your-game-{table}")).to_have_count(0)
    context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_resign_at_the_table(browser: Browser, base_url: str, width: int, height: int) -> None:
    context = device(browser, width, height)
    page = landing(context, base_url)
    table = start_one(page, seed=12)
    phone = width < 1000
    if phone:
        page.tap("#menu-button")
    resign = page.locator("#resign-button")
    expect(resign).to_be_visible()
    resign.click()
    expect(page.locator("#resign-dialog")).to_contain_text("loss")
    page.click("#resign-confirm")
    expect(page.locator("#header-note")).to_have_text("You resigned: the match counts as a loss.")
    expect(page.locator("#resign-button")).to_have_count(0)
    stats = json.loads(page.evaluate("localStorage.getItem('pyrummy.myGames')"))
    assert [(g["id"], g["won"], g.get("resigned")) for g in stats] == [(table, False, True)]
    page.goto(base_url + "/")
    expect(page.locator(f"#your-game-{table}")).to_have_count(0)
    assert not errors_of(page)
    context.close()


def test_resign_at_a_friends_table_leaves_the_seat_to_a_bot(
    browser: Browser, base_url: str
) -> None:
    """Boris gives up at a table of two people: a bot plays his seat on, the
    match goes on for Anna, and Boris's browser keeps it as a loss."""
    anna = device(browser, 1280, 800)
    anna_page = landing(anna, base_url)
    anna_page.click("#friends-start")
    anna_page.select_option("#friends-game", "knock")
    anna_page.click("#friends-remove-seat")  # two seats: Anna and a friend
    anna_page.fill("#friends-name", "Anna")
    anna_page.click("#friends-create")
    code = anna_page.locator("#room-code-shown").inner_text()
    boris = device(browser, 360, 740)
    boris_page = keep_errors(boris.new_page())
    boris_page.goto(f"{base_url}/join/{code}")
    boris_page.fill("#join-name", "Boris")
    boris_page.click("#join-button")
    anna_page.click("#room-start")
    for page in (anna_page, boris_page):
        page.wait_for_url("**/#/table/*", timeout=SLOW)
    table = boris_page.url.rsplit("/", 1)[1]
    boris_page.tap("#menu-button")
    boris_page.tap("#resign-button")
    expect(boris_page.locator("#resign-dialog")).to_contain_text("A bot takes your seat")
    boris_page.tap("#resign-confirm")
    expect(boris_page.locator("#header-note")).to_contain_text("You resigned")
    stats = json.loads(boris_page.evaluate("localStorage.getItem('pyrummy.myGames')"))
    assert [(g["id"], g["won"], g.get("resigned")) for g in stats] == [(table, False, True)]
    # For Anna the match goes on, and she can still resign herself.
    tokens = json.loads(anna_page.evaluate("localStorage.getItem('pyrummy.tokens')"))
    anna_state = httpx.get(
        f"{base_url}/api/tables/{table}/state", headers={"X-Seat-Token": tokens[table]["token"]}
    ).json()
    assert anna_state["match"]["over"] is False
    expect(anna_page.locator("#resign-button")).to_be_visible()
    boris_page.goto(base_url + "/")
    expect(boris_page.locator(f"#your-game-{table}")).to_have_count(0)
    assert not errors_of(boris_page)
    anna.close()
    boris.close()


def test_the_learned_bot_is_offered_where_it_plays(browser: Browser, base_url: str) -> None:
    context = device(browser, 1280, 800)
    page = landing(context, base_url)
    page.click("#options-button")
    page.select_option("#bot-count", "2")
    options = page.locator("#bot-0 option").evaluate_all("o => o.map(x => x.value)")
    assert "learned" not in options  # Knock Rummy for three: no weights for it
    page.select_option("#bot-count", "1")
    options = page.locator("#bot-0 option").evaluate_all("o => o.map(x => x.value)")
    assert "learned" in options
    page.select_option("#bot-0", "learned")
    page.select_option("#match-length", "one")
    page.click("#deal-chosen")
    wait_until_ready(page)
    table_id = page.evaluate("location.hash").split("/")[-1]
    seats = page.request.get(f"{base_url}/api/tables/{table_id}").json()["seats"]
    assert [seat.get("bot") for seat in seats if seat.get("kind") == "bot"] == ["learned"]
    if page.locator("#stock:not([disabled])").count():
        draw_from_stock(page)
        page.locator(".hand .card").last.dblclick()
        wait_until_ready(page)
    assert errors_of(page) == []
    context.close()
