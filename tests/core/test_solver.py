"""The fast solver against known hands and against the brute-force oracle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.cards import ALL_CARDS, JOKERS, Card, CardSet, parse_cards
from pyrummy.core.errors import CardNotationError, IllegalActionError, RulesError
from pyrummy.core.families import GinFamily
from pyrummy.core.melds import InvalidMeldError, all_melds_in, check_meld
from pyrummy.core.oracle import all_melds, exhaustive_solve, is_meld, oracle_deadwood
from pyrummy.core.patterns import SUIT_BITS, SUIT_SHIFTS
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import (
    Arrangement,
    all_best_arrangements,
    best_arrangement,
    best_discards,
    best_discards_of_mask,
    deadwood,
    deadwood_of_mask,
    deadwood_without_each,
)
from pyrummy.core.suit_tables import deadwood_floor
from pyrummy.core.values import hand_value

# A copy of ../shared/data/deadwood_vectors.json (the project's reference hands).
VECTORS = Path(__file__).resolve().parents[1] / "data" / "deadwood_vectors.json"
ACE_OPTIONS = ("low", "high_or_low", "around_the_corner")
RULES_BY_ACE = {ace: find_rules("basic", ace=ace) for ace in ACE_OPTIONS}
STANDARD = ALL_CARDS[:52]


def _vectors() -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = json.loads(VECTORS.read_text())["hands"]
    return hands


# -- strategies -------------------------------------------------------------------

aces = st.sampled_from(ACE_OPTIONS)
random_hands = st.lists(st.sampled_from(STANDARD), max_size=11, unique=True).map(CardSet)


@st.composite
def dense_hands(draw: st.DrawFn) -> CardSet:
    """Hands drawn from 3-4 adjacent ranks (wrapping past the king), where melds compete."""
    low = draw(st.integers(0, 12))
    width = draw(st.integers(3, 4))
    ranks = {(low + step) % 13 for step in range(width)}
    pool = [card for card in STANDARD if card.index % 13 in ranks]
    size = draw(st.integers(0, min(11, len(pool))))
    return CardSet(draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)))


@st.composite
def joker_hands(draw: st.DrawFn) -> CardSet:
    """Up to three jokers and real cards, often from a few adjacent ranks."""
    jokers = draw(st.lists(st.sampled_from(JOKERS), min_size=1, max_size=3, unique=True))
    real = draw(st.one_of(dense_hands(), random_hands))
    shuffled = draw(st.permutations(list(real)))
    return CardSet(shuffled[: 11 - len(jokers)] + jokers)


def _fast_set(hand: CardSet, rules: Rules) -> set[tuple[tuple[CardSet, ...], CardSet]]:
    arrangements = all_best_arrangements(hand, rules)
    as_pairs = {(a.melds, a.deadwood_cards) for a in arrangements}
    assert len(as_pairs) == len(arrangements), "all_best_arrangements repeats an arrangement"
    return as_pairs


def _check_against_oracle(hand: CardSet, rules: Rules) -> None:
    expected = exhaustive_solve(hand, rules)
    assert deadwood(hand, rules) == expected.deadwood, str(hand)
    assert deadwood_of_mask(hand.mask, rules.ace) == expected.deadwood
    assert _fast_set(hand, rules) == set(expected.arrangements), str(hand)
    best = best_arrangement(hand, rules)
    assert (best.melds, best.deadwood_cards) in set(expected.arrangements)


# -- known hands ------------------------------------------------------------------


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: str(v["name"]))
def test_shared_vectors(vector: dict[str, Any]) -> None:
    hand = parse_cards(vector["cards"])
    assert deadwood(hand) == vector["deadwood"]
    assert best_arrangement(hand).deadwood == vector["deadwood"]
    assert oracle_deadwood(hand) == vector["deadwood"]
    if "best_after_one_discard" in vector:
        value, cards = best_discards(hand)
        assert value == vector["best_after_one_discard"]
        assert all(deadwood(hand - CardSet([card])) == value for card in cards)


def test_rules_example_smallest_deadwood_not_most_melds() -> None:
    # RULES.md §1 and §9.8: the set 7H 7D 7S leaves 17, the run 7S 8S 9S leaves 14.
    arrangement = best_arrangement("7S 7H 7D 8S 9S")
    assert arrangement.deadwood == 14
    assert arrangement.melds == (CardSet("7S 8S 9S"),)
    assert arrangement.deadwood_cards == CardSet("7H 7D")
    assert [a.melds for a in all_best_arrangements("7S 7H 7D 8S 9S")] == [(CardSet("7S 8S 9S"),)]


@pytest.mark.parametrize(
    ("cards", "ace", "expected"),
    [
        ("QS KS AS", "low", 21),
        ("QS KS AS", "high_or_low", 0),
        ("KS AS 2S", "high_or_low", 27),
        ("KS AS 2S", "around_the_corner", 0),
        ("JS QS KS AS 2S 3S", "around_the_corner", 0),
        ("AS 2S 3S", "high_or_low", 0),
        ("AS AH AD", "high_or_low", 0),
        ("AS 5H", "high_or_low", 20),
        ("AS 5H", "low", 6),
    ],
)
def test_ace_options(cards: str, ace: str, expected: int) -> None:
    assert deadwood(cards, RULES_BY_ACE[ace]) == expected
    assert oracle_deadwood(cards, RULES_BY_ACE[ace]) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("X1", 15),
        ("5H 6H X1 X2", 0),
        # one real card and two jokers are a meld (seed 004: a joker may
        # replace any card needed for a set or a run)
        ("5H X1 X2", 0),
        ("5H X1 X2 X3 KC", 5),
        ("5H 9C X1 X2", 5),
        ("5H 7H X1 KC", 10),
        # the joker stands for 6H while the real 6H sits in a set
        ("5H 6H 7H 6S 6D X1 2C", 2),
        ("X1 X2 X3", 45),
        ("7S 7D X1 5H 6H KC", 21),
    ],
)
def test_jokers(cards: str, expected: int) -> None:
    assert deadwood(cards, "rotham") == expected
    assert oracle_deadwood(cards, "rotham") == expected


def test_joker_may_stand_for_a_held_card() -> None:
    arrangements = all_best_arrangements("5H 6H 7H 6S 6D X1 2C", "rotham")
    assert CardSet("5H 7H X1") in {meld for a in arrangements for meld in a.melds}


# -- input forms and errors -------------------------------------------------------


def test_cards_and_rules_in_every_accepted_form() -> None:
    text = "3S 4S 5S 5H 5D 6D 7D"
    hand = parse_cards(text)
    assert deadwood(text) == deadwood(hand) == deadwood(list(hand)) == deadwood(hand, "poker-rum")
    assert deadwood(hand, find_rules("knock")) == 5
    assert isinstance(best_arrangement(text, "gin"), Arrangement)


def test_bad_input_raises_precise_errors() -> None:
    with pytest.raises(CardNotationError):
        deadwood("7S 7Z")
    with pytest.raises(RulesError):
        deadwood("7S", "canasta")
    with pytest.raises(RulesError):
        deadwood_of_mask(1, ace="sideways")
    with pytest.raises(IllegalActionError):
        best_discards("7S 8S", keep="7S 8S")
    with pytest.raises(IllegalActionError):
        best_discards("")


def test_empty_hand() -> None:
    arrangement = best_arrangement("")
    assert arrangement == Arrangement((), CardSet(), 0)
    assert all_best_arrangements("") == [arrangement]


def test_best_discards_keeps_the_kept_card() -> None:
    assert best_discards("7S 8S 9S KH 2H") == (2, [Card("KH")])
    assert best_discards("7S 8S 9S KH 2H", keep="KH") == (10, [Card("2H")])
    assert best_discards("7S 8S 9S TH JH") == (10, [Card("TH"), Card("JH")])
    value, tied = best_discards_of_mask(CardSet("7S 8S 9S TH JH QH KH").mask)
    assert (value, CardSet(tied)) == (0, CardSet("TH KH"))


# -- properties against the oracle -----------------------------------------------


@settings(max_examples=300, deadline=None)
@given(random_hands, aces)
def test_random_hands_match_oracle(hand: CardSet, ace: str) -> None:
    _check_against_oracle(hand, RULES_BY_ACE[ace])


@settings(max_examples=300, deadline=None)
@given(dense_hands(), aces)
def test_dense_hands_match_oracle(hand: CardSet, ace: str) -> None:
    _check_against_oracle(hand, RULES_BY_ACE[ace])


@settings(max_examples=200, deadline=None)
@given(joker_hands(), aces)
def test_joker_hands_match_oracle(hand: CardSet, ace: str) -> None:
    _check_against_oracle(hand, RULES_BY_ACE[ace])


@settings(max_examples=100, deadline=None)
@given(st.one_of(dense_hands(), random_hands, joker_hands()), aces, st.data())
def test_best_discards_match_brute_force(hand: CardSet, ace: str, data: st.DataObject) -> None:
    rules = RULES_BY_ACE[ace]
    if not hand:
        return
    keep = CardSet(data.draw(st.lists(st.sampled_from(list(hand)), unique=True)))
    if keep == hand:
        with pytest.raises(IllegalActionError):
            best_discards(hand, rules, keep)
        return
    after = {card: oracle_deadwood(hand - CardSet([card]), rules) for card in hand - keep}
    least = min(after.values())
    assert best_discards(hand, rules, keep) == (
        least,
        sorted(card for card, value in after.items() if value == least),
    )


@settings(max_examples=300, deadline=None)
@given(st.one_of(dense_hands(), random_hands, joker_hands()), aces)
def test_arrangement_invariants(hand: CardSet, ace: str) -> None:
    rules = RULES_BY_ACE[ace]
    for arrangement in all_best_arrangements(hand, rules):
        covered = CardSet()
        for meld in arrangement.melds:
            assert is_meld(meld, rules), str(meld)
            assert covered.isdisjoint(meld)
            covered |= meld
        assert covered.isdisjoint(arrangement.deadwood_cards)
        assert covered | arrangement.deadwood_cards == hand == arrangement.cards
        assert arrangement.deadwood == hand_value(arrangement.deadwood_cards, rules)
        lowest = [min(meld).index for meld in arrangement.melds]
        assert lowest == sorted(lowest), "melds are in canonical order"


def test_best_discards_when_every_card_can_be_in_a_set() -> None:
    # Regression: the choice "three sets" leaves nothing to give back.
    value, cards = best_discards("TS JS QS TH JH QH TD JD QD")
    assert value == 20
    assert CardSet(cards) == CardSet("TS JS QS TH JH QH TD JD QD")


@settings(max_examples=500, deadline=None)
@given(st.one_of(dense_hands(), random_hands, joker_hands()), aces, st.data())
def test_best_discards_fast_path_matches_trial(
    hand: CardSet, ace: str, data: st.DataObject
) -> None:
    if not hand:
        return
    keep = CardSet(data.draw(st.lists(st.sampled_from(list(hand)), max_size=2, unique=True)))
    if keep == hand:
        return
    after = {card: deadwood(hand - CardSet([card]), RULES_BY_ACE[ace]) for card in hand - keep}
    least = min(after.values())
    value, tied = best_discards_of_mask(hand.mask, ace, keep.mask)
    assert (value, CardSet(tied)) == (least, CardSet(c for c, v in after.items() if v == least))


@st.composite
def meld_candidates(draw: st.DrawFn) -> CardSet:
    """3-7 cards from a stretch of one suit or from one rank, maybe with jokers."""
    if draw(st.booleans()):
        suit, low = draw(st.integers(0, 3)), draw(st.integers(0, 12))
        pool = [STANDARD[13 * suit + (low + step) % 13] for step in range(8)]
    else:
        rank = draw(st.integers(0, 12))
        pool = [STANDARD[13 * suit + rank] for suit in range(4)]
    pool += [draw(st.sampled_from(STANDARD)), *JOKERS]
    size = draw(st.integers(3, 7))
    return CardSet(draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)))


@settings(max_examples=300, deadline=None)
@given(meld_candidates(), aces)
def test_oracle_meld_definition_agrees_with_melds_module(cards: CardSet, ace: str) -> None:
    rules = find_rules("rotham", ace=ace)
    try:
        check_meld(cards, rules)
        valid = True
    except InvalidMeldError:
        valid = False
    assert is_meld(cards, rules) == valid


@settings(max_examples=200, deadline=None)
@given(st.one_of(dense_hands(), random_hands), aces)
def test_oracle_melds_agree_with_melds_module(hand: CardSet, ace: str) -> None:
    rules = RULES_BY_ACE[ace]
    assert set(all_melds(hand, rules)) == set(all_melds_in(hand, rules))


@settings(max_examples=400, deadline=None)
@given(st.one_of(dense_hands(), random_hands, joker_hands()), aces)
def test_deadwood_without_each_matches_one_solve_per_card(hand: CardSet, ace: str) -> None:
    expected = {card.index: deadwood(hand - CardSet([card]), RULES_BY_ACE[ace]) for card in hand}
    assert deadwood_without_each(hand.mask, ace) == expected


# -- the floor that spares gin's knock check the solver ---------------------------


def _suits_and_set_ranks(hand: CardSet) -> tuple[int, int, int, int, int]:
    s, h, d, c = (hand.mask >> 13 * suit & 0x1FFF for suit in range(4))
    return s, h, d, c, (s & h & (d | c)) | ((s | h) & d & c)


@settings(max_examples=300, deadline=None)
@given(st.one_of(dense_hands(), random_hands), aces)
def test_deadwood_floor_never_exceeds_the_oracle(hand: CardSet, ace: str) -> None:
    s, h, d, c, ranks = _suits_and_set_ranks(hand)
    floor = deadwood_floor(s, h, d, c, ranks, ace)
    exact = oracle_deadwood(hand, RULES_BY_ACE[ace])
    assert 0 <= floor <= exact, str(hand)
    if not ranks:  # no set can form: the floor is the deadwood itself
        assert floor == exact, str(hand)


def test_deadwood_floor_is_tight_where_it_can_be_and_decides_loose_hands() -> None:
    # The set ranks' cards taken out leave exactly the floor as deadwood.
    tight = parse_cards("7S 7H 7D 2C 5C 9C")
    assert deadwood_floor(*_suits_and_set_ranks(tight)) == 16 == oracle_deadwood(tight)
    # A set possible, but far from a knock: the floor alone says so.
    loose = parse_cards("7S 7H 7D KC QS JH 9D 5C 2H TS")
    s, h, d, c, ranks = _suits_and_set_ranks(loose)
    assert ranks and deadwood_floor(s, h, d, c, ranks) > 20


@settings(max_examples=300, deadline=None)
@given(st.one_of(dense_hands(), random_hands).filter(lambda hand: len(hand) >= 2))
def test_gin_knocks_are_the_cards_leaving_ten_or_less(hand: CardSet) -> None:
    rules = find_rules("gin")
    knocks = GinFamily().knock_cards(hand.mask, hand.mask, rules)
    expected = [card for card in hand if deadwood(hand - CardSet([card]), rules) <= 10]
    assert list(CardSet(knocks)) == expected, str(hand)


def test_the_literal_suit_shifts_of_the_hot_paths_are_the_card_layout() -> None:
    # deadwood_of_mask, deadwood_without_each, the gin knock check and the
    # meld search split a hand with the literals 13, 26, 39 and 0x1FFF
    # (constants: a global name costs each split ~5%); this pins them to the
    # layout that cards.py declares (RANKS_IN_SUIT, SUIT_BITS).
    assert SUIT_SHIFTS == (0, 13, 26, 39)
    assert SUIT_BITS == 0x1FFF
    seven_of_diamonds = Card("7D")
    assert seven_of_diamonds.bit >> 26 & 0x1FFF == 1 << 6
