"""Quick match: the queue, seating, bot fill, leaving, cooldowns and every refusal.

Each person is a client of their own (their own cookies: player and ticket)
on one app. Every refused request is a precise 4xx that stores nothing and
seats nobody. Each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db_fixtures import committed_rows
from pyrummy.server.settings import QuickSettings, RateLimits
from server_helpers import app_client, headers, state

#: No background round: the tests' polls do the seating, at their pace.
STILL = QuickSettings(tick=3600.0)


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[TestClient]:
    with app_client(tmp_path, bot_workers=0, quick=STILL) as test_client:
        yield test_client


def person(client: TestClient) -> TestClient:
    """Another person's browser on the same server: cookies of its own, the
    app's event loop shared (the database's connections belong to it)."""
    other = TestClient(client.app)
    other.portal = client.portal
    return other


def join(who: TestClient, preset: str = "gin", players: int = 2, **body: Any) -> Any:
    payload: dict[str, Any] = {"preset": preset, "players": players, "name": "Anna"}
    payload.update(body)
    return who.post("/api/quick/join", json=payload, headers={"Accept-Language": "en"})


def joined(who: TestClient, preset: str = "gin", players: int = 2, **body: Any) -> dict[str, Any]:
    response = join(who, preset, players, **body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def poll(who: TestClient) -> dict[str, Any]:
    response = who.post("/api/quick/poll")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def queue_rows(url: str) -> list[tuple[Any, ...]]:
    return committed_rows(url, "SELECT player, preset, players, status FROM quick_queue")


def table_count(url: str) -> int:
    return int(committed_rows(url, "SELECT count(*) FROM tables")[0][0])


def test_two_people_for_gin_are_seated_together(client: TestClient, database_url: str) -> None:
    anna, boris = person(client), person(client)
    first = joined(anna, name="Anna", bot_wait=None)
    assert first["status"] == "waiting" and first["waiting"] == 1 and first["position"] == 1
    assert client.get("/api/quick").json()["queues"][0]["preset"]
    counts = {
        (q["preset"], q["players"]): q["waiting"] for q in client.get("/api/quick").json()["queues"]
    }
    assert counts[("gin", 2)] == 1 and counts[("knock", 2)] == 0
    second = joined(boris, name="Boris", bot_wait=None)
    assert second["status"] == "seated"
    seated = poll(anna)
    assert seated["status"] == "seated" and seated["table_id"] == second["table_id"]
    assert {seated["seat"], second["seat"]} == {0, 1}
    table_id = seated["table_id"]
    for view in (seated, second):
        seen = state(client, table_id, view["token"])
        assert seen["seat"] == view["seat"]
        assert [s["kind"] for s in seen["table"]["seats"]] == ["human", "human"]
    names = {s["name"] for s in state(client, table_id, None)["table"]["seats"]}
    assert names == {"Anna", "Boris"}
    rated = committed_rows(
        database_url, "SELECT rated, seat_players_json, left_json FROM quick_matches"
    )
    assert len(rated) == 1 and bool(rated[0][0]) and rated[0][2] == "[]"
    # The seat cookie came with the answer: the page needs no header.
    assert boris.get(f"/api/tables/{table_id}/state").json()["seat"] == second["seat"]


def test_the_operator_chooses_a_shorter_match(tmp_path: Path, database_url: str) -> None:
    """``PYRUMMY_QUICK_TARGET``: quick matches of a game played to a score
    play to it; a game of a fixed number of deals keeps its own."""
    with app_client(tmp_path, bot_workers=0, quick=QuickSettings(tick=3600.0, target=10)) as app:
        anna, boris = person(app), person(app)
        joined(anna, name="Anna", bot_wait=None)
        table_id = joined(boris, name="Boris", bot_wait=None)["table_id"]
        rules = state(app, table_id, None)["table"]["rules"]
        assert (rules["name"], rules["match_end"], rules["target"]) == ("gin", "target", 10)
        vera, dan = person(app), person(app)
        joined(vera, "rotham", 2, name="Vera", bot_wait=None)
        table_id = joined(dan, "rotham", 2, name="Dan", bot_wait=None)["table_id"]
        rules = state(app, table_id, None)["table"]["rules"]
        assert (rules["match_end"], rules["deals"], rules["target"]) == ("deals", 6, 100)


def test_four_people_for_knock_and_the_fifth_waits(client: TestClient, database_url: str) -> None:
    people = [person(client) for _ in range(5)]
    views = [joined(p, "knock", 4, name=f"P{i}", bot_wait=None) for i, p in enumerate(people)]
    assert [v["status"] for v in views[:3]] == ["waiting"] * 3
    assert views[3]["status"] == "seated" and views[4]["status"] == "waiting"
    # The fourth was seated by her own join (her page needs no poll).
    seats = [*(poll(p) for p in people[:3]), views[3]]
    assert len({s["table_id"] for s in seats}) == 1
    assert sorted(s["seat"] for s in seats) == [0, 1, 2, 3]
    assert poll(people[4])["position"] == 1
    assert table_count(database_url) == 1


def test_bots_fill_the_empty_seats_after_the_chosen_wait(client: TestClient) -> None:
    anna, boris = person(client), person(client)
    waiting = joined(anna, "knock", 3, bot_wait=1, bot="easy")
    assert waiting["status"] == "waiting" and 0 < waiting["bots_in"] <= 1
    never = joined(boris, "knock", 3, bot_wait=None, name="Boris")
    assert never["status"] == "waiting"
    time.sleep(1.1)
    seated = poll(anna)
    assert seated["status"] == "seated"
    seen = state(client, seated["table_id"], seated["token"])
    kinds = sorted((s["kind"], s.get("bot")) for s in seen["table"]["seats"])
    assert kinds == [("bot", "easy"), ("bot", "easy"), ("human", None)]
    # Boris chose no bots: he waits on.
    assert poll(boris)["status"] == "waiting"


def test_leaving_is_one_click_and_stores_nothing(client: TestClient, database_url: str) -> None:
    anna, boris = person(client), person(client)
    joined(anna, bot_wait=None)
    assert anna.post("/api/quick/leave").json() == {"left": True}
    assert queue_rows(database_url) == []
    assert anna.post("/api/quick/poll").status_code == 401  # the ticket's cookie went too
    assert anna.post("/api/quick/leave").status_code == 401
    joined(boris, bot_wait=None)
    assert poll(boris)["status"] == "waiting"
    assert table_count(database_url) == 0


def test_a_closed_tab_leaves_the_queue(tmp_path: Path, database_url: str) -> None:
    settings = QuickSettings(tick=3600.0, expire_after=0.5)
    with app_client(tmp_path, bot_workers=0, quick=settings) as client:
        anna, boris = person(client), person(client)
        joined(anna, bot_wait=None)
        time.sleep(0.7)
        # Anna's page stopped polling: Boris is not seated with her.
        assert joined(boris, bot_wait=None)["status"] == "waiting"
        assert anna.post("/api/quick/poll").status_code == 404
        tick(client)
        # The round forgets her entry; Boris's, polled, stays.
        assert [row[3] for row in queue_rows(database_url)] == ["waiting"]
        assert poll(boris)["waiting"] == 1


def tick(client: TestClient) -> None:
    """One background round, as the server runs it (in the app's own loop)."""
    services = client.app.state.services  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(services.quick.tick)


def test_two_queues_at_once_are_refused(client: TestClient, database_url: str) -> None:
    anna = person(client)
    joined(anna, "gin", 2, bot_wait=None)
    before = queue_rows(database_url)
    second = join(anna, "knock", 3, bot_wait=None)
    assert second.status_code == 409
    assert second.json()["error"]["code"] == "quick.already_queued"
    assert "gin" in second.json()["error"]["message"]
    assert queue_rows(database_url) == before


def test_refusals_are_precise_and_store_nothing(client: TestClient, database_url: str) -> None:
    anna = person(client)
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"preset": "nope"}, 422, "quick.bad_game"),
        ({"players": 7}, 422, "request.invalid"),
        ({"preset": "gin", "players": 5}, 422, "quick.bad_game"),
        ({"preset": "knock", "players": 4, "bot": "learned"}, 422, "quick.bad_bot"),
        ({"bot_wait": 100_000}, 422, "request.invalid"),
        ({"bot_wait": 601}, 422, "quick.bad_wait"),
        ({"name": "<b>"}, 422, "request.invalid"),
        ({"extra": 1}, 422, "request.invalid"),
    ]
    for body, status, code in cases:
        response = join(anna, **body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"]["code"] == code, body
    assert queue_rows(database_url) == [] and table_count(database_url) == 0
    forged = client.post("/api/quick/poll", headers={"X-Queue-Ticket": "forged-ticket"})
    assert forged.status_code == 404 and forged.json()["error"]["code"] == "quick.not_queued"
    assert client.post("/api/quick/poll").status_code == 401
    assert (
        client.post("/api/quick/leave", headers={"X-Queue-Ticket": "x" * 5000}).status_code == 404
    )


def test_leaving_mid_seat_keeps_the_seat(client: TestClient, database_url: str) -> None:
    anna, boris = person(client), person(client)
    joined(anna, bot_wait=None)
    seated = joined(boris, bot_wait=None)
    # Seated: the queue's cookie is gone; the ticket itself still says why.
    assert boris.post("/api/quick/leave").status_code == 401
    refused = boris.post("/api/quick/leave", headers={"X-Queue-Ticket": seated["ticket"]})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "quick.seated"
    seen = state(client, seated["table_id"], seated["token"])
    assert seen["seat"] == seated["seat"]
    # A forged seat token plays nothing there.
    forged = client.get(f"/api/tables/{seated['table_id']}/state", headers=headers("forged"))
    assert forged.status_code == 403
    assert table_count(database_url) == 1


def _seated_pair(
    client: TestClient,
) -> tuple[TestClient, dict[str, Any], TestClient, dict[str, Any]]:
    anna, boris = person(client), person(client)
    joined(anna, bot_wait=None, name="Anna")
    second = joined(boris, bot_wait=None, name="Boris")
    return anna, poll(anna), boris, second


def test_a_leaver_is_replaced_charged_and_cooled_down(tmp_path: Path, database_url: str) -> None:
    settings = QuickSettings(tick=3600.0, free_leaves=0, cooldowns=(300, 3600))
    with app_client(tmp_path, bot_workers=0, quick=settings) as client:
        anna, first, boris, second = _seated_pair(client)
        table_id = first["table_id"]
        resigned = client.post(f"/api/tables/{table_id}/resign", headers=headers(first["token"]))
        assert resigned.status_code == 200, resigned.text
        assert resigned.json()["resignation"]["ended"] is False
        seats = state(client, table_id, second["token"])["table"]["seats"]
        assert seats[first["seat"]]["kind"] == "bot"
        left = committed_rows(database_url, "SELECT left_json FROM quick_matches")
        assert left == [(f"[{first['seat']}]",)]
        assert len(committed_rows(database_url, "SELECT player FROM quick_leaves")) == 1
        # Cooled down: refused with the seconds left, in the person's language.
        refused = anna.post(
            "/api/quick/join",
            json={"preset": "gin", "players": 2, "name": "Anna"},
            headers={"Accept-Language": "ru"},
        )
        assert refused.status_code == 403
        error = refused.json()["error"]
        assert error["code"] == "quick.cooldown" and 295 <= error["retry_after"] <= 300
        assert refused.headers["retry-after"] == str(error["retry_after"])
        assert "мин" in error["message"]
        assert anna.get("/api/quick").json()["cooldown"]["seconds"] > 290
        assert boris.get("/api/quick").json()["cooldown"] is None
        assert len(queue_rows(database_url)) == 2  # the two seated entries, nothing new


def test_the_first_leave_of_a_day_costs_only_the_match(client: TestClient) -> None:
    anna, first, _boris, _second = _seated_pair(client)
    response = client.post(
        f"/api/tables/{first['table_id']}/resign", headers=headers(first["token"])
    )
    assert response.status_code == 200
    assert anna.get("/api/quick").json()["cooldown"] is None
    assert join(anna, bot_wait=None).status_code == 201


def test_a_person_who_lets_the_turn_run_out_leaves(tmp_path: Path, database_url: str) -> None:
    settings = QuickSettings(tick=3600.0, turn_limit=0.5)
    with app_client(tmp_path, bot_workers=0, quick=settings) as client:
        _anna, first, _boris, _second = _seated_pair(client)
        table_id = first["table_id"]
        to_play = state(client, table_id, None)["observation"]["current_seat"]
        time.sleep(0.7)
        tick(client)
        seats = state(client, table_id, None)["table"]["seats"]
        assert seats[to_play]["kind"] == "bot"
        assert committed_rows(database_url, "SELECT seat FROM quick_leaves") == [(to_play,)]


def test_queue_joins_are_rate_limited(tmp_path: Path) -> None:
    limits = RateLimits(create=None, act=None, connect=None, queue="2/minute")
    with app_client(tmp_path, bot_workers=0, quick=STILL, rate_limits=limits) as client:
        anna = person(client)
        assert join(anna, bot_wait=None).status_code == 201
        assert anna.post("/api/quick/leave").status_code == 200
        assert join(anna, bot_wait=None).status_code == 201
        flood = join(anna, bot_wait=None)
        assert flood.status_code == 429 and int(flood.headers["retry-after"]) > 0


def test_two_processes_seat_everyone_once(database_url: str) -> None:
    """Two servers' matchers on one database, racing over 40 people: each
    person is seated exactly once, every table is full, nobody is left."""
    import asyncio

    from pyrummy.server.quick import QuickMatch
    from pyrummy.server.storage import Store
    from pyrummy.server.tables import TableManager

    async def race() -> None:
        stores = [await Store.open(database_url) for _ in range(2)]
        # SQLite is served by one process: there the two matchers share it.
        if not stores[0].notifies:
            stores[1] = stores[0]
        quick = [QuickMatch(s, TableManager(s), STILL, 0.0) for s in stores]
        now = time.time()
        for i in range(40):
            assert await quick[0].rows.join(
                {
                    "player": f"p{i}",
                    "ticket_digest": f"{i:064d}",
                    "preset": "gin",
                    "players": 2,
                    "name": f"P{i}",
                    "bot_wait": None,
                    "bot_level": "easy",
                    "joined_at": now + i / 1000,
                    "seen_at": now,
                }
            )
        await asyncio.gather(*(q.match("gin", 2) for q in quick for _ in range(3)))
        for q in quick:
            await q.tables.stop()
        for s in set(stores):
            await s.close()

    asyncio.run(race())
    rows = committed_rows(database_url, "SELECT player, status, table_id, seat FROM quick_queue")
    assert len(rows) == 40 and {row[1] for row in rows} == {"seated"}
    by_table: dict[str, set[int]] = {}
    for _player, _status, table_id, seat in rows:
        by_table.setdefault(table_id, set()).add(seat)
    assert len(by_table) == 20 and all(seats == {0, 1} for seats in by_table.values())
    assert table_count(database_url) == 20
