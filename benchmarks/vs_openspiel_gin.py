"""Our bots against OpenSpiel's simple gin rummy bot, in OpenSpiel's own gin.

The game is OpenSpiel's C++ ``gin_rummy`` (its rules: knock card 10, gin
bonus 25, undercut bonus 25, the wall, the first-upcard pass); our bots play
through :class:`pyrummy.research.openspiel_gin.PyrummyGinBot`. Two opponents
(``--opponent``):

- ``stock``: ``pyspiel.make_simple_gin_rummy_bot`` exactly as OpenSpiel ships
  it. Its defence is broken: it never lays off ("Bot never lays off" in its
  source) and, against a gin, passes before laying its melds, so all its
  cards count as deadwood.
- ``repaired``: :class:`RepairedSimpleGinBot`, written by us: the stock bot
  for every decision except the defence after the other side knocks, where
  it lays off greedily and then lays the melds of its best arrangement (also
  against a gin), both chosen with OpenSpiel's own ``GinRummyUtils``.

Two measurements per bot and opponent:

- **games to 100**: hands are played until one side's total reaches 100 (a
  hand's winner adds its OpenSpiel return); the side that starts (OpenSpiel's
  player 0) alternates hand by hand and the first starter alternates game by
  game. Reported: our win rate with a 95% Wilson interval.
- **hands**: independent hands, seats swapped every hand, the chance
  outcomes of hand ``i`` seeded by ``(seed, i)`` so every bot meets the same
  deals. Reported: our mean points per hand (OpenSpiel's zero-sum return)
  with a 95% normal interval.

Full run (about an hour on 2 idle cores: hard searches ~16 decisions a
hand at 0.06 s each, ~25 re-deals per decision; ~6,900 hands for hard)::

    .venv/bin/python benchmarks/vs_openspiel_gin.py --games 500 --hands 2000 \\
        --hard-budget 0.06 --workers 2 --opponent repaired   # or --opponent stock

On a shared machine a time budget buys fewer re-deals; ``--hard-rollouts 24``
fixes the work instead (same strength whatever the load).

Run ``--help`` for the options; ``--bots`` picks which of our bots play.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

import pyspiel
from pyspiel import gin_rummy

from pyrummy.research.openspiel_gin import PyrummyGinBot

TARGET = 100
#: Games between two progress lines (stderr).
PROGRESS_EVERY = 10


@dataclass
class Summary:
    bot: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    hands: int
    mean_points: float
    points_low: float
    points_high: float
    game_hands: int
    seconds: float
    points: list[float]


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return (centre - spread) / scale, (centre + spread) / scale


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


class RepairedSimpleGinBot:
    """OpenSpiel's simple gin bot with its defence repaired (a benchmark opponent).

    Every decision is the stock bot's, except in the lay-off phase (the other
    side knocked): it lays off, one card at a time, the card whose removal
    lowers its least deadwood the most (highest value among ties), then lays
    the melds of its best arrangement, then passes. The stock bot passes at
    once, and against a gin it passes before laying its melds.
    """

    def __init__(self, game: Any, player: int) -> None:
        self.player = player
        self.stock = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
        self.utils = gin_rummy.GinRummyUtils(
            gin_rummy.DEFAULT_NUM_RANKS, gin_rummy.DEFAULT_NUM_SUITS, gin_rummy.DEFAULT_HAND_SIZE
        )

    def step(self, state: Any) -> int:
        if state.current_phase() != gin_rummy.Phase.LAYOFF:
            return int(self.stock.step(state))
        legal = set(state.legal_actions())
        hand = list(state.hands()[self.player])
        utils = self.utils
        now = utils.min_deadwood(hand)
        best: tuple[int, int, int] | None = None
        for card in hand:
            if card in legal:  # a lay-off action is the card's number
                rest = [c for c in hand if c != card]
                gain = now - utils.min_deadwood(rest)
                key = (gain, utils.card_value(card), card)
                if gain > 0 and (best is None or key > best):
                    best = key
        if best is not None:
            return int(best[2])
        for meld in utils.best_meld_group(hand):
            action = gin_rummy.MELD_ACTION_BASE + utils.meld_to_int(meld)
            if action in legal:
                return int(action)
        return int(gin_rummy.PASS_ACTION)


def make_opponent(game: Any, kind: str, player: int) -> Any:
    """OpenSpiel's simple bot as shipped (``stock``) or with its defence repaired."""
    if kind == "stock":
        return pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
    if kind == "repaired":
        return RepairedSimpleGinBot(game, player)
    raise ValueError(f"unknown opponent {kind!r}: stock or repaired")


class Budget(NamedTuple):
    """Hard's work per searched decision, and which OpenSpiel bot it meets."""

    seconds: float
    rollouts: int | None
    opponent: str = "stock"


def parse_bot(spec: str) -> tuple[str, dict[str, object]]:
    """A bot name with options: ``hard+gin_feed_weight=6+wait_for_gin=0``.

    >>> parse_bot("hard+wait_for_gin=0+gin_feed_weight=6.0")
    ('hard', {'wait_for_gin': 0, 'gin_feed_weight': 6.0})
    """
    name, *pairs = spec.split("+")
    options: dict[str, object] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        options[key] = ast.literal_eval(value)
    return name, options


def _make_bots(game: Any, spec: str, our_player: int, seed: int, budget: Budget) -> list[Any]:
    seconds, rollouts, opponent = budget
    name, options = parse_bot(spec)
    if name == "hard":
        options = {**({"rollouts": rollouts} if rollouts else {"time_budget": seconds}), **options}
    ours = PyrummyGinBot(name, our_player, seed=seed, **options)
    theirs = make_opponent(game, opponent, 1 - our_player)
    return [ours, theirs] if our_player == 0 else [theirs, ours]


