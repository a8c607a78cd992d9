"""Private tables for friends (rooms): the API, every refusal, stand-ins.

Every refused request is a precise 4xx and stores nothing: the room as every
seat sees it is the same after it. Each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyrummy.server.rooms import CODE_ALPHABET
from pyrummy.server.settings import RateLimits, RoomSettings
from server_helpers import app_client, headers, state

FAST = RoomSettings(presence_timeout=1.0, tick=3600.0, grace_choices=(2, 120))


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> str | None:
    """The database of the test's server: its data folder's SQLite (None), or
    a fresh database on the PostgreSQL cluster of tests/db_fixtures.py."""
    if request.param == "sqlite":
        return None
    from db_fixtures import fresh_postgres_database

    url: str = fresh_postgres_database(request.getfixturevalue("postgres_server"))
    return url


@pytest.fixture
def client(tmp_path: Path, db: str | None) -> Iterator[TestClient]:
    with app_client(tmp_path, database_url=db, rooms=FAST, bot_workers=0) as test_client:
        yield test_client


def make_room(client: TestClient, **body: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "bot", "bot": "easy"}],
        "name": "Anna",
    }
    payload.update(body)
    response = client.post("/api/rooms", json=payload)
    assert response.status_code == 201, response.text
    # One test client plays several people: each keeps their token, not a shared cookie.
    client.cookies.clear()
    result: dict[str, Any] = response.json()
    return result


def join(client: TestClient, code: str, name: str = "Boris", token: str | None = None) -> Any:
    response = client.post(f"/api/rooms/{code}/join", json={"name": name}, headers=headers(token))
    client.cookies.clear()
    return response


def room(client: TestClient, code: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/rooms/{code}", headers=headers(token))
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def unchanged(client: TestClient, code: str, before: dict[str, Any]) -> None:
    """The room is as it was (the table's own progress aside: a bot may move)."""
    after = room(client, code)
    moving = {"seats", "to_play", "over"}
    assert {k: v for k, v in after.items() if k not in moving} == {
        k: v for k, v in before.items() if k not in moving
    }
    assert [(s["kind"], s["name"], s["bot"]) for s in after["seats"]] == [
        (s["kind"], s["name"], s["bot"]) for s in before["seats"]
    ]


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def started_room(client: TestClient) -> tuple[str, str, str, str]:
    """A started room of Anna (seat 1), Boris (seat 2) and a bot: code, table, tokens."""
    created = make_room(client)
    code = created["room"]["code"]
    boris = join(client, code).json()["token"]
    response = client.post(f"/api/rooms/{code}/start", headers=headers(created["token"]))
    assert response.status_code == 200, response.text
    table = response.json()["table_id"]
    people_to_play(client, table, created["token"])
    return code, table, created["token"], boris


def people_to_play(client: TestClient, table: str, token: str) -> int:
    """Wait while the bot (seat 3) plays: then only a person moves the table."""
    deadline = time.monotonic() + 20
    while (current := state(client, table, token)["observation"]["current_seat"]) not in (0, 1):
        assert time.monotonic() < deadline, "the bot did not play"
        time.sleep(0.05)
    return int(current)


def test_a_room_code_is_easy_to_read_aloud(client: TestClient) -> None:
    code = make_room(client)["room"]["code"]
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_create_join_by_code_and_start(client: TestClient) -> None:
    created = make_room(client)
    code = created["room"]["code"]
    assert created["seat"] == 0 and created["token"]
    assert created["room"]["missing"] == [1]
    # Typed in lower case with a dash: the same room.
    typed = f"{code[:3].lower()}-{code[3:].lower()}"
    joined = join(client, typed)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    view = room(client, code)
    assert [s["name"] for s in view["seats"]] == ["Anna", "Boris", None]
    assert view["missing"] == []
    started = client.post(f"/api/rooms/{code}/start", headers=headers(created["token"])).json()
    assert started["status"] == "started" and started["table_id"]
    # Each person's token plays their seat at the table; each sees their own hand only.
    table = started["table_id"]
    anna = state(client, table, created["token"])
    boris = state(client, table, joined.json()["token"])
    assert (anna["seat"], boris["seat"]) == (0, 1)
    assert anna["observation"]["hand"] != boris["observation"]["hand"]
    assert anna["table"]["seats"][1]["name"] == "Boris"
    # Joining again with one's token is not a second seat.
    again = join(client, code, token=joined.json()["token"])
    assert again.status_code == 200 and again.json()["seat"] == 1


def test_the_room_cookie_identifies_the_seat(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", json={"seats": [{"kind": "you"}, {"kind": "open"}], "name": "Anna"}
    )
    code = response.json()["room"]["code"]
    assert "httponly" in response.headers["set-cookie"].lower()
    assert f"Path=/api/rooms/{code}" in response.headers["set-cookie"]
    assert room(client, code)["you"] == 0
    client.cookies.clear()
    assert room(client, code)["you"] is None


def test_the_join_link_opens_the_room_page(client: TestClient) -> None:
    response = client.get("/join/abc-def", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/#/room/ABCDEF"
    hostile = client.get("/join/%3Cscript%3E", follow_redirects=False)
    assert hostile.headers["location"] == "/#/room/"


def test_refusals_store_nothing(client: TestClient) -> None:
    created = make_room(client)
    code, anna = created["room"]["code"], created["token"]
    before = room(client, code)
    # A wrong code (and a malformed one).
    refused(join(client, "ZZZZZZ"), 404, "room.not_found")
    refused(join(client, "0O1lI!"), 404, "room.not_found")
    # Names out of bounds.
    for name in ["", "   ", "x" * 25, "a\nb", "<b>", 'a"b']:
        response = join(client, code, name=name)
        assert response.status_code == 422, (name, response.text)
    unchanged(client, code, before)
    # Starting with a missing seat.
    refused(
        client.post(f"/api/rooms/{code}/start", headers=headers(anna)), 409, "room.seats_missing"
    )
    unchanged(client, code, before)
    boris = join(client, code).json()["token"]
    before = room(client, code)
    # A full table.
    refused(join(client, code, name="Vera"), 409, "room.full")
    # Acting for another seat: only the creator seats bots or starts.
    refused(
        client.put(f"/api/rooms/{code}/seats/3", json={"kind": "open"}, headers=headers(boris)),
        403,
        "room.not_creator",
    )
    refused(
        client.post(f"/api/rooms/{code}/start", headers=headers(boris)), 403, "room.not_creator"
    )
    refused(
        client.put(f"/api/rooms/{code}/seats/2", json={"kind": "open"}, headers=headers(anna)),
        409,
        "room.seat_taken",
    )
    refused(client.post(f"/api/rooms/{code}/start"), 401, "seat.token_missing")
    refused(
        client.post(f"/api/rooms/{code}/start", headers=headers("forged")), 403, "seat.token_bad"
    )
    unchanged(client, code, before)
    table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
    before = room(client, code)
    # A started table.
    refused(join(client, code, name="Vera"), 409, "room.started")
    refused(client.post(f"/api/rooms/{code}/leave", headers=headers(boris)), 409, "room.started")
    refused(client.post(f"/api/rooms/{code}/start", headers=headers(anna)), 409, "room.started")
    refused(client.post(f"/api/rooms/{code}/again", headers=headers(anna)), 409, "room.not_over")
    unchanged(client, code, before)
    # Acting for another seat at the table: out of turn, nothing changes.
    current = people_to_play(client, table, anna)
    other = boris if current == 0 else anna
    seq = state(client, table, anna)["seq"]
    response = client.post(
        f"/api/tables/{table}/actions", json={"action": "draw stock"}, headers=headers(other)
    )
    refused(response, 409, "seat.not_your_turn")
    assert state(client, table, anna)["seq"] == seq


def test_room_creation_refusals(client: TestClient) -> None:
    def create(**body: Any) -> Any:
        payload: dict[str, Any] = {"seats": [{"kind": "you"}, {"kind": "open"}], "name": "Anna"}
        payload.update(body)
        return client.post("/api/rooms", json=payload)

    refused(create(seats=[{"kind": "you"}, {"kind": "you"}]), 422, "room.one_you")
    refused(create(seats=[{"kind": "you"}, {"kind": "bot", "bot": "easy"}]), 422, "room.no_friend")
    refused(create(grace=7), 422, "room.bad_grace")
    assert create(name="x" * 25).status_code == 422
    refused(create(turn_timer=45), 422, "room.bad_timer")
    assert create(seats=[{"kind": "you"}, {"kind": "open"}], preset="gin").status_code == 201
    too_many = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}]
    assert create(seats=too_many, preset="gin").status_code == 400
    assert client.get("/api/matches?status=all").json()["total"] == 0


