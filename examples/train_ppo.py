"""Train the learned policy with PPO: one learner against a fixed bot.

The learner plays one seat of many deals at once against a fixed opponent
(``--opponent simple``), through the research Gymnasium environment; each
decision is scored by the action-scoring network of :mod:`pyrummy.nn` and
trained with PPO (:mod:`pyrummy.research.training`). ``--imitate medium`` first copies
a bot's decisions (behaviour cloning), a warm start PPO then improves on. At the
end the greedy policy plays duplicate deals against each ``--eval`` bot (every
deal from both seats) and prints the mean points per deal with a 95% interval.
The weights are saved as ``.npz`` for :class:`pyrummy.bots.learned.LearnedBot`.

    python examples/train_ppo.py --rules knock --imitate medium --minutes 30 --out knock.npz
    python examples/train_ppo.py --minutes 0.1 --eval-deals 10   # a smoke run
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np
import torch

from pyrummy.bots.registry import make_bot
from pyrummy.nn.features import Layout
from pyrummy.research.encoding import research_legal_actions
from pyrummy.research.gym import RummyEnv
from pyrummy.research.training import (
    REWARD_SCALE,
    ActionScorer,
    Decisions,
    PPOSettings,
    Rollout,
    new_model,
    pad,
    ppo_update,
    report,
    sample,
)


def imitate(model: ActionScorer, args: argparse.Namespace, layout: Layout) -> None:
    """Behaviour cloning: a bot decides for the learner's seat; the network is
    fitted to its choices (cross-entropy over the legal actions)."""
    env = RummyEnv(args.rules, args.players, opponents=args.opponent, seed=args.seed + 7)
    teacher = make_bot(args.imitate, seed=args.seed)
    rows: list[Decisions] = []
    targets: list[int] = []
    observation, info = env.reset()
    start = time.monotonic()
    while len(targets) < args.imitate_decisions:
        deal = env.deal
        assert deal is not None
        chosen = env.space.encode(
            teacher.choose(deal.observe(env.seat), research_legal_actions(deal))
        )
        mask = info["action_mask"][None, :]
        if int(mask.sum()) > 1:
            decisions = Decisions.of(observation[None, :], mask, layout)
            rows.append(decisions)
            targets.append(int(np.flatnonzero(decisions.ids[0] == chosen)[0]))
        observation, _, terminated, truncated, info = env.step(chosen)
        if terminated or truncated:
            observation, info = env.reset()
    print(f"imitating {args.imitate}: {len(targets)} decisions in {time.monotonic() - start:.0f} s")
    width = max(d.actions.shape[1] for d in rows)
    state = torch.from_numpy(np.concatenate([d.state for d in rows]))
    actions = torch.from_numpy(pad([d.actions[0] for d in rows], width).astype(np.float32))
    valid = torch.from_numpy(pad([d.valid[0] for d in rows], width).astype(np.bool_))
    target = torch.tensor(targets)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.imitate_epochs):
        order = torch.randperm(len(target))
        agree = 0
        for first in range(0, len(order), 256):
            idx = order[first : first + 256]
            scores, _ = model(state[idx], actions[idx], valid[idx])
            loss = torch.nn.functional.cross_entropy(scores, target[idx])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            agree += int((scores.argmax(1) == target[idx]).sum())
        print(f"  epoch {epoch + 1}: agrees with {args.imitate} on {agree / len(order):.1%}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=32, help="decisions per env per update")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--imitate", default="", help="copy this bot first, e.g. medium")
    parser.add_argument("--imitate-decisions", type=int, default=50_000)
    parser.add_argument("--imitate-epochs", type=int, default=8)
    parser.add_argument("--init", help="start from these weights (.npz)")
    parser.add_argument("--eval", default="random,simple,medium")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--out", default="learned.npz")
    args = parser.parse_args(argv)

    model, layout = new_model(args.rules, args.players, args.seed, args.init)
    if args.imitate:
        imitate(model, args, layout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    envs = [
        RummyEnv(args.rules, args.players, opponents=args.opponent, seed=args.seed * 100_000 + i)
        for i in range(args.envs)
    ]
    started = [env.reset() for env in envs]
    observations = [obs for obs, _ in started]
    masks = [info["action_mask"] for _, info in started]
    start = time.monotonic()
    deadline = start + args.minutes * 60
    update = decisions_made = 0
    finished: list[float] = []
    while time.monotonic() < deadline or update == 0:
        update += 1
        steps: list[
            tuple[Decisions, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
        ] = []
        for _ in range(args.steps):
            decisions = Decisions.of(np.stack(observations), np.stack(masks), layout)
            ids, columns, logp, values = sample(model, decisions)
            rewards = np.zeros(len(envs), np.float32)
            dones = np.zeros(len(envs), np.float32)
            for i, env in enumerate(envs):
                observation, reward, terminated, truncated, info = env.step(int(ids[i]))
                rewards[i] = reward / REWARD_SCALE
                if terminated or truncated:
                    dones[i] = 1.0
                    finished.append(float(reward))
                    observation, info = env.reset()
                observations[i] = observation
                masks[i] = info["action_mask"]
            decisions_made += len(envs)
            steps.append((decisions, columns, logp, values, rewards, dones))
        _, _, _, next_value = sample(
            model, Decisions.of(np.stack(observations), np.stack(masks), layout)
        )
        # Generalised advantage estimation, backwards over the steps of each env.
        running = np.zeros(len(envs), np.float32)
        advantages = []
        for _, _, _, values, rewards, dones in reversed(steps):
            alive = 1.0 - dones
            delta = rewards + next_value * alive - values
            running = delta + args.gae_lambda * alive * running
            advantages.append(running.copy())
            next_value = values
        advantages.reverse()
        rollout = Rollout.empty()
        for (decisions, columns, logp, values, _, _), advantage in zip(
            steps, advantages, strict=True
        ):
            for row in range(len(envs)):
                rollout.add(
                    decisions,
                    row,
                    int(columns[row]),
                    float(logp[row]),
                    float(values[row]),
                    float(advantage[row] + values[row]),
                )
        ppo_update(model, optimizer, rollout, np.concatenate(advantages), PPOSettings())
        if update % 10 == 0:
            recent = finished[-500:]
            mean = sum(recent) / len(recent) if recent else float("nan")
            rate = decisions_made / (time.monotonic() - start)
            print(
                f"update {update:5d}  decisions {decisions_made:9d}  {rate:6.0f}/s  "
                f"points per deal vs {args.opponent} (last {len(recent)}): {mean:+.2f}",
                flush=True,
            )
    meta = {
        "rules": args.rules,
        "players": str(args.players),
        "opponent": args.opponent,
        "imitate": args.imitate,
        "decisions": str(decisions_made),
        "minutes": f"{(time.monotonic() - start) / 60:.1f}",
        "seed": str(args.seed),
    }
    model.export(meta).save(args.out)
    print(f"saved {args.out} after {decisions_made} decisions")
    for line in report(model, args.rules, args.players, args.eval, args.eval_deals):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
