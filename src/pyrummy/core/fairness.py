"""Commitments to a deal's shuffle, and their reveal (docs/fair-deals.md).

Before a deal's first card, players are shown a **commitment**: the
SHA-256, in lowercase hex, of the UTF-8 text

    ``pyrummy-deal:<shuffle>:<seed>:<salt>``

where ``<shuffle>`` names the shuffle (``sha256-fy-1``), ``<seed>`` is the
deal's seed as the shuffle writes it (decimal) and ``<salt>`` is the deal's
secret salt, 64 lowercase hex digits. When the deal ends, the seed and the
salt are **revealed**: anyone can then recompute the commitment, and the
deck from the seed (:mod:`pyrummy.core.shuffle`), and compare both with what
they were shown. The salt keeps the seed from being found from the
commitment by trying seeds.

A match with a salt of its own (the server's tables) gives each deal the
salt ``SHA-256("pyrummy-salt:" + match salt + ":" + deal number)``: revealing
one deal's salt tells nothing of the next one's.

>>> c = commitment_of("sha256-fy-1", 12, "ab" * 32)
>>> c == commitment_of("sha256-fy-1", 12, "ab" * 32) != commitment_of("sha256-fy-1", 13, "ab" * 32)
True
>>> fair = DealFairness.make("sha256-fy-1", 12, "ab" * 32)
>>> fair.problem(), fair.sealed().seed is None
(None, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from pyrummy.core.shuffle import check_shuffle, seed_text, shuffle_cards

__all__ = [
    "DealFairness",
    "commitment_of",
    "deal_salt",
    "deck_problem",
    "is_hex64",
    "new_match_salt",
]

_HEX64: Final = re.compile(r"[0-9a-f]{64}")


def _sha256_hex(text: str) -> str:
    import hashlib  # (as in seeds.py: only seeded games pay for importing it)

    return hashlib.sha256(text.encode()).hexdigest()


def is_hex64(text: object) -> bool:
    """Whether ``text`` is 64 lowercase hex digits (a salt, a commitment)."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def commitment_of(shuffle: str, seed: int | str, salt: str) -> str:
    """The commitment to ``seed`` with ``salt`` under ``shuffle``: lowercase hex SHA-256.

    >>> commitment_of("sha256-fy-1", 1, "00" * 32)[:12]
    'a03e6c787df2'
    """
    if not is_hex64(salt):
        raise ValueError(f"a salt is 64 lowercase hex digits, not {salt!r}")
    return _sha256_hex(f"pyrummy-deal:{check_shuffle(shuffle)}:{seed_text(seed)}:{salt}")


def new_match_salt() -> str:
    """A fresh secret salt for a match: 32 bytes from the operating system, in hex."""
    import secrets

    return secrets.token_hex(32)


def deal_salt(match_salt: str, deal_number: int) -> str:
    """The salt of deal ``deal_number`` of a match whose salt is ``match_salt``.

    >>> deal_salt("ab" * 32, 1) != deal_salt("ab" * 32, 2)
    True
    """
    return _sha256_hex(f"pyrummy-salt:{match_salt}:{deal_number}")


def deck_problem(deck: list[int], seed: int | str, shuffle: str) -> str | None:
    """Why ``deck`` (card numbers, dealt from position 0) is not the deck that
    ``seed`` deals under ``shuffle`` (None: it is)."""
    expected = list(range(len(deck)))
    shuffle_cards(expected, seed, shuffle)
    for position, (card, wanted) in enumerate(zip(deck, expected, strict=True)):
        if card != wanted:
            return f"card {position + 1} of the deck is not the one the revealed seed deals"
    return None


@dataclass(frozen=True)
class DealFairness:
    """A deal's commitment and, once revealed, its seed and salt.

    ``seed`` and ``salt`` are the deal's secret until the deal ends: a
    :meth:`sealed` copy (without them) is what may be shown before.
    """

    shuffle: str
    commitment: str
    seed: int | None = None
    salt: str | None = None

    @classmethod
    def make(cls, shuffle: str, seed: int, salt: str) -> DealFairness:
        return cls(shuffle, commitment_of(shuffle, seed, salt), seed, salt)

    @property
    def revealed(self) -> bool:
        return self.seed is not None and self.salt is not None

    def sealed(self) -> DealFairness:
        """The commitment alone: what players see before the deal ends."""
        return replace(self, seed=None, salt=None)

    def problem(self) -> str | None:
        """Why the reveal does not open the commitment (None: it does, or nothing is revealed)."""
        if self.seed is None or self.salt is None:
            return None
        if not is_hex64(self.salt):
            return "the revealed salt is not 64 lowercase hex digits"
        if commitment_of(self.shuffle, self.seed, self.salt) != self.commitment:
            return "the revealed seed and salt do not give the commitment"
        return None

    def public(self, reveal: bool) -> dict[str, object]:
        """As the server sends it: the seed as text (JavaScript's numbers are
        exact to 2**53 only), and the seed and salt only when ``reveal``."""
        data: dict[str, object] = {"shuffle": self.shuffle, "commitment": self.commitment}
        if reveal and self.seed is not None:
            data["seed"] = seed_text(self.seed)
            data["salt"] = self.salt
        return data
