"""The event loop's lag probe, the GC pause timer, ``/api/health/loop`` and the
GC tuning of ``pyrummy serve`` (pyrummy.server.loopstats)."""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyrummy.cli.cmd_serve import settings_from
from pyrummy.cli.main import build_parser
from pyrummy.core.errors import RummyError
from pyrummy.server.loopstats import (
    REFREEZE_THAW_EVERY,
    GcPauses,
    LagProbe,
    Refreezer,
    gc_thresholds_from_env,
    refreeze_from_env,
)
from pyrummy.server.settings import GC_REFREEZE_ENV, GC_THRESHOLDS_ENV, TUNED_THRESHOLDS
from server_helpers import app_client

BLOCK = 0.15


def test_the_probe_sees_a_blocked_loop_as_lag() -> None:
    """A blocking call inside the loop delays the probe's wake-up by at least its length."""
    probe = LagProbe(interval=0.01)

    async def block_the_loop() -> None:
        probe.start()
        await asyncio.sleep(0.05)  # a few normal wake-ups first
        time.sleep(BLOCK)  # what a long GC pause or a slow callback does to every table
        await asyncio.sleep(0.05)
        await probe.stop()

    asyncio.run(block_the_loop())
    figures = probe.snapshot(window=60)
    # The wake-up came after the block ended; its sleep began before the block.
    assert figures["max_ms"] >= (BLOCK - probe.interval) * 1000
    assert figures["max_ever_ms"] == figures["max_ms"]
    assert figures["wakeups"] >= 3 and figures["in_window"] == figures["wakeups"]
    # One late wake-up among several: the median is not the stall.
    assert figures["p50_ms"] < figures["max_ms"]


def test_the_window_leaves_out_old_wakeups() -> None:
    probe = LagProbe()
    probe.record(0.5, at=time.monotonic() - 100)
    probe.record(0.002)
    figures = probe.snapshot(window=10)
    assert figures["in_window"] == 1 and figures["max_ms"] == 2.0
    assert figures["max_ever_ms"] == 500.0
    assert probe.snapshot(window=200)["max_ms"] == 500.0


def test_gc_callbacks_time_every_forced_collection() -> None:
    pauses = GcPauses()
    pauses.install()
    try:
        gc.collect()  # the oldest generation
        gc.collect(0)
        gc.collect(0)
    finally:
        pauses.uninstall()
    oldest, youngest = pauses.generations[2], pauses.generations[0]
    assert oldest.count >= 1 and youngest.count >= 2
    assert oldest.total > 0 and oldest.longest <= oldest.total
    assert oldest.cpu > 0  # a collection is work of this thread, not only waiting
    figures = pauses.snapshot(window=60)["generations"]
    assert figures[2]["in_window"] == oldest.count and figures[2]["max_ms"] > 0
    # Uninstalled: the next collection is not counted.
    counted = oldest.count
    gc.collect()
    assert oldest.count == counted
    assert pauses._callback not in gc.callbacks


