"""The random bot: a uniformly random legal action from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyrummy.bots.base import require_actions
from pyrummy.core.actions import Action
from pyrummy.core.observation import Observation


class RandomBot:
    """Picks uniformly among the legal actions; the same seed gives the same picks.

    >>> from pyrummy.core.actions import parse_action
    >>> actions = [parse_action("draw stock"), parse_action("draw discard")]
    >>> a, b = RandomBot(seed=3), RandomBot(seed=3)
    >>> [str(a.choose(None, actions)) for _ in range(4)] == [
    ...     str(b.choose(None, actions)) for _ in range(4)]
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation | None, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        return legal_actions[self.rng.randrange(len(legal_actions))]
