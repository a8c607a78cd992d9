"""``GET /api/health`` (the database can write; how the event loop keeps up) and
``GET /api/health/loop`` (the loop's lag and the GC's pauses, in full)."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from pyrummy.server.deps import ServicesDep
from pyrummy.server.loopstats import DEFAULT_WINDOW
from pyrummy.server.storage import Store

log = logging.getLogger("pyrummy.server")


async def database_problem(store: Store) -> str | None:
    """None when the database takes a write now, else what went wrong.

    The write (a no-op update of one row) is rolled back; with no table yet,
    a read is all there is to try.
    """
    try:
        async with asyncio.timeout(5):
            await store.try_write()
    except Exception as exc:  # whatever the driver raises, the answer is 503
        log.warning("health: the database cannot write: %s", exc)
        return f"cannot write: {type(exc).__name__}"
    return None


router = APIRouter(tags=["meta"])


@router.get("/api/health")
async def health(services: ServicesDep) -> Response:
    """``ok`` when the database answers and accepts a write (else 503); the
    event loop's recent lag and longest GC pause under ``loop``."""
    problem = await database_problem(services.store)
    body = {
        "ok": problem is None,
        "database": "ok" if problem is None else problem,
        "tables": len(services.tables.tables),
        "loop": services.loop_stats.summary(),
    }
    return JSONResponse(body, status_code=200 if problem is None else 503)


@router.get("/api/health/loop")
async def loop_health(
    services: ServicesDep,
    window: Annotated[float, Query(ge=1, le=300)] = DEFAULT_WINDOW,
) -> dict[str, Any]:
    """How late the event loop woke over the last ``window`` seconds (p50,
    p99, max; and the worst since start) and the garbage collector's pauses
    per generation (counts and totals since start, the longest in the window
    and since start)."""
    return services.loop_stats.snapshot(window)
