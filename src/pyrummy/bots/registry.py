"""Bots by name: ``make_bot("hard", seed=1)``.

>>> make_bot("easy", seed=1).name
'simple'
>>> make_bot("grandmaster")
Traceback (most recent call last):
...
pyrummy.bots.base.UnknownBotError: unknown bot 'grandmaster'; bots are: random, simple, medium, hard, easy
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from pyrummy.bots.base import Bot, BotError, UnknownBotError
from pyrummy.bots.hard import HardBot
from pyrummy.bots.medium import MediumBot
from pyrummy.bots.random_bot import RandomBot
from pyrummy.bots.simple import SimpleBot

_FACTORIES: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "simple": SimpleBot,
    "medium": MediumBot,
    "hard": HardBot,
}
#: Names for people choosing an opponent: easy, medium, hard.
DIFFICULTIES: Final = {"easy": "simple", "medium": "medium", "hard": "hard"}
#: Every name :func:`make_bot` accepts (the one list of them): the bots proper,
#: strongest last, then the difficulty names that are not also a bot's.
BOT_NAMES: Final = (*_FACTORIES, *(name for name in DIFFICULTIES if name not in _FACTORIES))


def make_bot(name: str, seed: int | None = None, **options: object) -> Bot:
    """The bot called ``name`` (or a difficulty name), seeded, with its options.

    Options go to the bot's constructor: ``knock_threshold`` (simple),
    ``samples``, ``feed_weight``, ``knock_cap``, ``lookahead`` and
    ``hold_for_rummy`` among others (medium), ``time_budget`` (medium: its
    knock decision; hard: every search), ``rollouts``, ``candidates``,
    ``knock_samples`` and ``equity_selection`` (hard). An option the bot does not
    take raises :class:`BotError`.

    >>> make_bot("hard", seed=3, rollouts=20).rollouts
    20
    >>> make_bot("simple", depth=3)
    Traceback (most recent call last):
    ...
    pyrummy.bots.base.BotError: bot 'simple' does not take the option(s): depth
    """
    key = name.strip().lower()
    key = DIFFICULTIES.get(key, key)
    factory = _FACTORIES.get(key)
    if factory is None:
        raise UnknownBotError(f"unknown bot {name!r}; bots are: {', '.join(BOT_NAMES)}")
    try:
        return factory(seed, **options)
    except TypeError as error:
        if "unexpected keyword argument" not in str(error):
            raise
        raise BotError(
            f"bot {key!r} does not take the option(s): {', '.join(sorted(options))}"
        ) from None