def test_leave_and_fill_with_a_bot(client: TestClient) -> None:
    created = make_room(client)
    code, anna = created["room"]["code"], created["token"]
    boris = join(client, code).json()["token"]
    assert client.post(f"/api/rooms/{code}/leave", headers=headers(boris)).status_code == 200
    assert room(client, code)["missing"] == [1]
    filled = client.put(
        f"/api/rooms/{code}/seats/2", json={"kind": "bot", "bot": "medium"}, headers=headers(anna)
    )
    assert filled.status_code == 200, filled.text
    assert filled.json()["seats"][1] == {"seat": 1, "kind": "bot", "bot": "medium", "name": None}
    # The creator leaving closes the room.
    assert client.post(f"/api/rooms/{code}/leave", headers=headers(anna)).status_code == 200
    refused(join(client, code), 410, "room.closed")


def test_presence_watchers_and_chat(client: TestClient) -> None:
    code, _table, anna, boris = started_room(client)
    poll = client.post(f"/api/rooms/{code}/poll", json={"since": 0}, headers=headers(anna))
    assert poll.status_code == 200
    seats = poll.json()["seats"]
    assert seats[0]["connected"] and not seats[1]["connected"]
    watcher = client.post(
        f"/api/rooms/{code}/poll", json={"watcher": "w" * 12, "name": "Gleb", "since": 0}
    )
    assert watcher.json()["watchers"] == ["Gleb"] and watcher.json()["you"] is None
    said = client.post(
        f"/api/rooms/{code}/chat",
        json={"text": "<img src=x onerror=alert(1)>"},
        headers=headers(boris),
    )
    assert said.status_code == 201
    refused(
        client.post(f"/api/rooms/{code}/chat", json={"text": "again"}, headers=headers(boris)),
        429,
        "room.chat_too_fast",
    )
    refused(client.post(f"/api/rooms/{code}/chat", json={"text": "hi"}), 401, "seat.token_missing")
    assert (
        client.post(
            f"/api/rooms/{code}/chat", json={"text": "a\u0007b"}, headers=headers(anna)
        ).status_code
        == 422
    )
    chat = client.post(f"/api/rooms/{code}/poll", json={"since": 0}, headers=headers(anna)).json()
    # Stored as typed; the page puts it in text nodes, never markup.
    assert [(m["name"], m["text"]) for m in chat["chat"]] == [
        ("Boris", "<img src=x onerror=alert(1)>")
    ]
    time.sleep(1.1)
    seats = room(client, code)["seats"]
    assert not seats[0]["connected"]


