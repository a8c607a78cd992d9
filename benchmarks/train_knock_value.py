"""Fit the Knock Rummy knock-value model (:mod:`pyrummy.bots.knock_value`) from play.

Deals of the ``knock`` preset at ``--players`` (4) are played with the
training seats (every other seat, as in the duplicate benchmarks) played by
medium and the others by one opponent drawn per deal from ``--population``.
At every give-back of a training seat with a knock leaving 1 to 60 deadwood,
the deal is branched from its true state: "knock now" is settled exactly
from the true hands; "play on" gives back medium's discard and plays the
deal out ``--playouts`` times with the true opponents, the hidden stock
re-shuffled each time. The target is the seat's own net of knocking now
minus the mean of playing on. The main line then follows medium's choice,
except that a knock is replaced by its discard with probability
``--explore`` (so later turns are seen too). A ridge regression on
:func:`~pyrummy.bots.knock_value.knock_features` is fitted (pure Python)
and written as JSON; the samples can be kept (``--data``) and refitted
(``--fit-only``). ``--learner hard`` puts hard (deciding its knocks by the
shipped model) in the training seats, playing on as itself in the branches
(a second round); the samples also record the draw outlook of the hand
(:func:`~pyrummy.bots.knock_value.draw_outlook`), fitted with ``--outlook``.
Reproducible by ``--seed`` (medium plays without its time
budget here; the shipped weights were fitted before that, with medium's
0.25 s knock budget, which binds only on a starved machine).

    .venv/bin/python benchmarks/train_knock_value.py --deals 600 --seed 1 \\
        --data /tmp/knock_value.jsonl --out src/pyrummy/bots/knock_value.json
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
import zlib
from collections.abc import Sequence

from bots import make_player
from pyrummy.bots.base import GIVE_BACK_KINDS, Bot, of_kind
from pyrummy.bots.hand import best_give_back, deadwood
from pyrummy.bots.knock_value import (
    DEADWOOD_BUCKETS,
    KnockValueModel,
    bucket_of,
    draw_outlook,
    knock_features,
    outlook_terms,
)
from pyrummy.bots.medium import MediumBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules

#: Opponents the training seats meet (one per deal, at every other seat).
POPULATION = (
    "medium",
    "medium",
    "always-knock",
    "never-knock",
    "knock-10",
    "knock-20",
    "knock-30",
    "take-if-improves",
)
#: Deadwood above which knock decisions are not recorded (hard never weighs them).
CAP = 60


#: Hard's options in the training seats (fixed work, so runs repeat exactly).
HARD_OPTIONS: dict[str, object] = {"rollouts": 16}


def _player(name: str, seed: int) -> Bot:
    """A population member; medium without its time budget, so runs repeat exactly."""
    if name == "hard":
        return make_player(name, seed, HARD_OPTIONS)
    return make_player(name, seed, {"time_budget": None} if name == "medium" else {})


def _own_discard(bot: Bot, observation: Observation, discards: Sequence[Action]) -> Action:
    """The learner's discard when it does not knock (hard: on a copy, its random state untouched)."""
    if isinstance(bot, MediumBot):
        return bot.choose_give_back(observation, discards, find_rules(observation.rules))
    return copy.deepcopy(bot).choose(observation, discards)


def _play_out(deal: Deal, names: Sequence[str], seed: int) -> Deal:
    bots = [_player(name, seed * 7 + seat) for seat, name in enumerate(names)]
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observe(seat), deal.legal_actions()))
    return deal


def _net(deal: Deal, seat: int) -> float:
    settlement = deal.settlement
    assert settlement is not None
    return float(settlement.net[seat])


def branch(
    deal: Deal,
    names: Sequence[str],
    knock: Action,
    discard: Action,
    playouts: int,
    rng: random.Random,
) -> tuple[float, float]:
    """The seat to play's own net if it knocks now, and its mean if it plays on."""
    seat = deal.current_seat
    assert seat is not None
    now = deal.clone()
    now.apply(knock)
    later = []
    for _ in range(playouts):
        on = deal.clone()
        # The stock order is hidden from everybody: re-shuffle it per play-out.
        rng.shuffle(on._stock)
        on.apply(discard)
        later.append(_net(_play_out(on, names, rng.randrange(1 << 30)), seat))
    return _net(now, seat), statistics.fmean(later)


