"""Training the learned policy in PyTorch (the ``train`` extra).

:class:`ActionScorer` is the network of :class:`~pyrummy.nn.policy.PolicyWeights`
in PyTorch, with export to and import from the numpy weights; :class:`Decisions`
holds decisions ready for the network (padded to the widest legal set);
:func:`ppo_update` is the clipped PPO step; :func:`evaluate` plays duplicate
deals greedily against a bot (:func:`evaluate_policy` any :data:`Policy`, such as
an RLlib module's). The examples ``examples/train_ppo.py`` (one
learner against a fixed bot) and ``examples/selfplay_ppo.py`` (self-play on the
batched environment) are built from these.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from pyrummy.bots.base import Bot
from pyrummy.nn.features import ACTION_FEATURES, Layout, action_features, state_features
from pyrummy.nn.policy import PolicyWeights

#: Deal points are divided by this to make rewards of order one.
REWARD_SCALE = 30.0

_LAYERS = {
    "state": ("state_w", "state_b"),
    "action": ("action_w", "action_b"),
    "score": ("score_w", "score_b"),
    "value_hidden": ("value_w", "value_b"),
    "value_out": ("value_out_w", "value_out_b"),
}


class ActionScorer(nn.Module):
    """Scores each legal action from the state and the action's features; a value head."""

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
        """``(scores (B, K), values (B,))``; invalid (padding) actions score -1e9."""
        hidden = torch.relu(self.state(state))
        width = actions.shape[1]
        joined = torch.cat([hidden[:, None, :].expand(-1, width, -1), actions], dim=2)
        scores = self.score(torch.relu(self.action(joined)))[..., 0]
        scores = scores.masked_fill(~valid, -1e9)
        value = self.value_out(torch.relu(self.value_hidden(hidden)))[:, 0]
        return scores, value

    def export(self, meta: dict[str, str]) -> PolicyWeights:
        """The numpy weights of this network."""
        arrays = {}
        for layer, (weight, bias) in _LAYERS.items():
            linear: nn.Linear = getattr(self, layer)
            arrays[weight] = linear.weight.detach().cpu().numpy().astype(np.float32)
            arrays[bias] = linear.bias.detach().cpu().numpy().astype(np.float32)
        return PolicyWeights(arrays, meta)

    def load(self, weights: PolicyWeights) -> None:
        """Take the numpy weights (as saved: float16 becomes float32)."""
        with torch.no_grad():
            for layer, (weight, bias) in _LAYERS.items():
                linear: nn.Linear = getattr(self, layer)
                linear.weight.copy_(torch.from_numpy(weights.arrays[weight].astype(np.float32)))
                linear.bias.copy_(torch.from_numpy(weights.arrays[bias].astype(np.float32)))


