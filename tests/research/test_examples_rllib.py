"""The RLlib example: its masked module only ever picks legal actions, and PPO runs end to end."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import torch

from pyrummy.research.pettingzoo import env as pettingzoo_env

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rllib_pettingzoo.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rllib_pettingzoo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _decisions(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of ``count`` decisions of random two-player gin."""
    environment = pettingzoo_env("gin", players=2, seed=5)
    environment.reset(seed=5)
    rng = np.random.default_rng(5)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    while len(masks) < count:
        if not environment.agents:
            environment.reset()
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        observations.append(observation["observation"])
        masks.append(observation["action_mask"])
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return np.stack(observations), np.stack(masks)


def test_the_masked_module_samples_and_chooses_only_legal_actions() -> None:
    example = _example()
    probe = example.make_env({"rules": "gin", "players": 2})
    agent = probe.possible_agents[0]
    module = example.MaskedPolicy(
        observation_space=probe.observation_spaces[agent],
        action_space=probe.action_spaces[agent],
        model_config={"hidden": 32},
    )
    observations, masks = _decisions(200)
    assert (masks.sum(axis=1) >= 2).any(), "some decisions have a choice"
    batch = {
        "obs": {
            "observation": torch.from_numpy(observations),
            "action_mask": torch.from_numpy(masks),
        }
    }
    with torch.no_grad():
        logits = module.forward_exploration(batch)["action_dist_inputs"]
        values = module.compute_values(batch)
    assert logits.shape == masks.shape and values.shape == (len(masks),)
    for _ in range(20):
        drawn = torch.multinomial(torch.softmax(logits, dim=1), 1)[:, 0].numpy()
        assert masks[np.arange(len(masks)), drawn].all()
    choose = example.greedy_policy(module)
    for observation, mask in zip(observations, masks, strict=True):
        assert mask[choose(observation, mask)] == 1


def test_rllib_ppo_trains_on_the_pettingzoo_environment(tmp_path: Path) -> None:
    out = tmp_path / "module.pt"
    result = subprocess.run(
        [
            sys.executable,
            str(EXAMPLE),
            "--rules",
            "knock",
            "--iterations",
            "2",
            "--batch",
            "256",
            "--minibatch",
            "128",
            "--envs",
            "4",
            "--num-cpus",
            "1",
            "--eval",
            "random,simple",
            "--eval-deals",
            "2",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        # Ray writes its auth token under the home folder: the test's own.
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "HOME": str(tmp_path)},
    )
    lines = result.stdout.splitlines()
    iterations = [line for line in lines if line.startswith("iteration")]
    assert len(iterations) == 2
    steps = [int(line.split()[4]) for line in iterations]
    assert steps[0] >= 256 and steps[1] >= steps[0] + 256
    assert any(line.startswith("duplicate vs random:") for line in lines)
    assert any(line.startswith("duplicate vs simple:") for line in lines)
    state = torch.load(out)
    assert {"logits.weight", "value.weight"} <= set(state)
    assert all(torch.isfinite(tensor).all() for tensor in state.values())