def keeper_tick(client: TestClient, now: float) -> int:
    app: Any = client.app
    rooms = app.state.rooms
    from pyrummy.server.room_keeper import RoomKeeper

    async def run() -> int:
        return await RoomKeeper(rooms).tick(now=now)

    result: int = client.portal.call(run)  # type: ignore[union-attr]
    return result


def test_an_abandoned_seat_is_played_by_a_bot_until_its_person_returns(
    client: TestClient,
) -> None:
    created = make_room(client, grace=2, seats=[{"kind": "you"}, {"kind": "open"}])
    code, anna = created["room"]["code"], created["token"]
    boris = join(client, code).json()["token"]
    table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
    tokens = {0: anna, 1: boris}
    current = state(client, table, anna)["observation"]["current_seat"]
    absent, present = tokens[current], tokens[1 - current]
    for token in tokens.values():
        client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(token))
    # Within the grace period nobody plays for the absent person ...
    assert keeper_tick(client, time.time()) == 0
    deadline = time.monotonic() + 2.5
    while time.monotonic() < deadline:
        client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(present))
        time.sleep(0.25)
    view = room(client, code)["seats"]
    assert view[current]["abandoned"] and not view[1 - current]["abandoned"]
    assert view[1 - current]["connected"]
    # ... past it, the seat to play is played by the stand-in, one step a tick ...
    seq = state(client, table, anna)["seq"]
    assert keeper_tick(client, time.time()) == 1
    assert state(client, table, anna)["seq"] == seq + 1
    assert keeper_tick(client, time.time()) == 1
    # ... until the person is back (a poll).
    client.post(f"/api/rooms/{code}/poll", json={"active": True}, headers=headers(absent))
    assert not room(client, code)["seats"][current]["abandoned"]
    assert keeper_tick(client, time.time()) == 0


