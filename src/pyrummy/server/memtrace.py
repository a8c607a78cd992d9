"""What grows in a server's memory (a soak's diagnosis; off by default).

``PYRUMMY_MEMORY_TRACE=DIR`` starts :mod:`tracemalloc` (a few frames per
allocation: it costs CPU, so never in production) and every
``PYRUMMY_MEMORY_TRACE_EVERY`` seconds (default 60) writes to ``DIR`` a
snapshot (unless ``PYRUMMY_MEMORY_TRACE_FRAMES=0``) (``snapshot-PID-SECONDS.bin``, read with
``tracemalloc.Snapshot.load``) and the count of live objects by type that the
garbage collector tracks (``types-PID-SECONDS.json``). Diffing two of them
(``benchmarks/memdiff.py``) says what grew between, and where it was allocated.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import logging
import os
import time
import tracemalloc
from pathlib import Path

log = logging.getLogger("pyrummy.server")

TRACE_ENV = "PYRUMMY_MEMORY_TRACE"
EVERY_ENV = "PYRUMMY_MEMORY_TRACE_EVERY"
#: Frames kept per allocation (``PYRUMMY_MEMORY_TRACE_FRAMES``; 0: no
#: tracemalloc, only the counts by type, which cost next to nothing).
FRAMES_ENV = "PYRUMMY_MEMORY_TRACE_FRAMES"
#: Enough to tell a caller from its helper.
FRAMES = 6


def type_counts() -> dict[str, int]:
    """Live objects the garbage collector tracks (frozen ones included), by type."""
    counts = collections.Counter(
        f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects()
    )
    return dict(counts.most_common())


def write_snapshot(folder: Path, seconds: int) -> Path:
    """Write a tracemalloc snapshot and the type counts, named after ``seconds``
    since the start; returns the snapshot's path."""
    stem = f"{os.getpid()}-{seconds:05d}"
    snapshot = folder / f"snapshot-{stem}.bin"
    if tracemalloc.is_tracing():
        tracemalloc.take_snapshot().dump(str(snapshot))
    (folder / f"types-{stem}.json").write_text(json.dumps(type_counts(), indent=0))
    return snapshot


async def _trace_forever(folder: Path, every: float) -> None:
    started = time.monotonic()
    try:
        while True:
            await asyncio.sleep(every)
            try:
                write_snapshot(folder, round(time.monotonic() - started))
            except OSError:
                log.exception("memory trace: cannot write to %s", folder)
    finally:  # cancelled at shutdown: the tracing's cost ends with it
        tracemalloc.stop()


def start(
    folder: Path | None, every: float = 60.0, frames: int = FRAMES
) -> asyncio.Task[None] | None:
    """Start tracing into ``folder`` (None: not asked for); the task writes a
    snapshot every ``every`` seconds (cancel it at shutdown)."""
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    if frames:
        tracemalloc.start(frames)
    log.warning("memory trace on (%s every %.0f s): for diagnosis only", folder, every)
    return asyncio.get_running_loop().create_task(_trace_forever(folder, every))


def start_from_environment() -> asyncio.Task[None] | None:
    """:func:`start` as the settings read from the environment say (``PYRUMMY_MEMORY_TRACE``)."""
    from pyrummy.server.settings import Settings

    settings = Settings()
    return start(settings.memory_trace, settings.memory_trace_every, settings.memory_trace_frames)
