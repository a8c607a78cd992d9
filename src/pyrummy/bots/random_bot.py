"""The random bot: a uniformly random legal action from a seeded generator.

It never undoes: undo has no limit in a turn (it is there for people), so a
bot that undid at random could loop in one turn for a long time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pyrummy.bots.base import require_actions
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation


class RandomBot:
    """Picks uniformly among the legal actions but undo; the same seed gives the same picks.

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
        choices = [a for a in legal_actions if a.kind is not ActionKind.UNDO] or list(legal_actions)
        return choices[self.rng.randrange(len(choices))]