def test_turn_timer_plays_the_turn_and_marks_the_person_away(client: TestClient) -> None:
    created = make_room(client, turn_timer=30, seats=[{"kind": "you"}, {"kind": "open"}])
    code, anna = created["room"]["code"], created["token"]
    boris = join(client, code).json()["token"]
    table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
    tokens = {0: anna, 1: boris}
    current = state(client, table, anna)["observation"]["current_seat"]
    for token in tokens.values():
        client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(token))
    # The page's countdown: seconds left of the person's turn, not a deadline.
    shown = room(client, code)
    assert shown["to_play"] == current
    assert 10 < shown["turn_left"] <= 30
    assert keeper_tick(client, time.time() + 10) == 0
    # Present but slow: past 30 s the stand-in plays that turn to its end.
    steps = 0
    while state(client, table, anna)["observation"]["current_seat"] == current and steps < 5:
        for token in tokens.values():
            client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(token))
        assert keeper_tick(client, time.time() + 31) == 1
        steps += 1
    assert state(client, table, anna)["observation"]["current_seat"] != current
    assert room(client, code)["seats"][current]["away"] is True
    # Active again: no longer away.
    client.post(f"/api/rooms/{code}/poll", json={"active": True}, headers=headers(tokens[current]))
    assert room(client, code)["seats"][current]["away"] is False


def test_no_countdown_without_a_turn_timer(client: TestClient) -> None:
    created = make_room(client, seats=[{"kind": "you"}, {"kind": "open"}])
    code, anna = created["room"]["code"], created["token"]
    join(client, code)
    client.post(f"/api/rooms/{code}/start", headers=headers(anna))
    shown = room(client, code)
    assert shown["turn_timer"] == 0 and shown["to_play"] in (0, 1)
    assert "turn_left" not in shown


def test_play_again_with_the_same_people(client: TestClient) -> None:
    created = make_room(
        client,
        seats=[{"kind": "you"}, {"kind": "open"}],
        options={"match_end": "deals", "deals": 1},
    )
    code, anna = created["room"]["code"], created["token"]
    boris = join(client, code).json()["token"]
    table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
    tokens = {0: anna, 1: boris}
    from pyrummy.bots import make_bot

    app: Any = client.app
    for _ in range(400):
        live = app.state.tables.tables[table]
        if live.is_over:
            break
        seat = live.match.current_seat
        action = make_bot("simple", 1).choose(live.match.observe(seat), live.match.legal_actions())
        response = client.post(
            f"/api/tables/{table}/actions",
            json={"action": str(action)},
            headers=headers(tokens[seat]),
        )
        assert response.status_code == 200, response.text
    assert app.state.tables.tables[table].is_over
    refused(
        client.post(f"/api/rooms/{code}/again", headers=headers(boris)), 403, "room.not_creator"
    )
    again = client.post(f"/api/rooms/{code}/again", headers=headers(anna))
    assert again.status_code == 200, again.text
    second = again.json()["table_id"]
    assert second != table and again.json()["tables"] == [table]
    assert state(client, second, boris)["seat"] == 1
    # The old table still leads to the room (and so to the new table).
    assert client.get(f"/api/tables/{table}/room").json()["table_id"] == second
    # The finished match is in the history.
    history = client.get("/api/matches").json()["matches"]
    assert [m["id"] for m in history] == [table]
    assert [s["name"] for s in history[0]["seats"]] == ["Anna", "Boris"]


