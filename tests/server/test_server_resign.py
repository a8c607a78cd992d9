"""``POST /api/tables/{id}/resign``: a person gives the match up.

Alone against bots the match ends, lost by the person, and is stored that
way (history, replay, record); the seat's token and cookie authenticate it
exactly as they do an action; refusals are precise and change nothing. (At a
friends' table a bot takes the seat: tests/server/test_rooms_api.py.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyrummy.core.match import Match
from pyrummy.core.record import parse_record
from pyrummy.server.pile_takes import pile_takes
from server_helpers import act, app_client, create, headers, state


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def against_bots(client: TestClient) -> tuple[str, str]:
    """A table of one person and two bots that have made some moves: (id, token)."""
    created = create(client, bots=["easy", "easy"], bot_delay=0)
    client.cookies.clear()  # the header authenticates, unless a test says otherwise
    return created["table"]["id"], created["token"]


def resign(client: TestClient, table_id: str, token: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/resign", headers=headers(token))


def test_alone_against_bots_the_match_ends_lost_by_the_person(client: TestClient) -> None:
    table_id, token = against_bots(client)
    response = resign(client, table_id, token)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["resignation"] == {"seat": 0, "ended": True, "bot": None}
    assert answer["over"] is True and answer["resigned"] == 0
    assert answer["table"]["status"] == "over" and answer["match"]["over"] is True
    # The score sheet the page shows names the bots as winners, whatever the totals.
    assert answer["match"]["winners"] == [1, 2]
    assert answer["seat"] == 0 and answer["legal_actions"] == []
    # The table as anybody reads it now, and the bots no longer move.
    seq = answer["seq"]
    after = state(client, table_id, token)
    assert (after["over"], after["resigned"], after["seq"]) == (True, 0, seq)
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
    # The history lists the match as lost by the person's resignation.
    listed = client.get("/api/matches").json()["matches"]
    assert [m["id"] for m in listed] == [table_id]
    assert listed[0]["resigned"] == 0 and listed[0]["result"]["resigned"] == 0
    assert 0 not in listed[0]["result"]["winners"]
    assert listed[0]["result"]["winners"] == [1, 2]
    assert client.get(f"/api/matches/{table_id}/replay").json()["resigned"] == 0


def test_a_resigned_match_has_a_record_that_replays(client: TestClient) -> None:
    table_id, token = against_bots(client)
    resign(client, table_id, token)
    record = client.get(f"/api/matches/{table_id}/record")
    assert record.status_code == 200
    assert "# resigned: seat 1" in record.text
    replayed = parse_record(record.text)
    assert isinstance(replayed, Match) and not replayed.is_over
    # The record replays to the position the person left, and writes itself back
    # the same, each card taken from the pile named as the server names it.
    taken = [pile_takes(deal) for deal in replayed.deals]
    assert (
        replayed.record(seed=True, taken=taken).strip()
        == record.text.replace("# resigned: seat 1\n", "").strip()
    )
    actions = client.get(f"/api/matches/{table_id}/replay").json()["actions"]
    moves = sum(len(deal.history) for deal in replayed.finished_deals) + len(replayed.deal.history)
    assert moves == len(actions)


def test_a_second_resignation_is_refused_and_changes_nothing(client: TestClient) -> None:
    table_id, token = against_bots(client)
    assert resign(client, table_id, token).status_code == 200
    before = state(client, table_id, token)
    again = resign(client, table_id, token)
    assert again.status_code == 409 and again.json()["error"]["code"] == "match.over"
    late = act(client, table_id, token, "draw stock")
    assert late.status_code == 409
    assert state(client, table_id, token) == before


def test_resigning_needs_the_seat_and_a_table(client: TestClient) -> None:
    table_id, token = against_bots(client)
    before = state(client, table_id, token)["seq"]
    spectator = resign(client, table_id, None)
    assert spectator.status_code == 401
    assert spectator.json()["error"]["code"] == "seat.token_missing"
    stranger = resign(client, table_id, "not-a-seat-token")
    assert stranger.status_code == 403 and stranger.json()["error"]["code"] == "seat.token_bad"
    unknown = resign(client, "0123456789ab", token)
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "table.not_found"
    now = state(client, table_id, token)
    assert now["over"] is False and now["resigned"] is None and now["seq"] >= before


def test_the_seat_cookie_resigns_as_the_header_does(client: TestClient) -> None:
    created = create(client, bots=["easy"], bot_delay=0)  # the cookie stays in the client
    response = client.post(f"/api/tables/{created['table']['id']}/resign")
    assert response.status_code == 200 and response.json()["resigned"] == 0


def test_open_sockets_see_the_resignation(client: TestClient) -> None:
    created = create(client, bots=["easy"], bot_delay=10)  # the bot waits: a quiet socket
    client.cookies.clear()
    table_id, token = created["table"]["id"], created["token"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=headers(token)) as ws:
        assert ws.receive_json()["type"] == "state"
        assert resign(client, table_id, token).status_code == 200
        message = ws.receive_json()
        assert message["type"] == "state"
        assert message["state"]["over"] is True and message["state"]["resigned"] == 0


def test_a_resignation_survives_a_restart(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        table_id, token = against_bots(client)
        seq = resign(client, table_id, token).json()["seq"]
    with app_client(tmp_path) as client:
        after = state(client, table_id, token)
        assert (after["over"], after["resigned"], after["seq"]) == (True, 0, seq)
        assert after["table"]["status"] == "over"
