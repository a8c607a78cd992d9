"""Knock rummy: the knock equity's selection of opponent hands (``equity_selection``)."""

from __future__ import annotations

import random

from deal_helpers import after_passive_rounds
from pyrummy.bots import HardBot
from pyrummy.bots.hard_knock import KnockRummyPlay
from pyrummy.bots.knock_equity import (
    _extras,
    _history_of_opponents,
    _Seen,
    _select_hand,
    estimate_knock,
)
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules


def test_the_selected_hand_drops_the_worst_cards_but_keeps_the_known_ones() -> None:
    hand = CardSet("7H 8H 9H KS QD 2C").mask
    known = CardSet("KS").mask
    assert CardSet(_select_hand(hand, known, 2, "low")) == CardSet("7H 8H 9H KS")
    assert _select_hand(hand, known, 0, "low") == hand


def test_extra_cards_follow_the_draws_less_the_first_ones_within_what_is_spare() -> None:
    seen = [_Seen(seat, 0, True, 0, draws) for seat, draws in ((1, 1), (2, 2), (3, 5))]
    assert _extras(seen, 3, 0, 52) == [1, 2, 3]
    assert _extras(seen, 3, 1, 52) == [0, 1, 3]
    assert _extras(seen, 3, 0, 4) == [1, 2, 1]


def test_draws_are_counted_per_opponent() -> None:
    deal = after_passive_rounds(1, rounds=2)
    seat = deal.current_seat
    assert seat is not None
    seen = _history_of_opponents(deal.observe(seat), seat)
    assert len(seen) == 3
    assert all(opponent.draws == 2 for opponent in seen)


def test_opponents_that_drew_are_dealt_better_hands_so_knocking_now_is_worth_less() -> None:
    """With selection the re-dealt opponents kept the best of what they drew: a knock
    now is beaten more often than against plain random hands (same samples, same seed)."""
    rules = find_rules("knock")
    drops = []
    for seed in range(6):
        deal = after_passive_rounds(seed, rounds=3)
        observation = deal.observe(deal.current_seat or 0)
        card = max(observation.hand, key=lambda c: c.index).bit
        plain, selected = (
            estimate_knock(
                observation,
                rules,
                card,
                random.Random(seed),
                0.0,
                lambda: 1.0,
                min_samples=300,
                selection=selection,
            )
            for selection in (0, 3)
        )
        assert plain.samples == selected.samples == 300
        drops.append(plain.now - selected.now)
    assert sum(drops) / len(drops) > 1.0


def _knock_now(observation: Observation, seed: int, selection: int, up_to: int = 1_000) -> float:
    """The equity's value of knocking now with the highest card, 300 re-deals."""
    card = max(observation.hand, key=lambda c: c.index).bit
    return estimate_knock(
        observation,
        find_rules("knock"),
        card,
        random.Random(seed),
        0.0,
        lambda: 1.0,
        min_samples=300,
        selection=selection,
        selection_up_to=up_to,
    ).now


def test_only_seats_sampled_as_passive_are_selected() -> None:
    """``selection_up_to`` below every sampled threshold selects nobody: the estimate
    stays near the plain one, far from the fully selected one."""
    unselected, fully = [], []
    for seed in range(6):
        deal = after_passive_rounds(seed, rounds=3)
        observation = deal.observe(deal.current_seat or 0)
        plain = _knock_now(observation, seed, 0)
        unselected.append(plain - _knock_now(observation, seed, 3, up_to=-2))
        fully.append(plain - _knock_now(observation, seed, 3))
    assert abs(sum(unselected) / 6) < 4.0
    assert sum(fully) / 6 > 10.0


def test_hard_selects_at_three_or_more_players_only_unless_told() -> None:
    play = KnockRummyPlay(HardBot(seed=1, rollouts=2).context)
    assert (play.selection_at(2), play.selection_at(4)) == (0, 3)
    told = KnockRummyPlay(HardBot(seed=1, rollouts=2, equity_selection=1).context)
    assert (told.selection_at(2), told.selection_at(4)) == (1, 1)


def test_a_four_player_hard_deal_with_selection_is_legal_and_uses_the_equity() -> None:
    used = 0
    for seed in range(3):
        deal = new_deal("knock", players=4, seed=seed, dealer=0)
        # The learned knock off: this is about the equity.
        bots = [
            HardBot(seed=seat, rollouts=2, equity_samples=30, knock_value=False)
            for seat in range(4)
        ]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            action = bots[seat].choose(deal.observe(seat), legal)
            assert action in legal
            used += bots[seat].last_knock_samples > 0
            deal.apply(action)
    assert used > 0
