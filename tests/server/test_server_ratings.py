"""Rated matches on the server: rated once, the leaderboard, and every refusal.

Each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyrummy.ratings import PROVISIONAL_MATCHES
from pyrummy.server.services import Services
from pyrummy.server.storage import SeatSpec
from pyrummy.server.tables import new_table_spec
from server_helpers import app_client, create, headers


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> str | None:
    if request.param == "sqlite":
        return None
    from db_fixtures import fresh_postgres_database

    url: str = fresh_postgres_database(request.getfixturevalue("postgres_server"))
    return url


@pytest.fixture
def client(tmp_path: Path, db: str | None) -> Iterator[TestClient]:
    with app_client(tmp_path, database_url=db, bot_workers=0) as test_client:
        yield test_client


def services_of(client: TestClient) -> Services:
    services: Services = client.app.state.services  # type: ignore[attr-defined]
    return services


def profile_id(client: TestClient) -> str:
    """The caller's profile, made by a first (unrated) play."""
    create(client, preset="knock", humans=1, bots=["easy"], name="Anna")
    response = client.get("/api/profile")
    assert response.status_code == 200, response.text
    found: str = response.json()["profile"]["id"]
    return found


def rated_table(client: TestClient, profile: str) -> tuple[str, str]:
    """A rated Knock table: the profile against the Easy bot; (table id, seat token)."""
    services = services_of(client)
    seats = [SeatSpec("human", None, "Anna", profile), SeatSpec("bot", "easy")]
    spec = new_table_spec("knock", {}, seats, 0.0)
    spec = type(spec)(**{**spec.__dict__, "rated": True})

    async def make() -> tuple[str, str]:
        table, tokens = await services.tables.create(spec)
        token = tokens[0]
        assert token is not None
        return table.table_id, token

    return client.portal.call(make)  # type: ignore[union-attr]


def rating_of(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/rating")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_a_resigned_rated_match_is_a_loss_rated_once(client: TestClient) -> None:
    me = profile_id(client)
    table_id, token = rated_table(client, me)
    assert client.get(f"/api/tables/{table_id}/state", headers=headers(token)).json()["table"][
        "rated"
    ]
    assert rating_of(client, table_id) == {
        "rated": True,
        "over": False,
        "changes": [],
        "provisional_matches": PROVISIONAL_MATCHES,
    }
    assert client.post(f"/api/tables/{table_id}/resign", headers=headers(token)).status_code == 200
    first = rating_of(client, table_id)
    assert first["rated"] and first["over"]
    [change] = first["changes"]
    assert change["seat"] == 0 and change["place"] == 2
    assert change["change"] < 0 and change["before"]["rating"] == 1000
    assert change["after"]["matches"] == 1 and change["after"]["provisional"]
    # the page says how many more matches the provisional rating needs
    assert first["provisional_matches"] == PROVISIONAL_MATCHES
    # asked again, and rated again by hand twice at once: the same change, one match
    assert rating_of(client, table_id) == first
    services = services_of(client)

    async def twice() -> list[Any]:
        table = await services.tables.get(table_id)
        result = table.result() | {"resigned": 0}
        return list(
            await asyncio.gather(
                services.ratings.rate(table.spec, result), services.ratings.rate(table.spec, result)
            )
        )

    again = client.portal.call(twice)  # type: ignore[union-attr]
    assert [[c.to_dict() for c in changes] for changes in again] == [first["changes"]] * 2
    mine = client.get("/api/profile/ratings").json()["ratings"]
    assert [(r["preset"], r["matches"]) for r in mine] == [("knock", 1)]
    assert mine[0]["rating"] == change["after"]["rating"]

    board = client.get("/api/leaderboard/knock").json()
    assert [(p["place"], p["name"], p["you"]) for p in board["players"]] == [(1, "Anna", True)]
    assert board["you"]["place"] == 1 and board["you"]["rating"] == mine[0]["rating"]
    assert {b["bot"] for b in board["bots"]} >= {"simple", "random"}
    # another browser (no profile) sees the board but no place of its own
    client.cookies.clear()
    other = client.get("/api/leaderboard/knock").json()
    assert other["you"] is None and not other["players"][0]["you"]


def test_an_unrated_match_changes_nothing(client: TestClient) -> None:
    made = create(client, preset="knock", humans=1, bots=["easy"], name="Anna")
    table_id, token = made["table"]["id"], made["token"]
    assert made["table"]["rated"] is False
    assert client.post(f"/api/tables/{table_id}/resign", headers=headers(token)).status_code == 200
    assert rating_of(client, table_id) == {
        "rated": False,
        "over": True,
        "changes": [],
        "provisional_matches": PROVISIONAL_MATCHES,
    }
    assert client.get("/api/profile/ratings").json()["ratings"] == []
    assert client.get("/api/leaderboard/knock").json()["players"] == []


def test_refusals(client: TestClient) -> None:
    assert client.get("/api/leaderboard/no-such-game").status_code == 404
    assert client.get("/api/leaderboard/knock?limit=1000").status_code == 422
    assert client.get("/api/leaderboard/knock?limit=0").status_code == 422
    assert client.get("/api/profile/ratings").status_code == 404
    assert client.get("/api/tables/ffffffffffff/rating").status_code == 404
    # an alias is the game itself
    assert client.get("/api/leaderboard/gin").json()["preset"] == "gin"


def test_only_the_creator_makes_a_room_rated_before_the_start(client: TestClient) -> None:
    made = client.post(
        "/api/rooms",
        json={"seats": [{"kind": "you"}, {"kind": "open"}], "name": "Anna", "rated": True},
    )
    assert made.status_code == 201, made.text
    client.cookies.clear()
    code, anna = made.json()["room"]["code"], made.json()["token"]
    assert made.json()["room"]["rated"] is True
    joined = client.post(f"/api/rooms/{code}/join", json={"name": "Boris"})
    client.cookies.clear()
    boris = joined.json()["token"]
    refused = client.put(f"/api/rooms/{code}/rated", json={"rated": False}, headers=headers(boris))
    assert refused.status_code == 403
    assert client.get(f"/api/rooms/{code}").json()["rated"] is True
    assert (
        client.put(
            f"/api/rooms/{code}/rated", json={"rated": "yes"}, headers=headers(anna)
        ).status_code
        == 422
    )
    assert (
        client.put(f"/api/rooms/{code}/rated", json={"rated": False}, headers=headers(anna)).json()[
            "rated"
        ]
        is False
    )
    assert (
        client.put(f"/api/rooms/{code}/rated", json={"rated": True}, headers=headers(anna)).json()[
            "rated"
        ]
        is True
    )
    started = client.post(f"/api/rooms/{code}/start", headers=headers(anna))
    assert started.status_code == 200, started.text
    table_id = started.json()["table_id"]
    assert client.get(f"/api/tables/{table_id}").json()["rated"] is True
    late = client.put(f"/api/rooms/{code}/rated", json={"rated": False}, headers=headers(anna))
    assert late.status_code == 409
    assert client.get(f"/api/rooms/{code}").json()["rated"] is True
