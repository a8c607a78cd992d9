"""The portable shuffle: a deck from a seed that anyone can recompute.

``sha256-fy-1`` (docs/fair-deals.md gives the same steps for people who
re-implement it) is SHA-256 in counter mode producing uniform integers by
rejection sampling, driving a Fisher-Yates shuffle:

1. The seed is written as text: a whole number in decimal (``-`` before a
   negative one, no leading zeros), a text seed as it is; UTF-8.
2. Block ``k`` (``k`` = 0, 1, 2, ...) of the stream is
   ``SHA-256("pyrummy-shuffle:" + seed text + ":" + k in decimal)``. Each
   block gives eight 32-bit words, read big-endian, in order; the words of
   block 0 come first, then those of block 1, and so on.
3. A uniform integer below ``n`` takes the next word ``w``: with
   ``limit = 2**32 - (2**32 mod n)``, a word ``w >= limit`` is thrown away
   and the next one taken; otherwise the integer is ``w mod n``.
4. The cards start in card order (card number ``13 * suit + rank``: suits
   S H D C, ranks A 2 ... K, the ace lowest; jokers after the 52 cards).
   For ``i`` from the last position down to 1: ``j`` = a uniform integer
   below ``i + 1``, and the cards at ``i`` and ``j`` change places.
   Position 0 of the result is dealt first.

The core's seeded deals keep the older shuffle (:data:`LEGACY_SHUFFLE`,
Python's Mersenne Twister) unless asked for this one, so that every stored
game, pinned bot decision and measured duplicate deck replays as it was; a
record names the shuffle it was dealt with (its ``Shuffle`` header; none:
the legacy one). The server deals with :data:`PORTABLE_SHUFFLE`.

>>> portable_order(7, 5)
[1, 0, 4, 3, 2]
>>> sorted(portable_order("any text", 52)) == list(range(52))
True
>>> stream_words(7)[:2] == [int.from_bytes(block_of(7, 0)[i:i + 4], "big") for i in (0, 4)]
True
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from functools import cache
from typing import Final

__all__ = [
    "LEGACY_SHUFFLE",
    "PORTABLE_SHUFFLE",
    "SHUFFLES",
    "block_of",
    "check_shuffle",
    "portable_order",
    "portable_shuffle",
    "refill_seed",
    "seed_text",
    "shuffle_cards",
    "stream_words",
]

#: The documented shuffle (this module's docstring, docs/fair-deals.md).
PORTABLE_SHUFFLE: Final = "sha256-fy-1"
#: Python's ``random.Random(seed)``, Fisher-Yates by ``getrandbits``: what
#: seeded deals used before the portable shuffle, and records without a
#: ``Shuffle`` header were dealt with.
LEGACY_SHUFFLE: Final = "python-mt"
#: Every shuffle a seeded deal may name.
SHUFFLES: Final = (PORTABLE_SHUFFLE, LEGACY_SHUFFLE)

_PREFIX: Final = b"pyrummy-shuffle:"
_WORD: Final = 1 << 32
_BLOCK_WORDS: Final = struct.Struct(">8I")


def check_shuffle(name: object) -> str:
    """``name`` if it names a shuffle, else ``ValueError`` listing them.

    >>> check_shuffle("sha256-fy-1")
    'sha256-fy-1'
    >>> check_shuffle("mine")
    Traceback (most recent call last):
    ...
    ValueError: unknown shuffle 'mine'; shuffles are sha256-fy-1, python-mt
    """
    if not isinstance(name, str) or name not in SHUFFLES:
        raise ValueError(f"unknown shuffle {name!r}; shuffles are {', '.join(SHUFFLES)}")
    return name


def seed_text(seed: int | str) -> str:
    """The seed as the shuffle and the commitment write it (step 1).

    >>> seed_text(12), seed_text(-3), seed_text("table 9")
    ('12', '-3', 'table 9')
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"a seed is a whole number or text, not {seed!r}")
    return str(seed) if isinstance(seed, int) else seed


