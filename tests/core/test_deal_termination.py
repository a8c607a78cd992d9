"""Every deal ends, whatever the players do, once they stop undoing.

Undo has no limit for people (seed 001: «До сброса любой шаг можно
отменить»), so undo makes loops possible inside one turn (draw the discard,
undo, draw it again...) that the turn cap cannot end: it counts turns. Bots
and the research environments never undo; any other automatic player must
bound undo itself, as these policies do. They always pick the first or the
last legal action in the sorted order (exactly what finds such loops) but
undo at most ``UNDOS_PER_TURN`` times in one turn.
"""

from __future__ import annotations

import pytest

from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import PRESETS

UNDOS_PER_TURN = 3
# Generous: a turn has at most (UNDOS_PER_TURN + 1) * (hand size + 2) actions.
ACTION_BOUND = 200_000

CASES = [
    (name, players)
    for name, rules in PRESETS.items()
    for players in sorted({rules.min_players, rules.max_players})
]


def play_to_the_end(deal: Deal, pick: str) -> int:
    """Play first/last actions, bounding undo on the caller's side; return the steps."""
    steps = 0
    undos = 0
    turn = deal.turn
    while not deal.is_over:
        if deal.turn != turn:
            turn, undos = deal.turn, 0
        actions = deal.legal_actions()
        if undos >= UNDOS_PER_TURN:
            actions = [a for a in actions if a.kind is not ActionKind.UNDO]
        action = actions[0] if pick == "first" else actions[-1]
        undos += action.kind is ActionKind.UNDO
        deal.apply(action)
        steps += 1
        assert steps < ACTION_BOUND
    return steps


@pytest.mark.parametrize(("preset", "players"), CASES)
@pytest.mark.parametrize("pick", ["first", "last"])
def test_always_the_same_end_of_the_list_still_ends(preset: str, players: int, pick: str) -> None:
    for seed in range(3):
        deal = new_deal(preset, players=players, seed=seed, dealer=0)
        play_to_the_end(deal, pick)
        assert deal.turn <= deal.rules.turn_cap + 1
        assert deal.settlement is not None


def test_undo_has_no_limit_in_a_turn() -> None:
    """Seed 001: «До сброса любой шаг можно отменить» -- before the discard any
    step can be undone, however often (there used to be a limit of 10)."""
    deal = new_deal("knock", players=2, seed=3, dealer=0)
    for count in range(1, 41):
        deal.apply("draw discard")
        assert "undo" in [str(a) for a in deal.legal_actions()]
        deal.apply("undo")
        assert deal.observe(deal.current_seat).undos_this_turn == count
    deal.apply("draw discard")
    deal.apply(next(a for a in deal.legal_actions() if str(a).startswith("discard")))
    assert deal.turn == 2 and deal.observe(deal.current_seat).undos_this_turn == 0


def test_melds_can_be_undone_and_redone_again_and_again() -> None:
    deal = new_deal("rummy", players=2, seed=3, dealer=0)
    deal.apply("draw stock")
    meld = next(a for a in deal.legal_actions() if a.kind is ActionKind.MELD)
    hand = deal.hands(deal.current_seat or 0)
    for _ in range(25):
        deal.apply(meld)
        deal.apply("undo")
    assert deal.hands(deal.current_seat or 0) == hand and not deal.table
