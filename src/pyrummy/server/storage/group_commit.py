"""Group commit: the actions of many tables stored in one transaction.

Each append still returns only once it is durable ("stored before
answered"); what a busy server saves is a commit per action. See
:class:`GroupCommit`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import insert, text, update
from sqlalchemy.ext.asyncio import AsyncEngine

from pyrummy.server.storage.pg_direct import DirectPool
from pyrummy.server.storage.schema import ACTIONS_TABLE, TABLES_TABLE
from pyrummy.server.storage.sqlite_writer import SqliteWriter

#: The PostgreSQL channel on which stored changes are announced ("table:seq" or "table:meta").
NOTIFY_CHANNEL = "pyrummy"


class ActionConflict(Exception):
    """Action number ``seq`` of the table was stored already (by another server process)."""


@dataclass
class _Append:
    table_id: str
    seq: int
    seat: int
    text: str
    result: dict[str, Any] | None
    at: float
    done: asyncio.Future[None] | None = None


#: PostgreSQL: batches of actions written at once, each on a connection of its own.
PARALLEL_WRITES = 4


class GroupCommit:
    """Group commit of actions: one transaction for the appends that queued up
    while the previous one was being committed.

    Each append still returns only once it is durable, so "stored before
    answered" holds; but a busy server pays one commit (and, on SQLite, one
    hop to the driver's thread per statement) for many actions instead of
    one each: Core statements cost ~0.2 ms of CPU per action alone, the
    commit around them most of the rest, while a batch of 20 costs ~0.02 ms
    an action. A batch the database refuses is retried one append at a
    time, so only the faulty append fails. Appends of one table never share
    a batch (a table awaits each before the next), so their order holds.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        notifies: bool = False,
        direct: DirectPool | None = None,
        sqlite: SqliteWriter | None = None,
        parallel: int = 1,
    ) -> None:
        self.engine = engine
        self.notifies = notifies
        self.direct = direct
        #: A SQLite file: each batch in one hop to a writer thread (sqlite_writer.py).
        self.sqlite = sqlite
        #: Batches written at once at most (each on its own connection).
        self.parallel = parallel
        self.queue: list[_Append] = []
        self.writers: list[asyncio.Task[None]] = []

    async def append(self, item: _Append) -> None:
        loop = asyncio.get_running_loop()
        item.done = loop.create_future()
        self.queue.append(item)
        writers = self.writers
        if writers and (writers[0].done() or writers[0].get_loop() is not loop):
            writers = self.writers = [w for w in writers if not w.done() and w.get_loop() is loop]
        if len(writers) < self.parallel:
            # A new batch starts at the next turn of the loop with what was
            # queued until then, even while others are being written; past
            # ``parallel`` the appends wait for the first writer free.
            writers.append(loop.create_task(self._write_all()))
        # A caller that goes away cancels only its own future (settling skips
        # it), never the batch under way: no shield (a future and two
        # callbacks more per action) is needed for that.
        await item.done

    async def drain(self) -> None:
        """Wait until every queued append is written (or refused)."""
        while live := [w for w in self.writers if not w.done()]:
            with contextlib.suppress(Exception):
                await asyncio.shield(live[0])

    async def _write_all(self) -> None:
        batch: list[_Append] = []
        try:
            while self.queue:
                batch, self.queue = self.queue, []
                try:
                    await self._write(batch)
                except Exception:
                    for item in batch:
                        try:
                            await self._write([item])
                        except Exception as exc:
                            _settle(item, exc)
                        else:
                            _settle(item, None)
                else:
                    for item in batch:
                        _settle(item, None)
                batch = []
        except BaseException:
            # Cancelled (the loop is shutting down): nobody may wait forever.
            # An append whose outcome is unknown is reported as not stored;
            # a table that then reloads reads the truth from the database.
            for item in [*batch, *self.queue]:
                _settle(item, ConnectionError("the store stopped while writing"))
            self.queue = []
            raise
        finally:
            with contextlib.suppress(ValueError):
                self.writers.remove(asyncio.current_task())  # type: ignore[arg-type]

    async def _write(self, batch: list[_Append]) -> None:
        if self.sqlite is not None:
            await self.sqlite.write(batch)
            return
        if self.direct is not None and all(item.result is None for item in batch):
            # PostgreSQL, no match ends: the rows and their notifications in
            # one statement (atomic on its own), one round trip.
            try:
                await self.direct.execute(
                    "WITH stored AS (INSERT INTO actions (table_id, seq, seat, text, at)"
                    " SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[],"
                    " %s::float8[]) RETURNING 1)"
                    " SELECT pg_notify(%s, payload)"
                    " FROM unnest(%s::text[]) WITH ORDINALITY AS p(payload, n) ORDER BY n",
                    (
                        [a.table_id for a in batch],
                        [a.seq for a in batch],
                        [a.seat for a in batch],
                        [a.text for a in batch],
                        [a.at for a in batch],
                        NOTIFY_CHANNEL,
                        [notice_of(a) for a in batch],
                    ),
                )
            except psycopg.errors.UniqueViolation as exc:
                raise ActionConflict(str(exc)) from exc
            return
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(ACTIONS_TABLE),
                [
                    {
                        "table_id": a.table_id,
                        "seq": a.seq,
                        "seat": a.seat,
                        "text": a.text,
                        "at": a.at,
                    }
                    for a in batch
                ],
            )
            for item in batch:
                if item.result is not None:
                    await connection.execute(
                        update(TABLES_TABLE)
                        .where(TABLES_TABLE.c.id == item.table_id)
                        .values(
                            status="over",
                            finished_at=item.at,
                            result_json=json.dumps(item.result),
                        )
                    )
            if self.notifies:
                # Delivered at commit, to every server process (see cluster.py);
                # one statement for the batch, not a round trip per action.
                await connection.execute(
                    text(
                        "SELECT pg_notify(:channel, payload)"
                        " FROM unnest(CAST(:payloads AS text[])) WITH ORDINALITY AS p(payload, n)"
                        " ORDER BY n"
                    ),
                    {
                        "channel": NOTIFY_CHANNEL,
                        "payloads": [notice_of(item) for item in batch],
                    },
                )


def notice_of(item: _Append) -> str:
    """The NOTIFY payload of a stored action: ``table:seq:seat:text``.

    It carries the action itself (at most 200 characters; a payload may have
    8000), so that the other processes apply it without reading it back.

    >>> notice_of(_Append("t1", 7, 2, "discard 9H", None, 0.0))
    't1:7:2:discard 9H'
    """
    return f"{item.table_id}:{item.seq}:{item.seat}:{item.text}"


def _settle(item: _Append, error: Exception | None) -> None:
    if item.done is None or item.done.done():
        return
    if error is None:
        item.done.set_result(None)
    else:
        item.done.set_exception(error)
