"""Knock Rummy: where are a bot's missing points? Its margin with one decision made clairvoyantly.

The bot under test (``--bot``, hard by default) plays the same duplicate deals
as ``bots_panel.py`` (same pair seeds), but one kind of its decisions
(``--oracle``) is taken by a player who **sees the true deal**: it branches
the deal from its true state into each candidate, plays every branch out
with the true players (the bot itself and the true opponents, plain, with
the true stock order) and takes the candidate whose branch ends best for
the bot's side (the duplicate margin: mean net of its seats minus that of
the opponents' seats), or with ``--own`` for the deciding seat's own net
(what a player at a real table, with no partner, plays for). Candidates:

- ``knock``: at a give-back where a knock is legal, the least-deadwood
  knock and the bot's own discard (the bot's choice when it discards);
- ``draw``: take the top discard or draw from the stock;
- ``discard``: every face-up give-back (after a knock was not chosen);
- ``none``: the bot as it is (the reference, on the same deals).

No bot that sees only its observation can beat the knock (or draw, or
discard) clairvoyant on that decision, so the margin with ``--oracle knock``
bounds what any better knock decision can add to the bot (up to the noise
of one play-out per branch). The script prints the margin per pair with
its 95% interval, and the paired gain over ``none`` on the same deals.

    nice -n 15 .venv/bin/python benchmarks/bots_ceiling.py --players 4 --deals 200 --seed 3 \\
        --oracle none knock --opponents medium always-knock
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence

from bots import make_player
from pyrummy.bots.base import GIVE_BACK_KINDS, Bot, is_draw_decision, of_kind
from pyrummy.bots.hand import best_give_back, deadwood
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.observation import Observation

ORACLES = ("none", "knock", "draw", "discard")


def _margin(deal: Deal, parity: int) -> float:
    settlement = deal.settlement
    assert settlement is not None
    players = deal.players
    mine = [float(settlement.net[s]) for s in range(players) if s % 2 == parity]
    theirs = [float(settlement.net[s]) for s in range(players) if s % 2 != parity]
    return statistics.fmean(mine) - statistics.fmean(theirs)


class Table:
    """The players of one seating; a branch plays on with exact copies of them.

    The copies carry the players' random state as it is at the branch, so
    the branch of the action taken is the deal's true continuation (as long
    as no later clairvoyant decision changes it, and those only gain).
    """

    def __init__(self, shuffles: int = 0, seed: int = 0) -> None:
        self.seated: list[Bot] = []
        self.shuffles = shuffles
        self.rng = random.Random(seed)

    def copies(self) -> list[Bot]:
        return [copy.deepcopy(p.inner if isinstance(p, Clairvoyant) else p) for p in self.seated]

    def play_out(self, deal: Deal, first: Action, parity: int, own: int | None = None) -> float:
        """The side's margin at the end of the branch (``own``: that seat's net alone).

        With ``shuffles``, the mean over that many re-shuffles of the stock: the
        clairvoyant then sees the opponents' hands but not the cards to come.
        """
        if not self.shuffles:
            return self._play_out(deal, first, parity, own, shuffle=False)
        runs = [
            self._play_out(deal, first, parity, own, shuffle=True) for _ in range(self.shuffles)
        ]
        return statistics.fmean(runs)

    def _play_out(
        self, deal: Deal, first: Action, parity: int, own: int | None, shuffle: bool
    ) -> float:
        branch = deal.clone()
        if shuffle:
            self.rng.shuffle(branch._stock)
        branch.apply(first)
        bots = self.copies()
        while not branch.is_over:
            seat = branch.current_seat
            assert seat is not None
            branch.apply(bots[seat].choose(branch.observe(seat), branch.legal_actions()))
        if own is not None:
            settlement = branch.settlement
            assert settlement is not None
            return float(settlement.net[own])
        return _margin(branch, parity)


class Clairvoyant:
    """The bot, with the ``oracle`` decisions taken by branching the true deal."""

    name = "clairvoyant"

    def __init__(
        self, inner: Bot, oracle: str, table: Table, parity: int, own: bool = False
    ) -> None:
        self.inner = inner
        self.own = own
        self.oracle = oracle
        self.table = table
        self.parity = parity
        self.deal: Deal | None = None
        #: Decisions branched, and how many of them the clairvoyant changed.
        self.asked = 0
        self.changed = 0

    def candidates(
        self, observation: Observation, legal: Sequence[Action], chosen: Action
    ) -> list[Action]:
        if self.oracle == "draw":
            return list(of_kind(legal, ActionKind.DRAW_DISCARD, ActionKind.DRAW_STOCK))
        give_backs = of_kind(legal, *GIVE_BACK_KINDS)
        knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
        discards = [a for a in give_backs if a.kind is ActionKind.DISCARD]
        if not discards:
            return []
        if self.oracle == "discard":
            return discards if chosen.kind is ActionKind.DISCARD else []
        if not knocks:
            return []
        rules = observation.rules
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in knocks}
        _, card = best_give_back(left, rules)
        knock = next(a for a in knocks if a.cards[0] == card)
        # The bot's own discard: its choice among the discards alone.
        if chosen.kind is ActionKind.DISCARD:
            return [knock, chosen]
        # A copy picks the discard, so the bot's own random state stays that of the true line.
        discard = copy.deepcopy(self.inner).choose(observation, discards)
        return [knock, discard]

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        chosen = self.inner.choose(observation, legal_actions)
        if self.oracle == "none" or self.deal is None:
            return chosen
        if self.oracle == "draw" and not is_draw_decision(legal_actions):
            return chosen
        options = self.candidates(observation, legal_actions, chosen)
        if len(options) < 2:
            return chosen
        self.asked += 1
        # The seat's own net (what a player at a real table plays for), or its side's margin.
        seat = observation.seat if self.own else None
        values = {a: self.table.play_out(self.deal, a, self.parity, seat) for a in options}
        best = max(options, key=lambda a: (values[a], a == chosen))
        if values[best] > values.get(chosen, -math.inf):
            self.changed += 1
            return best
        return chosen


def play_pair(
    bot: str,
    opponent: str,
    oracle: str,
    seed: int,
    options: dict[str, dict[str, object]],
    players: int,
    counts: list[int],
    own: bool = False,
    shuffles: int = 0,
) -> float:
    """The bot's margin on one duplicate pair (the seeds of ``bots_panel.py``)."""
    deal_seed = seed * 100_003
    total = 0.0
    for parity in (0, 1):
        deal = new_deal("knock", players=players, seed=deal_seed, dealer=0)
        names = [bot if seat % 2 == parity else opponent for seat in range(players)]
        table = Table(shuffles, deal_seed * 2 + parity)
        seated = table.seated
        for place, name in enumerate(names):
            plain = make_player(name, deal_seed * players + place, options.get(name, {}))
            seated.append(
                Clairvoyant(plain, oracle, table, parity, own) if place % 2 == parity else plain
            )
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            player = seated[seat]
            if isinstance(player, Clairvoyant):
                player.deal = deal
            deal.apply(player.choose(deal.observe(seat), deal.legal_actions()))
        for player in seated:
            if isinstance(player, Clairvoyant):
                counts[0] += player.asked
                counts[1] += player.changed
        total += _margin(deal, parity)
    return total / 2


