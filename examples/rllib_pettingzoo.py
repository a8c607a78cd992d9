"""RLlib PPO on the PettingZoo environment: every seat one shared policy, legal actions masked.

The PettingZoo AEC environment (:mod:`pyrummy.research.pettingzoo`) goes into
RLlib through its own wrapper (``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``),
on RLlib's new API stack. Every seat (``player_0``, ``player_1``, ...) maps to the
one module ``shared``, so the policy learns by playing itself. Each observation
is PettingZoo's ``{"observation": encoding v1, "action_mask": legal actions}``;
:class:`MaskedPolicy` reads the vector through a small MLP and gives the actions
the mask forbids a logit of ``FLOAT_MIN``, so neither sampling nor the greedy
choice ever picks an illegal action. After ``--iterations`` PPO iterations the
greedy policy plays duplicate deals against each ``--eval`` bot with
:func:`pyrummy.research.training.report_policy` (the same evaluation as the other
examples), and the module's weights are saved with ``--out``.

    python examples/rllib_pettingzoo.py --rules knock --minutes 25 --eval random,simple,medium
    python examples/rllib_pettingzoo.py --iterations 2 --batch 256 --eval-deals 5   # a smoke run

Needs ``pip install 'pyrummy[train,rllib]'``. RLlib starts a Ray instance in this
process (``--num-cpus``); ``--env-runners 0`` collects in the driver, which suits a
small machine, ``--env-runners N`` in N Ray actors.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

from pyrummy.research.pettingzoo import env as pettingzoo_env
from pyrummy.research.training import Policy, report_policy

ENV_NAME = "pyrummy_pettingzoo"
MODULE = "shared"


class MaskedPolicy(TorchRLModule, ValueFunctionAPI):  # type: ignore[misc]
    """An MLP policy and value head over PettingZoo's dict observation.

    The logits of the actions the ``action_mask`` forbids are ``FLOAT_MIN``, in
    every forward pass (exploration, inference and training alike), so PPO's
    ratios and entropy are over the legal actions only.
    """

    def setup(self) -> None:
        size = int(self.observation_space["observation"].shape[0])
        hidden = int(self.model_config.get("hidden", 256))
        self.body = torch.nn.Sequential(
            torch.nn.Linear(size, hidden),
            torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden),
            torch.nn.ReLU(),
        )
        self.logits = torch.nn.Linear(hidden, int(self.action_space.n))
        self.value = torch.nn.Linear(hidden, 1)

    def _masked(self, batch: dict[str, Any]) -> dict[str, Any]:
        observation = batch[Columns.OBS]
        hidden = self.body(observation["observation"].float())
        logits = self.logits(hidden).masked_fill(observation["action_mask"] == 0, FLOAT_MIN)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: hidden}

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(batch)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(batch)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None:
            embeddings = self.body(batch[Columns.OBS]["observation"].float())
        return self.value(embeddings).squeeze(-1)


def make_env(config: dict[str, Any]) -> PettingZooEnv:
    """The PettingZoo AEC environment of ``config`` in RLlib's wrapper."""
    return PettingZooEnv(
        pettingzoo_env(config["rules"], players=config["players"], seed=config.get("seed"))
    )


def build_config(args: argparse.Namespace) -> PPOConfig:
    """PPO on the wrapped environment: one shared, masked module for every seat."""
    probe = make_env({"rules": args.rules, "players": args.players})
    agent = probe.possible_agents[0]
    observation_space: gym.Space[Any] = probe.observation_spaces[agent]
    action_space: gym.Space[Any] = probe.action_spaces[agent]
    probe.close()
    module = RLModuleSpec(
        module_class=MaskedPolicy,
        observation_space=observation_space,
        action_space=action_space,
        model_config={"hidden": args.hidden},
    )
    return (
        PPOConfig()
        .environment(
            ENV_NAME,
            env_config={"rules": args.rules, "players": args.players, "seed": args.seed},
            # RLlib's check steps random, unmasked actions, which the environment refuses
            # (it passes PettingZoo's own api_test instead).
            disable_env_checking=True,
        )
        .multi_agent(
            policies={MODULE},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: MODULE,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE: module}))
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.envs,
            episodes_to_numpy=False,
        )
        .learners(num_learners=0)
        .training(
            lr=args.lr,
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(args.minibatch, args.batch),
            num_epochs=args.epochs,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=20)
    )


def greedy_policy(module: Any) -> Policy:
    """The module's most likely legal action, as the evaluation helpers play it."""

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        batch = {
            Columns.OBS: {
                "observation": torch.from_numpy(observation[None, :]),
                "action_mask": torch.from_numpy(mask[None, :]),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return int(logits[0].argmax())

    return choose


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=10_000, help="at most this many")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--minibatch", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--env-runners", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="environments per env runner")
    parser.add_argument("--num-cpus", type=int, default=2, help="CPUs of the Ray instance")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval", default="random,simple")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--out", help="save the module's weights (torch state dict) here")
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    ray.init(
        num_cpus=args.num_cpus,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
    )
    try:
        register_env(ENV_NAME, make_env)
        algorithm = build_config(args).build_algo()
        start = time.monotonic()
        deadline = start + args.minutes * 60
        iteration = 0
        while iteration < args.iterations and (iteration == 0 or time.monotonic() < deadline):
            result = algorithm.train()
            iteration += 1
            runners = result["env_runners"]
            steps = runners.get("num_env_steps_sampled_lifetime", 0)
            episodes = runners.get("num_episodes_lifetime", 0)
            print(
                f"iteration {iteration:4d}  env steps {int(steps):8d}  deals {int(episodes):6d}  "
                f"{time.monotonic() - start:6.0f} s",
                flush=True,
            )
        module = algorithm.get_module(MODULE)
        assert module is not None
        if args.out:
            torch.save(module.state_dict(), args.out)
            print(f"saved {args.out}")
        print(f"trained {iteration} iterations in {time.monotonic() - start:.0f} s", flush=True)
        policy = greedy_policy(module)
        for line in report_policy(policy, args.rules, args.players, args.eval, args.eval_deals):
            print(line, flush=True)
        algorithm.stop()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