def new_model(
    rules: str, players: int, seed: int, init: str | None = None
) -> tuple[ActionScorer, Layout]:
    """A seeded network for ``rules`` and ``players`` (one CPU thread), started from
    the weights file ``init`` if given, and the layout its features read."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    layout = Layout.of(rules, players)
    model = ActionScorer(layout.state_size)
    if init:
        model.load(PolicyWeights.load(init))
    return model, layout


def pad(arrays: Sequence[npt.NDArray[np.generic]], width: int) -> npt.NDArray[np.generic]:
    """Stack ``(K_i, ...)`` arrays into ``(N, width, ...)``, zero-padded."""
    first = arrays[0]
    out = np.zeros((len(arrays), width, *first.shape[1:]), first.dtype)
    for i, array in enumerate(arrays):
        out[i, : len(array)] = array[:width]
    return out


@dataclass
class Decisions:
    """Decisions as the network reads them: state rows, per-action features, legal ids."""

    state: npt.NDArray[np.float32]
    actions: npt.NDArray[np.float32]
    ids: npt.NDArray[np.int64]
    valid: npt.NDArray[np.bool_]

    @staticmethod
    def of(
        observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8], layout: Layout
    ) -> Decisions:
        actions, ids, valid = action_features(observations, masks, layout)
        return Decisions(state_features(observations, layout), actions, ids, valid)

    def tensors(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return (
            torch.from_numpy(self.state),
            torch.from_numpy(self.actions),
            torch.from_numpy(self.valid),
        )


def sample(
    model: ActionScorer,
    decisions: Decisions,
    greedy: bool = False,
    generator: torch.Generator | None = None,
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float32], npt.NDArray[np.float32]
]:
    """``(action ids, chosen columns, log-probabilities, values)`` for each decision.

    Choices are drawn from ``generator`` when given (a collector with its own
    random stream, independent of the process's), else from torch's global one.
    """
    with torch.no_grad():
        scores, values = model(*decisions.tensors())
        if greedy:
            column = scores.argmax(dim=1)
        elif generator is not None:
            probabilities = torch.softmax(scores, dim=1)
            column = torch.multinomial(probabilities, 1, generator=generator)[:, 0]
        else:
            column = torch.distributions.Categorical(logits=scores).sample()  # type: ignore[no-untyped-call]
        logp = torch.log_softmax(scores, dim=1).gather(1, column[:, None])[:, 0]
    columns = column.numpy().astype(np.int64)
    ids = decisions.ids[np.arange(len(columns)), columns]
    return ids, columns, logp.numpy(), values.numpy()


@dataclass
class Rollout:
    """Decisions to learn from, with what was chosen and what it led to."""

    state: list[npt.NDArray[np.float32]]
    actions: list[npt.NDArray[np.float32]]
    valid: list[npt.NDArray[np.bool_]]
    columns: list[int]
    logp: list[float]
    values: list[float]
    returns: list[float]

    @staticmethod
    def empty() -> Rollout:
        return Rollout([], [], [], [], [], [], [])

    def add(
        self, decisions: Decisions, row: int, column: int, logp: float, value: float, ret: float
    ) -> None:
        count = int(decisions.valid[row].sum())
        self.state.append(decisions.state[row])
        self.actions.append(decisions.actions[row, :count])
        self.valid.append(decisions.valid[row, :count])
        self.columns.append(column)
        self.logp.append(logp)
        self.values.append(value)
        self.returns.append(ret)

    def extend(self, other: Rollout) -> None:
        """Append ``other``'s decisions, in order."""
        self.state.extend(other.state)
        self.actions.extend(other.actions)
        self.valid.extend(other.valid)
        self.columns.extend(other.columns)
        self.logp.extend(other.logp)
        self.values.extend(other.values)
        self.returns.extend(other.returns)

    def __len__(self) -> int:
        return len(self.columns)


@dataclass(frozen=True)
class PPOSettings:
    """The PPO step's hyper-parameters (CleanRL's defaults where they fit)."""

    epochs: int = 4
    minibatch: int = 512
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    max_grad_norm: float = 0.5


def ppo_update(
    model: ActionScorer,
    optimizer: torch.optim.Optimizer,
    rollout: Rollout,
    advantages: npt.NDArray[np.float32],
    settings: PPOSettings,
) -> float:
    """Clipped-objective PPO epochs over ``rollout``; returns the last loss."""
    width = max(len(v) for v in rollout.valid)
    state = torch.from_numpy(np.stack(rollout.state))
    actions = torch.from_numpy(pad(rollout.actions, width).astype(np.float32))
    valid = torch.from_numpy(pad(rollout.valid, width).astype(np.bool_))
    columns = torch.tensor(rollout.columns)
    old_logp = torch.tensor(rollout.logp)
    returns = torch.tensor(rollout.returns, dtype=torch.float32)
    advantage = torch.from_numpy(advantages.astype(np.float32))
    total = len(rollout)
    last = 0.0
    for _ in range(settings.epochs):
        order = torch.randperm(total)
        for first in range(0, total, settings.minibatch):
            idx = order[first : first + settings.minibatch]
            scores, value = model(state[idx], actions[idx], valid[idx])
            log_probs = torch.log_softmax(scores, dim=1)
            logp = log_probs.gather(1, columns[idx][:, None])[:, 0]
            probs = log_probs.exp()
            entropy = -(probs * log_probs.clamp(min=-30)).sum(dim=1).mean()
            ratio = torch.exp(logp - old_logp[idx])
            adv = advantage[idx] - advantage[idx].mean()
            if len(idx) > 1:
                # Normalised per minibatch; a last minibatch of one decision
                # (a rollout of 512k + 1) has no spread, and its std is NaN.
                adv = adv / (adv.std() + 1e-8)
            clipped = torch.clamp(ratio, 1 - settings.clip, 1 + settings.clip)
            policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
            value_loss = ((value - returns[idx]) ** 2).mean()
            loss = policy_loss + settings.value_weight * value_loss - settings.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), settings.max_grad_norm)
            optimizer.step()
            last = float(loss.detach())
    return last


def interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    array = np.asarray(values, np.float64)
    if len(array) < 2:
        return float(array.mean()) if len(array) else float("nan"), float("nan")
    return float(array.mean()), float(1.96 * array.std(ddof=1) / math.sqrt(len(array)))


#: A policy as the evaluation plays it: the observation vector (encoding v1) and the
#: action mask of one decision in, the chosen action number out.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def greedy(model: ActionScorer, layout: Layout) -> Policy:
    """The network's best-scored legal action, as a :data:`Policy`."""

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        decisions = Decisions.of(observation[None, :], mask[None, :], layout)
        ids, _, _, _ = sample(model, decisions, greedy=True)
        return int(ids[0])

    return choose


def evaluate_policy(
    policy: Policy, rules: str, players: int, opponent: str | Bot, deals: int, seed: int
) -> tuple[float, float]:
    """``policy`` against ``opponent`` in duplicate (each deal from every seat):
    the mean points per deal and the 95% half-width, over deals. An illegal
    action raises :class:`~pyrummy.core.errors.IllegalActionError`.

    Deal ``i`` is the first deal of ``RummyEnv(seat=s).reset(seed=seed + i)``
    for every seat ``s``, played whole by :meth:`~pyrummy.research.gym.RummyEnv.play_deal`:
    a deal the opponents end before the policy's first decision counts. (The
    environment's ``reset`` deals those again, which is right for learning but
    would drop the opponents' quickest wins from a measurement and unpair the
    duplicate.)
    """
    from pyrummy.research.gym import RummyEnv

    per_deal = []
    for deal in range(deals):
        total = 0.0
        for seat in range(players):
            env = RummyEnv(rules, players, opponents=opponent, seat=seat, illegal_action="raise")
            total += env.play_deal(policy, seed=seed + deal)
        per_deal.append(total / players)
    return interval(per_deal)


def evaluate(
    model: ActionScorer, rules: str, players: int, opponent: str | Bot, deals: int, seed: int
) -> tuple[float, float]:
    """The network's greedy play against ``opponent`` (:func:`evaluate_policy`)."""
    policy = greedy(model, Layout.of(rules, players))
    return evaluate_policy(policy, rules, players, opponent, deals, seed)


#: The seed of the evaluation deals :func:`report` plays (deal ``i`` is ``EVAL_SEED + i``).
EVAL_SEED = 777_000


def report_policy(
    policy: Policy, rules: str, players: int, opponents: str, deals: int
) -> list[str]:
    """One line per bot of ``opponents`` (comma separated): ``policy``'s duplicate
    result against it over ``deals`` deals (fixed seeds)."""
    lines = []
    for opponent in [name for name in opponents.split(",") if name]:
        mean, half = evaluate_policy(policy, rules, players, opponent, deals, EVAL_SEED)
        lines.append(
            f"duplicate vs {opponent}: {mean:+.2f} ± {half:.2f} points per deal ({deals} deals)"
        )
    return lines


def report(model: ActionScorer, rules: str, players: int, opponents: str, deals: int) -> list[str]:
    """:func:`report_policy` for the network's greedy play."""
    return report_policy(greedy(model, Layout.of(rules, players)), rules, players, opponents, deals)
