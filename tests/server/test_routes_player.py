"""The person's extras beside the table API: the hint (routes_player)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from server_helpers import act, app_client, create, headers, state, wait_for


def my_turn(client: TestClient, table_id: str, token: str) -> bool:
    return bool(state(client, table_id, token)["legal_actions"])


def test_hint_names_a_legal_move_with_a_reason(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(client, preset="knock", bots=["easy"], humans=1, seed=7)
        table_id, token = created["table"]["id"], created["token"]
        for _ in range(3):
            wait_for(lambda: my_turn(client, table_id, token))  # the bot may be moving
            seen = state(client, table_id, token)
            response = client.get(f"/api/tables/{table_id}/hint", headers=headers(token))
            assert response.status_code == 200, response.text
            hint = response.json()
            assert hint["action"] in seen["legal_actions"]
            assert hint["reason"].startswith("hint.")
            if hint["reason"] in ("hint.discard", "hint.knock"):
                assert hint["action"].split()[1] == hint["values"]["card"]
            # The same position gives the same hint.
            again = client.get(f"/api/tables/{table_id}/hint", headers=headers(token)).json()
            assert again == hint
            act(client, table_id, token, hint["action"])
            if hint["reason"] == "hint.knock":
                break


def test_hint_refused_without_a_seat_or_out_of_turn(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(client, preset="knock", bots=["easy"], humans=1, seed=7)
        table_id, token = created["table"]["id"], created["token"]
        before = state(client, table_id, token)
        client.cookies.clear()  # the seat cookie set by create would identify us
        spectator = client.get(f"/api/tables/{table_id}/hint")
        assert spectator.status_code == 401
        assert client.get("/api/tables/nope/hint", headers=headers(token)).status_code == 404
        wait_for(lambda: my_turn(client, table_id, token))
        act(client, table_id, token, "draw stock")
        hand = state(client, table_id, token)["observation"]["hand"]
        act(client, table_id, token, f"discard {hand[0]}")
        # Right after our discard it is the bot's turn (or, with no delay, ours
        # again): either a 409 or a legal move, never a 5xx.
        response = client.get(f"/api/tables/{table_id}/hint", headers=headers(token))
        assert response.status_code in (200, 409), response.text
        assert before["seq"] < state(client, table_id, token)["seq"]
