"""Gin: the discard-safety estimate (pyrummy.bots.gin_safety) and the hard bot's use of it."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.bots import HardBot, MediumBot, SimpleBot
from pyrummy.bots.gin_safety import PASS_LIKELIHOOD, completes_meld, passed_over, take_risks
from pyrummy.bots.medium import KNOCK_PASS_LIKELIHOOD, pass_likelihood
from pyrummy.core.actions import ActionKind, parse_action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet, parse_card_list
from pyrummy.core.deal import new_deal
from pyrummy.core.errors import RummyError
from pyrummy.core.melds import check_meld
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.solver import deadwood_of_mask

STANDARD = list(ALL_CARDS[:52])


def _makes_a_meld(cards: list[Card]) -> bool:
    try:
        check_meld(cards, "gin")
    except RummyError:
        return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    card=st.sampled_from(STANDARD),
    hand=st.lists(st.sampled_from(STANDARD), min_size=0, max_size=12, unique=True),
)
def test_completes_meld_is_a_three_card_meld_with_two_held_cards(
    card: Card, hand: list[Card]
) -> None:
    held = [c for c in hand if c != card]
    mask = sum(c.bit for c in held)
    expected = any(_makes_a_meld([card, a, b]) for a, b in itertools.combinations(held, 2))
    assert completes_meld(card.index, mask) == expected


def _gin_view(hand: str, pile: str, taken: str = "") -> Observation:
    """Seat 0's view of a fresh gin deal with its hand, the pile and seat 1's taken cards set."""
    base = new_deal("gin", players=2, seed=1, dealer=1).observe(0)
    known = (CardSet(), CardSet(taken))
    return dataclasses.replace(
        base,
        hand=CardSet(hand),
        discard_pile=tuple(parse_card_list(pile)),
        taken_discards=((), tuple(parse_card_list(taken))),
        known_cards=known,
    )


def test_a_card_the_opponent_is_known_to_collect_is_a_sure_feed() -> None:
    view = _gin_view("7D KC QS 2H 3S 9C 4D 5C JH TD AS", "6C", taken="7H 7S")
    risks = take_risks(view, [Card("7D"), Card("KC")], random.Random(1), samples=200)
    assert risks[Card("7D")] == 1.0
    assert 0.0 < risks[Card("KC")] < 0.5


def test_a_dead_card_cannot_feed() -> None:
    # Every other king and the queens of spades are seen, so KS completes nothing.
    view = _gin_view("KS KC KD 2H 3S 9C 4D 5C JH TD AS", "KH QS")
    risks = take_risks(view, [Card("KS")], random.Random(1), samples=200)
    assert risks[Card("KS")] == 0.0


def test_a_pass_over_a_card_lowers_its_risk() -> None:
    deal = new_deal("gin", players=2, seed=3, dealer=1)
    deal.apply("draw stock")
    given_back = max(deal.hands(0), key=lambda c: c.index)
    deal.apply(f"discard {given_back}")
    deal.apply("draw stock")  # seat 1 passes over it
    view = deal.observe(0)
    assert passed_over(view, 1) == [given_back.index]
    blind = dataclasses.replace(view, history=())
    with_pass = take_risks(view, [given_back], random.Random(2), samples=400)
    without = take_risks(blind, [given_back], random.Random(2), samples=400)
    assert 0.0 < with_pass[given_back] < without[given_back]


def test_hard_with_gin_feed_weight_keeps_the_card_the_opponent_collects() -> None:
    hand = "2H 3H 4H 9S 9D 9C JC QC KC 7D 6S"
    view = _gin_view(hand, "AC", taken="7H 7S")
    legal = sorted(parse_action(f"discard {c}") for c in CardSet(hand))
    # The one-draw scores alone (the discard search off): what the feed weight changes.
    plain = HardBot(seed=1, rollouts=2, knock_samples=4, gin_search_samples=0)
    careful = HardBot(
        seed=1, rollouts=2, knock_samples=4, gin_feed_weight=20.0, gin_search_samples=0
    )
    assert str(plain.choose(view, legal)) == "discard 7D"
    assert str(careful.choose(view, legal)) == "discard 6S"


def _careful() -> HardBot:
    return HardBot(seed=1, rollouts=2, knock_samples=4, gin_feed_weight=8.0)


def assert_gin_decisions_ignore_hidden_cards(
    make_bot: Callable[[], HardBot], seeds: range, rng: random.Random, decisions: int = 16
) -> None:
    """Fresh bots decide the same on a seat's view and on a re-deal of what it cannot see."""
    checked = 0
    for seed in seeds:
        deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
        while not deal.is_over and checked < decisions:
            seat = deal.current_seat
            assert seat is not None
            seen = deal.observe(seat)
            other = sample_deal(seen, rng)
            first = make_bot().choose(seen, deal.legal_actions())
            again = make_bot().choose(other.observe(seat), other.legal_actions())
            assert first == again
            deal.apply(first)
            checked += 1
    assert checked == decisions