def collect(
    deals: int,
    players: int,
    playouts: int,
    explore: float,
    seed: int,
    population: Sequence[str],
    learner: str = "medium",
) -> list[dict[str, object]]:
    rng = random.Random(seed)
    samples: list[dict[str, object]] = []
    started = time.perf_counter()
    for number in range(deals):
        opponent = rng.choice(list(population))
        parity = number % 2
        names = [learner if s % 2 == parity else opponent for s in range(players)]
        deal = new_deal("knock", players=players, seed=seed * 1_000_003 + number, dealer=0)
        bots = [_player(name, rng.randrange(1 << 30)) for name in names]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            observation = deal.observe(seat)
            legal = deal.legal_actions()
            choice = bots[seat].choose(observation, legal)
            give_backs = of_kind(legal, *GIVE_BACK_KINDS)
            knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
            discards = [a for a in give_backs if a.kind is ActionKind.DISCARD]
            if seat % 2 == parity and knocks and discards:
                rules = observation.rules
                hand = observation.hand.mask
                left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in knocks}
                least, card = best_give_back(left, rules)
                if 0 < least <= CAP:
                    knock = next(a for a in knocks if a.cards[0] == card)
                    discard = _own_discard(bots[seat], observation, discards)
                    # Recorded for trying features beyond the shipped ones (--fit-only).
                    outlook = draw_outlook(
                        observation, hand & ~card.bit, least, find_rules(rules).ace
                    )
                    now, later = branch(deal, names, knock, discard, playouts, rng)
                    samples.append(
                        {
                            "x": knock_features(observation, least),
                            "y": now - later,
                            "deadwood": least,
                            "opponent": opponent,
                            "turn": observation.turn,
                            "medium_knocks": choice.kind is ActionKind.KNOCK,
                            "learner": learner,
                            "outlook": list(outlook),
                        }
                    )
                    if choice.kind is ActionKind.KNOCK and rng.random() < explore:
                        choice = discard
            deal.apply(choice)
        if (number + 1) % 50 == 0:
            print(
                f"{number + 1} deals, {len(samples)} decisions, "
                f"{time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    return samples


def with_outlook(samples: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The samples that recorded the draw outlook, with its features appended to ``x``."""
    extended = []
    for sample in samples:
        outlook = sample.get("outlook")
        if not isinstance(outlook, list):
            continue
        x = sample["x"]
        assert isinstance(x, list)
        terms = outlook_terms(float(outlook[0]), float(outlook[1]), int(str(sample["deadwood"])))
        extended.append({**sample, "x": [*x, *terms]})
    return extended


def fit(samples: Sequence[dict[str, object]], ridge: float) -> list[float]:
    """Ridge regression by the normal equations (Gauss-Jordan, pure Python)."""
    first = samples[0]["x"]
    assert isinstance(first, list)
    size = len(first)
    gram = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
    moment = [0.0] * size
    for sample in samples:
        x = sample["x"]
        y = sample["y"]
        w = float(str(sample.get("w", 1.0)))
        assert isinstance(x, list) and isinstance(y, float)
        active = [(i, v) for i, v in enumerate(x) if v]
        for i, vi in active:
            moment[i] += w * vi * y
            row = gram[i]
            for j, vj in active:
                row[j] += w * vi * vj
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(gram[r][col]))
        gram[col], gram[pivot] = gram[pivot], gram[col]
        moment[col], moment[pivot] = moment[pivot], moment[col]
        scale = gram[col][col]
        for r in range(size):
            if r != col and gram[r][col]:
                factor = gram[r][col] / scale
                for c in range(col, size):
                    gram[r][c] -= factor * gram[col][c]
                moment[r] -= factor * moment[col]
    return [moment[i] / gram[i][i] for i in range(size)]


def report(samples: Sequence[dict[str, object]], model: KnockValueModel, title: str) -> None:
    """Mean target and mean prediction by deadwood bucket, and the decisions' worth."""
    print(title)
    print(f"{'deadwood <=':>11} {'n':>5} {'gain':>7} {'model':>7} {'knocks':>6}")
    for index, bound in enumerate(DEADWOOD_BUCKETS):
        rows = [s for s in samples if bucket_of(int(str(s["deadwood"]))) == index]
        if not rows:
            continue
        ys = [float(str(s["y"])) for s in rows]
        preds = [model.gain(list(s["x"])) for s in rows]  # type: ignore[call-overload]
        knocks = sum(1 for p in preds if p > 0) / len(rows)
        print(
            f"{bound:>11} {len(rows):>5} {statistics.fmean(ys):>+7.2f} "
            f"{statistics.fmean(preds):>+7.2f} {knocks:>6.0%}"
        )
    ys = [float(str(s["y"])) for s in samples]
    preds = [model.gain(list(s["x"])) for s in samples]  # type: ignore[call-overload]
    chosen = statistics.fmean(y if p > 0 else 0.0 for y, p in zip(ys, preds, strict=True))
    if all("medium_knocks" in s for s in samples):
        medium = statistics.fmean(
            float(str(s["y"])) if s["medium_knocks"] else 0.0 for s in samples
        )
        print(f"medium's own knocks, per decision: {medium:+.2f}")
    best = statistics.fmean(max(y, 0.0) for y in ys)
    always = statistics.fmean(ys)
    print(
        f"gain of its knocks over always playing on, per decision: {chosen:+.2f} "
        f"(knowing each branch: {best:+.2f}; always knocking: {always:+.2f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=6)
    parser.add_argument("--explore", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=5.0)
    parser.add_argument("--population", nargs="+", default=list(POPULATION))
    parser.add_argument(
        "--learner",
        default="medium",
        choices=("medium", "hard"),
        help="who plays the training seats (hard: the shipped model decides its knocks, "
        "and it plays on as itself in the branches: a second round of policy iteration)",
    )
    parser.add_argument(
        "--data",
        nargs="+",
        help="write the samples to the first file (JSON lines); with --fit-only, read them all",
    )
    parser.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="OPPONENT=W",
        help="weight of the decisions made against this opponent in the fit (default 1)",
    )
    parser.add_argument("--fit-only", action="store_true")
    parser.add_argument(
        "--outlook",
        action="store_true",
        help="fit with the draw-outlook features too (only samples that recorded them)",
    )
    parser.add_argument("--holdout", type=float, default=0.2, help="share of deals held out")
    parser.add_argument("--out", help="write the fitted weights here")
    args = parser.parse_args(argv)
    if args.fit_only:
        samples: list[dict[str, object]] = []
        for name in args.data:
            with open(name, encoding="utf-8") as source:
                samples.extend(json.loads(line) for line in source)
        # Interleave the files so that the held-out tail draws on each of them.
        samples.sort(key=lambda s: zlib.crc32(json.dumps(s).encode()))
    else:
        samples = collect(
            args.deals,
            args.players,
            args.playouts,
            args.explore,
            args.seed,
            args.population,
            args.learner,
        )
        if args.data:
            with open(args.data[0], "w", encoding="utf-8") as out:
                for sample in samples:
                    out.write(json.dumps(sample) + "\n")
    weights = {name: float(w) for name, _, w in (o.partition("=") for o in args.weight)}
    for sample in samples:
        sample["w"] = weights.get(str(sample.get("opponent")), 1.0)
    if args.outlook:
        samples = with_outlook(samples)
    cut = int(len(samples) * (1 - args.holdout))
    trained = (
        f"{len(samples)} decisions, seed {args.seed}, ridge {args.ridge}, "
        f"weights {weights or 'none'}"
    )
    model = KnockValueModel(
        tuple(fit(samples[:cut], args.ridge)), (args.players,), trained, args.outlook
    )
    report(samples[:cut], model, f"training ({cut} decisions)")
    if cut < len(samples):
        report(samples[cut:], model, f"held out ({len(samples) - cut} decisions)")
    final = KnockValueModel(tuple(fit(samples, args.ridge)), (args.players,), trained, args.outlook)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(final.to_json() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
