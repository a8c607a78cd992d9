"""The arena and the tournament on a Ray cluster give the local run's results.

A Ray head is started for this module (``ray start --head --block`` on a
free port, one CPU, in its own session) and stopped after it: the head's
process group and every process of its session, by their ids.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyrummy.arena import ArenaConfig, comparable, read_results, run_arena
from pyrummy.cli.main import main
from pyrummy.tournament import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]
JS_BOT = f"cmd:node {ROOT / 'examples' / 'arena_bot.js'}"
START_LIMIT = 90.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _session_members(session: int) -> list[int]:
    """Process ids whose session is ``session`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == session:  # after ")": state, ppid, pgrp, session
            found.append(int(entry))
    return found


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import ray

    port = _free_port()
    ray_command = str(Path(sys.executable).with_name("ray"))
    # Token authentication is Ray's default once ~/.ray/auth_token exists (any local
    # ray.init writes one); the head and this driver must agree, so both run without
    # it: the head listens on this machine only for this module.
    driver_environment = pytest.MonkeyPatch()
    driver_environment.setenv("RAY_AUTH_MODE", "disabled")
    environment = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    # The workers import pyrummy as this process does (an installed or a source tree).
    environment["PYTHONPATH"] = os.pathsep.join(
        str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir()
    )
    head = subprocess.Popen(
        [
            ray_command,
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--num-cpus=1",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={tmp_path_factory.mktemp('ray')}",
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    started = time.monotonic()
    try:
        while True:
            try:
                ray.init(address=address, log_to_driver=False, include_dashboard=False)
                break
            except (ConnectionError, RuntimeError):
                if head.poll() is not None or time.monotonic() - started > START_LIMIT:
                    raise
                time.sleep(0.5)
        yield address
    finally:
        ray.shutdown()
        driver_environment.undo()
        for pid in _session_members(head.pid):
            with contextlib.suppress(ProcessLookupError):  # gone already
                os.kill(pid, signal.SIGKILL)
        head.wait()


def test_the_arena_on_ray_equals_the_local_run(ray_head: str, tmp_path: Path) -> None:
    entrants = ("simple", "random", JS_BOT)
    config = ArenaConfig(game="gin", entrants=entrants, decks=2, seed=21)
    local = run_arena(config, None)
    results = tmp_path / "ray.jsonl"
    status = main(
        [
            "arena",
            "--game",
            "gin",
            "--bot",
            "simple",
            "--bot",
            "random",
            "--bot",
            JS_BOT,
            "--decks",
            "2",
            "--seed",
            "21",
            "--time-limit",
            "5",
            "--results",
            str(results),
            "--ray",
            ray_head,
        ]
    )
    assert status == 0
    on_ray = read_results(results).records
    key = lambda record: (record["deck"], record["pair"])  # noqa: E731
    assert sorted(map(comparable, on_ray), key=key) == sorted(map(comparable, local), key=key)


def test_the_tournament_on_ray_equals_the_local_run(ray_head: str) -> None:
    config = TournamentConfig("knock", ("medium", "simple", "random"), decks=3, seed=8)
    local = run_tournament(config)
    on_ray = run_tournament(config, ray_address=ray_head)
    assert on_ray.to_dict() == local.to_dict()
