"""PostgreSQL statements of the hot path of play, straight on psycopg 3.

Storing a batch of actions, reading a table's newer actions, a "Next deal":
each is one statement in autocommit. Through SQLAlchemy's asyncio layer
(greenlet hop, pool checkout and reset, result wrapping) such a statement
cost about four times the CPU of the same statement sent by psycopg itself
(measured: 2.0 vs 0.53 ms for a batch insert, 1.2 vs 0.24 ms for a
``SELECT 1``, on the loaded 2-core machine), and a server of two processes
sends one every few actions. Everything else goes through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
from typing import Any

from psycopg_pool import AsyncConnectionPool


def conninfo(url: str) -> str:
    """A libpq connection string from a SQLAlchemy URL (``postgresql+psycopg://...``).

    >>> conninfo("postgresql+psycopg://u@127.0.0.1:5432/db")
    'postgresql://u@127.0.0.1:5432/db'
    """
    return "postgresql://" + url.partition("://")[2]


class DirectPool:
    """Autocommit psycopg connections from psycopg's own pool
    (:class:`psycopg_pool.AsyncConnectionPool`), opened on the first use: at
    most ``limit`` at once (a burst of reads, such as every table catching up
    after a lost LISTEN connection, waits rather than open hundreds), one kept
    open, the others closed after ten idle minutes. A statement refused by the
    database (a duplicate key) leaves its connection in the pool; a broken
    connection (lost server, cancelled mid-query) is dropped by the pool, so
    the next use connects anew."""

    def __init__(self, info: str, limit: int = 20) -> None:
        self._pool = AsyncConnectionPool(
            info,
            min_size=1,
            max_size=limit,
            kwargs={"autocommit": True},
            open=False,
            name="pyrummy-direct",
        )
        #: The pool's opening, shared by the first uses (they may come at once).
        self._opening: asyncio.Future[None] | None = None

    async def _open(self) -> None:
        if self._opening is None:
            self._opening = asyncio.ensure_future(self._pool.open())
        await self._opening

    async def execute(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement; its rows (none for a statement without)."""
        await self._open()
        async with self._pool.connection() as connection:
            cursor = await connection.execute(query, params, prepare=True)
            return await cursor.fetchall() if cursor.description is not None else []

    async def close(self) -> None:
        if self._opening is not None:
            await self._pool.close()
