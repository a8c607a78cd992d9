"""The fast public calls equal the slow, eager ones.

`best_arrangement` answers with the deadwood from the int path and finds its
melds on first access; `deadwood` inlines the common case; `CardSet(text)`
reads plain notation by table. Each is checked here against the eager
arrangement (the former implementation, kept as `_eager_best_arrangement`),
the int path and the card parser, value for value, field for field.
"""

from __future__ import annotations

import binascii
import pickle
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.cards import ALL_CARDS, JOKERS, CardSet, parse_card_list
from pyrummy.core.errors import CardNotationError, DuplicateCardError
from pyrummy.core.oracle import exhaustive_solve
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import (
    Arrangement,
    _eager_best_arrangement,
    best_arrangement,
    deadwood,
    deadwood_of_mask,
)
from pyrummy.core.suit_tables import build_suit_deadwood_table, suit_deadwood_table

ACE_OPTIONS = ("low", "high_or_low", "around_the_corner")
RULES_BY_ACE = {ace: find_rules("basic", ace=ace) for ace in ACE_OPTIONS}
STANDARD = ALL_CARDS[:52]

aces = st.sampled_from(ACE_OPTIONS)


@st.composite
def hands(draw: st.DrawFn) -> CardSet:
    """Random hands, hands from a few adjacent ranks (sets and runs compete), some jokers."""
    if draw(st.booleans()):
        low = draw(st.integers(0, 12))
        ranks = {(low + step) % 13 for step in range(draw(st.integers(3, 4)))}
        pool = [card for card in STANDARD if card.index % 13 in ranks]
    else:
        pool = list(STANDARD)
    cards = draw(st.lists(st.sampled_from(pool), max_size=11, unique=True))
    jokers = draw(st.lists(st.sampled_from(JOKERS), max_size=2, unique=True))
    return CardSet(cards[: 11 - len(jokers)] + jokers)


@settings(max_examples=400, deadline=None)
@given(hands(), aces)
def test_lazy_arrangement_equals_the_eager_one(hand: CardSet, ace: str) -> None:
    rules = RULES_BY_ACE[ace]
    eager = _eager_best_arrangement(hand, rules)
    # Compared before its melds are read (equality finds them) ...
    assert best_arrangement(hand, rules) == eager
    assert eager == best_arrangement(hand, rules)
    # ... and field by field, in every form the dataclass had.
    lazy = best_arrangement(hand, rules)
    assert lazy.deadwood == eager.deadwood == deadwood_of_mask(hand.mask, ace)
    assert lazy.cards == hand
    assert lazy.melds == eager.melds
    assert lazy.deadwood_cards == eager.deadwood_cards
    assert (repr(lazy), str(lazy), hash(lazy)) == (repr(eager), str(eager), hash(eager))
    assert pickle.loads(pickle.dumps(best_arrangement(hand, rules))) == eager


@settings(max_examples=300, deadline=None)
@given(hands(), aces)
def test_public_deadwood_in_every_input_form_equals_the_int_path(hand: CardSet, ace: str) -> None:
    expected = deadwood_of_mask(hand.mask, ace)
    rules = RULES_BY_ACE[ace]
    assert deadwood(hand, rules) == expected
    assert deadwood(str(hand), rules) == expected
    assert deadwood(hand.mask, rules) == expected
    assert deadwood(list(hand), rules) == expected
    if ace == "low":  # every preset plays the ace low; a name reaches the solver otherwise
        assert deadwood(hand, "rotham") == expected
        assert deadwood(hand) == deadwood(hand, "Poker-Rum") == deadwood(hand, "gin") == expected
        assert best_arrangement(str(hand), "rotham").deadwood == expected


@settings(max_examples=150, deadline=None)
@given(hands(), aces)
def test_lazy_arrangement_is_one_the_oracle_finds(hand: CardSet, ace: str) -> None:
    rules = RULES_BY_ACE[ace]
    expected = exhaustive_solve(hand, rules)
    arrangement = best_arrangement(hand, rules)
    assert arrangement.deadwood == expected.deadwood
    assert (arrangement.melds, arrangement.deadwood_cards) in set(expected.arrangements)


def test_two_lazy_arrangements_of_one_hand_are_equal_without_their_melds() -> None:
    first, second = best_arrangement("7S 7H 7D 8S 9S"), best_arrangement("7S 7H 7D 8S 9S")
    assert first == second
    assert first._melds is None and second._melds is None, "equality did not need the melds"
    assert best_arrangement("AS 2S 3S") != best_arrangement("AS 2S 4S")
    # Same hand, other ace option and the same melds: equal, as dataclasses were.
    high = find_rules("basic", ace="high_or_low")
    assert best_arrangement("2S 3S 4S", "knock") == best_arrangement("2S 3S 4S", high)
    assert best_arrangement("AS 2S", "knock") != best_arrangement("AS 2S", high)


def test_arrangement_keeps_the_dataclass_api() -> None:
    built = Arrangement(melds=(CardSet("7S 8S 9S"),), deadwood_cards=CardSet("7H 7D"), deadwood=14)
    found = best_arrangement("7S 7H 7D 8S 9S")
    assert found == built and hash(found) == hash(built)
    assert repr(found) == (
        "Arrangement(melds=(CardSet('7S 8S 9S'),), deadwood_cards=CardSet('7H 7D'), deadwood=14)"
    )
    assert found != (built.melds, built.deadwood_cards, built.deadwood)
    match found:
        case Arrangement(melds, dead, value):
            assert (melds, dead, value) == (built.melds, CardSet("7H 7D"), 14)
    for field in ("melds", "deadwood_cards", "deadwood"):
        with pytest.raises(AttributeError):
            setattr(found, field, None)
    assert {found, built} == {built}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), max_size=12),
    st.lists(st.sampled_from(["", "10", "lower", "symbol", ","]), min_size=12, max_size=12),
)
def test_cardset_reads_text_as_the_card_parser_does(cards: list[object], styles: list[str]) -> None:
    tokens = []
    for card, style in zip(cards, styles, strict=False):
        token = str(card)
        if style == "10" and token[0] == "T":
            token = "10" + token[1]
        elif style == "lower":
            token = token.lower()
        elif style == "symbol" and not token.startswith("X"):
            token = token[0] + "♠♥♦♣"["SHDC".index(token[1])]
        tokens.append(token + ("," if style == "," else ""))
    text = " ".join(tokens)
    try:
        expected = CardSet(parse_card_list(text)).mask
    except DuplicateCardError:
        with pytest.raises(DuplicateCardError):
            CardSet(text)
        return
    assert CardSet(text).mask == expected


@pytest.mark.parametrize("text", ["7H 7Z", "7H 7h", "7H,,7H", "11H", "X4", "7"])
def test_cardset_text_errors_are_the_parsers(text: str) -> None:
    with pytest.raises((CardNotationError, DuplicateCardError)) as from_parser:
        parse_card_list(text)
    with pytest.raises(from_parser.type) as from_cardset:
        CardSet(text)
    assert str(from_cardset.value) == str(from_parser.value)


def test_the_shipped_ace_low_table_is_the_built_one() -> None:
    built = build_suit_deadwood_table("low")
    text = binascii.b2a_base64(zlib.compress(bytes(built), 9), newline=False).decode()
    lines = "\n".join(f'    "{text[i : i + 88]}"' for i in range(0, len(text), 88))
    assert suit_deadwood_table("low") == built, f"ship this as _LOW_SUIT_DEADWOOD:\n{lines}"
    for ace in ("high_or_low", "around_the_corner"):
        assert suit_deadwood_table(ace) == build_suit_deadwood_table(ace)
