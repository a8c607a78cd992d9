"""One whole match between bots: the unit of rated play that measures the anchors.

A rated match is a whole match (the preset's own ending), so the anchors are
measured on whole matches too, seeded so that a run replays exactly. A
player is a bot level (``hard``) or a fixed policy of the benchmark panel
(``knock-20``; :mod:`pyrummy.bots.policies`), for tests of players of known
strength.

>>> outcome = play_match(MatchTask("knock", ("simple", "random"), seed=3))
>>> outcome.places in ([1, 2], [2, 1], [1, 1]), len(outcome.totals)
(True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from pyrummy.bots import make_bot
from pyrummy.bots.base import Bot
from pyrummy.bots.policies import PANEL, make_policy
from pyrummy.core.match import new_match
from pyrummy.core.seeds import bot_seed
from pyrummy.ratings.model import places_of

#: A match no preset comes near (safety net against a bot that never ends a deal).
MAX_ACTIONS: Final = 200_000


@dataclass(frozen=True)
class MatchTask:
    """Who plays ``preset`` in which seat, and the match's seed."""

    preset: str
    players: tuple[str, ...]
    seed: int


@dataclass(frozen=True)
class MatchOutcome:
    """A finished match: each seat's place (1 = first, ties share) and total."""

    task: MatchTask
    places: list[int]
    totals: list[Fraction]


def make_player(name: str, seed: int) -> Bot:
    """A bot level, or a fixed policy of the panel, by name."""
    if name in PANEL:
        return make_policy(name, seed)
    return make_bot(name, seed=seed)


def play_match(task: MatchTask) -> MatchOutcome:
    """Play ``task`` to the match's end (each bot seeded as at a server's table)."""
    match = new_match(task.preset, players=len(task.players), seed=task.seed)
    bots = [make_player(name, bot_seed(task.seed, seat)) for seat, name in enumerate(task.players)]
    for _ in range(MAX_ACTIONS):
        seat = match.current_seat
        if match.is_over or seat is None:
            break
        match.apply(bots[seat].choose(match.observe(seat), match.legal_actions()))
    else:  # pragma: no cover - the safety net
        raise RuntimeError(f"a match of {task} did not end in {MAX_ACTIONS} actions")
    totals = list(match.totals)
    return MatchOutcome(task, places_of(totals), totals)
