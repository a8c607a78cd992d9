"""Playing one board: a pair of entrants on one deck, dealt twice, seats swapped.

A board's record is a plain JSON-able dict (one line of the results file):
``deck``, ``seed``, ``pair`` (the two labels, ``a`` then ``b``),
``deals`` (per deal: ``seats`` as labels, ``points`` and ``net`` per seat,
``outcome``, ``actions``), ``margin`` (``a``'s points over both deals;
``b``'s is its negative), ``score`` (1 when ``a`` won the board, 0.5 for a
tie, 0 when ``b`` won) and ``tallies`` (per label: decisions, seconds,
slowest decision, late decisions, faults). Everything but the timings is
the same whenever and wherever the board is played.

>>> from pyrummy.arena.schedule import ArenaConfig, Board
>>> config = ArenaConfig(game="knock", entrants=("simple", "random"), decks=1, seed=3)
>>> record = play_board((config, Board(0, (0, 1))))
>>> record["pair"], [deal["seats"] for deal in record["deals"]]
(['simple', 'random'], [['simple', 'random'], ['random', 'simple']])
>>> record["margin"] == sum(d["points"][d["seats"].index("simple")] for d in record["deals"])
True
"""

from __future__ import annotations

from typing import Any

from pyrummy.arena.entrants import Player
from pyrummy.arena.schedule import ArenaConfig, Board, deck_seed


def play_board(task: tuple[ArenaConfig, Board]) -> dict[str, Any]:
    """Play one board (a module-level function: worker processes and Ray call it)."""
    config, board = task
    game = config.resolved_game()
    specs = config.specs()
    a, b = board.pair
    labels = (specs[a].text, specs[b].text)
    players = {
        label: Player(spec, game, config.time_limit)
        for label, spec in zip(labels, (specs[a], specs[b]), strict=True)
    }
    seed = deck_seed(config.seed, board.deck)
    deals: list[dict[str, object]] = []
    margin = 0.0
    try:
        for seating in (labels, labels[::-1]):
            outcome = game.play_deal(
                [players[label] for label in seating], seed, board.deck % 2, board.deck
            )
            margin += outcome.points[seating.index(labels[0])]
            deals.append(
                {
                    "seats": list(seating),
                    "points": list(outcome.points),
                    "net": list(outcome.net),
                    "outcome": outcome.outcome,
                    "actions": outcome.actions,
                }
            )
    finally:
        for player in players.values():
            player.close()
    score = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return {
        "type": "board",
        "deck": board.deck,
        "seed": seed,
        "pair": list(labels),
        "deals": deals,
        "margin": margin,
        "score": score,
        "tallies": {label: player.tally.to_dict() for label, player in players.items()},
    }
