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

``--diagnose`` plays only the single hands and says how each was decided
(:class:`HandDiagnosis`): who knocked, gins, undercuts, walls, the
knocker's deadwood, the defender's deadwood before and after its lay-offs,
and the hands in which our bot held back a legal knock (waiting for gin or
for less deadwood) and what became of them::

    .venv/bin/python benchmarks/vs_openspiel_gin.py --bots hard --hands 400 --diagnose

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
    """A bot name with options (fields of its config): ``hard+gin_search_samples=64``.

    >>> parse_bot("hard+gin_search_samples=64+gin_search_margin=2.0")
    ('hard', {'gin_search_samples': 64, 'gin_search_margin': 2.0})
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
    return diagnose_hand(game, name, our_player, seed, budget).points


@dataclass
class HandDiagnosis:
    """How one hand was decided, from our side.

    ``ending``: ``our gin``, ``our knock``, ``we were undercut``, ``their
    gin``, ``their knock``, ``we undercut`` or ``wall`` (no knock: a draw).
    Deadwoods are the knocker's when it knocked, and the defender's least
    deadwood when the lay-off phase began and when the hand ended (the
    difference is what its lay-offs saved). ``knocks_held``: our discard
    decisions where a knock was legal and our bot discarded instead.
    """

    points: float
    ending: str
    knocker_deadwood: int = 0
    defender_before: int = 0
    defender_after: int = 0
    knocks_held: int = 0
    draws: int = 0


def diagnose_hand(
    game: Any, name: str, our_player: int, seed: int, budget: Budget
) -> HandDiagnosis:
    """One hand as :func:`play_hand` plays it, with how it was decided."""
    rng = random.Random(seed)
    bots = _make_bots(game, name, our_player, seed, budget)
    utils = gin_rummy.GinRummyUtils(
        gin_rummy.DEFAULT_NUM_RANKS, gin_rummy.DEFAULT_NUM_SUITS, gin_rummy.DEFAULT_HAND_SIZE
    )
    state = game.new_initial_state()
    knocks_held = draws = 0
    knocker: int | None = None
    knocker_deadwood = defender_before = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        player = state.current_player()
        legal = state.legal_actions()
        action = int(bots[player].step(state))
        if action == gin_rummy.KNOCK_ACTION and knocker is None:
            knocker = player
        elif player == our_player and gin_rummy.KNOCK_ACTION in legal and knocker is None:
            knocks_held += int(state.current_phase() == gin_rummy.Phase.DISCARD)
        if player == our_player and action == gin_rummy.DRAW_STOCK_ACTION:
            draws += 1
        if (
            knocker is not None
            and state.current_phase() == gin_rummy.Phase.LAYOFF
            and not (defender_before)
        ):
            defender_before = utils.min_deadwood(list(state.hands()[1 - knocker]))
        state.apply_action(action)
        if knocker is not None and state.current_phase() == gin_rummy.Phase.LAYOFF:
            knocker_deadwood = int(state.deadwood()[knocker])
    points = float(state.returns()[our_player])
    if knocker is None:
        return HandDiagnosis(points, "wall", knocks_held=knocks_held, draws=draws)
    ours = knocker == our_player
    if knocker_deadwood == 0:
        ending = "our gin" if ours else "their gin"
    elif (points < 0) == ours and points != 0:
        ending = "we were undercut" if ours else "we undercut"
    else:
        ending = "our knock" if ours else "their knock"
    return HandDiagnosis(
        points,
        ending,
        knocker_deadwood=knocker_deadwood,
        defender_before=defender_before,
        defender_after=int(state.deadwood()[1 - knocker]),
        knocks_held=knocks_held,
        draws=draws,
    )


ENDINGS = (
    "our gin",
    "our knock",
    "we were undercut",
    "their gin",
    "their knock",
    "we undercut",
    "wall",
)


def diagnosis_table(name: str, hands: Sequence[HandDiagnosis]) -> str:
    """Per ending: hands, share, mean points, total points, mean deadwoods; then held knocks."""
    total = len(hands)
    lines = [
        f"{name}: {total} hands, {sum(h.points for h in hands) / max(1, total):+.2f} points/hand, "
        f"{sum(h.draws for h in hands) / max(1, total):.1f} stock draws/hand",
        f"  {'ending':17s} {'hands':>6s} {'share':>6s} {'pts/hand':>9s} {'total':>7s} "
        f"{'knocker dw':>10s} {'defender dw before > after':>27s}",
    ]
    for ending in ENDINGS:
        group = [h for h in hands if h.ending == ending]
        if not group:
            continue
        n = len(group)
        points = sum(h.points for h in group)
        lines.append(
            f"  {ending:17s} {n:6d} {n / total:6.1%} {points / n:+9.2f} {points:+7.0f} "
            f"{sum(h.knocker_deadwood for h in group) / n:10.1f} "
            f"{sum(h.defender_before for h in group) / n:18.1f} > "
            f"{sum(h.defender_after for h in group) / n:5.1f}"
        )
    held = [h for h in hands if h.knocks_held]
    if held:
        points = sum(h.points for h in held)
        outcomes = ", ".join(
            f"{ending} {sum(1 for h in held if h.ending == ending)}"
            for ending in ENDINGS
            if any(h.ending == ending for h in held)
        )
        lines.append(
            f"  held a legal knock in {len(held)} hands ({points / len(held):+.2f} points/hand "
            f"there): {outcomes}"
        )
    return "\n".join(lines)


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


def _diagnose_task(args: tuple[str, int, int, Budget]) -> HandDiagnosis:
    name, index, seed, budget = args
    game = pyspiel.load_game("gin_rummy")
    return diagnose_hand(game, name, index % 2, seed * 1_000_003 + index, budget)


def diagnose(name: str, hands: int, seed: int, budget: Budget, workers: int) -> str:
    """The single hands of :func:`run` (the same deals), each with how it was decided."""
    tasks = [(name, i, seed, budget) for i in range(hands)]
    with ProcessPoolExecutor(max(1, workers)) as pool:
        found = list(pool.map(_diagnose_task, tasks, chunksize=4))
    return diagnosis_table(name, found)


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
        help="our bots, comma separated; options after +, e.g. hard+gin_search_margin=2.0",
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
    parser.add_argument(
        "--diagnose",
        action="store_true",
        help="play only the single hands and say how each was decided (no games)",
    )
    args = parser.parse_args(argv)
    summaries = []
    budget = Budget(args.hard_budget, args.hard_rollouts or None, args.opponent)
    hard = f"{args.hard_rollouts} rollouts" if args.hard_rollouts else f"{args.hard_budget}s"
    games = 0 if args.diagnose else args.games
    print(
        f"OpenSpiel gin_rummy vs the {args.opponent} simple gin bot: {games} games to {TARGET}, "
        f"{args.hands} hands, hard budget {hard} per decision, {args.workers} workers"
    )
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if args.diagnose:
        for name in names:
            print(diagnose(name, args.hands, args.seed, budget, args.workers), flush=True)
        return 0
    for name in names:
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
