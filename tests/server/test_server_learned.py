"""The learned bot at a web table: seated where its weights ship, refused elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from server_helpers import act, app_client, create, state, wait_for


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def test_a_person_plays_knock_against_the_learned_bot(client: TestClient) -> None:
    created = create(client, preset="knock", bots=["learned"], bot_delay=0)
    table_id, token = created["table"]["id"], created["token"]
    # Play the person's turns with the first legal action until the first deal is over.
    for _ in range(200):
        now = state(client, table_id, token)
        if now["observation"]["phase"] == "over" or now["match"]["deals_played"]:
            break
        if now["legal_actions"]:
            legal = [a for a in now["legal_actions"] if not a.startswith("undo")]
            response = act(client, table_id, token, legal[0])
            assert response.status_code == 200, response.text
        else:
            seq = now["seq"]
            wait_for(lambda seq=seq: state(client, table_id, token)["seq"] != seq)
    final = state(client, table_id, token)
    assert final["match"]["deals_played"] >= 1 or final["observation"]["phase"] == "over"
    bots = [m for m in client.get("/api/bots").json()["bots"] if m["name"] == "learned"]
    assert bots[0]["difficulty"] is False and bots[0]["summary"]
    # Its own weights' games, and the gin presets that share gin's weights.
    assert bots[0]["games"] == [
        {"preset": name, "players": 2} for name in ("knock", "gin", "gin-standard", "gin-openspiel")
    ]


@pytest.mark.parametrize(
    ("preset", "bots"),
    [("rummy", ["learned"]), ("knock", ["learned", "learned"]), ("knock-target", ["learned"])],
)
def test_a_game_it_does_not_play_is_refused_and_nothing_is_stored(
    client: TestClient, preset: str, bots: list[str]
) -> None:
    response = client.post("/api/tables", json={"preset": preset, "bots": bots})
    assert 400 <= response.status_code < 500, response.text
    assert "learned bot does not play" in response.text
    assert client.get("/api/matches").json()["matches"] == []
