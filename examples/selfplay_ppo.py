"""Self-play PPO on the batched environment, in one file (CleanRL style), here or on Ray.

Every seat of the deals is played by the same policy (the action-scoring
network of :mod:`pyrummy.nn`) through :class:`pyrummy.research.batched.BatchedGame`,
which steps many deals at once with numpy and deals a new one where a deal ends.
A decision's return is its seat's points when its deal ends (no discount, the
reward comes only then); decisions of deals still running when an update is
due wait for their deal to end. PPO (:func:`pyrummy.research.training.ppo_update`)
learns from each batch of finished decisions. At the end the greedy policy plays
duplicate deals against the ``--eval`` bots.

The decisions are collected by ``--shards`` collectors (:class:`Shard`), each
with its own ``--batch`` deals, seed and random stream; before each update every
shard plays the current weights until it has its share of ``--update-size``
finished decisions, and the learner joins the shares in shard order. Without
``--ray`` the shards take turns in this process; with ``--ray local`` (a Ray
instance started here with ``--num-cpus``) or ``--ray HOST:PORT`` / ``auto`` (a
running cluster) each shard is a Ray actor and they collect at the same time.
Only where the work is done changes: for the same seeds and ``--updates``, both
paths learn exactly the same weights.

    python examples/selfplay_ppo.py --rules knock --minutes 30 --out knock-selfplay.npz
    python examples/selfplay_ppo.py --rules knock --minutes 30 --shards 2 --ray local --num-cpus 2
    python examples/selfplay_ppo.py --rules gin --minutes 0.1 --eval-deals 10   # a smoke run
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

import pyrummy
from pyrummy.nn.features import Layout
from pyrummy.research.batched import BatchedGame
from pyrummy.research.training import (
    REWARD_SCALE,
    ActionScorer,
    Decisions,
    PPOSettings,
    Rollout,
    new_model,
    ppo_update,
    report,
    sample,
)

#: The weights as they travel to the shards: the network's state dict as numpy arrays.
Weights = dict[str, npt.NDArray[np.float32]]


class Shard:
    """Collects finished self-play decisions from its own deals with given weights.

    Shard ``i`` deals from seed ``seed + 1000 * i`` and draws its choices from a
    torch generator of the same seed, so what it collects depends only on its
    index, the seeds and the weights it is given: never on the process it runs in.
    """

    def __init__(self, rules: str, players: int, batch: int, seed: int) -> None:
        torch.set_num_threads(1)
        self.layout = Layout.of(rules, players)
        with torch.random.fork_rng(devices=[]):  # the caller's random stream stays untouched
            self.model = ActionScorer(self.layout.state_size)
        self.generator = torch.Generator().manual_seed(seed)
        self.game = BatchedGame(rules, players=players, batch=batch, seed=seed)
        self.observations, self.masks = self.game.reset()
        # Per deal, its decisions so far: (decisions, row, column, logp, value, seat).
        self.pending: list[list[tuple[Decisions, int, int, float, float, int]]] = [
            [] for _ in range(batch)
        ]

    def collect(self, weights: Weights, decisions: int) -> tuple[Rollout, int, int]:
        """Play ``weights`` until at least ``decisions`` decisions have finished:
        ``(those decisions, decisions made, deals ended)``."""
        self.model.load_state_dict({name: torch.from_numpy(a) for name, a in weights.items()})
        rollout = Rollout.empty()
        made = ended = 0
        rows = range(len(self.pending))
        while len(rollout) < decisions:
            seats = self.game.to_play.copy()
            batch = Decisions.of(self.observations, self.masks, self.layout)
            ids, columns, logp, values = sample(self.model, batch, generator=self.generator)
            for row in rows:
                self.pending[row].append(
                    (
                        batch,
                        row,
                        int(columns[row]),
                        float(logp[row]),
                        float(values[row]),
                        int(seats[row]),
                    )
                )
            self.observations, self.masks, rewards, done = self.game.step(ids)
            made += len(rows)
            for deal in np.flatnonzero(done):
                ended += 1
                for made_in, made_row, column, chosen_logp, value, seat in self.pending[deal]:
                    ret = float(rewards[deal, seat]) / REWARD_SCALE
                    rollout.add(made_in, made_row, column, chosen_logp, value, ret)
                self.pending[deal] = []
        return rollout, made, ended


def weights_of(model: ActionScorer) -> Weights:
    """The model's state dict as numpy arrays (copies), to send to the shards."""
    return {name: t.detach().cpu().numpy().copy() for name, t in model.state_dict().items()}