def test_a_table_without_a_room_has_no_room(client: TestClient) -> None:
    response = client.post("/api/tables", json={"bots": ["easy"]})
    table = response.json()["table"]["id"]
    # Every table page asks: a table against bots is answered, not refused.
    for asked in (f"/api/tables/{table}/room", "/api/tables/ab'%25x/room"):
        response = client.get(asked)
        assert response.status_code == 200 and response.json() == {"room": None}


def test_room_codes_cannot_be_guessed_fast(tmp_path: Path, db: str | None) -> None:
    limits = RateLimits(create=None, act="3/minute", connect=None)
    with app_client(
        tmp_path, database_url=db, rooms=FAST, bot_workers=0, rate_limits=limits
    ) as client:
        answers = [client.get("/api/rooms/ZZZZZZ").status_code for _ in range(4)]
    assert answers == [404, 404, 404, 429]


def test_the_choices_a_creator_has(client: TestClient) -> None:
    options = client.get("/api/rooms/options").json()
    assert options == {
        "grace_choices": [2, 120],
        "default_grace": 120,
        "turn_timers": [0, 30, 60, 120],
    }


def test_nobody_stands_in_when_every_person_has_gone(client: TestClient) -> None:
    code, table, anna, boris = started_room(client)
    for token in (anna, boris):
        client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(token))
    seq = state(client, table, anna)["seq"]
    assert keeper_tick(client, time.time() + 1000) == 0
    assert state(client, table, anna)["seq"] == seq


def test_room_starts_obey_the_caps_on_unfinished_tables(tmp_path: Path, db: str | None) -> None:
    """A room's table counts as one more unfinished table of the creator's
    address and of the server, as a table of POST /api/tables does."""
    with app_client(
        tmp_path, database_url=db, rooms=FAST, bot_workers=0, max_tables_per_client=1
    ) as client:
        code, _table, _anna, _boris = started_room(client)
        # The room's table fills this client's one place: no more tables ...
        refused(client.post("/api/tables", json={"bots": ["easy"]}), 429, "table.too_many_yours")
        # ... and no second room start: 429, the room still waiting, nothing stored.
        created = make_room(client)
        second, anna = created["room"]["code"], created["token"]
        join(client, second)
        before = room(client, second)
        response = client.post(f"/api/rooms/{second}/start", headers=headers(anna))
        refused(response, 429, "table.too_many_yours")
        unchanged(client, second, before)
        assert room(client, second)["status"] == "waiting" and before["table_id"] is None
        assert client.get("/api/matches?status=all").json()["total"] == 1
        # Refusals that come first stay first: nobody but the creator may start.
        refused(client.post(f"/api/rooms/{second}/start"), 401, "seat.token_missing")
        assert room(client, code)["status"] == "started"


def test_a_room_start_is_refused_when_the_server_is_full(tmp_path: Path, db: str | None) -> None:
    with app_client(tmp_path, database_url=db, rooms=FAST, bot_workers=0, max_tables=1) as client:
        client.post("/api/tables", json={"bots": ["easy"]})
        created = make_room(client)
        code, anna = created["room"]["code"], created["token"]
        join(client, code)
        before = room(client, code)
        refused(
            client.post(f"/api/rooms/{code}/start", headers=headers(anna)), 503, "table.server_full"
        )
        unchanged(client, code, before)
        assert client.get("/api/matches?status=all").json()["total"] == 1


