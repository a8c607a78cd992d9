"""Legal-action generation (the fast, mask-based path) against the rule checks.

:meth:`Deal.legal_actions` is built for speed (per-suit tables, cached meld
numbers, one memo per hand for all-seven deals). Here every candidate action
that could involve the seat's cards is put to the slow path that explains
refusals, action by action: the two must agree exactly.
"""

from __future__ import annotations

import random

import pytest

from pyrummy.core.actions import MAX_TABLE_MELDS, Action, ActionKind
from pyrummy.core.cards import N_STANDARD
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import find_rules, preset_names


def candidates(deal: Deal) -> list[Action]:
    """Every action worth asking about: draws, undo, anything made of the hand's cards."""
    space = deal.action_space
    seat = deal.current_seat
    assert seat is not None
    hand = deal.hands(seat).mask
    found = [space.decode(number) for number in range(4)]
    for card in deal.hands(seat):
        found.append(Action(ActionKind.DISCARD, (card,)))
        if deal.rules.family != "melding":
            found.append(Action(ActionKind.KNOCK, (card,)))
    if deal.rules.family != "melding":
        return found
    found += [space.meld_action(key) for key in space.meld_index if key[0] & hand == key[0]]
    for card in deal.hands(seat):
        for target in range(min(len(deal.table) + 1, MAX_TABLE_MELDS)):
            found.append(Action(ActionKind.LAYOFF, (card,), target))
            if deal.rules.jokers and card.index < N_STANDARD:
                found.append(Action(ActionKind.SWAP_JOKER, (card,), target))
    return found


def positions(name: str, deals: int, **options: object) -> list[Deal]:
    """Positions of random play, every third step, players and deal numbers varied."""
    rules = find_rules(name, **options)
    rng = random.Random(name)
    found = []
    for number in range(deals):
        players = rules.min_players + number % (rules.max_players - rules.min_players + 1)
        deal = new_deal(rules, players, seed=number, deal_number=1 + number % 6)
        step = 0
        while not deal.is_over:
            if step % 3 == 0:
                found.append(deal.clone())
            deal.apply(rng.choice(deal.legal_actions()))
            step += 1
    return found


@pytest.mark.parametrize("name", preset_names())
def test_legal_actions_are_exactly_the_actions_the_rules_allow(name: str) -> None:
    # Knock deals are short (a knock is legal at once): more of them.
    deals = {"knock": 80, "knock-target": 80, "rotham": 12, "basic": 12}.get(name, 6)
    checked = 0
    for deal in positions(name, deals)[::4]:
        legal = deal.legal_actions()
        space = deal.action_space
        numbers = [space.encode(action) for action in legal]
        assert numbers == sorted(set(numbers)), "sorted by number, no repeats"
        allowed = {
            space.encode(action)
            for action in candidates(deal)
            if deal._problem(action) is None  # the explaining path, action by action
        }
        assert set(numbers) == allowed, (deal, sorted(set(numbers) ^ allowed))
        assert deal.legal_action_ids() == numbers
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("name", ["gin", "knock"])
def test_knock_games_with_jokers_list_the_actions_the_rules_allow(name: str) -> None:
    # Jokers are an option of knock and gin too: a joker may be discarded or
    # knocked with, and a loose joker counts 15 (its discard can allow a knock).
    knocks = 0
    for deal in positions(name, 40, jokers=2)[::2]:
        legal = deal.legal_actions()
        allowed = [action for action in candidates(deal) if deal._problem(action) is None]
        assert sorted(map(deal.action_space.encode, legal)) == sorted(
            map(deal.action_space.encode, allowed)
        )
        knocks += any(action.kind is ActionKind.KNOCK for action in legal)
    assert knocks > 0


def test_all_seven_deals_are_checked_with_jokers_on_the_table() -> None:
    # The positions above must reach the hard cases: an all-seven Rotham deal
    # with jokers on the table and a joker exchange among the legal actions.
    seen_swap = seen_all_seven_meld = False
    for deal in positions("rotham", 12):
        legal = deal.legal_actions()
        kinds = {action.kind for action in legal}
        seen_swap |= ActionKind.SWAP_JOKER in kinds
        seen_all_seven_meld |= deal.deal_number >= 4 and ActionKind.MELD in kinds
    assert seen_swap and seen_all_seven_meld
