"""The card each "draw discard" took, named by the server (it lay face up):
the Moves list of every deal, the live messages and the replay say
"took 7♥ from the discard pile", older deals and undone steps included."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import PRESETS
from pyrummy.server.pile_takes import PileTakes, pile_takes
from pyrummy.server.views import live_state
from server_helpers import act, app_client, create, state


def played_with_truth(preset: str, seed: int) -> tuple[Deal, list[str]]:
    """A deal played at random to its end (undo included where the game has
    it), and the pile's top before each "draw discard", read as it was played."""
    rng = random.Random(seed)
    deal = new_deal(preset, 2 if preset != "rummy" else 3, seed=seed)
    truth: list[str] = []
    for _ in range(400):
        legal = deal.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        if action.kind is ActionKind.DRAW_DISCARD:
            truth.append(str(deal.discard_pile[-1]))
        deal.apply(action)
    return deal, truth


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_replay_names_what_each_draw_took(preset: str) -> None:
    for seed in range(6):
        deal, truth = played_with_truth(preset, seed)
        assert pile_takes(deal) == truth, (preset, seed)


def test_a_deal_followed_move_by_move_names_the_same_cards() -> None:
    deal = new_deal("rotham", 3, seed=11)
    rng = random.Random(4)
    follower = PileTakes(deal)
    truth: list[str] = []
    while deal.legal_actions() and len(deal.history) < 300:
        action = rng.choice(deal.legal_actions())
        if action.kind is ActionKind.DRAW_DISCARD:
            truth.append(str(deal.discard_pile[-1]))
        deal.apply(action)
        assert follower.follows(deal)
        assert follower.update(deal) == truth
    assert not follower.follows(new_deal("rotham", 3, seed=11))


def test_the_table_state_names_the_taken_card(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(client, preset="knock", bots=["easy"], seed=5)
        table_id, token = created["table"]["id"], created["token"]
        first = state(client, table_id, token)
        up = first["observation"]["discard_pile"][-1]
        assert first["taken_cards"] == [[]]
        act(client, table_id, token, "draw discard")
        after = state(client, table_id, token)
        assert [after["seat"], "draw discard"] in after["observation"]["history"]
        assert after["taken_cards"][-1][0] == up
        # A live message carries the current deal's list in the same place.
        live = live_state(after)
        assert live["taken_cards"][live["deals_from"] :][-1][0] == up
        # Illegal input still changes nothing and names nothing.
        refused = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": "draw discard"},
            headers={"X-Seat-Token": token},
        )
        assert refused.status_code in (400, 409)
        assert state(client, table_id, token)["taken_cards"] == after["taken_cards"]


def test_the_replay_and_a_finished_deal_name_the_taken_card(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        created = create(
            client, preset="knock", bots=[], humans=2, options={"match_end": "deals", "deals": 1}
        )
        table_id = created["table"]["id"]
        tokens = {entry["seat"]: entry["token"] for entry in created["tokens"]}
        seat = state(client, table_id, tokens[0])["observation"]["current_seat"]
        up = state(client, table_id, tokens[seat])["observation"]["discard_pile"][-1]
        drawn = act(client, table_id, tokens[seat], "draw discard").json()
        knock = next(a for a in drawn["legal_actions"] if a.startswith("knock"))
        final = act(client, table_id, tokens[seat], knock).json()
        assert final["match"]["over"]
        # The finished deal keeps its list (the Moves list after a reload).
        assert final["taken_cards"] == [[up]]
        taken = client.get(f"/api/matches/{table_id}/replay?step=1").json()
        assert taken["action"] == {"seat": seat, "text": "draw discard", "taken": up}
        end = client.get(f"/api/matches/{table_id}/replay").json()
        assert end["action"]["taken"] is None