def finish_match(client: TestClient, table: str, tokens: dict[int, str]) -> None:
    from pyrummy.bots import make_bot

    app: Any = client.app
    for _ in range(400):
        live = app.state.tables.tables[table]
        if live.is_over:
            return
        seat = live.match.current_seat
        action = make_bot("simple", 1).choose(live.match.observe(seat), live.match.legal_actions())
        response = client.post(
            f"/api/tables/{table}/actions",
            json={"action": str(action)},
            headers=headers(tokens[seat]),
        )
        assert response.status_code == 200, response.text
    raise AssertionError("the match did not end")


def test_play_again_obeys_the_caps(tmp_path: Path, db: str | None) -> None:
    with app_client(
        tmp_path, database_url=db, rooms=FAST, bot_workers=0, max_tables_per_client=1
    ) as client:
        created = make_room(
            client,
            seats=[{"kind": "you"}, {"kind": "open"}],
            options={"match_end": "deals", "deals": 1},
        )
        code, anna = created["room"]["code"], created["token"]
        boris = join(client, code).json()["token"]
        table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
        finish_match(client, table, {0: anna, 1: boris})
        # The finished match no longer counts; another unfinished table does.
        assert client.post("/api/tables", json={"bots": ["easy"]}).status_code == 201
        before = room(client, code)
        refused(
            client.post(f"/api/rooms/{code}/again", headers=headers(anna)),
            429,
            "table.too_many_yours",
        )
        unchanged(client, code, before)
        assert client.get("/api/matches?status=all").json()["total"] == 2


def prune(client: TestClient, now: float) -> int:
    app: Any = client.app
    from pyrummy.server.room_keeper import RoomKeeper

    async def run() -> int:
        return await RoomKeeper(app.state.rooms).prune(now=now)

    result: int = client.portal.call(run)  # type: ignore[union-attr]
    return result


def rows(client: TestClient, table: Any, code: str) -> int:
    app: Any = client.app

    async def run() -> int:
        from sqlalchemy import func, select

        async with app.state.store.transaction() as connection:
            count = await connection.scalar(
                select(func.count()).select_from(table).where(table.c.code == code)
            )
        return int(count or 0)

    result: int = client.portal.call(run)  # type: ignore[union-attr]
    return result


def test_chat_keeps_the_newest_messages_of_a_room_only(tmp_path: Path, db: str | None) -> None:
    from pyrummy.server.storage.schema import CHAT

    few = RoomSettings(tick=3600.0, chat_kept=3, chat_gap=0.0, chat_burst=100)
    with app_client(tmp_path, database_url=db, rooms=few, bot_workers=0) as client:
        code, _table, anna, _boris = started_room(client)
        for n in range(7):
            said = client.post(
                f"/api/rooms/{code}/chat", json={"text": f"m{n}"}, headers=headers(anna)
            )
            assert said.status_code == 201, said.text
        assert rows(client, CHAT, code) == 3
        chat = client.post(f"/api/rooms/{code}/poll", json={"since": 0}, headers=headers(anna))
        assert [m["text"] for m in chat.json()["chat"]] == ["m4", "m5", "m6"]


def test_the_keeper_prunes_rooms_that_are_over(client: TestClient) -> None:
    from pyrummy.server.storage.schema import CHAT, PRESENCE

    settings = FAST
    # A waiting room nobody started: closed after a day, its rows deleted.
    waiting = make_room(client)["room"]["code"]
    client.post(f"/api/rooms/{waiting}/poll", json={"watcher": "w" * 12, "name": "Gleb"})
    assert prune(client, time.time()) == 0
    assert rows(client, PRESENCE, waiting) == 1
    assert prune(client, time.time() + settings.waiting_ttl + 1) == 1
    assert room(client, waiting)["status"] == "closed"
    assert rows(client, PRESENCE, waiting) == 0
    refused(join(client, waiting), 410, "room.closed")
    # A started room: kept while its table is live, however old ...
    code, table, anna, _boris = started_room(client)
    client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(anna))
    client.post(f"/api/rooms/{code}/chat", json={"text": "hi"}, headers=headers(anna))
    assert prune(client, time.time() + 10 * settings.ended_ttl) == 0
    assert rows(client, CHAT, code) == 1
    # ... and for a while after its table ended (closed as abandoned here).
    app: Any = client.app

    async def close() -> None:
        await app.state.tables.close(app.state.tables.tables[table])

    client.portal.call(close)  # type: ignore[union-attr]
    assert prune(client, time.time()) == 0
    assert rows(client, CHAT, code) == 1 and rows(client, PRESENCE, code) == 1
    assert prune(client, time.time() + settings.ended_ttl + 1) == 1
    assert rows(client, CHAT, code) == 0 and rows(client, PRESENCE, code) == 0
    assert room(client, code)["status"] == "closed"
    refused(client.post(f"/api/rooms/{code}/again", headers=headers(anna)), 410, "room.closed")
    # The table page still finds its (closed) room: the players' names stay shown.
    assert client.get(f"/api/tables/{table}/room").json()["code"] == code