def test_hard_gin_decisions_depend_only_on_what_the_seat_sees() -> None:
    assert_gin_decisions_ignore_hidden_cards(_careful, range(10), random.Random(5))


def test_pass_likelihood_doubts_a_hand_that_could_have_knocked() -> None:
    rules = find_rules("gin")
    low = CardSet("2H 3H 4H 9S 9D 9C JC QC KC AD").mask  # deadwood 1
    high = CardSet("2H 5H 8H 9S 9D 3C JC QD KS AD").mask
    assert pass_likelihood(low, [], passed_knock=True, rules=rules) == KNOCK_PASS_LIKELIHOOD
    assert pass_likelihood(low, [], passed_knock=False, rules=rules) == 1.0
    assert pass_likelihood(high, [], passed_knock=True, rules=rules) == 1.0
    # It drew from the stock over 5S although 5S would have made a run of 5S 6S 7S with it.
    run_pair = CardSet("6S 7S 2H 5H 8H 9D 3C JC QD KD").mask
    assert pass_likelihood(run_pair, [Card("5S").index], False, rules) == PASS_LIKELIHOOD


def test_medium_infer_passes_weighs_the_knock_re_deals() -> None:
    deal = new_deal("gin", players=2, seed=11, dealer=1)
    # No time budget: the test counts re-deals, which a loaded machine must not cut short.
    bot = MediumBot(seed=3, samples=24, infer_passes=True, time_budget=None)
    plain = MediumBot(seed=3, samples=24, time_budget=None)
    # Play simple turns until seat 0 may knock after seat 1 passed a turn.
    for _ in range(200):
        if deal.is_over:
            break
        legal = deal.legal_actions()
        seat = deal.current_seat
        assert seat is not None
        if seat == 0 and any(a.kind is ActionKind.KNOCK for a in legal) and deal.observe(0).history:
            view = deal.observe(0)
            give_backs = [a for a in legal if a.kind in (ActionKind.DISCARD, ActionKind.KNOCK)]
            least = min(
                deadwood_of_mask(view.hand.mask & ~a.cards[0].bit, "low") for a in give_backs
            )
            weighed = bot.knock_values(view, give_backs, find_rules("gin"), least)
            uniform = plain.knock_values(view, give_backs, find_rules("gin"), least)
            assert bot.last_knock_samples == plain.last_knock_samples == 24
            assert weighed != uniform  # same re-deals, other weights
            return
        deal.apply(SimpleBot(seed=1).choose(deal.observe(seat), legal))
    raise AssertionError("no knock chance for seat 0 in this deal")


def test_hard_waits_for_gin_only_while_the_stock_is_long_enough() -> None:
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S AD KS"
    view = _gin_view(hand, "QD")
    legal = sorted(
        [*(parse_action(f"discard {c}") for c in CardSet(hand)), parse_action("knock KS")]
    )
    assert view.stock_count < 40
    # The wait_for_gin rule, used when the knock-or-hold re-deals are off.
    waiting = HardBot(seed=1, rollouts=2, knock_samples=4, gin_hold_samples=0)
    assert str(waiting.choose(view, legal)) == "discard KS"  # deadwood 1 left: wait for gin
    late = HardBot(seed=1, rollouts=2, knock_samples=4, gin_wait_stock=40, gin_hold_samples=0)
    assert str(late.choose(view, legal)) == "knock KS"
