"""``GET /api/health`` (the database can write; how the event loop keeps up) and
``GET /api/health/loop`` (the loop's lag and the GC's pauses, in full).

In its own module: app.py stays under the 800-line limit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from pyrummy.server.loopstats import LoopStats, loop_router
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


def health_router(
    store: Callable[[], Store], live_tables: Callable[[], int], stats: Callable[[], LoopStats]
) -> APIRouter:
    router = APIRouter(tags=["meta"])

    @router.get("/api/health")
    async def health() -> Response:
        """``ok`` when the database answers and accepts a write (else 503); the
        event loop's recent lag and longest GC pause under ``loop``."""
        problem = await database_problem(store())
        body = {
            "ok": problem is None,
            "database": "ok" if problem is None else problem,
            "tables": live_tables(),
            "loop": stats().summary(),
        }
        return JSONResponse(body, status_code=200 if problem is None else 503)

    router.include_router(loop_router(stats))
    return router
