"""The clairvoyant of benchmarks/bots_ceiling.py: the branch it takes is the true continuation."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_a_clairvoyant_knock_never_ends_a_pair_worse_than_the_bot_itself() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from bots import play_duplicate
        from bots_ceiling import play_pair
    finally:
        sys.path.remove(str(BENCHMARKS))
    options: dict[str, dict[str, object]] = {
        "hard": {"rollouts": 2},
        "medium": {"time_budget": None},
    }
    counts = [0, 0]
    for seed in range(3_000, 3_004):
        plain = play_pair("hard", "medium", "none", seed, options, 4, [0, 0])
        # The reference reproduces the panel's pair (same seeds, same players).
        assert plain == play_duplicate("hard", "medium", "knock", 1, seed, options, 4).nets[0]
        seen = play_pair("hard", "medium", "knock", seed, options, 4, counts)
        # Branches replay the true players exactly, so taking the better one cannot lose.
        assert seen >= plain
    assert counts[0] > 0 and counts[1] > 0  # knocks were branched, and some choices changed
