"""Seeds derived from seeds, the same on every machine and every Python.

A seeded match, table or tournament needs further seeds: one per deal, one
per bot, one per tournament deck. Each is a SHA-256 of a *domain* (what the
seed is for) and the parts that tell it apart, so that seeds of different
uses never collide by construction and nothing depends on Python's
``hash`` or ``random`` internals. The domains in use:

- ``pyrummy-match``: deal ``n`` of a match (:func:`pyrummy.core.match.deal_seed`, 64 bits);
- ``pyrummy-bot``: a server bot's own seed from the table's match seed (32 bits);
- ``pyrummy-tournament``: the parts of a tournament (decks, seatings; 63 bits).

The widths are those the seeds were first made with, so every stored
record and tournament replays as before.

>>> derive_seed("pyrummy-match", 7, 1) == derive_seed("pyrummy-match", 7, 1)
True
>>> derive_seed("pyrummy-match", 7, 1) != derive_seed("pyrummy-match", 7, 2)
True
>>> derive_seed("pyrummy-bot", 7, 1, bits=32) < 2**32
True
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed"]


def derive_seed(domain: str, *parts: int | str, bits: int = 63) -> int:
    """A ``bits``-bit seed (1-64) for ``parts`` of what ``domain`` names: the
    first ``bits`` bits of SHA-256 of ``domain:part:part...``.

    >>> derive_seed("pyrummy-tournament", 1, "deck", 0)
    4401661282921650385
    """
    if not 1 <= bits <= 64:
        raise ValueError(f"bits must be 1-64, not {bits}")
    text = ":".join((domain, *map(str, parts))).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> (64 - bits)
