"""Train a tiny numpy policy on a preset and plot its learning curve.

The agent plays one seat of ``pyrummy.research.gym.RummyEnv`` (the other
seats are our bots). It scores each *legal* action by a handful of features
read from its own observation vector (the version-1 encoding: the first 55
entries are its hand, the next blocks the drawn card and the pile top) and
the core's deadwood solver:

- draw: a bias, and for ``draw discard`` how much the top card would lower
  the best deadwood;
- discard / knock: the deadwood left after giving the card back, the card's
  points, and for a knock a bias and "the deadwood left is 0";
- meld, lay-off (melding games): a bias per kind and the cards put down.

A softmax over ``theta . features`` picks the action; REINFORCE with a
running-mean baseline trains ``theta`` (9 numbers). Every ``--eval-every``
episodes the policy plays ``--eval-deals`` fixed deals with fixed random
numbers (so the score moves only because the policy changed); at episode 0
``theta`` is zero, the uniform random policy. The curve goes to a PNG.

    .venv/bin/python examples/train_policy.py                   # knock, 2 players, vs random
    .venv/bin/python examples/train_policy.py --rules gin --opponent simple

The defaults run in well under a minute.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from pyrummy.core.actions import ActionKind, action_space
from pyrummy.core.cards import ALL_CARDS, CardSet
from pyrummy.core.rules import Rules
from pyrummy.core.solver import best_discards, deadwood
from pyrummy.research.encoding import CARDS
from pyrummy.research.gym import RummyEnv

FEATURES = 9


def _cards(plane: np.ndarray) -> CardSet:
    return CardSet(sum(ALL_CARDS[i].bit for i in np.flatnonzero(plane > 0.5)))


def action_features(
    rules: Rules, observation: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The legal action numbers and one feature row per legal action."""
    space = action_space(rules)
    hand = _cards(observation[:CARDS])
    top_plane = observation[2 * CARDS : 3 * CARDS]
    legal = np.flatnonzero(mask)
    rows = np.zeros((len(legal), FEATURES))
    now = deadwood(hand, rules) if len(hand) else 0
    for row, number in zip(rows, legal, strict=True):
        action = space.decode(int(number))
        kind = action.kind
        if kind is ActionKind.DRAW_STOCK or kind is ActionKind.DECLINE:
            row[0] = 1.0
        elif kind is ActionKind.DRAW_DISCARD:
            row[1] = 1.0
            top = _cards(top_plane)
            if top and len(hand):
                after, _ = best_discards(hand | top, rules, keep=top)
                row[2] = (now - after) / 10
        elif kind in (ActionKind.DISCARD, ActionKind.KNOCK):
            left = deadwood(hand - {action.card}, rules)
            row[3] = left / 50
            row[4] = action.card.points / 10
            if kind is ActionKind.KNOCK:
                row[5] = 1.0
                row[6] = float(left == 0)
        elif kind is ActionKind.MELD:
            row[7] = len(action.cards) / 10
        else:
            row[8] = 1.0
    return legal, rows


class FeaturePolicy:
    """Softmax over ``rows @ theta`` of the legal actions."""

    def __init__(self, rules: Rules, rng: np.random.Generator) -> None:
        self.rules = rules
        self.theta = np.zeros(FEATURES)
        self.rng = rng

    def _distribution(
        self, observation: np.ndarray, mask: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        legal, rows = action_features(self.rules, observation, mask)
        logits = rows @ self.theta
        weights = np.exp(logits - logits.max())
        return legal, rows, weights / weights.sum()

    def sample(self, observation: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        """An action and the gradient of its log-probability."""
        legal, rows, probabilities = self._distribution(observation, mask)
        pick = int(self.rng.choice(len(legal), p=probabilities))
        return int(legal[pick]), rows[pick] - probabilities @ rows


def play(
    env: RummyEnv, policy: FeaturePolicy, seed: int | None = None
) -> tuple[float, list[np.ndarray]]:
    """One episode: its return and the log-probability gradients of its actions."""
    observation, info = env.reset(seed=seed)
    gradients = []
    total, done = 0.0, False
    while not done:
        action, gradient = policy.sample(observation, info["action_mask"])
        gradients.append(gradient)
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    return total, gradients


def evaluate(policy: FeaturePolicy, env: RummyEnv, deals: int, seed: int) -> float:
    """Mean points over fixed deals with fixed random numbers, every deal counted
    (``play_deal``: one the opponents end before the policy acts is not dealt again)."""
    saved = policy.rng
    policy.rng = np.random.default_rng(seed)

    def choose(observation: np.ndarray, mask: np.ndarray) -> int:
        return policy.sample(observation, mask)[0]

    try:
        return float(np.mean([env.play_deal(choose, seed + i) for i in range(deals)]))
    finally:
        policy.rng = saved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="random", help="random, simple, medium or hard")
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="learning_curve.png")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    env = RummyEnv(args.rules, args.players, opponents=args.opponent, seed=args.seed)
    eval_env = RummyEnv(args.rules, args.players, opponents=args.opponent)
    policy = FeaturePolicy(env.rules, np.random.default_rng(args.seed))
    baseline, scale = 0.0, 1.0
    returns: list[float] = []
    curve = [(0, evaluate(policy, eval_env, args.eval_deals, 10**6))]
    print(f"episode 0 (uniform random): {curve[-1][1]:+.2f} points per deal", flush=True)
    for episode in range(1, args.episodes + 1):
        total, gradients = play(env, policy)
        returns.append(total)
        # Normalise the advantage by a running mean deviation: one rate suits every preset.
        scale = 0.99 * scale + 0.01 * abs(total - baseline)
        advantage = (total - baseline) / max(scale, 1e-6)
        policy.theta += args.rate * advantage * np.sum(gradients, axis=0)
        baseline = 0.99 * baseline + 0.01 * total
        if episode % args.eval_every == 0:
            curve.append((episode, evaluate(policy, eval_env, args.eval_deals, 10**6)))
            recent = float(np.mean(returns[-args.eval_every :]))
            print(
                f"episode {episode}: training {recent:+.2f}, "
                f"evaluation {curve[-1][1]:+.2f} points per deal",
                flush=True,
            )
    print("theta:", " ".join(f"{x:+.2f}" for x in policy.theta))

    figure, axis = plt.subplots(figsize=(7, 4))
    window = max(1, min(args.eval_every, len(returns)))
    moving = np.convolve(returns, np.ones(window) / window, mode="valid")
    axis.plot(
        np.arange(window, len(returns) + 1), moving, label=f"training ({window}-episode mean)"
    )
    episodes, scores = zip(*curve, strict=True)
    axis.plot(episodes, scores, marker="o", label=f"evaluation ({args.eval_deals} fixed deals)")
    axis.axhline(0.0, color="grey", linewidth=0.8)
    axis.set_xlabel("episodes")
    axis.set_ylabel("points per deal")
    axis.set_title(f"{args.rules}, {args.players} players, vs {args.opponent}")
    axis.legend()
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"wrote {args.out} ({time.perf_counter() - started:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
