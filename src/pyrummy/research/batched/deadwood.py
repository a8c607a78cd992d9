"""Least deadwood of many hands at once, with numpy (hands without jokers).

The core's solver (:func:`pyrummy.core.solver.deadwood_of_mask`) works on
one int: runs live inside one suit, so each 13-bit suit pattern's least
run-only deadwood is one read of :func:`~pyrummy.core.suit_tables.suit_deadwood_table`;
sets are the cross-suit part, and a set can form only at a rank held in
three suits or more. Here the same search runs on arrays: every hand reads
its four suit patterns' table entries at once; the few hands with a rank in
three suits (about one in three) choose a set at that rank or not (no
set, all of the rank, or, with all four, the three without one suit). With
one such rank (most of them) that is a few table reads more per hand; with
more, the choices at the lowest rank are laid side by side and the rest
searched in each, the least taken.

>>> import numpy as np
>>> from pyrummy.core.cards import CardSet
>>> from pyrummy.core.solver import deadwood_of_mask
>>> hands = [CardSet(text).mask for text in ("7S 7H 7D 8S 9S", "AS 2S 3S KH KD", "7S 7H 7D 7C 8S 9S")]
>>> [int(v) for v in deadwoods(np.array(hands, np.uint64), suit_table("low"))]
[14, 20, 0]
>>> [deadwood_of_mask(mask) for mask in hands]
[14, 20, 0]
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.core.suit_tables import suit_deadwood_table

IntArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.uint64]

SUIT: Final = 0x1FFF
#: The number of choices at one rank: no set, the whole rank, three of four (x4).
_CHOICES: Final = 6


@cache
def suit_table(ace: str) -> IntArray:
    """The run-only deadwood of each 13-bit suit pattern, as an array."""
    return np.array(suit_deadwood_table(ace), np.int64)


def suits_of(masks: MaskArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The four 13-bit suit patterns (spades, hearts, diamonds, clubs) of each mask."""
    m = masks.astype(np.int64)
    return m & SUIT, (m >> 13) & SUIT, (m >> 26) & SUIT, (m >> 39) & SUIT


def deadwoods(masks: MaskArray, table: IntArray) -> IntArray:
    """The least deadwood of each hand (card masks, no jokers)."""
    s, h, d, c = suits_of(masks)
    return deadwood_of_suits(s, h, d, c, table)


def deadwood_of_suits(
    s: IntArray, h: IntArray, d: IntArray, c: IntArray, table: IntArray
) -> IntArray:
    """:func:`deadwoods` of hands given as their four suit patterns."""
    best = table[s] + table[h] + table[d] + table[c]
    ranks = (s & h & (d | c)) | ((s | h) & d & c)
    rows = np.flatnonzero(ranks)
    if rows.size:
        best[rows] = _with_sets(s[rows], h[rows], d[rows], c[rows], ranks[rows], table)
    return best


def _with_sets(
    s: IntArray, h: IntArray, d: IntArray, c: IntArray, ranks: IntArray, table: IntArray
) -> IntArray:
    """Least deadwood of hands that each have a rank in three suits or more
    (``ranks``): a hand with one such rank is settled at once (:func:`_one_set_rank`);
    with more, the choices at the lowest such rank side by side, the rest
    of the ranks searched in each choice."""
    single = (ranks & (ranks - 1)) == 0
    if single.all():
        return _one_set_rank(s, h, d, c, ranks, table)
    result = np.empty(s.shape[0], np.int64)
    one = np.flatnonzero(single)
    if one.size:
        result[one] = _one_set_rank(s[one], h[one], d[one], c[one], ranks[one], table)
    many = np.flatnonzero(~single)
    s, h, d, c, ranks = s[many], h[many], d[many], c[many], ranks[many]
    low = ranks & -ranks
    rest = ranks ^ low
    keep = ~low
    s2, h2, d2, c2 = s & keep, h & keep, d & keep, c & keep
    # No set; the whole rank; with four suits, the three without one suit
    # (that suit keeps its card). A hand with only three suits at the rank
    # repeats the no-set choice in those four places.
    three = (s & h & d & c & low) == 0
    ks, kh, kd, kc = (np.where(three, x, x2) for x, x2 in ((s, s2), (h, h2), (d, d2), (c, c2)))
    choice_s = np.concatenate((s, s2, s, ks, ks, ks))
    choice_h = np.concatenate((h, h2, kh, h, kh, kh))
    choice_d = np.concatenate((d, d2, kd, kd, d, kd))
    choice_c = np.concatenate((c, c2, kc, kc, kc, c))
    left = np.concatenate((rest,) * _CHOICES)
    # Every choice still has the other ranks in three suits or more.
    values = _with_sets(choice_s, choice_h, choice_d, choice_c, left, table)
    result[many] = values.reshape(_CHOICES, -1).min(axis=0)
    return result


def _one_set_rank(
    s: IntArray, h: IntArray, d: IntArray, c: IntArray, rank: IntArray, table: IntArray
) -> IntArray:
    """Least deadwood of hands with one rank (``rank``, a bit) in three suits
    or more: no set, the whole rank (each suit's pattern without it), or,
    with four suits, the three without the suit that gains most by keeping
    its card. A hand with none such (``rank`` 0) gets the run-only sum."""
    keep = ~rank
    held = table[s], table[h], table[d], table[c]
    without = table[s & keep], table[h & keep], table[d & keep], table[c & keep]
    none = held[0] + held[1] + held[2] + held[3]
    whole = without[0] + without[1] + without[2] + without[3]
    gain = np.minimum(
        np.minimum(held[0] - without[0], held[1] - without[1]),
        np.minimum(held[2] - without[2], held[3] - without[3]),
    )
    four = (s & h & d & c & rank) != 0
    best: IntArray = np.minimum(none, whole + np.where(four, np.minimum(gain, 0), 0))
    return best
