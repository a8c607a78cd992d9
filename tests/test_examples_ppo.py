"""The PPO examples run end to end for a few seconds and save weights the bot can play."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from pyrummy.nn.policy import PolicyWeights

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return result.stdout


def test_train_ppo_against_a_bot_with_imitation(tmp_path: Path) -> None:
    out = tmp_path / "knock.npz"
    stdout = _run(
        "train_ppo.py",
        "--minutes",
        "0.02",
        "--envs",
        "8",
        "--steps",
        "8",
        "--imitate",
        "simple",
        "--imitate-decisions",
        "200",
        "--imitate-epochs",
        "2",
        "--eval",
        "random",
        "--eval-deals",
        "3",
        "--out",
        str(out),
    )
    assert "imitating simple: 200 decisions" in stdout
    assert "duplicate vs random:" in stdout
    weights = PolicyWeights.load(out)
    assert weights.meta["rules"] == "knock" and weights.meta["imitate"] == "simple"
    assert all(np.isfinite(a).all() for a in weights.arrays.values())


def test_selfplay_ppo_on_the_batched_environment(tmp_path: Path) -> None:
    out = tmp_path / "gin.npz"
    stdout = _run(
        "selfplay_ppo.py",
        "--rules",
        "gin",
        "--minutes",
        "0.01",
        "--batch",
        "16",
        "--update-size",
        "256",
        "--eval",
        "random",
        "--eval-deals",
        "2",
        "--out",
        str(out),
    )
    assert "saved" in stdout and "duplicate vs random:" in stdout
    assert PolicyWeights.load(out).meta["opponent"] == "self-play"
