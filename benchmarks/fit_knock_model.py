"""Fit the knock model of an active Knock Rummy seat from records of play.

Plays Knock Rummy deals of ``--bot`` (default medium) in self-play and
records every give-back where it could knock: its draw count so far (this
turn's included), the least deadwood it could knock with, and whether it
knocked. Per draw count it fits ``P(knock | deadwood) = 1 / (1 + exp((d -
T) / s))`` by maximum likelihood (on a grid) and prints ``T``, ``s``, the
share of passes and the knock rate by deadwood band, ready to paste into
:data:`pyrummy.bots.knock_model.ACTIVE_FIT`.

    .venv/bin/python benchmarks/fit_knock_model.py --players 4 --deals 1500 --seed 11
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from collections.abc import Sequence

from bots import make_player
from pyrummy.bots.hand import best_give_back
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood_of_mask

#: Draw counts fitted separately; the last one pools every later draw.
DRAW_ROWS = 4


def fit_logistic(records: Sequence[tuple[int, bool]]) -> tuple[float, float]:
    """Maximum-likelihood ``(T, s)`` of ``P(knock) = 1 / (1 + exp((d - T) / s))``
    on a grid (T from 0 to 80 by 0.5, s from 0.5 to 10 by 0.25).

    >>> records = [(d, d <= 20) for d in range(5, 40)] + [(19, False), (22, True)]
    >>> threshold, scale = fit_logistic(records)
    >>> 19 < threshold < 22 and 0 < scale < 3
    True
    """
    counts: dict[tuple[int, bool], int] = defaultdict(int)
    for record in records:
        counts[record] += 1
    best = (-math.inf, 0.0, 1.0)
    for t_step in range(161):
        threshold = t_step / 2
        for s_step in range(39):
            scale = 0.5 + s_step / 4
            total = 0.0
            for (deadwood, knocked), count in counts.items():
                z = max(-50.0, min(50.0, (deadwood - threshold) / scale))
                p = 1.0 / (1.0 + math.exp(z))
                total += count * math.log(max(1e-12, p if knocked else 1.0 - p))
            if total > best[0]:
                best = (total, threshold, scale)
    return best[1], best[2]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    rules = find_rules("knock")
    # draw row -> (least deadwood, knocked) per decision
    records: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for number in range(args.deals):
        deal_seed = args.seed * 100_003 + number
        deal = new_deal("knock", players=args.players, seed=deal_seed, dealer=number % args.players)
        bots = [make_player(args.bot, deal_seed * 10 + s, {}) for s in range(args.players)]
        draws = [0] * args.players
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            observation, legal = deal.observe(seat), deal.legal_actions()
            action = bots[seat].choose(observation, legal)
            if action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
                draws[seat] += 1
            knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
            if knocks:
                hand = observation.hand.mask
                left = {
                    a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace) for a in knocks
                }
                least, _ = best_give_back(left, rules)
                records[min(draws[seat], DRAW_ROWS)].append(
                    (least, action.kind is ActionKind.KNOCK)
                )
            deal.apply(action)
    print(f"{args.bot} self-play, {args.players} players, {args.deals} deals, seed {args.seed}")
    print(f"{'draws':>5} {'n':>5} {'passed':>6} {'T':>6} {'s':>5}  knock rate by deadwood band")
    bands = ((0, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 200))
    for row in sorted(records):
        values = records[row]
        threshold, scale = fit_logistic(values)
        passed = sum(1 for _, k in values if not k) / len(values)
        cells = []
        for low, high in bands:
            inside = [k for d, k in values if low <= d <= high]
            rate = f"{sum(inside) / len(inside):.2f}" if inside else "-"
            cells.append(f"{low}-{high}:{rate}({len(inside)})")
        print(
            f"{row:>5} {len(values):>5} {passed:>6.2f} {threshold:>6.1f} {scale:>5.2f}  "
            + " ".join(cells)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
