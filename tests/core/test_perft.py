"""Perft: the engine's legal actions against counts made without it.

tests/data/perft.json holds positions in notation and the number of legal
action sequences to depth 1-3, counted by tests/perft_reference.py from the
rules pages (it imports nothing of pyrummy) and, for most positions, by hand
in the file's ``how``. This replaces checking the fast legal-action path
only against the engine's own refusal path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import perft_reference
import pyrummy
from pyrummy import Deal

PERFT = Path(__file__).resolve().parents[1] / "data" / "perft.json"
POSITIONS: list[dict[str, Any]] = json.loads(PERFT.read_text())["positions"]


def position(entry: dict[str, Any]) -> Deal:
    deal = pyrummy.new_deal(
        entry["rules"],
        hands=entry["hands"],
        upcard=entry["upcard"],
        stock=entry["stock"],
        dealer=entry["dealer"],
        seed=1,
    )
    for action in entry["actions"]:
        deal.apply(action)
    return deal


def perft(deal: Deal, depth: int) -> int:
    legal = deal.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        after = deal.clone()
        after.apply(action)
        total += perft(after, depth - 1)
    return total


@pytest.mark.parametrize("entry", POSITIONS, ids=lambda entry: str(entry["name"]))
def test_engine_counts_match_the_file(entry: dict[str, Any]) -> None:
    deal = position(entry)
    found = {depth: perft(deal, int(depth)) for depth in entry["perft"]}
    assert found == entry["perft"]


@pytest.mark.parametrize("entry", POSITIONS, ids=lambda entry: str(entry["name"]))
def test_reference_counts_match_the_file(entry: dict[str, Any]) -> None:
    assert perft_reference.counts(entry) == entry["perft"]


def test_the_reference_is_independent_of_the_engine() -> None:
    source = Path(perft_reference.__file__).read_text()
    assert "pyrummy" not in source.replace("imports nothing of pyrummy", "")


def test_the_file_covers_both_knock_games_and_depths_beyond_one() -> None:
    assert {entry["rules"] for entry in POSITIONS} >= {"knock", "gin"}
    assert sum(int(depth) >= 2 for entry in POSITIONS for depth in entry["perft"]) >= 6
