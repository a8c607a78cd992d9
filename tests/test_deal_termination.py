"""Every deal ends, whatever the players do.

Undo makes loops possible inside one turn (draw the discard, undo, draw it
again...); the turn cap alone cannot end them, because it counts turns. The
per-turn undo limit does. These policies always pick the first or the last
legal action in the sorted order, which is exactly what finds such loops.
"""

from __future__ import annotations

import pytest

from pyrummy.core.deal import UNDO_LIMIT, new_deal
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.rules import PRESETS

# Generous: a turn has at most (UNDO_LIMIT + 1) * (hand size + 2) actions.
ACTION_BOUND = 200_000

CASES = [
    (name, players)
    for name, rules in PRESETS.items()
    for players in sorted({rules.min_players, rules.max_players})
]


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("pick", ["first", "last"])
def test_always_the_same_end_of_the_list_still_ends(preset: str, players: int, pick: str) -> None:
    for seed in range(3):
        deal = new_deal(preset, players=players, seed=seed, dealer=0)
        steps = 0
        while not deal.is_over:
            actions = deal.legal_actions()
            deal.apply(actions[0] if pick == "first" else actions[-1])
            steps += 1
            assert steps < ACTION_BOUND
        assert deal.turn <= deal.rules.turn_cap + 1
        assert deal.settlement is not None


def test_undo_limit_refuses_with_a_reason_and_changes_nothing() -> None:
    deal = new_deal("knock", players=2, seed=3, dealer=0)
    for _ in range(UNDO_LIMIT):
        deal.apply("draw discard")
        deal.apply("undo")
    deal.apply("draw discard")
    assert "undo" not in [str(a) for a in deal.legal_actions()]
    before = deal.observe(deal.current_seat).to_dict()
    with pytest.raises(IllegalActionError, match="no more undos this turn"):
        deal.apply("undo")
    assert deal.observe(deal.current_seat).to_dict() == before
    # The next turn starts with a fresh allowance.
    deal.apply(next(a for a in deal.legal_actions() if str(a).startswith("discard")))
    deal.apply("draw discard")
    assert "undo" in [str(a) for a in deal.legal_actions()]
