"""Batched environments: many deals stepped at once with numpy.

The knock and gin families without jokers (``knock`` for 2-5 players,
``knock-target`` for 2-6, ``gin``), with the core's rules bit for bit:

- :class:`~pyrummy.research.batched.game.BatchedGame`: self-play, every
  seat's decisions from one array of actions;
- :class:`pyrummy.research.vector.RummyVectorEnv`: a Gymnasium vector
  environment, one learner seat against fixed opponents.

Other presets raise :class:`~pyrummy.research.batched.engine.UnsupportedRulesError`.
"""

from pyrummy.research.batched.engine import BatchedDeals, UnsupportedRulesError, check_supported
from pyrummy.research.batched.game import BatchedGame, default_players, sample_legal

__all__ = [
    "BatchedDeals",
    "BatchedGame",
    "UnsupportedRulesError",
    "check_supported",
    "default_players",
    "sample_legal",
]
