"""The PPO step stays finite whatever the rollout's length: a last minibatch of
one decision has no spread to normalise its advantage by."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pyrummy.research.gym import RummyEnv
from pyrummy.research.training import Decisions, PPOSettings, Rollout, new_model, ppo_update, sample


@pytest.mark.parametrize("decisions", [1, 3, 4])
def test_an_update_leaves_every_weight_finite(decisions: int) -> None:
    model, layout = new_model("knock", 2, seed=3)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    rollout = Rollout.empty()
    advantages = []
    for seed in range(decisions):
        env = RummyEnv("knock", 2, opponents="random")
        observation, info = env.reset(seed=seed)
        batch = Decisions.of(observation[None, :], info["action_mask"][None, :], layout)
        _, columns, logp, values = sample(model, batch)
        advantage = float(seed) - 1.0  # spread within every minibatch of two or more
        rollout.add(batch, 0, int(columns[0]), float(logp[0]), float(values[0]), advantage)
        advantages.append(advantage)
    before = [p.detach().clone() for p in model.parameters()]
    # Minibatches of two: three decisions leave a last minibatch of one.
    loss = ppo_update(
        model, optimizer, rollout, np.asarray(advantages, np.float32), PPOSettings(minibatch=2)
    )
    assert np.isfinite(loss)
    after = list(model.parameters())
    assert all(torch.isfinite(p).all() for p in after)
    assert any(not torch.equal(a, b) for a, b in zip(after, before, strict=True))
