"""Self-play PPO on the batched environment, in one file (CleanRL style).

Every seat of ``--batch`` deals is played by the same policy (the action-scoring
network of :mod:`pyrummy.nn`) through :class:`pyrummy.research.batched.BatchedGame`,
which steps all deals at once with numpy and deals a new one where a deal ends.
A decision's return is its seat's points when its deal ends (no discount, the
reward comes only then); decisions of deals still running when an update is
due wait for their deal to end. PPO (:func:`pyrummy.research.training.ppo_update`)
learns from each batch of finished decisions. At the end the greedy policy plays
duplicate deals against the ``--eval`` bots.

    python examples/selfplay_ppo.py --rules knock --minutes 30 --out knock-selfplay.npz
    python examples/selfplay_ppo.py --rules gin --minutes 0.1 --eval-deals 10   # a smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np
import torch

from pyrummy.research.batched import BatchedGame
from pyrummy.research.training import (
    REWARD_SCALE,
    Decisions,
    PPOSettings,
    Rollout,
    new_model,
    ppo_update,
    report,
    sample,
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=128, help="deals stepped at once")
    parser.add_argument("--update-size", type=int, default=4096, help="decisions per update")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init", help="start from these weights (.npz)")
    parser.add_argument("--eval", default="random,simple,medium")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--out", default="selfplay.npz")
    args = parser.parse_args(argv)

    model, layout = new_model(args.rules, args.players, args.seed, args.init)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    game = BatchedGame(args.rules, players=args.players, batch=args.batch, seed=args.seed)
    observations, masks = game.reset()
    # Per deal, the decisions of this deal so far: (decisions, row, column, logp, value, seat).
    pending: list[list[tuple[Decisions, int, int, float, float, int]]] = [
        [] for _ in range(args.batch)
    ]
    rollout = Rollout.empty()
    start = time.monotonic()
    deadline = start + args.minutes * 60
    updates = decisions_made = deals_done = 0
    while time.monotonic() < deadline or updates == 0:
        seats = game.to_play.copy()
        decisions = Decisions.of(observations, masks, layout)
        ids, columns, logp, values = sample(model, decisions)
        for row in range(args.batch):
            pending[row].append(
                (
                    decisions,
                    row,
                    int(columns[row]),
                    float(logp[row]),
                    float(values[row]),
                    int(seats[row]),
                )
            )
        observations, masks, rewards, done = game.step(ids)
        decisions_made += args.batch
        for ended in np.flatnonzero(done):
            deals_done += 1
            for made, made_row, column, chosen_logp, value, seat in pending[ended]:
                ret = float(rewards[ended, seat]) / REWARD_SCALE
                rollout.add(made, made_row, column, chosen_logp, value, ret)
            pending[ended] = []
        if len(rollout) >= args.update_size:
            advantages = np.asarray(rollout.returns, np.float32) - np.asarray(
                rollout.values, np.float32
            )
            ppo_update(model, optimizer, rollout, advantages, PPOSettings())
            rollout = Rollout.empty()
            updates += 1
            if updates % 10 == 0:
                rate = decisions_made / (time.monotonic() - start)
                print(
                    f"update {updates:5d}  decisions {decisions_made:9d}  {rate:6.0f}/s  "
                    f"deals {deals_done}",
                    flush=True,
                )
    meta = {
        "rules": args.rules,
        "players": str(args.players),
        "opponent": "self-play",
        "decisions": str(decisions_made),
        "minutes": f"{(time.monotonic() - start) / 60:.1f}",
        "seed": str(args.seed),
    }
    model.export(meta).save(args.out)
    print(f"saved {args.out} after {decisions_made} decisions, {updates} updates")
    for line in report(model, args.rules, args.players, args.eval, args.eval_deals):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
