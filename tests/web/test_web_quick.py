"""Quick match in real browsers: one Playwright context per person.

Anna and Boris press "Play people" for Gin (2 players) and are seated
together; they play a whole deal through their pages, neither page ever
holding the other's hidden cards. Four people do the same for Knock Rummy
(4 players). Vera chooses bots after a short wait and is seated with them.
Anna leaves her rated match: a bot plays her seat on for Boris, the leave
is counted, and her lobby explains her cooldown and refuses her. The bot
speed is offered on a table page only once a bot plays there.

The Gin flow runs again with Anna and Boris on two server processes over
one PostgreSQL database.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from server_process import running_server
from test_web_friends import Person, eventually, no_secret_of, play_turn, state, wait_turn_over
from web_helpers import browser

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the shared fixture


@contextmanager
def serve(data_dir: Path, database_url: str = "") -> Iterator[str]:
    env = {
        "DATABASE_URL": database_url,
        "PYRUMMY_QUICK_TICK": "0.5",
        # Every leave brings a cooldown here (the first is free by default).
        "PYRUMMY_QUICK_FREE_LEAVES": "0",
    }
    arguments = ["--bot-delay", "0", "--data-dir", str(data_dir), "--rate-limit", "off"]
    data_dir.mkdir(parents=True, exist_ok=True)
    with running_server(arguments, env=env, log=data_dir / "server.log") as server:
        yield server.url


def queue_up(
    person: Person, preset: str, players: int, wait: str = "never", gin_rules: str | None = None
) -> None:
    """Join the quick match's queue from the lobby; ``gin_rules`` ("standard" or
    "source") chooses Gin's rules (without it, the lobby's: standard the first time)."""
    page = person.page
    page.goto(person.url + "/")
    page.locator(f"#game-{preset}").check()
    if gin_rules is not None:
        page.click(f"label[for=gin-rules-{gin_rules}]")
    page.fill("#quick-name", person.name)
    page.select_option("#quick-bot-wait", wait)
    page.click(f"#quick-join-{players}")


def seated_table(people: list[Person]) -> str:
    for person in people:
        person.page.wait_for_url("**/#/table/*", timeout=30_000)
    tables = {person.page.url.rsplit("/", 1)[1] for person in people}
    assert len(tables) == 1, tables
    return tables.pop()


def play_one_deal(
    seats: dict[int, Person], tokens: dict[int, str], url: str, table_id: str
) -> None:
    """Every person plays their turns through their page until the first deal ends."""
    turns = 0
    while True:
        now = state(url, table_id, tokens[min(tokens)])
        if now["last_deal"] is not None or now["over"]:
            break
        mover = now["observation"]["current_seat"]
        if mover in seats:
            other = next(seat for seat in tokens if seat != mover)
            no_secret_of(seats[mover], tokens[other], url, table_id)
            play_turn(seats[mover], knock=turns >= 2 * len(seats))
            turns += 1
            wait_turn_over(url, table_id, tokens[mover], now)
        else:
            time.sleep(0.1)
        assert turns < 300
    for person in seats.values():
        expect(person.page.locator("#showdown, #match-end").first).to_be_visible(timeout=20_000)


def seat_people(
    people: list[Person], url: str, table_id: str
) -> tuple[dict[int, Person], dict[int, str]]:
    seats: dict[int, Person] = {}
    tokens: dict[int, str] = {}
    for person in people:
        token = person.token(table_id)
        assert token, person.name
        seat = state(url, table_id, token)["seat"]
        seats[seat], tokens[seat] = person, token
    assert len(seats) == len(people)
    return seats, tokens


def gin_flow(browser: Browser, url_a: str, url_b: str, tag: str) -> None:
    anna = Person(browser, url_a, "Anna")
    boris = Person(browser, url_b, "Boris", width=390)
    queue_up(anna, "gin", 2)
    expect(anna.page.locator("#quick-status")).to_contain_text("1 of 2", timeout=10_000)
    expect(anna.page.locator("#quick-cancel")).to_be_visible()
    # The count beside her own queue's button counts her (the poll's figure).
    expect(anna.page.locator("#quick-count-2")).to_contain_text("1 waiting")
    # People only: no bot comes, so there is no bot level to choose.
    expect(anna.page.locator("#quick-bot-level")).to_be_disabled()
    anna.shot(f"quick-waiting-1280{tag}")
    boris.page.locator("#game-gin").check()
    expect(boris.page.locator("#quick-count-2")).to_contain_text("1 waiting", timeout=15_000)
    queue_up(boris, "gin", 2)
    table_id = seated_table([anna, boris])
    seats, tokens = seat_people([anna, boris], url_a, table_id)
    # People only: no bot speed on either page (Boris's phone keeps it in the Moves panel).
    for person in (anna, boris):
        expect(person.page.locator("#hints-toggle")).to_have_count(1, timeout=20_000)
        expect(person.page.locator("#table-speed")).to_have_count(0)
    play_one_deal(seats, tokens, url_a, table_id)
    anna.shot(f"quick-gin-showdown-1280{tag}")
    # Anna leaves the rated match: a bot plays on for Boris, and she is cooled down.
    anna_seat = next(seat for seat, person in seats.items() if person is anna)
    anna.page.click("#resign-button")
    expect(anna.page.locator("#resign-dialog")).to_contain_text("bot")
    anna.page.click("#resign-confirm")
    expect(anna.page.locator("#header-note")).to_contain_text("You resigned")
    eventually(lambda: state(url_b, table_id, None)["table"]["seats"][anna_seat]["kind"] == "bot")
    # A bot plays at Boris's table now: its speed can be chosen there.
    expect(boris.page.locator("#table-speed")).to_have_count(1, timeout=20_000)
    anna.page.goto(url_a + "/")
    expect(anna.page.locator("#quick-cooldown")).to_contain_text("opens again in", timeout=15_000)
    anna.shot(f"quick-cooldown-1280{tag}")
    anna.page.locator("#game-gin").check()
    expect(anna.page.locator("#quick-join-2")).to_be_disabled()
    expect(anna.page.locator("#quick-cancel")).to_be_hidden()
    # The server refuses her too, with the seconds left.
    refused = anna.page.evaluate(
        """() => fetch('/api/quick/join', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({preset: 'gin', players: 2, name: 'Anna'})})
        .then(async (r) => [r.status, (await r.json()).error])"""
    )
    assert refused[0] == 403 and refused[1]["code"] == "quick.cooldown"
    assert 0 < refused[1]["retry_after"] <= 300
    for person in (anna, boris):
        assert not person.errors, person.errors


def test_two_people_queue_for_gin_play_and_one_leaves(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as url:
        gin_flow(browser, url, url, "")


def test_gin_across_two_processes_on_postgresql(
    browser: Browser, postgres_server: str, tmp_path: Path
) -> None:
    from db_fixtures import fresh_postgres_database

    database = fresh_postgres_database(postgres_server)
    with serve(tmp_path / "a", database) as first, serve(tmp_path / "b", database) as second:
        gin_flow(browser, first, second, "-pg")


def test_four_people_for_knock_and_bots_after_a_wait(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as url:
        people = [Person(browser, url, name) for name in ("Anna", "Boris", "Vera", "Dan")]
        for person in people:
            queue_up(person, "knock", 4)
        table_id = seated_table(people)
        seats, tokens = seat_people(people, url, table_id)
        assert len(seats) == 4
        play_one_deal(seats, tokens, url, table_id)
        # Vera alone, bots after 15 s: seated with two bots of her level.
        vera = Person(browser, url, "Vera", locale="ru", width=360)
        queue_up(vera, "knock", 3, wait="15")
        expect(vera.page.locator("#quick-bot-level")).to_be_enabled()
        expect(vera.page.locator("#quick-status")).to_contain_text("Боты", timeout=10_000)
        vera.shot("quick-waiting-360-ru")
        table = seated_table([vera])
        kinds = sorted(s["kind"] for s in state(url, table, None)["table"]["seats"])
        assert kinds == ["bot", "bot", "human"]
        for person in [*people, vera]:
            assert not person.errors, person.errors
