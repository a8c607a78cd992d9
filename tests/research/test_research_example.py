"""The training example runs end to end with tiny sizes and writes its plot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_train_policy_example_writes_a_learning_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_policy.py"),
            "--episodes",
            "30",
            "--eval-every",
            "15",
            "--eval-deals",
            "5",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("episode 0 (uniform random): ")
    assert [line.split(":")[0] for line in lines[1:3]] == ["episode 15", "episode 30"]
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