def test_loop_endpoint_and_health_summary(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.get("/api/presets")
        gc.collect()  # the app's GC timer is installed while it runs
        loop = client.get("/api/health/loop", params={"window": 30})
        assert loop.status_code == 200, loop.text
        body = loop.json()
        assert set(body) == {"pid", "lag", "gc"}
        assert body["pid"] == os.getpid()  # the process that answered (workers differ)
        assert body["lag"]["window_s"] == 30
        assert {"p50_ms", "p99_ms", "max_ms", "max_ever_ms", "wakeups"} <= set(body["lag"])
        generations = body["gc"]["generations"]
        assert len(generations) == 3 and generations[2]["count"] >= 1
        assert {"count", "total_ms", "cpu_ms", "max_ms", "max_ever_ms"} <= set(generations[0])
        assert body["gc"]["thresholds"] == list(gc.get_threshold())
        health = client.get("/api/health").json()
        assert set(health["loop"]) == {"lag_p99_ms", "lag_max_ms", "gc_max_ms"}
        assert health["loop"]["gc_max_ms"] > 0
        for window in ("0", "301", "soon"):
            refused = client.get("/api/health/loop", params={"window": window})
            assert refused.status_code == 400 or refused.status_code == 422, refused.text
    # Stopped with the app: no callback left behind in the test process.
    assert not [c for c in gc.callbacks if getattr(c, "__qualname__", "") == "GcPauses._callback"]


@pytest.fixture
def restored_gc() -> Iterator[None]:
    """tune_gc changes the test process's collector: put it back."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored_gc")
def test_tune_gc_freezes_and_sets_the_thresholds_at_start(tmp_path: Path) -> None:
    with app_client(tmp_path, tune_gc=True, gc_thresholds=(5000, 7, 9)) as client:
        assert gc.get_threshold() == (5000, 7, 9)
        assert gc.get_freeze_count() > 0
        assert client.get("/api/health/loop").json()["gc"]["thresholds"] == [5000, 7, 9]


def test_without_tune_gc_the_collector_is_left_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    with app_client(tmp_path):
        assert gc.get_threshold() == before


@pytest.mark.parametrize(
    ("text", "expected"),
    [(None, TUNED_THRESHOLDS), ("", TUNED_THRESHOLDS), ("700,10,10", (700, 10, 10))],
)
def test_gc_thresholds_from_the_environment(
    text: str | None, expected: tuple[int, int, int]
) -> None:
    environ = {} if text is None else {GC_THRESHOLDS_ENV: text}
    assert gc_thresholds_from_env(environ) == expected


@pytest.mark.parametrize("text", ["a,b,c", "1000,10", "1000,10,10,10", "0,5,10", "-1,5,5", "1,0,1"])
def test_bad_gc_thresholds_are_refused_with_the_reason(text: str) -> None:
    with pytest.raises(ValueError, match=GC_THRESHOLDS_ENV):
        gc_thresholds_from_env({GC_THRESHOLDS_ENV: text})


def test_serve_tunes_gc_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GC_THRESHOLDS_ENV, raising=False)
    tuned = settings_from(build_parser().parse_args(["serve"]))
    assert tuned.tune_gc is True and tuned.gc_thresholds == TUNED_THRESHOLDS
    assert settings_from(build_parser().parse_args(["serve", "--no-tune-gc"])).tune_gc is False
    monkeypatch.setenv(GC_THRESHOLDS_ENV, "2000,10,10")
    assert settings_from(build_parser().parse_args(["serve"])).gc_thresholds == (2000, 10, 10)
    monkeypatch.setenv(GC_THRESHOLDS_ENV, "lots")
    with pytest.raises(RummyError, match=GC_THRESHOLDS_ENV):
        settings_from(build_parser().parse_args(["serve"]))


class Cycle:
    """A container in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.usefixtures("restored_gc")
def test_refreezer_freezes_what_survives_each_collection() -> None:
    async def main() -> tuple[int, int]:
        refreezer = Refreezer(thaw_every=3600)
        refreezer.install()
        try:
            gc.unfreeze()
            survivors = [[i] for i in range(1000)]  # young, tracked, alive
            gc.collect(0)
            await asyncio.sleep(0)  # the freeze happens in the loop, not in the collection
            frozen = gc.get_freeze_count()
            del survivors
            return frozen, refreezer.freezes
        finally:
            refreezer.uninstall()

    frozen, freezes = asyncio.run(main())
    assert freezes == 1 and frozen >= 1000


@pytest.mark.usefixtures("restored_gc")
def test_refreezer_thaws_collects_and_freezes_again_when_due() -> None:
    gc.unfreeze()
    refreezer = Refreezer(thaw_every=60)
    Cycle()
    refreezer.refreeze(now=refreezer._thawed_at + 1)  # not due: the cycle is frozen with the rest
    assert refreezer.thaws == 0
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())  # frozen: out of view
    refreezer.refreeze(now=refreezer._thawed_at + 61)
    assert refreezer.thaws == 1 and refreezer.freezes == 2
    gc.unfreeze()
    # The thaw's collection freed the frozen garbage cycle.
    assert not any(isinstance(o, Cycle) for o in gc.get_objects())


@pytest.mark.parametrize(
    ("text", "expected"),
    [(None, REFREEZE_THAW_EVERY), ("", REFREEZE_THAW_EVERY), ("0", 0.0), ("1800", 1800.0)],
)
def test_refreeze_from_the_environment(text: str | None, expected: float) -> None:
    environ = {} if text is None else {GC_REFREEZE_ENV: text}
    assert refreeze_from_env(environ) == expected


@pytest.mark.parametrize("text", ["soon", "-1", "86401", "nan"])
def test_bad_refreeze_is_refused_with_the_reason(text: str) -> None:
    with pytest.raises(ValueError, match=GC_REFREEZE_ENV):
        refreeze_from_env({GC_REFREEZE_ENV: text})


@pytest.mark.usefixtures("restored_gc")
def test_serve_refreezes_only_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GC_REFREEZE_ENV, raising=False)
    assert settings_from(build_parser().parse_args(["serve"])).gc_refreeze == 0
    monkeypatch.setenv(GC_REFREEZE_ENV, "600")
    assert settings_from(build_parser().parse_args(["serve"])).gc_refreeze == 600
    monkeypatch.delenv(GC_REFREEZE_ENV)  # an app reads its settings from the environment too
    with app_client(tmp_path, tune_gc=True):
        assert not any(
            getattr(c, "__qualname__", "") == "Refreezer._callback" for c in gc.callbacks
        )
    with app_client(tmp_path, tune_gc=True, gc_refreeze=600.0):
        assert any(getattr(c, "__qualname__", "") == "Refreezer._callback" for c in gc.callbacks)
    assert not [c for c in gc.callbacks if getattr(c, "__qualname__", "") == "Refreezer._callback"]
