"""The arena: any set of bots, in duplicate, rated on a ladder.

A layer above the tournament (``pip install 'pyrummy[tournament]'``; the
ratings use scipy): every pair of entrants plays the same decks, each deck
dealt twice with the seats swapped (:mod:`~pyrummy.arena.schedule`), in one
of our presets or in OpenSpiel's own gin (:mod:`~pyrummy.arena.games`).
Entrants are our bots, OpenSpiel's and RLCard's gin bots, and any program
that speaks the line protocol (:mod:`~pyrummy.arena.entrants`,
:mod:`~pyrummy.arena.peers`, :mod:`~pyrummy.arena.protocol`). Results go
to a JSON Lines file that a run resumes exactly
(:mod:`~pyrummy.arena.results`); boards run in this process, in worker
processes or on a Ray cluster (:mod:`pyrummy.tournament.runner`). The
ratings are a Bradley-Terry fit with intervals (:mod:`~pyrummy.arena.rating`),
published as a Markdown ladder (:mod:`~pyrummy.arena.ladder`).
``pyrummy arena`` is its command.

>>> config = ArenaConfig(game="knock", entrants=("simple", "random"), decks=2, seed=1)
>>> records = run_arena(config, None)
>>> len(records), sorted(records[0]["tallies"])
(2, ['random', 'simple'])
"""

from __future__ import annotations

from pyrummy.extras import require

require("tournament", ["scipy"])

from pyrummy.arena.board import play_board  # noqa: E402 - after the extra is checked
from pyrummy.arena.entrants import EntrantSpec, parse_entrant  # noqa: E402
from pyrummy.arena.errors import ArenaError  # noqa: E402
from pyrummy.arena.games import OPENSPIEL_GIN, Game, find_game  # noqa: E402
from pyrummy.arena.ladder import Ladder, ladder_markdown, summarize  # noqa: E402
from pyrummy.arena.protocol import PROTOCOL_VERSION, ProcessBot  # noqa: E402
from pyrummy.arena.rating import Ratings, fit_ratings  # noqa: E402
from pyrummy.arena.results import (  # noqa: E402
    comparable,
    read_results,
    results_header,
    run_arena,
    software_versions,
)
from pyrummy.arena.schedule import ArenaConfig, Board, deck_seed  # noqa: E402

__all__ = [
    "OPENSPIEL_GIN",
    "PROTOCOL_VERSION",
    "ArenaConfig",
    "ArenaError",
    "Board",
    "EntrantSpec",
    "Game",
    "Ladder",
    "ProcessBot",
    "Ratings",
    "comparable",
    "deck_seed",
    "find_game",
    "fit_ratings",
    "ladder_markdown",
    "parse_entrant",
    "play_board",
    "read_results",
    "results_header",
    "run_arena",
    "software_versions",
    "summarize",
]
