"""Decision steps a CPU second of the research environments, side by side in one run.

Every row plays random legal actions in Gin (2 players) and reads the
observation of every decision, as a learner does; times are CPU seconds of
this process (``time.process_time``), so other work on a shared machine
counts less. Rows:

- ``batched B=...``: :class:`pyrummy.research.batched.BatchedGame`
  (self-play, numpy): each step plays one action in each of ``B`` deals and
  returns every observation and mask (the learner's observation buffer is
  updated in place), actions sampled from the masks with numpy;
- ``vector B=...``: :class:`pyrummy.research.vector.RummyVectorEnv`, one
  learner seat against random opponents (opponent actions counted as steps);
- ``core``: the unbatched core deal, random legal actions, no observations;
- ``pettingzoo``, ``gymnasium``, ``pyspiel game``: our unbatched environments
  (PettingZoo AEC ``env("gin")``, ``RummyEnv`` against random opponents,
  ``pyspiel.load_game("pyrummy_gin")``) with an observation each decision;
- ``openspiel gin``: OpenSpiel's own C++ ``gin_rummy`` through pyspiel,
  ``observation_tensor`` and ``legal_actions`` at each decision.

Ratios are to OpenSpiel's own gin. The rows run in turn ``--passes``
times and each keeps its best pass (a shared machine's load comes and
goes). Run (about ``--seconds`` times ``--passes`` times 9)::

    nice .venv/bin/python benchmarks/research_speed.py --seconds 3 --passes 3
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from pyrummy.core.deal import new_deal
from pyrummy.research import pettingzoo as pz
from pyrummy.research.batched import BatchedGame
from pyrummy.research.encoding import research_legal_actions
from pyrummy.research.gym import RummyEnv
from pyrummy.research.openspiel import game_name
from pyrummy.research.vector import RummyVectorEnv

Runner = Callable[[float], tuple[int, float]]


def batched(batch: int) -> Runner:
    def run(seconds: float) -> tuple[int, float]:
        game = BatchedGame("gin", batch=batch, seed=1)
        game.reset()
        rng = np.random.default_rng(2)
        for _ in range(20):  # warm up
            game.step(game.sample_actions(rng))
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(10):
                game.step(game.sample_actions(rng))
            steps += 10 * batch
        return steps, time.process_time() - start

    return run


def vector(batch: int) -> Runner:
    def run(seconds: float) -> tuple[int, float]:
        env = RummyVectorEnv("gin", num_envs=batch, seed=1)
        env.reset()
        rng = np.random.default_rng(2)
        deals = env.deals
        counted = [0]
        step = deals.step

        def counting(actions: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
            counted[0] += len(actions)
            return step(actions, rows)

        deals.step = counting  # type: ignore[method-assign]
        for _ in range(10):
            env.step(env.sample_legal_actions(rng))
        counted[0] = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(10):
                env.step(env.sample_legal_actions(rng))
        return counted[0], time.process_time() - start

    return run


def core(seconds: float) -> tuple[int, float]:
    rng = random.Random(1)
    steps, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        deal = new_deal("gin", 2, seed=seed, dealer=seed % 2)
        seed += 1
        while not deal.is_over:
            legal = research_legal_actions(deal)
            deal.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def pettingzoo(seconds: float) -> tuple[int, float]:
    env = pz.env(rules="gin")
    rng = random.Random(1)
    steps, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        while env.agents:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def gymnasium_env(seconds: float) -> tuple[int, float]:
    env = RummyEnv("gin", opponents="random", seed=1)
    rng = random.Random(1)
    steps, start = 0, time.process_time()
    _observation, info = env.reset()
    while time.process_time() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        _observation, _, terminated, truncated, info = env.step(
            int(legal[rng.randrange(len(legal))])
        )
        steps += 1
        if terminated or truncated:
            _observation, info = env.reset()
    return steps, time.process_time() - start


def pyspiel_game(name: str) -> Runner:
    def run(seconds: float) -> tuple[int, float]:
        game = pyspiel.load_game(name)
        rng = random.Random(1)
        steps, start = 0, time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                player = state.current_player()
                np.asarray(state.observation_tensor(player))
                legal = state.legal_actions(player)
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, time.process_time() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    parser.add_argument("--batches", default="1024,4096", help="batch sizes of the batched rows")
    parser.add_argument("--passes", type=int, default=3, help="passes over the rows (best kept)")
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    rows: list[tuple[str, Runner]] = [("openspiel gin (C++)", pyspiel_game("gin_rummy"))]
    rows += [(f"batched B={b}", batched(b)) for b in batches]
    rows += [(f"vector B={b} vs random", vector(b)) for b in batches]
    rows += [
        ("core (no observations)", core),
        ("pettingzoo AEC", pettingzoo),
        ("gymnasium vs random", gymnasium_env),
        ("pyspiel game pyrummy_gin", pyspiel_game(game_name("gin"))),
    ]
    load = os.getloadavg()
    print(
        f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}; load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    results: dict[str, float] = {}
    for _ in range(args.passes):
        for name, runner in rows:
            steps, spent = runner(args.seconds)
            results[name] = max(results.get(name, 0.0), steps / spent)
    reference = results["openspiel gin (C++)"]
    print("| environment | decision steps / CPU s | vs OpenSpiel gin |")
    print("|---|---:|---:|")
    for name, rate in results.items():
        print(f"| {name} | {rate:,.0f} | {rate / reference:.2f}x |")
    load = os.getloadavg()
    print(f"# load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
