"""Is the knock equity's "knock now" calibrated? Its estimate against the truth.

Plays Knock Rummy deals of the hard bot against an opponent (a bot or a panel
policy, seats alternating, both seatings); at every give-back of a hard seat
where an opponent has passed a knock (where hard decides by the knock
equity) it also asks :func:`~pyrummy.bots.knock_equity.estimate_knock` for
the value of knocking now with the least-deadwood card (``--samples``
re-deals, for each ``--selection``), and settles the same knock on the true
hidden hands. A calibrated model has a mean estimate equal to the mean true
value; rows by the most draws any opponent made. Diagnostic only: the bots
never see the hidden hands.

    .venv/bin/python benchmarks/knock_calibration.py --opponent medium --deals 60 --selection 0 3
    .venv/bin/python benchmarks/knock_calibration.py --opponent never-knock --deals 40 --selection 0 3 --model
"""

from __future__ import annotations

import argparse
import ast
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence

from bots import make_player
from pyrummy.bots.hand import best_give_back
from pyrummy.bots.hard_knock import _an_opponent_passed
from pyrummy.bots.knock_equity import _history_of_opponents, _outcome, estimate_knock
from pyrummy.bots.knock_model import ACTIVE_PRIOR, OpponentModel
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood_of_mask


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--selection", type=int, nargs="+", default=[0, 3])
    parser.add_argument("--selection-after", type=int, default=0)
    parser.add_argument("--selection-up-to", type=int, default=1_000)
    parser.add_argument(
        "--model",
        action="store_true",
        help="also the two-type opponent model (pyrummy.bots.knock_model; row 'model')",
    )
    parser.add_argument(
        "--hard-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a HardConfig field for the hard seats, e.g. equity_selection=0 (repeatable)",
    )
    parser.add_argument("--active-prior", type=float, default=ACTIVE_PRIOR)
    args = parser.parse_args(argv)
    hard_options: dict[str, object] = {"rollouts": 16}
    for option in args.hard_option:
        name, _, value = option.partition("=")
        hard_options[name] = ast.literal_eval(value)
    # -1 stands for the opponent model in the rows.
    variants = [*args.selection, *([-1] if args.model else [])]
    rules = find_rules("knock")
    players = args.players
    # (selection, most draws) -> (estimate, truth) per decision
    rows: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    for number in range(args.deals):
        deal_seed = args.seed * 100_003 + number
        for parity in (0, 1):
            deal = new_deal("knock", players=players, seed=deal_seed, dealer=0)
            names = ["hard" if s % 2 == parity else args.opponent for s in range(players)]
            bots = [
                make_player(name, deal_seed * players + s, hard_options if name == "hard" else {})
                for s, name in enumerate(names)
            ]
            while not deal.is_over:
                seat = deal.current_seat
                assert seat is not None
                observation, legal = deal.observe(seat), deal.legal_actions()
                seen = _history_of_opponents(observation, seat)
                knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
                if names[seat] == "hard" and knocks and _an_opponent_passed(observation):
                    hand = observation.hand.mask
                    left = {
                        a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace)
                        for a in knocks
                    }
                    _, card = best_give_back(left, rules)
                    hands = [deal.hands(s).mask for s in range(players)]
                    hands[seat] = hand & ~card.bit
                    deadwoods = tuple(deadwood_of_mask(h, rules.ace) for h in hands)
                    truth = _outcome(deadwoods, seat, seat, rules)
                    most = min(4, max(o.draws for o in seen))
                    for selection in variants:
                        estimate = estimate_knock(
                            observation,
                            rules,
                            card.bit,
                            random.Random(deal_seed),
                            0.0,
                            lambda: 1.0,
                            min_samples=args.samples,
                            selection=selection,
                            selection_after=args.selection_after,
                            selection_up_to=args.selection_up_to,
                            model=OpponentModel(active_prior=args.active_prior)
                            if selection < 0
                            else None,
                        )
                        rows[selection, most].append((estimate.now, truth))
                deal.apply(bots[seat].choose(observation, legal))
    print(
        f"hard v {args.opponent}, {players} players, {args.deals} deals x 2 seatings, "
        f"seed {args.seed}, selection_after {args.selection_after}, "
        f"selection_up_to {args.selection_up_to}, active_prior {args.active_prior}, "
        f"hard {hard_options}"
    )
    print(f"{'selection':>9} {'draws':>5} {'n':>5} {'estimate':>9} {'truth':>8} {'bias':>7}")
    for (selection, most), values in sorted(rows.items()):
        estimate_mean = statistics.fmean(v[0] for v in values)
        truth_mean = statistics.fmean(v[1] for v in values)
        print(
            f"{'model' if selection < 0 else selection:>9} {most:>5} {len(values):>5} {estimate_mean:>+9.2f} "
            f"{truth_mean:>+8.2f} {estimate_mean - truth_mean:>+7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
