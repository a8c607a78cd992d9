"""Seeds derived from seeds, the same on every machine and every Python.

A seeded match, table or tournament needs further seeds: one per deal, one
per bot, one per tournament deck. Each is a SHA-256 of a *domain* (what the
seed is for) and the parts that tell it apart, so that seeds of different
uses never collide by construction and nothing depends on Python's
``hash`` or ``random`` internals. The domains in use:

- ``pyrummy-match``: deal ``n`` of a match (:func:`pyrummy.core.match.deal_seed`, 64 bits);
- ``pyrummy-bot``: a bot's own seed from its match's seed and its seat
  (:func:`bot_seed`, 32 bits: the server's tables and ``pyrummy play``);
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

__all__ = ["bot_seed", "derive_seed"]

_BOT_DOMAIN = "pyrummy-bot"


def derive_seed(domain: str, *parts: int | str, bits: int = 63) -> int:
    """A ``bits``-bit seed (1-64) for ``parts`` of what ``domain`` names: the
    first ``bits`` bits of SHA-256 of ``domain:part:part...``.

    >>> derive_seed("pyrummy-tournament", 1, "deck", 0)
    4401661282921650385
    """
    if not 1 <= bits <= 64:
        raise ValueError(f"bits must be 1-64, not {bits}")
    # Imported here: hashlib (OpenSSL) is a noticeable part of ``import pyrummy``
    # and only seeded games need it.
    import hashlib

    text = ":".join((domain, *map(str, parts))).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> (64 - bits)


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a match seeded ``match_seed``: the
    same bot plays the same way wherever the match is played (a server's
    table, ``pyrummy play``), and nothing about the match seed can be learnt
    from it.

    >>> bot_seed(7, 1) == bot_seed(7, 1) != bot_seed(7, 2)
    True
    >>> bot_seed(7, 1) == derive_seed("pyrummy-bot", 7, 1, bits=32)
    True
    """
    return derive_seed(_BOT_DOMAIN, match_seed, seat, bits=32)
