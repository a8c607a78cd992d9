"""Actions: the text form, parsing, and the fixed integer encoding."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.actions import (
    MAX_TABLE_MELDS,
    Action,
    ActionKind,
    action_space,
    parse_action,
)
from pyrummy.core.cards import Card
from pyrummy.core.deal import new_deal
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.rules import find_rules, preset_names


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("draw stock", "draw stock"),
        ("  DRAW   discard ", "draw discard"),
        ("decline", "decline"),
        ("undo", "undo"),
        ("discard 10h", "discard TH"),
        ("knock 7♦", "knock 7D"),
        ("meld 9H 7H 8H", "meld 9H 7H 8H"),
        ("layoff 9h 2", "layoff 9H 2"),
        ("lay-off 9H 12", "layoff 9H 12"),
        ("swap-joker 5H 1", "swap-joker 5H 1"),
        ("discard x2", "discard X2"),
    ],
)
def test_text_round_trip(text: str, canonical: str) -> None:
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("fold", "unknown action 'fold'"),
        ("discard", "exactly one card"),
        ("discard 7H 8H", "exactly one card"),
        ("discard 1H", "unknown rank"),
        ("knock 7Z", "unknown suit"),
        ("meld 7H 7H 8H", "twice"),
        ("meld", "needs its cards"),
        ("layoff 9H", "table meld number"),
        ("layoff 9H x", "table meld number"),
        ("swap-joker 5H", "table meld number"),
    ],
)
def test_malformed_text_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(IllegalActionError, match="cannot read the action") as caught:
        parse_action(text)
    assert problem in str(caught.value)


def test_sizes_are_fixed_per_preset() -> None:
    assert action_space("knock").size == 4 + 52 + 52
    assert action_space("gin").size == 4 + 52 + 52
    rummy = action_space("rummy")
    # 13 ranks x (4 triples + 1 quad), 4 suits x 66 ace-low runs.
    assert rummy.meld_count == 13 * 5 + 4 * 66
    assert rummy.size == 4 + 52 + rummy.meld_count + 52 * MAX_TABLE_MELDS
    high = action_space(find_rules("basic", ace="high_or_low"))
    # plus the runs ending with a high ace, 3-12 cards (13 is the whole suit again)
    assert high.meld_count == 13 * 5 + 4 * (66 + 10)
    corner = action_space(find_rules("basic", ace="around_the_corner"))
    # every start and length 3-12 wraps, plus the whole suit once
    assert corner.meld_count == 13 * 5 + 4 * (13 * 10 + 1)
    rotham = action_space("rotham")
    assert rotham.size == rotham.swap_base + 52 * MAX_TABLE_MELDS


@pytest.mark.parametrize("name", preset_names())
def test_every_number_decodes_and_encodes_back(name: str) -> None:
    space = action_space(name)
    for number in range(space.size):
        action = space.decode(number)
        assert space.encode(action) == number
        assert Action.from_int(number, name) == action
    with pytest.raises(IllegalActionError):
        space.decode(space.size)
    with pytest.raises(IllegalActionError):
        space.decode(-1)


def test_meld_number_ignores_card_order_but_not_joker_places() -> None:
    space = action_space("rotham")
    assert space.encode(parse_action("meld 9H 7H 8H")) == space.encode(
        parse_action("meld 7H 8H 9H")
    )
    low = space.encode(parse_action("meld X1 5H 6H"))
    high = space.encode(parse_action("meld 5H 6H X1"))
    assert low != high
    # Which joker goes where does not matter: jokers are renumbered in order.
    assert space.encode(parse_action("meld 5H X2 X1 8H")) == space.encode(
        parse_action("meld 5H X1 X2 8H")
    )
    assert str(space.normalize(parse_action("meld 5H X3 X1 8H"))) == "meld 5H X1 X3 8H"


def test_actions_outside_the_space_are_refused() -> None:
    with pytest.raises(IllegalActionError, match="no knock"):
        action_space("rummy").encode(parse_action("knock 7H"))
    with pytest.raises(IllegalActionError, match="no meld"):
        action_space("knock").encode(parse_action("meld 7H 8H 9H"))
    with pytest.raises(IllegalActionError, match="not a meld"):
        action_space("rummy").encode(parse_action("meld 7H 8S 9H"))
    with pytest.raises(IllegalActionError, match="not in this deck"):
        action_space("gin").encode(parse_action("discard X1"))
    with pytest.raises(IllegalActionError, match="meld number"):
        action_space("rummy").encode(Action(ActionKind.LAYOFF, (Card("7H"),), MAX_TABLE_MELDS))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(preset_names()), st.integers(0, 10_000))
def test_legal_actions_in_random_play_round_trip(name: str, seed: int) -> None:
    rules = find_rules(name)
    deal = new_deal(rules, min(rules.max_players, rules.min_players + seed % 3), seed=seed)
    rng = random.Random(seed)
    space = action_space(rules)
    for _ in range(60):
        if deal.is_over:
            break
        legal = deal.legal_actions()
        numbers = [a.to_int(rules) for a in legal]
        assert numbers == sorted(set(numbers))
        assert [space.decode(n) for n in numbers] == legal
        assert [parse_action(str(a)) for a in legal] == legal
        deal.apply(rng.choice(legal))


def test_text_is_remembered_but_equality_hash_order_and_pickling_are_the_fields() -> None:
    import pickle

    printed = parse_action("meld 7H 8H 9H")
    fresh = parse_action("meld 7H 8H 9H")
    assert str(printed) == "meld 7H 8H 9H"
    assert str(printed) is str(printed)  # built once
    assert printed == fresh and hash(printed) == hash(fresh)
    assert not printed < fresh and not fresh < printed
    assert {printed: 1}[fresh] == 1
    copied = pickle.loads(pickle.dumps(printed))
    assert copied == fresh and str(copied) == "meld 7H 8H 9H"
    assert [str(a) for a in sorted([parse_action("draw stock"), printed])] == [
        str(a) for a in sorted([fresh, parse_action("draw stock")])
    ]
