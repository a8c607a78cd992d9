"""The arena's one error: a run that cannot be played as asked."""

from __future__ import annotations

from pyrummy.core.errors import RummyError


class ArenaError(RummyError):
    """An arena that cannot be run as asked (entrants, game, results file)."""
