"""The PPO examples run end to end for a few seconds and save weights the bot can play;
self-play on a local Ray instance learns exactly what the local run learns."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from pyrummy.nn.policy import PolicyWeights
from pyrummy.research.training import new_model

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, *args: str, home: Path | None = None) -> str:
    # A Ray run writes its auth token under the home folder: a test's own
    # (``home``) keeps it from the Ray heads of later tests.
    environment = dict(os.environ) if home is None else {**os.environ, "HOME": str(home)}
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
        env=environment,
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


def _weights_digest(stdout: str) -> str:
    (line,) = [line for line in stdout.splitlines() if line.startswith("weights sha256 ")]
    return line.split()[-1]


def test_selfplay_on_ray_learns_the_weights_of_the_local_run(tmp_path: Path) -> None:
    common = ["--rules", "gin", "--updates", "2", "--shards", "2", "--batch", "8"]
    common += ["--update-size", "128", "--eval", "random", "--eval-deals", "1"]
    here = _run("selfplay_ppo.py", *common, "--out", str(tmp_path / "here.npz"))
    on_ray = _run(
        "selfplay_ppo.py",
        *common,
        "--ray",
        "local",
        "--num-cpus",
        "2",
        "--out",
        str(tmp_path / "ray.npz"),
        home=tmp_path,
    )
    assert "update     2" in here and "update     2" in on_ray
    assert _weights_digest(here) == _weights_digest(on_ray)

    spec = importlib.util.spec_from_file_location(
        "selfplay_ppo", ROOT / "examples" / "selfplay_ppo.py"
    )
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    initial, _ = new_model("gin", 2, 1)
    assert _weights_digest(here) != example.digest(example.weights_of(initial)), (
        "PPO changed the weights"
    )
    saved = PolicyWeights.load(tmp_path / "ray.npz")
    assert saved.meta["shards"] == "2" and saved.meta["opponent"] == "self-play"