def digest(weights: Weights) -> str:
    """A SHA-256 of the float32 weights: equal digests, equal networks."""
    hasher = hashlib.sha256()
    for name in sorted(weights):
        hasher.update(name.encode())
        hasher.update(np.ascontiguousarray(weights[name], np.float32).tobytes())
    return hasher.hexdigest()


class LocalShards:
    """The shards in this process, one after another."""

    def __init__(self, shards: list[Shard]) -> None:
        self.shards = shards

    def collect(self, weights: Weights, decisions: int) -> list[tuple[Rollout, int, int]]:
        return [shard.collect(weights, decisions) for shard in self.shards]


class RayShards:
    """The shards as Ray actors, collecting at the same time."""

    def __init__(self, ray: Any, arguments: list[tuple[str, int, int, int]]) -> None:
        self.ray = ray
        remote_shard = ray.remote(num_cpus=1)(Shard)
        self.actors = [remote_shard.remote(*shard_arguments) for shard_arguments in arguments]

    def collect(self, weights: Weights, decisions: int) -> list[tuple[Rollout, int, int]]:
        shared = self.ray.put(weights)
        results: list[tuple[Rollout, int, int]] = self.ray.get(
            [actor.collect.remote(shared, decisions) for actor in self.actors]
        )
        return results


def connect(address: str, num_cpus: int) -> Any:
    """The ``ray`` module, connected: ``local`` starts an instance in this process
    with ``num_cpus`` CPUs, anything else is a cluster's address (or ``auto``)."""
    import ray

    if address == "local":
        # The workers import pyrummy from where this process does (a source tree too).
        source = str(Path(pyrummy.__file__).resolve().parents[1])
        path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH", "")) if p)
        ray.init(
            num_cpus=num_cpus,
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": path}},
        )
    else:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128, help="deals stepped at once, per shard")
    parser.add_argument("--update-size", type=int, default=4096, help="decisions per update")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--updates", type=int, help="stop after this many updates (fixed work)")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init", help="start from these weights (.npz)")
    parser.add_argument("--shards", type=int, default=1, help="decision collectors")
    parser.add_argument("--ray", metavar="ADDRESS", help="shards as Ray actors: local, auto, H:P")
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of a --ray local instance")
    parser.add_argument("--eval", default="random,simple,medium")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--out", default="selfplay.npz")
    args = parser.parse_args(argv)
    if args.shards < 1:
        parser.error("--shards: need at least 1")
    if args.ray == "local" and args.shards > args.num_cpus:
        parser.error("--shards: each shard is an actor of one CPU, at most --num-cpus of them")

    model, _ = new_model(args.rules, args.players, args.seed, args.init)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    arguments = [
        (args.rules, args.players, args.batch, args.seed + 1000 * shard)
        for shard in range(args.shards)
    ]
    ray = connect(args.ray, args.num_cpus) if args.ray else None
    shards = RayShards(ray, arguments) if ray else LocalShards([Shard(*a) for a in arguments])
    share = math.ceil(args.update_size / args.shards)
    start = time.monotonic()
    deadline = start + args.minutes * 60
    updates = decisions_made = deals_done = 0
    try:
        while (
            updates < args.updates if args.updates else time.monotonic() < deadline or updates == 0
        ):
            rollout = Rollout.empty()
            for collected, made, ended in shards.collect(weights_of(model), share):
                rollout.extend(collected)
                decisions_made += made
                deals_done += ended
            advantages = np.asarray(rollout.returns, np.float32) - np.asarray(
                rollout.values, np.float32
            )
            ppo_update(model, optimizer, rollout, advantages, PPOSettings())
            updates += 1
            if updates % 10 == 0 or updates == args.updates:
                rate = decisions_made / (time.monotonic() - start)
                print(
                    f"update {updates:5d}  decisions {decisions_made:9d}  {rate:6.0f}/s  "
                    f"deals {deals_done}",
                    flush=True,
                )
    finally:
        if ray is not None:
            ray.shutdown()
    meta = {
        "rules": args.rules,
        "players": str(args.players),
        "opponent": "self-play",
        "decisions": str(decisions_made),
        "minutes": f"{(time.monotonic() - start) / 60:.1f}",
        "seed": str(args.seed),
        "shards": str(args.shards),
    }
    model.export(meta).save(args.out)
    print(f"saved {args.out} after {decisions_made} decisions, {updates} updates")
    print(f"weights sha256 {digest(weights_of(model))}")
    for line in report(model, args.rules, args.players, args.eval, args.eval_deals):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