def block_of(seed: int | str, k: int) -> bytes:
    """Block ``k`` of the seed's stream (step 2): 32 bytes.

    >>> block_of(7, 0).hex()[:16]
    'ce0b66e4cb0388eb'
    """
    import hashlib  # (as in seeds.py: only seeded games pay for importing it)

    return hashlib.sha256(b"%s%s:%d" % (_PREFIX, seed_text(seed).encode(), k)).digest()


def stream_words(seed: int | str, blocks: int = 1) -> list[int]:
    """The first ``8 * blocks`` words of the seed's stream (step 2)."""
    words: list[int] = []
    for k in range(blocks):
        words += _BLOCK_WORDS.unpack(block_of(seed, k))
    return words


@cache
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """For each Fisher-Yates step of ``size`` cards: the position ``i``, the
    count ``n = i + 1`` to draw below and the rejection limit for it."""
    return tuple((i, i + 1, _WORD - _WORD % (i + 1)) for i in range(size - 1, 0, -1))


def portable_shuffle(cards: list[int], seed: int | str) -> None:
    """Shuffle ``cards`` in place by ``sha256-fy-1`` (steps 2-4 above)."""
    import hashlib

    key = _PREFIX + seed_text(seed).encode() + b":"
    sha256 = hashlib.sha256
    steps = _steps(len(cards))
    # The words a shuffle needs (one per step, and a rejection is rare: below
    # one in 10**7 for 55 cards) are hashed in one go; more come if needed.
    blocks = (len(steps) + 7) // 8
    words = b"".join(sha256(key + b"%d" % k).digest() for k in range(blocks))
    stream = list(struct.unpack(f">{8 * blocks}I", words))
    next_block = blocks
    position = 0
    for i, n, limit in steps:
        while True:
            if position == len(stream):
                stream += _BLOCK_WORDS.unpack(sha256(key + b"%d" % next_block).digest())
                next_block += 1
            word = stream[position]
            position += 1
            if word < limit:
                break
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]


def portable_order(seed: int | str, size: int) -> list[int]:
    """The card numbers 0..size-1 shuffled by ``sha256-fy-1``: the deck, dealt from position 0."""
    cards = list(range(size))
    portable_shuffle(cards, seed)
    return cards


def refill_seed(deck: Sequence[object], rebuild: int) -> str:
    """The seed text of a deal's ``rebuild``-th stock rebuilt by shuffling
    the discard pile (``stock_end=shuffle``) under ``sha256-fy-1``: ``refill``,
    the rebuild's number (1 for the first) and the deal's deck as its
    record's ``Deck:`` line writes it, one space between each.

    The deck is secret until the deal ends, so nobody can foresee the rebuilt
    stock; once it is revealed, anyone can recompute it (docs/fair-deals.md).

    >>> refill_seed(["AS", "TD", "X1"], 2)
    'refill 2 AS TD X1'
    """
    return " ".join(["refill", str(rebuild), *map(str, deck)])


@cache
def _legacy_steps(size: int) -> tuple[tuple[int, int], ...]:
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def _legacy_shuffle(cards: list[int], seed: int | str) -> None:
    """Fisher-Yates with ``getrandbits`` rejection sampling over
    ``random.Random(seed)``: the very steps of :meth:`random.Random.shuffle`,
    written out so seeded decks never depend on the library's internals."""
    getrandbits = random.Random(seed).getrandbits
    for i, width in _legacy_steps(len(cards)):
        j = getrandbits(width)
        while j > i:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]


def shuffle_cards(cards: list[int], seed: int | str, shuffle: str = LEGACY_SHUFFLE) -> None:
    """Shuffle ``cards`` in place from ``seed`` by the shuffle named ``shuffle``.

    >>> a, b = list(range(52)), list(range(52))
    >>> shuffle_cards(a, 5, "sha256-fy-1"); a == portable_order(5, 52)
    True
    >>> shuffle_cards(b, 5); b == a
    False
    """
    if shuffle == PORTABLE_SHUFFLE:
        portable_shuffle(cards, seed)
    elif shuffle == LEGACY_SHUFFLE:
        _legacy_shuffle(cards, seed)
    else:
        check_shuffle(shuffle)
