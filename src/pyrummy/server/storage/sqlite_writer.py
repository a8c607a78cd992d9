"""The group commit's writes on a SQLite file, in one hop to one thread.

Through SQLAlchemy and aiosqlite a batch of actions costs a thread hop per
statement (BEGIN, INSERT, COMMIT, the pool's reset) and SQLAlchemy's
statement machinery around each: about an eighth of the server's CPU under
load (py-spy, benchmarks/load.py). Here the whole batch is one function run
in a thread of its own on a plain :mod:`sqlite3` connection: the same rows,
the same transaction, committed before the appends are answered.

Only for a SQLite *file*: an in-memory database is private to its
connection, so it keeps the engine's path (see :func:`sqlite_file_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from sqlalchemy.engine import make_url

#: As the engine's connections (storage.make_engine): wait for the writer
#: under way rather than fail with "database is locked".
BUSY_TIMEOUT = 60.0

INSERT_ACTIONS = "INSERT INTO actions (table_id, seq, seat, text, at) VALUES (?, ?, ?, ?, ?)"
FINISH_TABLE = "UPDATE tables SET status = 'over', finished_at = ?, result_json = ? WHERE id = ?"
READ_ACKNOWLEDGED = "SELECT acknowledged_json FROM tables WHERE id = ?"
WRITE_ACKNOWLEDGED = "UPDATE tables SET acknowledged_json = ? WHERE id = ?"


class Append(Protocol):
    """What the writer needs of a queued append (storage._Append)."""

    table_id: str
    seq: int
    seat: int
    text: str
    result: dict[str, Any] | None
    at: float


def sqlite_file_of(url: str) -> str | None:
    """The file of a SQLite URL, or None (not SQLite, in memory, a ``file:`` URI).

    >>> sqlite_file_of("sqlite+aiosqlite:////tmp/data/pyrummy.sqlite3")
    '/tmp/data/pyrummy.sqlite3'
    >>> sqlite_file_of("sqlite://"), sqlite_file_of("postgresql://u@h/db")
    (None, None)
    """
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:") or parsed.query:
        return None
    return database


#: One piece of work for the writer's thread, the future it settles, and its loop.
_Job = tuple[Callable[[], None], "asyncio.Future[None]", asyncio.AbstractEventLoop]


class SqliteWriter:
    """Writes batches of actions to one SQLite file from one thread of its own.

    The thread is fed through a :class:`queue.SimpleQueue` and answers with one
    ``call_soon_threadsafe`` per batch: a ThreadPoolExecutor's hop (its locks,
    a concurrent Future chained to an asyncio one through two callbacks) cost
    more of the event loop's time than the batch's SQL (py-spy, load.py).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        # One thread: the sqlite3 connection is used by the thread that made it.
        # Started on first use; a daemon, so a store never closed does not keep
        # the interpreter from exiting (what it wrote is committed or not at all).
        self._thread: threading.Thread | None = None
        self._connection: sqlite3.Connection | None = None

    def _submit(self, work: Callable[[], None]) -> asyncio.Future[None]:
        """Run ``work`` in the writer's thread; the future settles with its outcome."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._serve, name="pyrummy-sqlite-writer", daemon=True
            )
            self._thread.start()
        self._jobs.put((work, done, loop))
        return done

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, done, loop = job
            error: BaseException | None = None
            try:
                work()
            except BaseException as exc:  # handed to the waiting coroutine
                error = exc
            # The loop may be closed already (a store never closed): nobody waits then.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, error)

    async def write(self, batch: Sequence[Append]) -> None:
        """Store ``batch`` in one transaction; raises (storing none of it) when refused."""
        rows = [(a.table_id, a.seq, a.seat, a.text, a.at) for a in batch]
        finished = [(a.at, json.dumps(a.result), a.table_id) for a in batch if a.result is not None]
        # A waiter that is cancelled leaves the write to finish (as an executor's would).
        await self._submit(lambda: self._write(rows, finished))

    def _connect(self) -> sqlite3.Connection:
        connection = self._connection
        if connection is None:
            # isolation_level=None: the transaction is the explicit BEGIN below.
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA foreign_keys=ON")
            self._connection = connection
        return connection

    def _write(self, rows: list[tuple[Any, ...]], finished: list[tuple[float, str, str]]) -> None:
        connection = self._connect()
        # IMMEDIATE: the write lock at once (waiting up to the busy timeout),
        # not an upgrade mid-transaction that SQLite may refuse at once.
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.executemany(INSERT_ACTIONS, rows)
            if finished:
                connection.executemany(FINISH_TABLE, finished)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    async def set_acknowledged(self, table_id: str, seat: int, deals: int) -> None:
        """Store that ``seat`` has seen the showdown of ``deals`` finished deals
        (as ``Store.set_acknowledged``; once a deal per person and table, its
        SQLAlchemy session cost as much as all the actions' writes)."""
        await self._submit(lambda: self._acknowledge(table_id, seat, deals))

    def _acknowledge(self, table_id: str, seat: int, deals: int) -> None:
        connection = self._connect()
        connection.execute("BEGIN IMMEDIATE")
        try:
            row = connection.execute(READ_ACKNOWLEDGED, (table_id,)).fetchone()
            if row is not None:
                seen = json.loads(row[0] or "{}")
                seen[str(seat)] = deals
                connection.execute(WRITE_ACKNOWLEDGED, (json.dumps(seen, sort_keys=True), table_id))
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    async def close(self) -> None:
        if self._thread is None:
            return
        await self._submit(self._close)
        self._jobs.put(None)
        thread, self._thread = self._thread, None
        thread.join()  # at once: its last job is done

    def _close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():  # its waiter was cancelled
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)
