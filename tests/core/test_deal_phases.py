"""The deal's inlined fast paths against the phase modules' readable references.

:meth:`Deal.legal_actions` lists the draw and discard phases inline, and
:func:`pyrummy.core.deal.discard.discard` starts the next turn inline: at
every step of seeded random play of every preset, the inlined list equals
the phase module's own, and a discard that passes the turn on leaves the
deal exactly as :func:`pyrummy.core.deal.turns.start_turn` would.
"""

from __future__ import annotations

import random

import pytest

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal import Deal, new_deal, table_play
from pyrummy.core.deal import discard as discard_phase
from pyrummy.core.deal import draw as draw_phase
from pyrummy.core.deal.state import state_fields
from pyrummy.core.deal.turns import start_turn
from pyrummy.core.families import FAMILIES, family_of
from pyrummy.core.phases import Phase
from pyrummy.core.rules import find_rules, preset_names

REFERENCES = {
    Phase.DRAW: draw_phase.legal_actions,
    Phase.DECLINE: draw_phase.legal_actions,
    Phase.OFFER: draw_phase.legal_actions,
    Phase.DISCARD: discard_phase.legal_actions,
    Phase.MELD: table_play.legal_actions,
}


def _state(deal: Deal) -> dict[str, object]:
    """Every field but the caches, lists compared by value."""
    return {
        name: getattr(deal, name)
        for name, copy in state_fields().items()
        if copy not in ("cache", "rng", "derived")
    }


def _reference_discard(deal: Deal, action: Action) -> None:
    """A discard that passes the turn on, done the long way (no inlined turn start)."""
    seat = deal._seat
    card = action.cards[0].index
    deal.history.append((seat, action))
    deal._legal = None
    bit = 1 << card
    deal._hands[seat] &= ~bit
    if deal._public[seat] & bit:
        deal._public[seat] &= ~bit
        deal._taken_held[seat] &= ~bit
    deal._pile.append(card)
    discard_phase.openspiel_count(deal, card)
    if deal._played_turn:
        deal._played[seat] = True
    start_turn(deal, (seat + 1) % deal.players)


def _walk(name: str, options: dict[str, object], seed: int) -> int:
    rules = find_rules(name, **options)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    deal = new_deal(rules, players, seed=seed, deal_number=1 + seed % 6)
    rng = random.Random(seed)
    checked = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        assert legal == list(REFERENCES[deal.phase](deal)), (name, seed, deal.phase)
        choices = [a for a in legal if a.kind is not ActionKind.UNDO] or legal
        action = rng.choice(choices)
        if action.kind is ActionKind.DISCARD:
            fast, slow = deal.clone(), deal.clone()
            fast.apply(action)
            if not fast.is_over and fast.turn == deal.turn + 1 and fast.phase is Phase.DRAW:
                _reference_discard(slow, action)
                assert _state(fast) == _state(slow), (name, seed, str(action))
                checked += 1
        deal.apply(action)
    return checked


@pytest.mark.parametrize("name", preset_names())
def test_the_inlined_legal_actions_and_turn_start_follow_the_references(name: str) -> None:
    deals = 3 if FAMILIES[find_rules(name).family].table_play else 12
    checked = sum(_walk(name, {}, seed) for seed in range(deals))
    assert checked > 0


def test_declining_does_what_the_family_says() -> None:
    # Knock: declining the discard at an empty stock ends the deal.
    knock = new_deal("knock", 2, seed=3)
    knock._stock.clear()
    knock._legal = None
    knock.phase = Phase.DECLINE
    knock.apply("decline")
    assert knock.is_over and knock.end_reason == "decline"
    # Rotham: the pile is turned over and the same seat draws its top card.
    rules = find_rules("rotham")
    assert family_of(rules).on_decline(rules) == "rebuild_and_draw"
    rotham = new_deal(rules, 3, seed=3)
    rotham.apply(next(a for a in rotham.legal_actions() if a.kind is ActionKind.DISCARD))
    seat = rotham.current_seat
    assert seat is not None
    pile = list(rotham._pile)
    rotham._stock.clear()
    rotham._legal = None
    rotham.phase = Phase.DECLINE
    rotham.apply("decline")
    assert not rotham.is_over and rotham.current_seat == seat
    assert rotham.phase is Phase.MELD and rotham._exhaustions == 1
    assert rotham.hands(seat).mask >> pile[0] & 1  # the pile's bottom card was the new top
