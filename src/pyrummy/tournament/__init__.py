"""Duplicate tournaments between bots, and the statistics that judge them.

A layer above the bots (``pip install 'pyrummy[tournament]'``; the
statistics use scipy): :mod:`~pyrummy.tournament.schedule` says what is
played, :mod:`~pyrummy.tournament.play` plays it over any number of worker
processes, :mod:`~pyrummy.tournament.stats` and
:mod:`~pyrummy.tournament.results` judge it. ``pyrummy tournament`` is its
command.

**Duplicate deals.** Luck of the cards is the largest noise in rummy, so
every shuffled deck is dealt once for each rotation of the bots over the
seats: with ``n`` seats, deck ``k`` is played ``n`` times, the dealer fixed
(seat ``k mod n``), and in rotation ``r`` entry ``i`` of the bot list sits in
seat ``(i + r) mod n``. Each bot thus holds every hand of every deck once.

**Scores.** A bot scores the net of the deal's settlement for its seat
(points moved or awarded; higher is better, every preset). Per deck, a bot's
*duplicate score* is its mean net over the deck's rotations; the mean per
deal and its 95% confidence interval (Student t) are computed over these
per-deck values, which are independent, so the pairing removes the
hand-luck variance instead of merely averaging it out. Pairwise *margins*
(A − B) are the per-deck differences of the duplicate scores, with their own
interval.

Rotham's six deals differ (4-6 are all-seven deals), so its decks cycle
through deal numbers 1-6 (:func:`~pyrummy.tournament.schedule.deal_number_for`);
every other preset plays each deck as a first deal.

**Determinism.** Every deck's seed derives from the tournament seed and the
deck number, and every bot's seed from its deck's seed and its seat
(:func:`pyrummy.core.seeds.bot_seed`, as at a server's table; SHA-256), so a
deck's result does not depend on which process played it: any number of
workers gives the same results. (A bot limited by wall-clock time, such as
``hard`` with a time budget, is the exception: how far it searches depends
on the machine.)

>>> result = run_tournament(TournamentConfig("knock", ("simple", "random"), decks=2, seed=1))
>>> [entry.label for entry in result.entries], result.entries[0].deals
(['simple', 'random'], 4)
"""

from __future__ import annotations

from pyrummy.extras import require

require("tournament", ["scipy"])

from pyrummy.tournament.play import (  # noqa: E402 - after the extra is checked
    MAX_ACTIONS_PER_DEAL,
    DealResult,
    DeckResult,
    ProgressCallback,
    chunk_decks,
    play_deck,
    play_decks,
    run_decks,
)
from pyrummy.tournament.results import (  # noqa: E402
    EntrySummary,
    Margin,
    TournamentResult,
    run_tournament,
    summarize,
)
from pyrummy.tournament.schedule import (  # noqa: E402
    TournamentConfig,
    TournamentError,
    deal_number_for,
    decks_for_deals,
    derive_seed,
    entry_labels,
    seating,
)
from pyrummy.tournament.stats import Estimate, mean_ci, student_t_quantile  # noqa: E402

__all__ = [
    "MAX_ACTIONS_PER_DEAL",
    "DealResult",
    "DeckResult",
    "EntrySummary",
    "Estimate",
    "Margin",
    "ProgressCallback",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "chunk_decks",
    "deal_number_for",
    "decks_for_deals",
    "derive_seed",
    "entry_labels",
    "mean_ci",
    "play_deck",
    "play_decks",
    "run_decks",
    "run_tournament",
    "seating",
    "student_t_quantile",
    "summarize",
]
