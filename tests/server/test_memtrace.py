"""The memory trace of a soak (PYRUMMY_MEMORY_TRACE): off unless asked for;
when on, snapshots that load and the objects counted by type."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from pathlib import Path

import pytest

from pyrummy.server import memtrace


class Grown:
    """What the test keeps alive between two snapshots."""


def test_off_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(memtrace.TRACE_ENV, raising=False)

    async def run() -> None:
        assert memtrace.start_from_environment() is None

    asyncio.run(run())
    assert not tracemalloc.is_tracing()


def test_snapshots_load_and_count_what_grew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(memtrace.TRACE_ENV, str(tmp_path))
    kept: list[Grown] = []

    async def run() -> None:
        task = memtrace.start_from_environment()
        assert task is not None and tracemalloc.is_tracing()
        task.cancel()
        memtrace.write_snapshot(tmp_path, 60)
        kept.extend(Grown() for _ in range(5000))  # what grows between the two
        memtrace.write_snapshot(tmp_path, 120)

    try:
        asyncio.run(run())
    finally:
        tracemalloc.stop()
    first, second = (
        tracemalloc.Snapshot.load(str(p)) for p in sorted(tmp_path.glob("snapshot-*.bin"))
    )
    grew = sum(d.size_diff for d in second.compare_to(first, "filename"))
    assert grew > 5000 * 48  # an object each, at least
    before, after = (json.loads(p.read_text()) for p in sorted(tmp_path.glob("types-*.json")))
    name = f"{Grown.__module__}.{Grown.__qualname__}"
    assert after[name] - before.get(name, 0) == len(kept)
