"""Playing with friends in real browsers: one Playwright context per person.

Anna creates a private Knock Rummy table (Anna, a friend, a bot), Boris joins
by the link, Vera by the typed code (and leaves again; Anna seats a bot
instead), Dan types the code of the full table and watches. Anna and Boris
play a whole deal to the showdown, each in their own browser; neither page
ever holds the other's hidden cards (DOM and WebSocket frames), and Dan's
holds no hand at all. Boris closes his page: Anna sees him disconnected;
he comes back to his seat; he goes away for longer than the grace period and
a bot plays his seat until he returns.

The same flow runs against two server processes on one PostgreSQL database
(Anna's browser on one, Boris's and Dan's on the other) when a PostgreSQL
server is available (tests/db_fixtures.py).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from server_helpers import cards_in
from server_process import running_server
from web_helpers import axe_source, browser, serious

pytestmark = pytest.mark.browser
__all__ = ["axe_source", "browser"]  # the shared fixtures

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
# Short for the test, yet several poll intervals (1.5 s) long: on a loaded
# machine a page's poll can come seconds late, and a person whose page is open
# must never be taken for gone (a stand-in would then play their turn).
GRACE = 8
PRESENCE = 5.0
#: A turn timer a test may choose (seconds), besides the usual ones.
TURN = 6


@contextmanager
def serve(data_dir: Path, database_url: str = "") -> Iterator[str]:
    env = {
        "DATABASE_URL": database_url,
        "PYRUMMY_ROOM_GRACE_CHOICES": f"{GRACE},120",
        "PYRUMMY_ROOM_PRESENCE_TIMEOUT": str(PRESENCE),
        "PYRUMMY_ROOM_TURN_TIMERS": f"0,{TURN},30,60,120",
    }
    arguments = ["--bot-delay", "0", "--data-dir", str(data_dir)]
    data_dir.mkdir(parents=True, exist_ok=True)
    with running_server(arguments, env=env, log=data_dir / "server.log") as server:
        yield server.url


class Person:
    """One browser context (one person's device) and its open page."""

    def __init__(
        self,
        browser: Browser,
        url: str,
        name: str,
        width: int = 1280,
        locale: str = "en",
        height: int | None = None,
    ) -> None:
        self.name = name
        self.url = url
        if height is None:
            height = 800 if width > 500 else 740
        self.context: BrowserContext = browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
        )
        self.frames: list[Any] = []
        self.errors: list[str] = []
        self.page = self.open("/")

    def open(self, path: str) -> Page:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("websocket", self._watch)
        page.goto(self.url + path)
        self.page = page
        return page

    def _watch(self, socket: Any) -> None:
        def received(payload: str | bytes) -> None:
            self.frames.append(json.loads(payload))

        socket.on("framereceived", received)

    def token(self, table_id: str) -> str | None:
        tokens = self.page.evaluate(
            "() => JSON.parse(localStorage.getItem('pyrummy.tokens') || '{}')"
        )
        entry = tokens.get(table_id)
        return None if entry is None else str(entry["token"])

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def state(url: str, table_id: str, token: str | None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    response = httpx.get(f"{url}/api/tables/{table_id}/state", headers=headers)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def eventually(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def wait_turn_over(url: str, table_id: str, token: str | None, before: dict[str, Any]) -> None:
    """Wait until the turn that began at ``before`` is over: another seat to
    move, or the deal (or match) ended. A draw alone moves ``seq`` on while the
    discard is still on its way."""
    mover = before["observation"]["current_seat"]
    number = (before["last_deal"] or {}).get("number", 0)

    def over() -> bool:
        now = state(url, table_id, token)
        return (
            now["observation"]["current_seat"] != mover
            or (now["last_deal"] or {}).get("number", 0) != number
            or bool(now["awaiting_continue"])
            or bool(now["match"]["over"])
        )

    eventually(over)


def player_marks(page: Page, seat: int) -> str:
    return page.locator(f"#room-players li[data-seat='{seat}']").inner_text()


def box_marks(page: Page, seat: int) -> str:
    """The marks on the table's own box of that opponent ("" when none, or no box)."""
    marks = page.locator(f".table-view .opponent[data-seat='{seat}'] .seat-marks")
    return marks.inner_text() if marks.count() else ""


def box_mark_kinds(page: Page, seat: int) -> list[str]:
    marks = page.locator(f".table-view .opponent[data-seat='{seat}'] .seat-mark")
    return [str(marks.nth(i).get_attribute("data-mark")) for i in range(marks.count())]


def seconds_shown(page: Page) -> int:
    """The turn countdown's number of seconds on that page."""
    text = page.locator("#room-countdown").inner_text()
    return int("".join(ch for ch in text.split(":")[-1] if ch.isdigit()))


def has_box(page: Page, seat: int) -> bool:
    return page.locator(f".table-view .opponent[data-seat='{seat}']").count() == 1


def play_turn(person: Person, knock: bool) -> None:
    """Draw from the stock, then knock (if allowed and ``knock``) or discard the last card;
    offered the first up-card (standard gin), pass it.

    In Knock Rummy one may knock at any deadwood: a person who always could
    would end every deal on their first turn.
    """
    page = person.page
    page.wait_for_selector("#stock:not([disabled]), .me.playing #btn-decline", timeout=20000)
    if page.locator(".me.playing #btn-decline").count():
        page.click("#btn-decline")
        return
    page.click("#stock")
    expect(page.locator("#stock")).to_be_disabled()
    page.locator(".hand .card").last.click()
    if knock and page.locator("#btn-knock:not([disabled])").count():
        page.click("#btn-knock")
        dialog = page.locator("dialog[open]")
        if dialog.count():
            dialog.locator(".danger").click()
    else:
        page.click("#btn-discard")


def diagnosis(
    url_a: str, url_b: str, table_id: str, tokens: dict[int, str | None], before: dict[str, Any]
) -> str:
    """Why a person's page was not offered a move: the table and room as each process sees them."""
    lines = [f"expected seat {before['observation']['current_seat']} at seq {before['seq']}"]
    for url in (url_a, url_b):
        now = state(url, table_id, tokens[0])
        room = httpx.get(f"{url}/api/tables/{table_id}/room").json()
        lines.append(
            f"{url}: seq {now['seq']} current {now['observation']['current_seat']}"
            f" history {now['observation']['history'][-6:]}"
            f" seats {[(s.get('connected'), s.get('abandoned')) for s in room['seats']]}"
        )
    return "\n".join(lines)


def without_decks(value: Any) -> Any:
    """Drop the decks finished deals reveal (``fair.deck``): every card of a
    deal that is over, which says nothing of the hands of the deal now."""
    if isinstance(value, dict):
        return {k: without_decks(v) for k, v in value.items() if k != "deck"}
    if isinstance(value, list):
        return [without_decks(v) for v in value]
    return value


def no_secret_of(viewer: Person, other_token: str, url: str, table_id: str) -> None:
    """``viewer``'s page and frames hold none of the other person's hidden cards.

    Hidden: in the other's hand now and in nothing a spectator may see now
    (discards, melds, the moves so far): such a card was never public.
    """
    other = state(url, table_id, other_token)["observation"]["hand"]
    public = cards_in(without_decks(state(url, table_id, None)))
    secret = set(other) - public
    assert secret, "the other hand has hidden cards"
    for frame in viewer.frames:
        assert not cards_in(without_decks(frame)) & secret, (viewer.name, frame.get("type"))
    for card in secret:
        assert viewer.page.locator(f"[data-card='{card}']").count() == 0, (viewer.name, card)


def play_deal(
    people: dict[int, Person],
    tokens: dict[int, str | None],
    url_a: str,
    url_b: str,
    table_id: str,
    deal: int,
) -> int:
    """Play deal number ``deal`` to its end (the people alternating, the bot by
    itself), checking at each turn that the mover's page hides the other's
    hand; returns how many turns the people played."""
    turns = 0
    while True:
        now = state(url_a, table_id, tokens[0])
        if (now["last_deal"] or {}).get("number", 0) >= deal or now["match"]["over"]:
            return turns
        mover = now["observation"]["current_seat"]
        if mover in people:
            other = 1 - mover
            no_secret_of(people[mover], str(tokens[other]), url_a, table_id)
            expect(
                people[mover].page.locator(f"#room-players li[data-seat='{mover}']")
            ).to_contain_text("to play", timeout=15_000)  # the room is polled every 1.5 s
            try:
                play_turn(people[mover], knock=turns >= 6)
            except PlaywrightTimeout:
                raise AssertionError(diagnosis(url_a, url_b, table_id, tokens, now)) from None
            turns += 1
            wait_turn_over(url_a, table_id, tokens[0], now)
        else:
            time.sleep(0.1)
        assert turns < 200


def friends_flow(browser: Browser, url_a: str, url_b: str, tag: str) -> None:
    anna = Person(browser, url_a, "Anna")
    anna.page.click("#friends-start")
    expect(anna.page.locator("#friends-seat-1")).to_have_value("you")
    anna.page.select_option("#friends-seat-3", "open")
    anna.page.fill("#friends-name", "Anna")
    anna.page.select_option("#friends-grace", str(GRACE))
    anna.shot(f"friends-form-1280{tag}")
    anna.page.click("#friends-create")
    code = anna.page.locator("#room-code-shown").inner_text()
    assert len(code) == 6 and not set(code) & set("01OIL")
    link = anna.page.locator("#room-link").input_value()
    assert link.endswith(f"/join/{code}")
    # Boris opens the link (on his own server process in the cluster run).
    boris = Person(browser, url_b, "Boris")
    boris.page.goto(url_b + f"/join/{code}")
    boris.page.fill("#join-name", "Boris")
    boris.page.click("#join-button")
    expect(boris.page.locator("#room-seats")).to_contain_text("Boris")
    # Vera types the code in the lobby (lower case, with a dash), joins, then leaves.
    vera = Person(browser, url_b, "Vera", width=360)
    vera.page.click("#friends-start")
    expect(vera.page.locator("#friends-create")).to_be_visible()
    # Bots are named as on the table and in the records (tables.seat_name).
    expect(vera.page.locator("#friends-seat-3 option:checked")).to_have_text("Bot 1 (easy)")
    vera.shot(f"friends-form-360{tag}")
    vera.page.goto(url_b + "/")
    vera.page.fill("#room-code", f"{code[:3].lower()}-{code[3:].lower()}")
    vera.page.click("#room-code-join")
    vera.page.fill("#join-name", "<b>Vera</b>")
    vera.page.click("#join-button")
    expect(vera.page.locator("#join-name")).to_have_attribute("aria-invalid", "true")
    vera.page.fill("#join-name", "Vera")
    vera.page.click("#join-button")
    expect(anna.page.locator("#room-seats")).to_contain_text("Vera")
    expect(anna.page.locator("#room-start")).to_be_enabled()
    vera.shot(f"friends-waiting-360{tag}")
    vera.page.click("#room-leave")
    expect(anna.page.locator("#room-missing")).to_contain_text("3")
    expect(anna.page.locator("#room-start")).to_be_disabled()
    anna.page.select_option("#room-bot-level-3", "easy")
    anna.page.click("#room-seat-bot-3")
    expect(anna.page.locator("#room-start")).to_be_enabled()
    expect(anna.page.locator("#room-seats li").nth(2)).to_contain_text("Bot 1 (easy)")
    anna.shot(f"friends-waiting-1280{tag}")
    # Dan types the code of the full table: it says so and offers to watch.
    dan = Person(browser, url_b, "Dan")
    dan.page.evaluate("() => localStorage.setItem('pyrummy.name', JSON.stringify('Dan'))")
    dan.page.fill("#room-code", code)
    dan.page.click("#room-code-join")
    expect(dan.page.locator("body")).to_contain_text("This table is full")
    dan.page.click("#room-watch")
    expect(anna.page.locator("#room-watchers")).to_contain_text("Dan")
    anna.page.click("#room-start")
    for person in (anna, boris, dan):
        person.page.wait_for_url("**/#/table/*", timeout=20000)
    table_id = anna.page.url.rsplit("/", 1)[1]
    assert boris.page.url.endswith(table_id) and dan.page.url.endswith(table_id)
    tokens = {0: anna.token(table_id), 1: boris.token(table_id)}
    assert tokens[0] and tokens[1] and tokens[0] != tokens[1] and dan.token(table_id) is None
    people = {0: anna, 1: boris}
    expect(anna.page.locator("#room-players")).to_contain_text("Boris")
    expect(anna.page.locator("#room-players li[data-seat='2']")).to_contain_text("Bot 1 (easy)")
    summary = httpx.get(f"{url_a}/api/tables/{table_id}").json()
    assert summary["seats"][2]["name"] == "Bot 1 (easy)"
    expect(dan.page.locator("#spectator-note")).to_be_visible()
    # No turn timer chosen: no countdown.
    expect(anna.page.locator("#room-countdown")).to_be_hidden()
    anna.shot(f"friends-table-1280{tag}")
    # A deal, the two people alternating (the bot plays by itself). The bot may
    # knock before both people have played (knocking early is good play): then
    # everybody moves on to the next deal and the people play that one.
    deal = 1
    while True:
        turns = play_deal(people, tokens, url_a, url_b, table_id, deal)
        for person in (anna, boris):
            expect(person.page.locator("#showdown, #match-end").first).to_be_visible(timeout=20000)
        if turns >= 2:
            break
        assert deal < 3, "the bot ended three deals before both people played"
        for person in (anna, boris):
            person.page.click("#btn-next")
        deal += 1
        eventually(lambda: not state(url_a, table_id, tokens[0])["awaiting_continue"])
    # The spectator has nobody to wait for: it sees the next deal begin.
    expect(dan.page.locator(".table-head h1")).to_contain_text(f"Deal {deal + 1}")
    # The spectator never got a hand: no card of its own, none in any frame's hand.
    assert dan.page.locator(".hand .card").count() == 0
    for frame in dan.frames:
        if "state" in frame and frame["state"]["last_deal"] is None:
            assert frame["state"]["seat"] is None and not frame["state"]["observation"]["hand"]
    anna.shot(f"friends-showdown-1280{tag}")
    # Both move on to deal 2 (the showdown hides the opponents' boxes).
    # The Next button may come a moment after the showdown (under load): wait for it
    # rather than skip a person who has not got it yet, unless the match is over.
    for person in (anna, boris):
        if not person.page.locator("#match-end").is_visible():
            person.page.locator("#btn-next").click(timeout=20000)
    eventually(lambda: has_box(anna.page, 1) and box_marks(anna.page, 1) == "")
    # Disconnected and back: in the room's list and on the table's box.
    boris.page.close()
    eventually(
        lambda: (
            "disconnected" in player_marks(anna.page, 1)
            and "disconnected" in box_marks(anna.page, 1)
        ),
        timeout=PRESENCE + 10,
    )
    boris.open(f"/#/table/{table_id}")
    expect(boris.page.locator("#room-players li[data-seat='1']")).to_contain_text("(you)")
    eventually(lambda: "here" in player_marks(anna.page, 1), timeout=10)
    eventually(lambda: "disconnected" not in box_marks(anna.page, 1), timeout=10)
    assert state(url_b, table_id, tokens[1])["seat"] == 1
    # Boris leaves for longer than the grace period: a bot plays for him, and says so.
    boris.page.close()
    eventually(lambda: "a bot plays for now" in player_marks(anna.page, 1), timeout=GRACE + 15)
    eventually(lambda: "bot playing for Boris" in box_marks(anna.page, 1), timeout=10)
    anna.shot(f"friends-abandoned-1280{tag}")

    def boris_moves() -> int:
        history = state(url_a, table_id, tokens[0])["observation"]["history"]
        return sum(1 for seat, _ in history if seat == 1)

    # Anna plays on; Boris's seat is played for him (the stand-in bot).
    before = boris_moves()
    deadline = time.monotonic() + 120  # a loaded machine starts slowly
    while boris_moves() <= before:
        assert time.monotonic() < deadline, "nobody played the abandoned seat"
        now = state(url_a, table_id, tokens[0])
        assert not now["match"]["over"]
        if now["observation"]["current_seat"] == 0 and not now["awaiting_continue"]:
            play_turn(anna, knock=False)
            wait_turn_over(url_a, table_id, tokens[0], now)
        if now["awaiting_continue"] and anna.page.locator("#btn-next").count():
            anna.page.click("#btn-next")
        time.sleep(0.2)
    # Boris returns: his seat is his again, the marks go.
    boris.open(f"/#/table/{table_id}")
    eventually(lambda: "a bot plays for now" not in player_marks(anna.page, 1), timeout=15)
    eventually(lambda: "bot playing" not in box_marks(anna.page, 1), timeout=15)
    expect(boris.page.locator("#room-players li[data-seat='1']")).to_contain_text("(you)")
    boris.shot(f"friends-back-1280{tag}")
    for person in (anna, boris, vera, dan):
        assert not person.errors, (person.name, person.errors)
        person.context.close()


def test_friends_play_together_in_browsers(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as url:
        friends_flow(browser, url, url, "")


def test_friends_play_together_across_two_processes_on_postgresql(
    browser: Browser, postgres_server: str, tmp_path: Path
) -> None:
    from db_fixtures import fresh_postgres_database

    database = fresh_postgres_database(postgres_server)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with serve(tmp_path / "a", database) as first, serve(tmp_path / "b", database) as second:
        # Anna on the first process; Boris, Vera and Dan on the second.
        friends_flow(browser, first, second, "-pg")


def test_chat_and_play_again_with_the_same_people(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as url:
        anna = Person(browser, url, "Anna")
        anna.page.click("#friends-start")
        anna.page.select_option("#friends-game", "knock")
        anna.page.click("#friends-remove-seat")  # two seats: Anna and a friend
        expect(anna.page.locator("#friends-seat-2")).to_have_value("open")
        anna.page.select_option("#friends-length", "one")
        anna.page.select_option("#friends-timer", "60")
        anna.page.fill("#friends-name", "Anna")
        anna.page.click("#friends-create")
        code = anna.page.locator("#room-code-shown").inner_text()
        boris = Person(browser, url, "Boris", width=360)
        boris.page.goto(f"{url}/join/{code}")
        boris.page.fill("#join-name", "Борис")
        boris.page.click("#join-button")
        anna.page.click("#room-start")
        for person in (anna, boris):
            person.page.wait_for_url("**/#/table/*", timeout=20000)
        first = anna.page.url.rsplit("/", 1)[1]
        tokens = {0: anna.token(first), 1: boris.token(first)}
        # Two friends, no bot: neither page offers a bot speed.
        for person in (anna, boris):
            expect(person.page.locator("#hints-toggle")).to_have_count(1)
            expect(person.page.locator("#table-speed")).to_have_count(0)
        # Chat: escaped (text, never markup), and a mute toggle.
        boris.page.fill("#chat-input", "<img src=x onerror=alert(1)> привет")
        boris.page.click("#chat-send")
        expect(anna.page.locator("#chat-log")).to_contain_text(
            "<img src=x onerror=alert(1)> привет"
        )
        assert anna.page.locator("#chat-log img").count() == 0
        anna.page.click("#room-panel .reaction >> nth=0")
        expect(boris.page.locator("#chat-log")).to_contain_text("Anna: GG")
        boris.shot("friends-table-360")
        # A friends' table fits a phone as a table with bots does: the page does not
        # scroll, the hand is in view (the room's panel scrolls in its own box).
        assert boris.page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
        expect(boris.page.locator(".hand .card").first).to_be_in_viewport()
        expect(boris.page.locator(".hand .card").last).to_be_in_viewport()
        boris.page.check("#chat-mute")
        expect(boris.page.locator("#chat-log")).to_have_count(0)
        # The one-deal match, both people playing.
        people = {0: anna, 1: boris}
        turns = 0
        while not state(url, first, tokens[0])["match"]["over"]:
            now = state(url, first, tokens[0])
            mover = now["observation"]["current_seat"]
            play_turn(people[mover], knock=turns >= 4)
            turns += 1
            wait_turn_over(url, first, tokens[0], now)
            assert turns < 200
        expect(boris.page.locator("#room-panel")).to_contain_text("The creator can start another")
        anna.page.click("#room-again")
        for person in (anna, boris):
            person.page.wait_for_url(lambda address: first not in address, timeout=20000)
        second = anna.page.url.rsplit("/", 1)[1]
        assert boris.page.url.endswith(second)
        assert state(url, second, boris.token(second))["seat"] == 1
        expect(boris.page.locator("#room-players li[data-seat='1']")).to_contain_text("(you)")
        # The finished match is in the history, with both people's names.
        history = httpx.get(f"{url}/api/matches").json()["matches"]
        assert [m["id"] for m in history] == [first]
        assert [s["name"] for s in history[0]["seats"]] == ["Anna", "Борис"]
        anna.page.click("#lang-switch")
        expect(anna.page.locator("#room-panel")).to_contain_text("Комната")
        anna.shot("friends-table-ru-1280")
        for person in (anna, boris):
            assert not person.errors, (person.name, person.errors)
            person.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_friends_pages_by_keyboard_and_without_serious_axe_violations(
    browser: Browser, tmp_path: Path, lang: str, axe_source: str
) -> None:
    found: dict[str, list[str]] = {}

    def check(person: Person, name: str) -> None:
        # axe comes from the page's own origin (web_helpers.serious): the
        # page's Content-Security-Policy stays in force.
        found[name] = serious(person.page, axe_source)

    with serve(tmp_path) as url:
        anna = Person(browser, url, "Anna", locale=lang)
        check(anna, "lobby")
        anna.page.click("#friends-start")
        anna.page.locator("#friends-name").focus()
        anna.page.keyboard.type("Anna")
        check(anna, "form")
        anna.page.keyboard.press("Enter")  # the form is sent from the keyboard
        expect(anna.page.locator("#room-code-shown")).to_be_visible()
        code = anna.page.locator("#room-code-shown").inner_text()
        boris = Person(browser, url, "Boris", width=360, locale=lang)
        boris.page.goto(f"{url}/join/{code}")
        boris.page.locator("#join-name").focus()
        check(boris, "join")
        boris.page.keyboard.type("Boris")
        boris.page.keyboard.press("Enter")
        expect(anna.page.locator("#room-seats")).to_contain_text("Boris")
        check(anna, "waiting")
        anna.page.locator("#room-start").focus()
        anna.page.keyboard.press("Enter")
        anna.page.wait_for_url("**/#/table/*", timeout=20000)
        expect(anna.page.locator("#room-players")).to_contain_text("Boris")
        check(anna, "table")
        for person in (anna, boris):
            assert not person.errors, (person.name, person.errors)
            person.context.close()
    assert {name: issues for name, issues in found.items() if issues} == {}


def test_turn_timer_and_presence_marks_on_the_table(browser: Browser, tmp_path: Path) -> None:
    """A short turn timer: nobody moves, the simple bot plays each one's turn
    and marks them away on the other's table (Boris reads Russian); Boris's
    next action clears his mark. Anna then leaves: Boris sees her disconnected,
    then a bot playing for her, until she is back."""
    with serve(tmp_path) as url:
        anna = Person(browser, url, "Anna")
        anna.page.click("#friends-start")
        anna.page.click("#friends-remove-seat")  # two seats: Anna and a friend
        anna.page.select_option("#friends-timer", str(TURN))
        anna.page.select_option("#friends-grace", str(GRACE))
        anna.page.fill("#friends-name", "Anna")
        anna.page.click("#friends-create")
        code = anna.page.locator("#room-code-shown").inner_text()
        boris = Person(browser, url, "Boris", locale="ru")
        boris.page.goto(f"{url}/join/{code}")
        boris.page.fill("#join-name", "Boris")
        boris.page.click("#join-button")
        expect(anna.page.locator("#room-start")).to_be_enabled()
        anna.page.click("#room-start")
        for person in (anna, boris):
            person.page.wait_for_url("**/#/table/*", timeout=20000)
        table_id = anna.page.url.rsplit("/", 1)[1]
        token = anna.token(table_id)
        assert state(url, table_id, token)["seq"] == 0
        # The countdown of the turn: for the person to play and on the other's
        # view of that seat, in each one's language, not read out every second.
        first = state(url, table_id, token)["observation"]["current_seat"]
        mover, other = (anna, boris) if first == 0 else (boris, anna)
        mine = {"en": "Your turn:", "ru": "Ваш ход:"}
        mover_says = mine["ru" if mover is boris else "en"]
        expect(mover.page.locator("#room-countdown")).to_contain_text(mover_says)
        other_says = "Ходит Anna" if other is boris else "Boris to play"
        expect(other.page.locator("#room-countdown")).to_contain_text(other_says)
        expect(other.page.locator("#room-countdown")).to_have_attribute("aria-live", "off")
        counted = seconds_shown(mover.page)
        assert 0 < counted <= TURN
        eventually(lambda: "countdown" in box_mark_kinds(other.page, first), timeout=5)
        # Said once to the person to play, 10 s before the end (the timer here is shorter).
        warning = "Осталось 10 секунд" if mover is boris else "10 seconds left to move"
        expect(mover.page.locator("#room-countdown-alert")).to_contain_text(warning)
        mover.shot("friends-countdown-1280")
        other.shot("friends-countdown-other-1280")
        if counted > 2:
            eventually(lambda: seconds_shown(mover.page) < counted, timeout=5)
        # Nobody moves: past the timer the bot plays each turn, and each is marked away.
        eventually(
            lambda: "away" in box_marks(anna.page, 1) and "отошёл" in box_marks(boris.page, 0),
            timeout=4 * TURN + 30,
        )
        moves = [seat for seat, _ in state(url, table_id, token)["observation"]["history"]]
        assert {0, 1} <= set(moves) or state(url, table_id, token)["match"]["deal_number"] > 1
        expect(boris.page.locator("#room-back")).to_be_visible()
        anna.shot("friends-away-1280")
        boris.shot("friends-away-ru-1280")
        # Typing in the chat is not playing: Boris stays away...
        boris.page.fill("#chat-input", "hi")
        boris.page.press("#chat-input", "Enter")
        expect(anna.page.locator("#chat-log")).to_contain_text("hi")
        time.sleep(3.5)  # two of Boris's polls (1.5 s apart)
        assert "away" in box_marks(anna.page, 1)
        # ...until his next action (his turn, played by himself) clears his mark.
        play_turn(boris, knock=False)
        eventually(lambda: "away" not in box_marks(anna.page, 1), timeout=10)
        assert "отошёл" in box_marks(boris.page, 0)
        # Anna leaves: disconnected, then a bot plays for her, in Russian on Boris's page.
        anna.page.close()
        eventually(lambda: "отключился" in box_marks(boris.page, 0), timeout=PRESENCE + 10)
        eventually(lambda: "за Anna играет бот" in box_marks(boris.page, 0), timeout=GRACE + 15)
        anna.open(f"/#/table/{table_id}")

        def anna_is_back() -> bool:
            marks = box_marks(boris.page, 0)
            return has_box(boris.page, 0) and "отключился" not in marks and "бот" not in marks

        eventually(anna_is_back, timeout=15)
        for person in (anna, boris):
            assert not person.errors, (person.name, person.errors)
            person.context.close()
