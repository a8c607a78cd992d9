"""The bots' fixed ratings per game: what ties the scale to something every server shares.

``anchors.json`` (beside this module) is written by
``benchmarks/rating_anchors.py``, which plays rated two-player matches
between the bots and fits their ratings (the Easy bot held at 1000); the
server reads it and nothing else does. A bot plays every rated match at its
anchor, with the anchor's uncertainty (at least :data:`BOT_POINTS_FLOOR`),
and is never updated.

A bot without an anchor in a game (a game the measurement did not cover)
plays at the Easy bot's 1000 with a newcomer's uncertainty: a person's
result against it then counts for less.

>>> anchor_rating("knock", "easy").points
1000.0
>>> anchor_rating("knock", "hard").sigma < anchor_rating("no-such-game", "hard").sigma
True
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from pyrummy.bots.base import UnknownBotError
from pyrummy.bots.registry import find_level
from pyrummy.ratings.model import NEWCOMER_SIGMA, Rating
from pyrummy.ratings.scale import ANCHOR_BOT, ANCHOR_POINTS, mu_of, sigma_of

#: The least uncertainty a bot's rating is given, in points (the anchor bot's own is 0).
BOT_POINTS_FLOOR: Final = 15.0


@dataclass(frozen=True)
class Anchor:
    """A bot's measured rating in one game: points and their standard error."""

    bot: str
    points: float
    error: float


@functools.cache
def load_anchors() -> dict[str, Any]:
    """``anchors.json`` as stored (games, and how they were measured)."""
    text = resources.files("pyrummy.ratings").joinpath("anchors.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def anchors_of(preset: str) -> dict[str, Anchor]:
    """The anchors of game ``preset`` by bot name (empty for a game not measured)."""
    game = load_anchors().get("games", {}).get(preset, {})
    return {
        name: Anchor(name, float(value["rating"]), float(value["error"]))
        for name, value in game.get("bots", {}).items()
    }


def anchor_rating(preset: str, bot: str) -> Rating:
    """The fixed rating bot ``bot`` (a level or difficulty name) plays ``preset`` at."""
    try:
        name = find_level(bot).name
    except UnknownBotError:
        name = bot
    anchor = anchors_of(preset).get(name)
    if anchor is None:
        if name == ANCHOR_BOT:
            return Rating(mu_of(ANCHOR_POINTS), sigma_of(BOT_POINTS_FLOOR), 0)
        return Rating(mu_of(ANCHOR_POINTS), NEWCOMER_SIGMA, 0)
    return Rating(mu_of(anchor.points), sigma_of(max(anchor.error, BOT_POINTS_FLOOR)), 0)
