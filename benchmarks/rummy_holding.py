"""Rummy: should hard stop holding its melds when the deal nears a draw?

In Rummy (001) going out at once doubles the score, so the medium and hard
bots keep their melds in hand until they can go out in one turn. At four
players every seat does so, and about half of hard-vs-medium deals end with
nobody out (the stock runs out a second time: everybody scores 0). This
measures whether hard gains by releasing: with ``--release N`` its melding
play (a :class:`~pyrummy.bots.medium.MediumBot`, here :class:`ReleasingMedium`)
stops holding on the stock's last pass once the stock holds N cards or fewer.
Measured a loss, so the shipped bots do not release; the variant lives here.

Hard plays the even seats and medium the odd ones, then the same deck with
the seats swapped (a duplicate pair); each variant plays the same pairs as
the default, so the table shows the variant's margin over medium, its share
of deals with nobody out and its gain over the default pair by pair (95%
intervals).

    .venv/bin/python benchmarks/rummy_holding.py --deals 400 --seed 6 --release 12 6 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from bots import play_out
from pyrummy.bots import make_bot
from pyrummy.bots.base import Bot
from pyrummy.bots.hard import MELDING_OUT_BONUS, HardBot, MeldingPlay
from pyrummy.bots.medium import MediumBot, MediumConfig
from pyrummy.core.deal import new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.phases import EndReason
from pyrummy.core.rules import Rules


def on_last_pass(observation: Observation, rules: Rules) -> bool:
    """Whether the deal ends with nobody out the next time the stock runs out."""
    if rules.stock_end == "block":
        return True
    return rules.stock_end == "reuse_limit" and observation.exhaustions >= rules.reuse_limit - 1


class ReleasingMedium(MediumBot):
    """A medium bot that stops holding its melds on the stock's last pass at ``release`` cards."""

    def __init__(self, seed: int, release: int, config: MediumConfig) -> None:
        super().__init__(seed, config)
        self.release = release

    def holds_melds(self, observation: Observation, rules: Rules) -> bool:
        # On the last pass a deal nobody goes out of scores nothing.
        if observation.stock_count <= self.release and on_last_pass(observation, rules):
            return False
        return super().holds_melds(observation, rules)


def hard_bot(seed: int, rollouts: int, release: int | None) -> Bot:
    bot = HardBot(seed, rollouts=rollouts)
    if release is not None:
        releasing = ReleasingMedium(seed, release, MediumConfig(out_bonus=MELDING_OUT_BONUS))
        bot.plays = {**bot.plays, "melding": MeldingPlay(releasing)}
    return bot


def play_pairs(
    deals: int, seed: int, players: int, rollouts: int, release: int | None
) -> tuple[list[float], int]:
    """Hard's margin over medium per duplicate pair, and the deals nobody went out of."""
    margins: list[float] = []
    nobody_out = 0
    for number in range(deals):
        deal_seed = seed * 100_003 + number
        total = 0.0
        for parity in (0, 1):
            deal = new_deal("rummy", players=players, seed=deal_seed, dealer=0)
            bots = [
                hard_bot(deal_seed * players + s, rollouts, release)
                if s % 2 == parity
                else make_bot("medium", seed=deal_seed * players + s)
                for s in range(players)
            ]
            settlement = play_out(deal, bots)
            nobody_out += deal.observe(0).end_reason != EndReason.OUT
            mine = [float(settlement.net[s]) for s in range(players) if s % 2 == parity]
            theirs = [float(settlement.net[s]) for s in range(players) if s % 2 != parity]
            total += statistics.fmean(mine) - statistics.fmean(theirs)
        margins.append(total / 2)
    return margins, nobody_out


def interval(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    error = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:+.2f} [{mean - 1.96 * error:+.2f}, {mean + 1.96 * error:+.2f}]"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="duplicate pairs per variant")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hard-rollouts", type=int, default=16)
    parser.add_argument(
        "--release",
        type=int,
        nargs="+",
        default=[12, 6],
        help="stock sizes at which to release (one variant each)",
    )
    args = parser.parse_args(argv)
    print(
        f"rummy, {args.players} players, {args.deals} duplicate pairs, seed {args.seed}, "
        f"hard --hard-rollouts {args.hard_rollouts} vs medium"
    )
    print(
        f"{'hard variant':<18} {'margin over medium':>24} {'nobody out':>11} {'gain over default':>24}"
    )
    started = time.perf_counter()
    default, default_nobody = play_pairs(
        args.deals, args.seed, args.players, args.hard_rollouts, None
    )
    share = default_nobody / (2 * args.deals)
    print(f"{'default (holds)':<18} {interval(default):>24} {share:>11.1%}", flush=True)
    for release in args.release:
        margins, nobody = play_pairs(
            args.deals, args.seed, args.players, args.hard_rollouts, release
        )
        gain = [mine - theirs for mine, theirs in zip(margins, default, strict=True)]
        share = nobody / (2 * args.deals)
        print(
            f"{'release=' + str(release):<18} {interval(margins):>24} {share:>11.1%} "
            f"{interval(gain):>24}",
            flush=True,
        )
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
