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
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import psycopg


def conninfo(url: str) -> str:
    """A libpq connection string from a SQLAlchemy URL (``postgresql+psycopg://...``).

    >>> conninfo("postgresql+psycopg://u@127.0.0.1:5432/db")
    'postgresql://u@127.0.0.1:5432/db'
    """
    return "postgresql://" + url.partition("://")[2]


class DirectPool:
    """Autocommit psycopg connections, opened on demand and kept for reuse:
    at most ``limit`` in use at once (a burst of reads, such as every table
    catching up after a lost LISTEN connection, waits rather than open
    hundreds), at most ``keep`` kept idle. A connection a statement broke is
    closed rather than kept: after a lost server, the next use connects anew."""

    def __init__(self, info: str, limit: int = 20, keep: int = 8) -> None:
        self.info = info
        self.keep = keep
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._slots = asyncio.Semaphore(limit)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self._slots, self._connection() as connection:
            yield connection

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        connection = (
            self._idle.pop()
            if self._idle
            else await psycopg.AsyncConnection.connect(self.info, autocommit=True)
        )
        try:
            yield connection
        except BaseException as exc:
            # A statement refused (a duplicate key) leaves the connection
            # usable; anything else (lost server, cancelled mid-query) not.
            if isinstance(exc, psycopg.Error) and self._reusable(connection):
                self._idle.append(connection)
            else:
                with contextlib.suppress(Exception):
                    await connection.close()
            raise
        if self._reusable(connection):
            self._idle.append(connection)
        else:
            await connection.close()

    def _reusable(self, connection: psycopg.AsyncConnection[Any]) -> bool:
        return (
            len(self._idle) < self.keep
            and not connection.closed
            and connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        )

    async def execute(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement; its rows (none for a statement without)."""
        async with self.connection() as connection:
            cursor = await connection.execute(query, params, prepare=True)
            return await cursor.fetchall() if cursor.description is not None else []

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            with contextlib.suppress(Exception):
                await connection.close()
