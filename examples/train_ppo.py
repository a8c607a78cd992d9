"""Train the learned policy with PPO: one learner against a fixed bot.

The learner plays one seat of many deals at once against a fixed opponent
(``--opponent simple`` by default); every decision is scored by the
action-scoring network of :mod:`pyrummy.nn.policy` over the features of
:mod:`pyrummy.nn.features`, trained with PPO (clipped objective, GAE) in
PyTorch. At the end (and every ``--eval-every`` updates) the greedy policy
plays duplicate deals against ``--eval`` bots (each deal twice, seats swapped)
and prints the mean points per deal with a 95% interval. The weights are saved
as a ``.npz`` file that :class:`pyrummy.bots.learned.LearnedBot` plays with
numpy alone.

    python examples/train_ppo.py --rules knock --minutes 30 --out knock.npz
    python examples/train_ppo.py --rules gin --minutes 30 --out gin.npz
    python examples/train_ppo.py --minutes 0.1 --eval-deals 20   # a smoke run
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from pyrummy.nn.features import ACTION_FEATURES, Layout, action_features, state_features
from pyrummy.nn.policy import PolicyWeights
from pyrummy.research.gym import RummyEnv

REWARD_SCALE = 30.0


class ActionScorer(nn.Module):
    """The network of :class:`pyrummy.nn.policy.PolicyWeights`, in PyTorch."""

    def __init__(self, state_size: int, hidden: int = 128, value_hidden: int = 64) -> None:
        super().__init__()
        self.state = nn.Linear(state_size, hidden)
        self.action = nn.Linear(hidden + ACTION_FEATURES, hidden)
        self.score = nn.Linear(hidden, 1)
        self.value_hidden = nn.Linear(hidden, value_hidden)
        self.value_out = nn.Linear(value_hidden, 1)

    def forward(
        self, state: torch.Tensor, actions: torch.Tensor, valid: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = torch.relu(self.state(state))
        width = actions.shape[1]
        joined = torch.cat([hidden[:, None, :].expand(-1, width, -1), actions], dim=2)
        scores = self.score(torch.relu(self.action(joined)))[..., 0]
        scores = scores.masked_fill(~valid, -1e9)
        value = self.value_out(torch.relu(self.value_hidden(hidden)))[:, 0]
        return scores, value

    def weights(self, meta: dict[str, str]) -> PolicyWeights:
        def arr(t: torch.Tensor) -> np.ndarray:
            return t.detach().cpu().numpy().astype(np.float32)

        return PolicyWeights(
            {
                "state_w": arr(self.state.weight),
                "state_b": arr(self.state.bias),
                "action_w": arr(self.action.weight),
                "action_b": arr(self.action.bias),
                "score_w": arr(self.score.weight),
                "score_b": arr(self.score.bias),
                "value_w": arr(self.value_hidden.weight),
                "value_b": arr(self.value_hidden.bias),
                "value_out_w": arr(self.value_out.weight),
                "value_out_b": arr(self.value_out.bias),
            },
            meta,
        )


def pad(arrays: Sequence[np.ndarray], width: int) -> np.ndarray:
    """Stack (K_i, ...) arrays into (N, width, ...), zero-padded."""
    first = arrays[0]
    out = np.zeros((len(arrays), width, *first.shape[1:]), first.dtype)
    for i, a in enumerate(arrays):
        out[i, : len(a)] = a
    return out


def evaluate(
    model: ActionScorer, rules: str, players: int, opponent: str, deals: int, seed: int
) -> tuple[float, float]:
    """Mean points per deal (greedy learner) over duplicate pairs, and the 95% half-width."""
    layout = Layout.of(rules, players)
    pairs = []
    for d in range(deals):
        total = 0.0
        for seat in range(players):
            env = RummyEnv(rules, players, opponents=opponent, seat=seat)
            obs, info = env.reset(seed=seed + d)
            done = False
            reward = 0.0
            while not done:
                mask = info["action_mask"][None, :]
                state = state_features(obs[None, :], layout)
                feats, ids, valid = action_features(obs[None, :], mask, layout)
                with torch.no_grad():
                    scores, _ = model(
                        torch.from_numpy(state), torch.from_numpy(feats), torch.from_numpy(valid)
                    )
                action = int(ids[0, int(scores[0].argmax())])
                obs, r, terminated, truncated, info = env.step(action)
                reward += float(r)
                done = terminated or truncated
            total += reward
        pairs.append(total / players)
    values = np.array(pairs)
    half = 1.96 * values.std(ddof=1) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return float(values.mean()), float(half)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=32, help="decisions per env per update")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval", default="random,simple,medium")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--eval-every", type=int, default=0)
    parser.add_argument("--init", help="start from these weights (.npz)")
    parser.add_argument(
        "--imitate",
        default="",
        help="before PPO, copy this bot's decisions (behaviour cloning), e.g. medium",
    )
    parser.add_argument("--imitate-decisions", type=int, default=50_000)
    parser.add_argument("--imitate-epochs", type=int, default=8)
    parser.add_argument("--out", default="learned.npz")
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    layout = Layout.of(args.rules, args.players)
    model = ActionScorer(layout.state_size)
    if args.init:
        load_weights(model, PolicyWeights.load(args.init))
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    if args.imitate:
        imitate(model, args)
    envs = [
        RummyEnv(args.rules, args.players, opponents=args.opponent, seed=args.seed * 100_000 + i)
        for i in range(args.envs)
    ]
    observations = []
    masks = []
    for env in envs:
        obs, info = env.reset()
        observations.append(obs)
        masks.append(info["action_mask"])
    start = time.monotonic()
    deadline = start + args.minutes * 60
    update = 0
    decisions = 0
    finished: list[float] = []
    while time.monotonic() < deadline:
        update += 1
        b_state, b_feats, b_valid, b_choice, b_logp, b_value, b_reward, b_done = (
            [],
            [],
            [],
            [],
            [],
            [],
            [],
            [],
        )
        for _ in range(args.steps):
            obs = np.stack(observations)
            mask = np.stack(masks)
            state = state_features(obs, layout)
            feats, ids, valid = action_features(obs, mask, layout)
            with torch.no_grad():
                scores, value = model(
                    torch.from_numpy(state), torch.from_numpy(feats), torch.from_numpy(valid)
                )
                dist = torch.distributions.Categorical(logits=scores)
                choice = dist.sample()  # type: ignore[no-untyped-call]
                logp = dist.log_prob(choice)  # type: ignore[no-untyped-call]
            rewards = np.zeros(len(envs), np.float32)
            dones = np.zeros(len(envs), np.float32)
            for i, env in enumerate(envs):
                action = int(ids[i, int(choice[i])])
                obs_i, reward, terminated, truncated, info = env.step(action)
                rewards[i] = reward / REWARD_SCALE
                if terminated or truncated:
                    dones[i] = 1.0
                    finished.append(float(reward))
                    obs_i, info = env.reset()
                observations[i] = obs_i
                masks[i] = info["action_mask"]
            decisions += len(envs)
            b_state.append(state)
            b_feats.append(list(feats))
            b_valid.append(list(valid))
            b_choice.append(choice.numpy())
            b_logp.append(logp.numpy())
            b_value.append(value.numpy())
            b_reward.append(rewards)
            b_done.append(dones)
        with torch.no_grad():
            obs = np.stack(observations)
            mask = np.stack(masks)
            feats, ids, valid = action_features(obs, mask, layout)
            _, last_value = model(
                torch.from_numpy(state_features(obs, layout)),
                torch.from_numpy(feats),
                torch.from_numpy(valid),
            )
        values = np.stack(b_value)
        rewards_t = np.stack(b_reward)
        dones_t = np.stack(b_done)
        advantages = np.zeros_like(rewards_t)
        running = np.zeros(len(envs), np.float32)
        next_value = last_value.numpy()
        for t in reversed(range(args.steps)):
            nonterminal = 1.0 - dones_t[t]
            delta = rewards_t[t] + next_value * nonterminal - values[t]
            running = delta + args.gae_lambda * nonterminal * running
            advantages[t] = running
            next_value = values[t]
        returns = advantages + values
        flat_feats = [f for step in b_feats for f in step]
        flat_valid = [v for step in b_valid for v in step]
        width = max(int(v.sum()) for v in flat_valid)
        t_state = torch.from_numpy(np.concatenate(b_state))
        t_feats = torch.from_numpy(pad([f[:width] for f in flat_feats], width))
        t_valid = torch.from_numpy(pad([v[:width] for v in flat_valid], width))
        t_choice = torch.from_numpy(np.concatenate(b_choice))
        t_logp = torch.from_numpy(np.concatenate(b_logp))
        t_adv = torch.from_numpy(advantages.reshape(-1))
        t_ret = torch.from_numpy(returns.reshape(-1))
        total = len(t_state)
        for _ in range(args.epochs):
            order = torch.randperm(total)
            for first in range(0, total, args.minibatch):
                idx = order[first : first + args.minibatch]
                scores, value = model(t_state[idx], t_feats[idx], t_valid[idx])
                dist = torch.distributions.Categorical(logits=scores)
                logp = dist.log_prob(t_choice[idx])  # type: ignore[no-untyped-call]
                ratio = torch.exp(logp - t_logp[idx])
                adv = t_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = -torch.min(
                    ratio * adv, torch.clamp(ratio, 1 - args.clip, 1 + args.clip) * adv
                ).mean()
                value_loss = ((value - t_ret[idx]) ** 2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()  # type: ignore[no-untyped-call]
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                optimizer.step()
        if update % 10 == 0:
            recent = finished[-500:]
            mean = sum(recent) / len(recent) if recent else float("nan")
            elapsed = time.monotonic() - start
            print(
                f"update {update:5d}  decisions {decisions:9d}  {decisions / elapsed:6.0f}/s  "
                f"points per deal vs {args.opponent} (last {len(recent)}): {mean:+.2f}",
                flush=True,
            )
        if args.eval_every and update % args.eval_every == 0:
            mean, half = evaluate(model, args.rules, args.players, args.opponent, 100, 10_000)
            print(f"  eval vs {args.opponent}: {mean:+.2f} ± {half:.2f}", flush=True)
    meta = {
        "rules": args.rules,
        "players": str(args.players),
        "opponent": args.opponent,
        "decisions": str(decisions),
        "minutes": f"{(time.monotonic() - start) / 60:.1f}",
        "seed": str(args.seed),
    }
    model.weights(meta).save(args.out)
    print(f"saved {args.out} after {decisions} decisions")
    for opponent in [o for o in args.eval.split(",") if o]:
        mean, half = evaluate(model, args.rules, args.players, opponent, args.eval_deals, 777_000)
        print(
            f"duplicate vs {opponent}: {mean:+.2f} ± {half:.2f} points per deal "
            f"({args.eval_deals} pairs)",
            flush=True,
        )
    return 0


def imitate(model: ActionScorer, args: argparse.Namespace) -> None:
    """Behaviour cloning: play deals where a bot decides for the learner's seat,
    then fit the network's choice to the bot's (cross-entropy over legal actions)."""
    from pyrummy.bots.registry import make_bot
    from pyrummy.research.encoding import research_legal_actions

    layout = Layout.of(args.rules, args.players)
    states, feats_rows, valid_rows, targets = [], [], [], []
    env = RummyEnv(args.rules, args.players, opponents=args.opponent, seed=args.seed + 7)
    teacher = make_bot(args.imitate, seed=args.seed)
    obs, info = env.reset()
    collected = 0
    start = time.monotonic()
    while collected < args.imitate_decisions:
        deal = env.deal
        assert deal is not None
        legal = research_legal_actions(deal)
        chosen = teacher.choose(deal.observe(env.seat), legal)
        action = env.space.encode(chosen)
        mask = info["action_mask"][None, :]
        if int(mask.sum()) > 1:
            state = state_features(obs[None, :], layout)
            feats, ids, valid = action_features(obs[None, :], mask, layout)
            states.append(state[0])
            feats_rows.append(feats[0])
            valid_rows.append(valid[0])
            targets.append(int(np.flatnonzero(ids[0] == action)[0]))
            collected += 1
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()
    width = max(len(f) for f in feats_rows)
    t_state = torch.from_numpy(np.stack(states))
    t_feats = torch.from_numpy(pad(feats_rows, width))
    t_valid = torch.from_numpy(pad(valid_rows, width))
    t_target = torch.tensor(targets)
    print(f"imitating {args.imitate}: {collected} decisions in {time.monotonic() - start:.0f} s")
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.imitate_epochs):
        order = torch.randperm(len(t_state))
        agree = 0
        for first in range(0, len(order), 256):
            idx = order[first : first + 256]
            scores, _ = model(t_state[idx], t_feats[idx], t_valid[idx])
            loss = nn.functional.cross_entropy(scores, t_target[idx])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            agree += int((scores.argmax(1) == t_target[idx]).sum())
        print(f"  epoch {epoch + 1}: agrees with {args.imitate} on {agree / len(order):.1%}")


def load_weights(model: ActionScorer, weights: PolicyWeights) -> None:
    a = {k: torch.from_numpy(v.astype(np.float32)) for k, v in weights.arrays.items()}
    with torch.no_grad():
        model.state.weight.copy_(a["state_w"])
        model.state.bias.copy_(a["state_b"])
        model.action.weight.copy_(a["action_w"])
        model.action.bias.copy_(a["action_b"])
        model.score.weight.copy_(a["score_w"])
        model.score.bias.copy_(a["score_b"])
        model.value_hidden.weight.copy_(a["value_w"])
        model.value_hidden.bias.copy_(a["value_b"])
        model.value_out.weight.copy_(a["value_out_w"])
        model.value_out.bias.copy_(a["value_out_b"])


if __name__ == "__main__":
    sys.exit(main())
