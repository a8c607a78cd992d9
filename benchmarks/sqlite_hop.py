"""CPU of one stored action through the SQLite writer thread, against the same write inline.

The server stores each batch of actions in a thread of its own
(``server/storage/sqlite_writer.py``) so that its event loop never blocks on the
database; under load.py's load a batch is usually one action. This writes
``--writes`` single-action batches one after the other through
:class:`~pyrummy.server.storage.sqlite_writer.SqliteWriter` into a fresh SQLite file
and reports, per write, the CPU of the whole process (both threads), of the
event loop's thread, and the wall time; ``--mode inline`` runs the same
write in the loop's thread instead (a diagnosis: what the hop between the
threads costs). Modes alternate, each in a fresh process::

    .venv/bin/python benchmarks/sqlite_hop.py --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyrummy.server.storage.sqlite_writer import SqliteWriter

SCHEMA = (
    "CREATE TABLE actions (table_id TEXT, seq INT, seat INT, text TEXT, at REAL,"
    " PRIMARY KEY (table_id, seq))"
)


@dataclass
class Append:
    seq: int
    table_id: str = "bench"
    seat: int = 0
    text: str = "discard 7H"
    result: dict[str, Any] | None = None
    at: float = field(default_factory=time.time)


def inline_submit(self: Any, work: Callable[[], None]) -> asyncio.Future[None]:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    work()
    done.set_result(None)
    return done


async def measure(mode: str, writes: int) -> dict[str, float]:
    if mode == "inline":
        SqliteWriter._submit = inline_submit  # type: ignore[method-assign]
    path = Path(tempfile.mkdtemp(prefix="pyrummy-hop-")) / "bench.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute(SCHEMA)
    writer = SqliteWriter(str(path))
    await writer.write([Append(0)])  # the thread and the connection started
    process, thread, wall = time.process_time(), time.thread_time(), time.perf_counter()
    for seq in range(1, writes + 1):
        await writer.write([Append(seq)])
    figures = {
        "process_us": 1e6 * (time.process_time() - process) / writes,
        "loop_thread_us": 1e6 * (time.thread_time() - thread) / writes,
        "wall_us": 1e6 * (time.perf_counter() - wall) / writes,
    }
    await writer.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mode", choices=("thread", "inline"), help="one run of one mode")
    args = parser.parse_args(argv)
    if args.mode:
        print(json.dumps(asyncio.run(measure(args.mode, args.writes))))
        return 0
    runs: dict[str, list[dict[str, float]]] = {"thread": [], "inline": []}
    for _ in range(args.rounds):
        for mode in runs:
            command = [sys.executable, __file__, "--mode", mode, "--writes", str(args.writes)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            runs[mode].append(json.loads(out))
            print(f"  {mode:>6}: {runs[mode][-1]}", flush=True)
    for mode, figures in runs.items():
        medians = {k: statistics.median(f[k] for f in figures) for k in figures[0]}
        print(
            f"{mode:>6}: process CPU {medians['process_us']:.1f} us, loop thread "
            f"{medians['loop_thread_us']:.1f} us, wall {medians['wall_us']:.1f} us per write"
            " (medians)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
