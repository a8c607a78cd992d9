"""The deal's state declared once: copies, pickles and the per-pattern tables follow it."""

from __future__ import annotations

import pickle
import random
import re
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyrummy.core.actions import DISCARDS, KNOCKS
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.deal.state import DealState, state_fields
from pyrummy.core.deal.tables import DISCARD_TABLES, KNOCK_TABLES, card_actions
from pyrummy.core.families import FAMILIES, family_of
from pyrummy.core.rules import find_rules, preset_names
from pyrummy.core.sampling import put_down_from_history

SRC = Path(__file__).resolve().parents[2] / "src" / "pyrummy"

# Presets and options that reach every kind of state: jokers, a shuffled
# rebuild of the stock (the deal's random generator), all-seven deals.
CASES: list[tuple[str, dict[str, object]]] = [(name, {}) for name in preset_names()] + [
    ("basic", {"stock_end": "shuffle", "turn_cap": 400}),
]


def _views(deal: Deal) -> list[object]:
    """Everything a deal shows: every seat's view, the legal actions, the record."""
    seen: list[object] = [deal.observe(seat) for seat in range(deal.players)]
    seen.append(deal.observe(None))
    seen.append(deal.legal_actions())
    seen.append([deal.hands(seat) for seat in range(deal.players)])
    seen.append(deal.stock)
    return seen


def _play(deal: Deal, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if deal.is_over:
            return
        actions = [action for action in deal.legal_actions() if action.kind.name != "UNDO"]
        deal.apply(rng.choice(actions or deal.legal_actions()))


def _positions(name: str, options: dict[str, object], seed: int) -> list[Deal]:
    """Positions along one random deal (every 7th step, and the end)."""
    rng = random.Random(seed)
    players = min(3, find_rules(name).max_players)
    deal = new_deal(find_rules(name, **options), players, seed=seed, deal_number=1 + 2 * seed)
    found = []
    while not deal.is_over:
        _play(deal, rng, 7)
        found.append(deal.clone())
    return found


def test_every_slot_of_a_deal_is_declared_once() -> None:
    declared = [item.name for item in fields(DealState)]
    assert len(declared) == len(set(declared))
    slots = [name for cls in Deal.__mro__ for name in getattr(cls, "__slots__", ())]
    assert sorted(slots) == sorted(declared)
    assert set(state_fields().values()) <= {"share", "list", "rng", "cache", "derived"}


@pytest.mark.parametrize(("name", "options"), CASES, ids=lambda case: str(case))
def test_a_clone_is_independent_and_plays_on_the_same(
    name: str, options: dict[str, object]
) -> None:
    for seed in range(3):
        for position in _positions(name, options, seed):
            copy = position.clone()
            for field_name, how in state_fields().items():
                mine, theirs = getattr(position, field_name), getattr(copy, field_name)
                if how == "list":
                    assert mine == theirs and mine is not theirs, field_name
                elif how != "rng":
                    assert mine is theirs, field_name
            before = _views(copy)
            # The original plays on: the copy does not move.
            _play(position, random.Random(seed), 30)
            assert _views(copy) == before
            # The copy plays the same actions to the same end.
            again = copy.clone()
            _play(copy, random.Random(seed), 30)
            _play(again, random.Random(seed), 30)
            assert _views(copy) == _views(again)


@pytest.mark.parametrize(("name", "options"), CASES, ids=lambda case: str(case))
def test_a_pickled_deal_is_the_same_deal(name: str, options: dict[str, object]) -> None:
    for position in _positions(name, options, seed=4):
        restored = pickle.loads(pickle.dumps(position))
        assert isinstance(restored, Deal)
        assert _views(restored) == _views(position)
        if position.seed is not None:
            assert restored.record() == position.record()
        _play(position, random.Random(9), 40)
        _play(restored, random.Random(9), 40)
        assert _views(restored) == _views(position)


def test_a_pickle_leaves_out_the_caches_and_what_the_rules_give() -> None:
    deal = new_deal("rotham", 3, seed=2)
    deal.legal_actions()
    state = deal.__getstate__()
    assert "_legal" not in state and "_space" not in state and "_policy" not in state
    assert "_hands" in state and "_undo" in state


@given(st.integers(0, (1 << 55) - 1))
def test_the_per_pattern_tables_list_each_card_once_in_card_order(mask: int) -> None:
    numbers = [i for i in range(55) if mask >> i & 1]
    assert card_actions(DISCARD_TABLES, mask) == tuple(DISCARDS[i] for i in numbers)
    assert card_actions(KNOCK_TABLES, mask) == tuple(KNOCKS[i] for i in numbers)


def test_every_preset_has_its_familys_policy() -> None:
    for name in preset_names():
        rules = find_rules(name)
        policy = family_of(rules)
        assert policy is FAMILIES[rules.family] and policy.name == rules.family
        deal = new_deal(name, rules.min_players, seed=1)
        assert deal._policy is policy and deal._play_phase is policy.play_phase


def test_only_the_family_declarations_compare_family_names() -> None:
    # Everything that differs by family is asked of the family's policy
    # (pyrummy.core.families); rules.py declares the families.
    comparison = re.compile(r"\bfamily\s*(==|!=)|\.family\s+(not\s+)?in\b")
    offenders = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC) != Path("core", "rules.py")
        and "families" not in path.relative_to(SRC).parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if comparison.search(line)
    ]
    assert offenders == []


def test_no_source_module_is_over_800_lines() -> None:
    lengths = {
        str(path.relative_to(SRC)): len(path.read_text().splitlines()) for path in SRC.rglob("*.py")
    }
    assert lengths and {path: n for path, n in lengths.items() if n > 800} == {}


@pytest.mark.parametrize("name", ["rummy", "basic", "block", "rotham"])
def test_who_put_cards_down_follows_from_the_public_history(name: str) -> None:
    # What sampling no longer reads from the observation: the seats that put
    # cards down in an earlier turn, the turn's own table plays (undo taken
    # into account) and who has a meld of their own on the table.
    rng = random.Random(name)
    checked = 0
    for seed in range(6):
        deal = new_deal(name, 3, seed=seed, deal_number=1 + seed)
        undos = 0
        while not deal.is_over:
            actions = deal.legal_actions()
            undo = [action for action in actions if action.kind.name == "UNDO"]
            if undo and undos < 40 and rng.random() < 0.3:
                action = undo[0]
                undos += 1
            else:
                action = rng.choice([a for a in actions if a.kind.name != "UNDO"] or actions)
            deal.apply(action)
            if deal.is_over:
                break
            played, played_turn = put_down_from_history(deal.history, deal.players)
            assert played == deal._played and played_turn == deal._played_turn
            owners = {table_meld.owner for table_meld in deal.table}
            assert [seat in owners for seat in range(deal.players)] == deal._own_meld
            checked += 1
    assert checked > 100
