"""The action numbering is pinned: refactoring the meld enumeration must not move a number.

Learning code stores action numbers (policies, replay buffers, records of
research runs), so the numbering of every action space is fixed. Each space
is summed up by a hash of every number's action (text form, cards in meld
order, run named or not) and every meld's key; the hashes were computed
before the meld enumeration moved into :mod:`pyrummy.core.patterns`. A
change here is a change of the public encoding: say so in the changelog.
"""

from __future__ import annotations

import hashlib

import pytest

from pyrummy.core.actions import ActionSpace
from pyrummy.core.rules import AceRule, Family

# (family, ace rule, jokers) -> (size, first 16 hex digits of the SHA-256 below).
PINNED: dict[tuple[Family, AceRule, int], tuple[int, str]] = {
    ("melding", "low", 0): (1321, "96e52f925996f17f"),
    ("melding", "low", 1): (4078, "c575b4bc2086e03f"),
    ("melding", "low", 2): (11441, "9920a10feeddc9a1"),
    ("melding", "low", 3): (36366, "f14f6278ccdc070d"),
    ("melding", "high_or_low", 0): (1361, "6218867fbe66f1be"),
    ("melding", "high_or_low", 1): (4418, "f8ed75c7621bb8e6"),
    ("melding", "high_or_low", 2): (13221, "4734550d34345d43"),
    ("melding", "high_or_low", 3): (43582, "5a6c94a84bbb55c4"),
    ("melding", "around_the_corner", 0): (1581, "babf09d11c759c9a"),
    ("melding", "around_the_corner", 1): (6618, "ac1a9968d8f67f8e"),
    ("melding", "around_the_corner", 2): (25981, "a1119355f4d33f8f"),
    ("melding", "around_the_corner", 3): (98930, "2c303a01df26cd82"),
    ("knock", "low", 0): (108, "bc018dc3d732a23f"),
    ("knock", "low", 1): (110, "5e9b3d455b8ac11d"),
    ("knock", "low", 2): (112, "1cf25dd62f685d24"),
    ("knock", "low", 3): (114, "0d33d4b9a3b666c3"),
    ("gin", "low", 0): (108, "bc018dc3d732a23f"),
    ("gin", "low", 1): (110, "5e9b3d455b8ac11d"),
    ("gin", "low", 2): (112, "1cf25dd62f685d24"),
    ("gin", "low", 3): (114, "0d33d4b9a3b666c3"),
}


def numbering_digest(space: ActionSpace) -> str:
    digest = hashlib.sha256()
    for number in range(space.size):
        digest.update(f"{number} {space.decode(number)}\n".encode())
    for key, number in sorted(space.meld_index.items(), key=lambda item: item[1]):
        digest.update(f"{number} {key}\n".encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("family", "ace", "jokers"), list(PINNED))
def test_the_action_numbering_has_not_moved(family: Family, ace: AceRule, jokers: int) -> None:
    space = ActionSpace(family, ace, jokers)
    assert (space.size, numbering_digest(space)) == PINNED[(family, ace, jokers)]


def test_the_pins_cover_rummy_and_rotham_and_the_knock_families() -> None:
    melding = {(ace, jokers) for family, ace, jokers in PINNED if family == "melding"}
    assert melding == {
        (ace, jokers) for ace in ("low", "high_or_low", "around_the_corner") for jokers in range(4)
    }
    assert {family for family, _, _ in PINNED} == {"melding", "knock", "gin"}
