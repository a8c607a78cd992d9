"""Helpers shared by the deal scenario tests (no tests here)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.errors import IllegalActionError


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, to check that nothing changed."""
    views = [json.dumps(deal.observe(s).to_dict()) for s in range(deal.players)]
    return (
        deal.phase,
        deal.current_seat,
        deal.turn,
        [str(deal.hands(s)) for s in range(deal.players)],
        deal.stock,
        deal.discard_pile,
        deal.table,
        list(deal.history),
        [str(a) for a in deal.legal_actions()],
        views,
    )


def refused(deal: Deal, action: str, key: str) -> None:
    """``action`` is refused for the catalogue reason ``key`` and changes nothing."""
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as caught:
        deal.apply(action)
    reason = caught.value.reason
    assert reason is not None, "a refusal names its reason"
    assert reason.key == key
    assert snapshot(deal) == before


def legal(deal: Deal) -> set[str]:
    return {str(a) for a in deal.legal_actions()}


def points(*amounts: int | Fraction) -> tuple[Fraction, ...]:
    """Exact points, to compare with a settlement's or a ledger's nets."""
    return tuple(Fraction(a) for a in amounts)


def draw_and_throw_back(deal: Deal, turns: int) -> None:
    """Up to ``turns`` turns of drawing from the stock and discarding the drawn
    card, stopping early when the deal ends or the stock is empty."""
    for _ in range(turns):
        if deal.phase is not Phase.DRAW:
            return
        seat = deal.current_seat
        assert seat is not None
        before = deal.hands(seat)
        deal.apply("draw stock")
        (drawn,) = deal.hands(seat) - before
        deal.apply(f"discard {drawn}")


def after_passive_rounds(seed: int, rounds: int, players: int = 4) -> Deal:
    """A knock deal where every seat drew from the stock and gave back its highest
    card ``rounds`` times; the seat to play has drawn and is to give back."""
    deal = new_deal("knock", players=players, seed=seed, dealer=0)
    for _ in range(rounds * players):
        seat = deal.current_seat
        assert seat is not None
        deal.apply("draw stock")
        give = max(deal.hands(seat), key=lambda c: c.index)
        deal.apply(f"discard {give}")
    deal.apply("draw stock")
    return deal