def play_hand(game: Any, name: str, our_player: int, seed: int, budget: Budget) -> float:
    """One hand; our bot's OpenSpiel return. Chance outcomes come from ``seed``."""
    rng = random.Random(seed)
    bots = _make_bots(game, name, our_player, seed, budget)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return float(state.returns()[our_player])


def play_game(game: Any, name: str, first: int, seed: int, budget: Budget) -> tuple[bool, int]:
    """One game to ``TARGET``: (did we win, hands played)."""
    ours = theirs = 0.0
    hand = 0
    while ours < TARGET and theirs < TARGET:
        our_player = (first + hand) % 2
        points = play_hand(game, name, our_player, seed * 1000 + hand, budget)
        if points > 0:
            ours += points
        else:
            theirs -= points
        hand += 1
    return ours >= TARGET, hand


def _task(args: tuple[str, str, int, int, Budget]) -> tuple[str, float, int]:
    kind, name, index, seed, budget = args
    game = pyspiel.load_game("gin_rummy")
    if kind == "hand":
        return kind, play_hand(game, name, index % 2, seed * 1_000_003 + index, budget), 1
    won, hands = play_game(game, name, index % 2, seed * 1_000_003 + index, budget)
    return kind, float(won), hands


def _tasks(name: str, games: int, hands: int, seed: int, budget: Budget) -> Iterator[Any]:
    for i in range(hands):
        yield ("hand", name, i, seed, budget)
    for i in range(games):
        yield ("game", name, i, seed + 7919, budget)


def run(name: str, games: int, hands: int, seed: int, budget: Budget, workers: int) -> Summary:
    started = time.perf_counter()
    points: list[float] = []
    wins = game_hands = 0
    tasks = list(_tasks(name, games, hands, seed, budget))
    played = 0
    with ProcessPoolExecutor(max(1, workers)) as pool:
        # Results come back in task order, so points[i] is hand i for every bot.
        for kind, value, count in pool.map(_task, tasks, chunksize=1 if games else 4):
            if kind == "hand":
                points.append(value)
                continue
            wins += int(value)
            game_hands += count
            played += 1
            if played % PROGRESS_EVERY == 0:
                # A long run can be stopped at any time with its tally so far on stderr.
                low, high = wilson(wins, played)
                print(
                    f"  {name}: {wins}/{played} games won = {wins / played:.1%} "
                    f"[{low:.1%}, {high:.1%}], {game_hands} hands",
                    file=sys.stderr,
                    flush=True,
                )
    low, high = wilson(wins, games)
    mean, p_low, p_high = mean_interval(points) if points else (0.0, 0.0, 0.0)
    return Summary(
        bot=name,
        games=games,
        wins=wins,
        win_rate=wins / games if games else 0.0,
        win_low=low,
        win_high=high,
        hands=hands,
        mean_points=mean,
        points_low=p_low,
        points_high=p_high,
        game_hands=game_hands,
        seconds=time.perf_counter() - started,
        points=points,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games to 100 per bot")
    parser.add_argument("--hands", type=int, default=2000, help="single hands per bot")
    parser.add_argument(
        "--bots",
        default="hard,medium",
        help="our bots, comma separated; options after +, e.g. hard+gin_feed_weight=6",
    )
    parser.add_argument(
        "--hard-budget", type=float, default=0.06, help="hard's seconds per searched decision"
    )
    parser.add_argument(
        "--hard-rollouts",
        type=int,
        default=0,
        help="hard's re-deals per searched decision instead of a time budget (reproducible, "
        "independent of machine load; 24 costs about what --hard-budget 0.06 does on an idle core)",
    )
    parser.add_argument(
        "--opponent",
        choices=["stock", "repaired"],
        default="repaired",
        help="OpenSpiel's simple bot as shipped, or with its defence repaired (see above)",
    )
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the summaries to this file")
    args = parser.parse_args(argv)
    summaries = []
    budget = Budget(args.hard_budget, args.hard_rollouts or None, args.opponent)
    hard = f"{args.hard_rollouts} rollouts" if args.hard_rollouts else f"{args.hard_budget}s"
    print(
        f"OpenSpiel gin_rummy vs the {args.opponent} simple gin bot: {args.games} games to {TARGET}, "
        f"{args.hands} hands, hard budget {hard} per decision, {args.workers} workers"
    )
    for name in [n.strip() for n in args.bots.split(",") if n.strip()]:
        summary = run(name, args.games, args.hands, args.seed, budget, args.workers)
        summaries.append(summary)
        print(
            f"{name:7s} games {summary.wins}/{summary.games} won = {summary.win_rate:.1%} "
            f"[{summary.win_low:.1%}, {summary.win_high:.1%}] "
            f"({summary.game_hands} hands in games); "
            f"points/hand {summary.mean_points:+.2f} "
            f"[{summary.points_low:+.2f}, {summary.points_high:+.2f}] over {summary.hands} hands; "
            f"{summary.seconds:.0f}s",
            flush=True,
        )
    first = summaries[0] if summaries else None
    for other in summaries[1:]:
        assert first is not None
        pairs = [a - b for a, b in zip(other.points, first.points, strict=True)]
        if pairs:
            mean, low, high = mean_interval(pairs)
            print(
                f"{other.bot} - {first.bot} on the same {len(pairs)} hands: "
                f"{mean:+.2f} [{low:+.2f}, {high:+.2f}] points per hand"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(s) for s in summaries], out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