def test_stale_watchers_are_forgotten(client: TestClient) -> None:
    from pyrummy.server.storage.schema import PRESENCE

    code, _table, anna, _boris = started_room(client)
    client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(anna))
    for n in range(5):
        client.post(f"/api/rooms/{code}/poll", json={"watcher": f"watcher{n:04d}"})
    assert rows(client, PRESENCE, code) == 6
    prune(client, time.time() + FAST.watcher_ttl + 1)
    assert rows(client, PRESENCE, code) == 1  # the seat's own row stays


def test_turn_timer_choices_come_from_the_settings(tmp_path: Path, db: str | None) -> None:
    short = RoomSettings(tick=3600.0, turn_timer_choices=(0, 2))
    with app_client(tmp_path, database_url=db, rooms=short, bot_workers=0) as client:
        assert client.get("/api/rooms/options").json()["turn_timers"] == [0, 2]
        payload: dict[str, Any] = {"seats": [{"kind": "you"}, {"kind": "open"}], "name": "Anna"}
        refused(
            client.post("/api/rooms", json={**payload, "turn_timer": 30}), 422, "room.bad_timer"
        )
        assert client.post("/api/rooms", json={**payload, "turn_timer": 2}).status_code == 201


def test_the_keeper_asks_the_database_only_while_a_room_may_be_started(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyrummy.server.room_keeper import RoomKeeper

    app: Any = client.app
    rooms = app.state.rooms
    keeper = RoomKeeper(rooms)
    queries = 0
    transaction = rooms.store.transaction

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal queries
        queries += 1
        return transaction(*args, **kwargs)

    def tick(now: float) -> tuple[int, int]:
        nonlocal queries
        queries = 0
        steps: int = client.portal.call(keeper.tick, now)  # type: ignore[union-attr]
        return steps, queries

    monkeypatch.setattr(rooms.store, "transaction", counted)
    created = make_room(client, turn_timer=30, seats=[{"kind": "you"}, {"kind": "open"}])
    code, anna = created["room"]["code"], created["token"]
    boris = join(client, code).json()["token"]
    # No room started: one query finds none; on SQLite (this process alone
    # writes it) the next rounds skip it, on PostgreSQL they ask again.
    assert tick(time.time()) == (0, 1)
    assert tick(time.time()) == (0, 0 if not rooms.store.notifies else 1)
    table = client.post(f"/api/rooms/{code}/start", headers=headers(anna)).json()["table_id"]
    current = state(client, table, anna)["observation"]["current_seat"]
    for token in (anna, boris):
        client.post(f"/api/rooms/{code}/poll", json={}, headers=headers(token))
    # A room started here: the next round looks again, and plays the late turn.
    steps, asked = tick(time.time() + 31)
    assert steps == 1 and asked >= 1
    assert state(client, table, anna)["observation"]["current_seat"] in (current, 1 - current)


def test_a_person_who_resigns_at_a_friends_table_is_replaced_by_a_bot(client: TestClient) -> None:
    code, table, anna, boris = started_room(client)
    response = client.post(f"/api/tables/{table}/resign", headers=headers(boris))
    assert response.status_code == 200, response.text
    answer = response.json()
    # The room's bot level takes the seat; the match goes on for Anna.
    assert answer["resignation"] == {"seat": 1, "ended": False, "bot": "easy"}
    assert answer["over"] is False and answer["seat"] is None
    assert answer["table"]["seats"][1]["kind"] == "bot"
    # Boris's token plays nothing any more, at the table or in the room.
    assert state(client, table, anna)["seat"] == 0
    refused(client.get(f"/api/tables/{table}/state", headers=headers(boris)), 403, "seat.token_bad")
    refused(
        client.post(f"/api/tables/{table}/resign", headers=headers(boris)), 403, "seat.token_bad"
    )
    seats = room(client, code, anna)["seats"]
    assert seats[1]["kind"] == "bot" and seats[1]["bot"] == "easy"
    # The bot plays Boris's turns: Anna plays hers, then the bot its own
    # (never an undo: a taken card put back would be taken again forever).
    while (mine := state(client, table, anna))["observation"]["current_seat"] == 0:
        move = next(a for a in mine["legal_actions"] if a != "undo")
        played = client.post(
            f"/api/tables/{table}/actions",
            json={"action": move},
            headers=headers(anna),
        )
        assert played.status_code == 200, played.text
    if state(client, table, anna)["awaiting_continue"]:
        # Anna's move ended the deal: the bots wait until she has seen it.
        seen = client.post(f"/api/tables/{table}/continue", headers=headers(anna))
        assert seen.status_code == 200, seen.text
    deadline = time.monotonic() + 20
    while state(client, table, anna)["observation"]["current_seat"] == 1:
        assert time.monotonic() < deadline, "the bot did not play the seat"
        time.sleep(0.05)
    assert state(client, table, anna)["over"] is False


def test_a_gin_room_deals_the_chosen_rules(client: TestClient) -> None:
    """Friends choose Gin's rules (standard or the source's) and Oklahoma, as
    the lobby does: the room keeps them and its table is dealt by them; bad
    choices are refused before any room or table exists."""
    two = [{"kind": "you"}, {"kind": "open"}]
    created = make_room(client, preset="gin-standard", options={"oklahoma": True}, seats=two)
    code = created["room"]["code"]
    assert (created["room"]["preset"], created["room"]["options"]) == (
        "gin-standard",
        {"oklahoma": True},
    )
    join(client, code)
    started = client.post(f"/api/rooms/{code}/start", headers=headers(created["token"]))
    assert started.status_code == 200, started.text
    table = started.json()["table_id"]
    info = client.get(f"/api/tables/{table}").json()
    assert info["preset"] == "gin-standard"
    facts = info["rules"]["gin"]
    assert facts["oklahoma"] is True and facts["up_card_offer"] is True
    assert facts["big_gin_bonus"] == 31
    seen = state(client, table, created["token"])["observation"]
    # The first up-card is offered before anybody may draw from the stock.
    assert seen["phase"] == "offer" and seen["knock_limit"] is not None
    # The source's rules: no offer, no Oklahoma unless asked.
    source = make_room(client, preset="gin", seats=two)["room"]
    assert (source["preset"], source["options"]) == ("gin", {})

    def create(**body: Any) -> Any:
        payload: dict[str, Any] = {"seats": two, "name": "Anna", **body}
        response = client.post("/api/rooms", json=payload)
        client.cookies.clear()
        return response

    matches = client.get("/api/matches?status=all").json()["total"]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"preset": "gin-standard", "options": {"oklahoma": "yes"}}, "option oklahoma"),
        ({"preset": "gin-standard", "options": {"oklahoma": 1}}, "option oklahoma"),
        ({"preset": "knock", "options": {"oklahoma": True}}, "applies to gin only"),
        ({"preset": "gin-classic"}, "unknown rules 'gin-classic'"),
        ({"preset": "gin", "options": {"okla": True}}, "unknown option 'okla'"),
    ]
    for body, words in bad:
        response = create(**body)
        refused(response, 400, "request.rejected")
        assert words in response.json()["error"]["message"], (body, response.text)
    assert client.get("/api/matches?status=all").json()["total"] == matches
