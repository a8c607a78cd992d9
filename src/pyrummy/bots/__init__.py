"""Bots for every preset, from beginner to strong, behind one interface.

``make_bot(name, seed)`` gives ``random``, ``simple`` (``easy``), ``medium``
or ``hard`` (:data:`LEVELS` lists them with what a menu shows of each); each answers ``choose(observation, legal_actions)`` with one of
the legal actions, seeing only what its seat may know.

>>> from pyrummy.core.deal import new_deal
>>> deal = new_deal("knock", players=2, seed=5)
>>> bots = [make_bot("simple"), make_bot("random", seed=1)]
>>> while not deal.is_over:
...     seat = deal.current_seat
...     deal.apply(bots[seat].choose(deal.observe(seat), deal.legal_actions()))
>>> deal.settlement is not None
True
"""

from pyrummy.bots.base import Bot, BotError, UnknownBotError
from pyrummy.bots.hard import HardBot
from pyrummy.bots.hard_context import HardConfig
from pyrummy.bots.medium import MediumBot, MediumConfig
from pyrummy.bots.random_bot import RandomBot
from pyrummy.bots.registry import BOT_NAMES, DIFFICULTIES, LEVELS, Level, find_level, make_bot
from pyrummy.bots.simple import SimpleBot, SimpleConfig

__all__ = [
    "BOT_NAMES",
    "DIFFICULTIES",
    "LEVELS",
    "Bot",
    "BotError",
    "HardBot",
    "HardConfig",
    "Level",
    "MediumBot",
    "MediumConfig",
    "RandomBot",
    "SimpleBot",
    "SimpleConfig",
    "UnknownBotError",
    "find_level",
    "make_bot",
]
