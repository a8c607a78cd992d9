"""benchmarks/load.py: its pieces, and one tiny bounded run against a real server.

The figures of a load run are benchmarks (benchmarks/README.md), not tests;
here only that the generator plays legal games, measures what it says, stays
on loopback and stops by itself.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pyrummy.core.match import new_match
from pyrummy.core.rules import find_rules

ROOT = Path(__file__).resolve().parents[2]


def _load_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


load = _load_module("pyrummy_load", ROOT / "benchmarks" / "load.py")


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert load.percentile(values, 50) == 50.0
    assert load.percentile(values, 99) == 99.0
    assert load.percentile(values, 100) == 100.0
    assert load.percentile([7.0], 99) == 7.0
    assert load.percentile([1.0, 2.0, 3.0, 1000.0], 50) == 2.0


def _loop_answer(pid: int, count: int, total_ms: float, in_window: int) -> dict[str, object]:
    generation = {
        "count": count,
        "total_ms": total_ms,
        "cpu_ms": total_ms,
        "in_window": in_window,
        "max_ms": 9.0,
    }
    return {
        "pid": pid,
        "lag": {"p50_ms": 0.0, "p99_ms": 1.0, "max_ms": 2.0, "window_s": 60.0},
        "gc": {"generations": [generation] * 3, "thresholds": [10000, 5, 10], "frozen": 1},
    }


def test_gc_counters_are_subtracted_only_within_one_process() -> None:
    same = load.loop_figures(_loop_answer(7, 10, 100.0, 3), _loop_answer(7, 14, 160.0, 4))
    assert same["gc"][0] == {"count": 4, "total_ms": 60.0, "cpu_ms": 60.0, "max_ms": 9.0}
    # Two workers answered: a difference could be negative; the end's window is reported.
    other = load.loop_figures(_loop_answer(7, 30, 900.0, 3), _loop_answer(8, 14, 160.0, 4))
    assert other["gc"][0] == {"count": 4, "total_ms": None, "cpu_ms": None, "max_ms": 9.0}


@pytest.mark.parametrize(
    "url", ["http://10.0.0.1:8000", "http://example.org", "http://192.168.1.2", "http://[::2]:80"]
)
def test_only_loopback_servers_are_driven(url: str) -> None:
    with pytest.raises(SystemExit, match="loopback"):
        load.require_loopback(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000", "http://localhost:1", "http://[::1]:9"])
def test_loopback_servers_are_accepted(url: str) -> None:
    load.require_loopback(url)


def test_bounds_are_enforced() -> None:
    with pytest.raises(SystemExit):
        load.parse_args(["--tables", str(load.MAX_TABLES + 1)])
    with pytest.raises(SystemExit):
        load.parse_args(["--duration", str(load.MAX_DURATION + 1)])
    with pytest.raises(SystemExit):
        load.parse_args(["--think", "-1"])


def test_usage_counts_this_process_cpu_and_rss() -> None:
    before = load.usage_of(os.getpid())
    sum(i * i for i in range(300_000))
    after = load.usage_of(os.getpid())
    assert after.cpu_seconds >= before.cpu_seconds
    assert after.rss_bytes > 10 * 2**20 and after.processes >= 1
    # The split adds up to the whole (user: Python; system: the kernel).
    assert after.cpu_user + after.cpu_system == pytest.approx(after.cpu_seconds)
    assert after.cpu_user > 0


def test_the_person_plays_only_legal_actions_and_finishes_matches() -> None:
    rng = random.Random(4)
    for seed in range(3):
        match = new_match(find_rules("knock"), players=3, seed=seed)
        for _ in range(2000):
            if match.is_over:
                break
            legal = [str(a) for a in match.legal_actions()]
            state: dict[str, Any] = {
                "legal_actions": legal,
                "knock_deadwood": {},
                "arrangement": None,
            }
            action = load.choose_action(state, rng)
            assert action in legal
            match.apply(action)
        assert match.is_over


@pytest.mark.slow
@pytest.mark.parametrize("act_over", ["http", "ws"])
def test_a_tiny_bounded_run_plays_and_reports(tmp_path: Path, act_over: str) -> None:
    out = tmp_path / "load.json"
    status = load.main(
        [
            "--tables", "2", "--think", "0.05", "--bot-delay", "0.05", "--ramp", "0.5",
            "--warmup", "1", "--duration", "3", "--json", str(out), "--act-over", act_over,
        ]
    )  # fmt: skip
    result = json.loads(out.read_text())
    assert status == 0 and result["errors"] == 0, result["error_examples"]
    assert result["human_actions"] > 5
    # Over the socket the first figure is the ack's, and no POST was timed.
    first, other = ("ack_ms", "http_ms") if act_over == "ws" else ("http_ms", "ack_ms")
    assert result[first]["n"] == result["human_actions"] and result[other]["n"] == 0
    # Every person's action was seen back on the WebSocket, after its reply began.
    assert result["ws_ms"]["n"] >= result["human_actions"] - 2
    assert result["actions"] > result["human_actions"]  # the bots played too
    assert result["server_cpu_ms_per_action"] > 0
    assert result["server_rss_mib"]["end"] > 10


@pytest.mark.slow
@pytest.mark.parametrize("stub", ["fastapi", "asgi"])
def test_the_floor_stub_answers_as_the_server_with_events_of_the_given_size(
    tmp_path: Path, stub: str
) -> None:
    out = tmp_path / "floor.json"
    status = load.main(
        [
            "--tables", "3", "--think", "0.05", "--bot-delay", "0.05", "--ramp", "0.5",
            "--warmup", "1", "--duration", "3", "--json", str(out), "--act-over", "ws",
            "--against-stub", stub, "--event-chars", "1500",
        ]
    )  # fmt: skip
    result = json.loads(out.read_text())
    assert status == 0 and result["errors"] == 0, result["error_examples"]
    assert result["human_actions"] > 5
    # Every event is padded to the size asked for, and every move was acknowledged.
    assert result["event_chars_mean"] == 1500
    assert result["ack_ms"]["n"] == result["human_actions"]
    # The person's two moves, then the two bots' four: a third of the events.
    assert result["human_actions"] / result["actions"] == pytest.approx(1 / 3, abs=0.1)
    user, system = result["server_cpu_user_system_ms_per_action"]
    assert user + system == pytest.approx(result["server_cpu_ms_per_action"], abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite", "sqlite-inline"])
def test_the_floor_stub_stores_each_move_before_its_event(tmp_path: Path, store: str) -> None:
    out = tmp_path / "floor.json"
    status = load.main(
        [
            "--tables", "3", "--think", "0.05", "--bot-delay", "0.05", "--ramp", "0.5",
            "--warmup", "1", "--duration", "3", "--json", str(out), "--act-over", "ws",
            "--against-stub", "fastapi", "--event-chars", "1500", "--stub-store", store,
        ]
    )  # fmt: skip
    result = json.loads(out.read_text())
    assert status == 0 and result["errors"] == 0, result["error_examples"]
    assert result["human_actions"] > 5
    assert result["ack_ms"]["n"] == result["human_actions"]


@pytest.mark.parametrize("inline", [False, True])
def test_the_stub_store_writes_the_server_s_rows(tmp_path: Path, inline: bool) -> None:
    import asyncio
    import sqlite3

    stub = _load_module("pyrummy_ws_stub", ROOT / "benchmarks" / "ws_stub.py")

    async def play() -> None:
        store = stub.StubStore(tmp_path, inline)
        await store.create("t1")
        for seq, text in enumerate(["draw stock", "discard 5D"], start=1):
            await store.append("t1", seq, seq % 2, text)
        if not inline:
            await store.writer.close()

    asyncio.run(play())
    with sqlite3.connect(tmp_path / "stub.sqlite3") as connection:
        rows = connection.execute("SELECT table_id, seq, seat, text FROM actions ORDER BY seq")
        assert rows.fetchall() == [("t1", 1, 1, "draw stock"), ("t1", 2, 0, "discard 5D")]
        status = connection.execute("SELECT status FROM tables WHERE id = 't1'").fetchone()
    assert status == ("live",)


def test_quick_people_are_shared_out_in_whole_tables() -> None:
    args = load.parse_args(["--quick", "400"])
    people = load.quick_people(args)
    assert sorted(set(people)) == [("gin", 2), ("knock", 4)]
    assert people.count(("gin", 2)) == 200 and people.count(("knock", 4)) == 200
    # Joined in a mixed order, not one game after the other.
    assert set(people[:20]) == {("gin", 2), ("knock", 4)}
    mixed = load.parse_args(["--quick", "24", "--quick-mix", "gin:2=1,knock:4=2"])
    assert load.quick_people(mixed).count(("gin", 2)) == 8


@pytest.mark.parametrize(
    "argv",
    [
        ["--quick", "6"],  # 3 for Gin (a table short), 3 for Knock
        ["--quick", "8", "--quick-mix", "gin"],
        ["--quick", str(load.MAX_TABLES + 1)],
    ],
)
def test_a_quick_run_that_would_leave_someone_unseated_is_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        load.parse_args(argv)


@pytest.mark.slow
def test_a_tiny_quick_match_run_seats_everyone_and_plays(tmp_path: Path) -> None:
    out = tmp_path / "quick.json"
    status = load.main(
        [
            "--quick", "8", "--think", "0.05", "--ramp", "1", "--duration", "25",
            "--json", str(out),
        ]
    )  # fmt: skip
    result = json.loads(out.read_text())
    quick = result["quick"]
    assert status == 0 and result["errors"] == 0, result["error_examples"]
    assert quick["games"] == {"gin:2": 4, "knock:4": 4}
    # Everyone seated once, with people only: two Gin tables and one Knock table.
    assert quick["seated"] == quick["wait_s"]["n"] == 8 and result["tables"] == 3
    assert 0 < quick["wait_s"]["p50"] <= quick["wait_s"]["max"] < 25
    # Each played their seat until the deal ended, every move timed.
    assert quick["unfinished"] == 0 and quick["deals_finished"] == 8
    assert result["human_actions"] > 8 and result["http_ms"]["n"] == result["human_actions"]
    assert result["actions"] >= result["human_actions"]
