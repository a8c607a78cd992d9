"""Ratings of people per game, on a scale the bots hold fixed.

A layer above the bots and below the server and the arena (the ``web``
extra: the updates are the ``openskill`` library's Plackett-Luce model).

* :mod:`~pyrummy.ratings.scale` — the rating points and the model's
  ``mu``/``sigma``: an Elo-like scale on which the Easy bot is 1000;
* :mod:`~pyrummy.ratings.model` — a player's :class:`Rating`, the places of a
  finished match, and one match's update for 2-6 players;
* :mod:`~pyrummy.ratings.anchors` — the bots' fixed ratings per game, read
  from ``anchors.json`` (measured by ``benchmarks/rating_anchors.py``);
* :mod:`~pyrummy.ratings.anchor_play` — one whole match between bots, the
  unit of work that measures the anchors.

What a number means is docs/ratings.md.
"""

from __future__ import annotations

from pyrummy.extras import require

require("web", ["openskill"])

from pyrummy.ratings.anchors import Anchor, anchor_rating, anchors_of, load_anchors  # noqa: E402
from pyrummy.ratings.model import (  # noqa: E402
    PROVISIONAL_MATCHES,
    Rating,
    Seat,
    newcomer,
    places_of,
    rate_match,
)
from pyrummy.ratings.scale import mu_of, points_of  # noqa: E402

__all__ = [
    "PROVISIONAL_MATCHES",
    "Anchor",
    "Rating",
    "Seat",
    "anchor_rating",
    "anchors_of",
    "load_anchors",
    "mu_of",
    "newcomer",
    "places_of",
    "points_of",
    "rate_match",
]