def _interval(nets: Sequence[float]) -> str:
    mean = statistics.fmean(nets)
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets)) if len(nets) > 1 else 0.0
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--opponents", nargs="+", default=["medium", "always-knock"])
    parser.add_argument("--oracle", nargs="+", default=["none", "knock"], choices=ORACLES)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=200, help="duplicate pairs per opponent")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--hard-rollouts", type=int, default=16)
    parser.add_argument(
        "--hard-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a HardConfig field for hard, e.g. knock_value_weights='/tmp/w.json' (repeatable)",
    )
    parser.add_argument(
        "--own",
        action="store_true",
        help="the clairvoyant plays for the deciding seat's own net, not for its side's margin",
    )
    parser.add_argument(
        "--stock-shuffles",
        type=int,
        default=0,
        help="value each branch over this many re-shuffled stocks (0: the true stock order)",
    )
    parser.add_argument(
        "--json", help="write the margins pair by pair here, by opponent and oracle"
    )
    args = parser.parse_args(argv)
    # Medium without its time budget: every branch then plays exactly as the true line would.
    options: dict[str, dict[str, object]] = {
        "hard": {"rollouts": args.hard_rollouts},
        "medium": {"time_budget": None},
    }
    for option in args.hard_option:
        name, _, value = option.partition("=")
        options["hard"][name] = ast.literal_eval(value)
    margins: dict[str, dict[str, list[float]]] = {}
    print(
        f"{args.bot} with a clairvoyant decision: {args.players} players, {args.deals} pairs, "
        f"seed {args.seed}, hard {options['hard']}, own net {args.own}, "
        f"stock re-shuffles {args.stock_shuffles}"
    )
    for opponent in args.opponents:
        reference: list[float] | None = None
        for oracle in args.oracle:
            started = time.perf_counter()
            counts = [0, 0]
            nets = [
                play_pair(
                    args.bot,
                    opponent,
                    oracle,
                    args.seed * 1_000 + n,
                    options,
                    args.players,
                    counts,
                    args.own,
                    args.stock_shuffles,
                )
                for n in range(args.deals)
            ]
            margins.setdefault(opponent, {})[oracle] = nets
            line = f"{opponent:<14} oracle {oracle:<8} {_interval(nets):>24}"
            if reference is None:
                reference = nets if oracle == "none" else None
            else:
                gains = [a - b for a, b in zip(nets, reference, strict=True)]
                line += f"  over none {_interval(gains)}"
            print(
                f"{line}  branched {counts[0]}, changed {counts[1]}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"hard": options["hard"], "margins": margins}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
