"""Durable storage of tables: SQLAlchemy 2 asyncio, SQLite by default, PostgreSQL by URL.

A table is stored as what makes it reproducible: the preset and options,
the seats, the match seed and first dealer, and the list of accepted actions
in their text form (the same words as the game record). Every other piece of
state is rebuilt by replaying the actions through the rules core, so a
process killed at any moment resumes each table exactly on restart.

Every call is a coroutine on an async driver (aiosqlite for SQLite, psycopg 3
for PostgreSQL): no database call blocks the event loop. The schema is
versioned with Alembic (:mod:`pyrummy.server.migrations`); opening a store
upgrades an older database first.

Secret seat tokens are never stored: only their SHA-256 digests.

>>> import asyncio
>>> async def demo() -> list[str]:
...     store = await Store.open("sqlite://")
...     seats = [SeatSpec("human"), SeatSpec("bot", "easy")]
...     await store.create_table(TableSpec("t1", "knock", {}, seats, 7, 0, 0.5), ["d1" * 32, None])
...     await store.append_action("t1", 1, 0, "draw stock")
...     stored = await store.load_table("t1")
...     await store.close()
...     return [a.text for a in stored.actions] if stored else []
>>> asyncio.run(demo())
['draw stock']
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import StaticPool

from pyrummy.server.storage.group_commit import (
    NOTIFY_CHANNEL,
    PARALLEL_WRITES,
    GroupCommit,
    _Append,
)
from pyrummy.server.storage.pg_direct import DirectPool, conninfo
from pyrummy.server.storage.schema import (
    ACTIONS_TABLE,
    CLOSED,
    LIVE,
    OVER,
    PROFILE_SEATS,
    QUARANTINED,
    TABLES_TABLE,
    ActionRow,
    TableRow,
)
from pyrummy.server.storage.sqlite_writer import SqliteWriter, sqlite_file_of

#: The advisory lock held while the schema is upgraded (PostgreSQL).
MIGRATION_LOCK = 0x7079_7275_6D6D_79  # "pyrummy"
#: The notice of a "Next deal" says ``table:meta:ack:seat:deals`` (see parse_acknowledgement).
ACKNOWLEDGED = "ack"
#: ``table:claim``: a process used by the table's person asks its owner to hand it over.
CLAIM = "claim"


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a person (``human``) or a bot of some difficulty;
    ``profile`` is the id of the person's profile (None: a seat of no profile)."""

    kind: str
    bot: str | None = None
    name: str | None = None
    profile: str | None = None

    def to_dict(self) -> dict[str, Any]:
        seat = {"kind": self.kind, "bot": self.bot, "name": self.name}
        return seat if self.profile is None else seat | {"profile": self.profile}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatSpec:
        return cls(str(data["kind"]), data.get("bot"), data.get("name"), data.get("profile"))


@dataclass(frozen=True)
class TableSpec:
    """Everything fixed when a table is created."""

    table_id: str
    preset: str
    options: dict[str, Any]
    seats: list[SeatSpec]
    seed: int
    first_dealer: int
    bot_delay: float
    created_at: float = field(default_factory=time.time)
    #: The shuffle the seed deals by (None: the legacy one, tables made before
    #: fair deals) and the match's secret salt for the deals' commitments.
    shuffle: str | None = None
    salt: str | None = None
    #: Whether the match changes its people's ratings. Whoever creates the
    #: table decides: the quick match sets it on every table it starts, a
    #: friends' room when its creator ticked "rated" before the start
    #: (:mod:`pyrummy.server.rated` rates the match when it ends).
    rated: bool = False


@dataclass(frozen=True, slots=True)
class StoredAction:
    seq: int
    seat: int
    text: str


@dataclass(frozen=True)
class StoredTable:
    spec: TableSpec
    token_digests: list[str | None]
    status: str
    finished_at: float | None
    result: dict[str, Any] | None
    actions: list[StoredAction]
    acknowledged: dict[int, int] = field(default_factory=dict)
    #: When a person last acted (the newest action of a human seat; 0 without).
    last_human_at: float = 0.0


@dataclass(frozen=True)
class TableMeta:
    """What of a stored table changes besides its actions: the showdowns each
    person has seen, the bots' pause, the status and result, who sits where."""

    acknowledged: dict[int, int]
    bot_delay: float
    status: str
    result: dict[str, Any] | None
    seats: list[SeatSpec]
    token_digests: list[str | None]


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'pyrummy.sqlite3'}"


def async_url(url: str) -> str:
    """The URL with the async driver: aiosqlite for SQLite, psycopg 3 for PostgreSQL.

    >>> async_url("sqlite:///data/x.sqlite3"), async_url("postgresql://u@h/db")
    ('sqlite+aiosqlite:///data/x.sqlite3', 'postgresql+psycopg://u@h/db')
    >>> async_url("postgres://h/db"), async_url("postgresql+psycopg://h/db")
    ('postgresql+psycopg://h/db', 'postgresql+psycopg://h/db')
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    base = scheme.split("+", 1)[0]
    if base == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    if base in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    raise ValueError(f"unsupported database {base!r}: use sqlite:// or postgresql://")


def _is_sqlite_memory(url: str) -> bool:
    return url.partition("://")[2] in ("", "/:memory:")


def make_engine(url: str, isolation_level: str | None = None) -> AsyncEngine:
    url = async_url(url)
    if url.startswith("sqlite"):
        in_memory = _is_sqlite_memory(url)
        engine = create_async_engine(
            url,
            poolclass=StaticPool if in_memory else None,
            # One writer at a time: a write waits for the one under way (the
            # group commit, a table's creation) rather than fail with
            # "database is locked" after the driver's default 5 s, which a
            # loaded server's commit took (500s at table creation, load test).
            connect_args={"timeout": 60},
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            if not in_memory:
                # WAL: readers never block the writer; a killed process loses
                # nothing that was committed.
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No ping before each use (a round trip per query): a connection that
    # died with the server fails its one query, and SQLAlchemy then replaces
    # every connection of the pool. More connections than the default: every
    # request reads (see Store.read) and catching up runs per table.
    options: dict[str, Any] = {"isolation_level": isolation_level} if isolation_level else {}
    return create_async_engine(url, pool_size=20, max_overflow=20, pool_recycle=3600, **options)


class Store:
    """All reads and writes of tables and their actions, without blocking the event loop.

    Open one with :meth:`open`: it brings the schema up to date (Alembic) first.
    """

    def __init__(self, url: str, engine: AsyncEngine) -> None:
        self.url = url
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        #: On PostgreSQL every change is announced to the other server processes
        #: (``NOTIFY``, sent when the transaction commits; see ``cluster.py``).
        self.notifies = engine.dialect.name == "postgresql"
        #: PostgreSQL: connections in autocommit (a pool of their own, so that
        #: the level never leaks to the others) for single statements: a read
        #: or a batch of actions is one round trip, not BEGIN, it, COMMIT.
        self.autocommit: AsyncEngine | None = (
            make_engine(url, isolation_level="AUTOCOMMIT") if self.notifies else None
        )
        #: PostgreSQL: the statements of the hot path of play, straight on psycopg.
        self.direct: DirectPool | None = (
            DirectPool(conninfo(engine.url.render_as_string(hide_password=False)))
            if self.notifies
            else None
        )
        sqlite_file = sqlite_file_of(str(engine.url))
        self._appends = GroupCommit(
            engine,
            self.notifies,
            self.direct,
            SqliteWriter(sqlite_file) if sqlite_file is not None else None,
            # PostgreSQL: an append no longer waits for the batch under way to
            # be written before its own starts (one writer: 62% of a POST's
            # appends did, and the store was most of its time).
            parallel=PARALLEL_WRITES if self.direct is not None else 1,
        )

    async def _announce(self, connection: AsyncConnection, table_id: str, what: str) -> None:
        if self.notifies:
            await connection.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{table_id}:{what}"},
            )

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url`` and upgrade its schema to the newest revision."""
        engine = make_engine(url)
        try:
            async with engine.begin() as connection:
                if engine.dialect.name == "postgresql":
                    # Processes starting together upgrade one at a time (the
                    # lock ends with the transaction).
                    await connection.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                    )
                await connection.run_sync(upgrade_schema)
        except BaseException:
            await engine.dispose()
            raise
        return cls(url, engine)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A connection whose work is committed together, or not at all."""
        async with self.engine.begin() as connection:
            yield connection

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """A connection for reads (what the cluster does before answering for
        a table, at every request): on PostgreSQL in autocommit, from a pool
        of its own (on the main pool the level stayed on pooled connections
        that the group commit then used, whose batches were committed row by row).
        """
        async with (self.autocommit or self.engine).connect() as connection:
            yield connection

    async def actions_after(self, table_id: str, seq: int) -> list[StoredAction]:
        """The actions of ``table_id`` stored after number ``seq``, in order (one indexed read)."""
        if self.direct is not None:
            found = await self.direct.execute(
                "SELECT seq, seat, text FROM actions WHERE table_id = %s AND seq > %s ORDER BY seq",
                (table_id, seq),
            )
            return [StoredAction(seq, seat, text) for seq, seat, text in found]
        async with self.read() as connection:
            rows = (
                await connection.execute(
                    select(ACTIONS_TABLE.c.seq, ACTIONS_TABLE.c.seat, ACTIONS_TABLE.c.text)
                    .where(ACTIONS_TABLE.c.table_id == table_id, ACTIONS_TABLE.c.seq > seq)
                    .order_by(ACTIONS_TABLE.c.seq)
                )
            ).all()
        return [StoredAction(seq, seat, text) for seq, seat, text in rows]

    async def create_table(self, spec: TableSpec, token_digests: Sequence[str | None]) -> None:
        async with self.transaction() as connection:
            await connection.execute(insert(TABLES_TABLE), table_row(spec, token_digests))
            # Which profile sits where; a profile seated twice breaks the
            # table's unique (table, profile) pair and nothing is stored.
            profiled = [
                {"table_id": spec.table_id, "seat": i, "profile_id": seat.profile}
                for i, seat in enumerate(spec.seats)
                if seat.profile is not None
            ]
            if profiled:
                await connection.execute(insert(PROFILE_SEATS), profiled)

    async def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        text: str,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Store action number ``seq``; with ``result`` the match is over.

        Returns once the action is committed; raises (and stores nothing of
        it) when the database refuses it. Appends of many tables made while
        a commit is under way are committed together by the next one (see
        :class:`~pyrummy.server.storage.group_commit.GroupCommit`).
        """
        await self._appends.append(_Append(table_id, seq, seat, text, result, time.time()))

    async def set_acknowledged(self, table_id: str, seat: int, deals: int) -> None:
        """The person in ``seat`` has seen the showdown of ``deals`` finished deals."""
        if self._appends.sqlite is not None:  # a SQLite file: nobody to notify
            await self._appends.sqlite.set_acknowledged(table_id, seat, deals)
            return
        if self.direct is not None:
            # PostgreSQL: the change and its announcement in one statement, one
            # round trip (a session took five: BEGIN, SELECT ... FOR UPDATE,
            # UPDATE, NOTIFY, COMMIT). The notice carries the change, so the
            # other processes need not read it back.
            await self.direct.execute(
                "WITH changed AS (UPDATE tables SET acknowledged_json ="
                " (COALESCE(NULLIF(acknowledged_json, ''), '{}')::jsonb"
                " || jsonb_build_object(%s::text, %s::int))::text"
                " WHERE id = %s RETURNING 1)"
                " SELECT pg_notify(%s, %s) FROM changed",
                (
                    str(seat),
                    deals,
                    table_id,
                    NOTIFY_CHANNEL,
                    f"{table_id}:meta:{ACKNOWLEDGED}:{seat}:{deals}",
                ),
            )
            return
        async with self._sessions.begin() as session:
            row = await session.get(TableRow, table_id, with_for_update=True)
            if row is not None:
                seen = json.loads(row.acknowledged_json or "{}")
                seen[str(seat)] = deals
                row.acknowledged_json = json.dumps(seen, sort_keys=True)

    async def set_bot_delay(self, table_id: str, delay: float) -> None:
        async with self.transaction() as connection:
            await connection.execute(
                update(TABLES_TABLE).where(TABLES_TABLE.c.id == table_id).values(bot_delay=delay)
            )
            await self._announce(connection, table_id, "meta")

    async def resign(self, table_id: str, result: dict[str, Any]) -> bool:
        """End a live table now with ``result`` (a seat resigned); False when it
        was not live any more (over, closed, or resigned already)."""
        async with self.transaction() as connection:
            changed = await connection.execute(
                update(TABLES_TABLE)
                .where(TABLES_TABLE.c.id == table_id, TABLES_TABLE.c.status == LIVE)
                .values(status=OVER, finished_at=time.time(), result_json=json.dumps(result))
            )
            await self._announce(connection, table_id, "meta")
        return bool(changed.rowcount == 1)

    async def replace_seats(
        self, table_id: str, seats: Sequence[SeatSpec], token_digests: Sequence[str | None]
    ) -> bool:
        """Change who sits where at a live table (a bot takes a person's seat);
        False when the table was not live any more."""
        async with self.transaction() as connection:
            changed = await connection.execute(
                update(TABLES_TABLE)
                .where(TABLES_TABLE.c.id == table_id, TABLES_TABLE.c.status == LIVE)
                .values(
                    seats_json=json.dumps([s.to_dict() for s in seats]),
                    token_digests_json=json.dumps(list(token_digests)),
                )
            )
            await self._announce(connection, table_id, "meta")
        return bool(changed.rowcount == 1)

    async def table_ids(self, status: str | None = None) -> list[str]:
        async with self._sessions() as session:
            query = select(TableRow.id).order_by(TableRow.created_at)
            if status is not None:
                query = query.where(TableRow.status == status)
            return list(await session.scalars(query))

    async def load_table(self, table_id: str) -> StoredTable | None:
        """The table with its actions, and when its person last acted."""
        if self.direct is not None:
            # PostgreSQL: one statement, one round trip (through a session:
            # BEGIN, the row, its actions, ROLLBACK, and another transaction
            # for the person's last action; a POST landing on a process that
            # had not loaded the table yet waited for all of them).
            found = await self.direct.execute(
                f"SELECT {_TABLE_COLUMNS}, (SELECT COALESCE(json_agg(json_build_array("
                "a.seq, a.seat, a.text, a.at) ORDER BY a.seq), '[]') FROM actions a"
                " WHERE a.table_id = t.id) FROM tables t WHERE t.id = %s",
                (table_id,),
            )
            if not found:
                return None
            *columns, actions = found[0]
            return _stored_table(TableRow(**dict(zip(_TABLE_KEYS, columns, strict=True))), actions)
        async with self._sessions() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                return None
            actions = await session.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.text, ActionRow.at)
                .where(ActionRow.table_id == table_id)
                .order_by(ActionRow.seq)
            )
            return _stored_table(row, actions.all())

    async def list_tables(
        self, status: str | None, limit: int, offset: int, count_up_to: int | None = None
    ) -> tuple[int, list[tuple[TableSpec, str, float | None, dict[str, Any] | None, int]]]:
        """A page of tables, newest finish first: (total, [(spec, status, finished, result, actions)]).

        With ``count_up_to`` the total counts at most that many rows, so that
        the cost of a page does not grow with the whole history.
        """
        async with self._sessions() as session:
            where = [] if status is None else [TableRow.status == status]
            counted = select(TableRow.id).where(*where)
            if count_up_to is not None:
                counted = counted.limit(count_up_to)
            total = await session.scalar(select(func.count()).select_from(counted.subquery())) or 0
            # Counted per row of the page through the actions' primary key
            # (table_id, seq), not grouped over every action ever stored.
            actions = (
                select(func.count())
                .where(ActionRow.table_id == TableRow.id)
                .correlate(TableRow)
                .scalar_subquery()
            )
            rows = (
                await session.execute(
                    select(TableRow, actions)
                    .where(*where)
                    # By finish, as History shows it (games still going first,
                    # newest start first); the id makes pages stable.
                    .order_by(
                        TableRow.finished_at.desc().nulls_first(),
                        TableRow.created_at.desc(),
                        TableRow.id.desc(),
                    )
                    .limit(limit)
                    .offset(offset)
                )
            ).all()
            return total, [
                (
                    _spec_of(row),
                    row.status,
                    row.finished_at,
                    json.loads(row.result_json) if row.result_json else None,
                    int(n or 0),
                )
                for row, n in rows
            ]

    async def close_table(self, table_id: str) -> None:
        """Mark a live table closed (its people left it)."""
        async with self.transaction() as connection:
            await connection.execute(
                update(TABLES_TABLE)
                .where(TABLES_TABLE.c.id == table_id, TABLES_TABLE.c.status == LIVE)
                .values(status=CLOSED)
            )

    async def close_abandoned(self, cutoff: float) -> int:
        """Close the live tables created before ``cutoff`` with no action since;
        returns how many."""
        recent = (
            select(ACTIONS_TABLE.c.table_id)
            .where(ACTIONS_TABLE.c.table_id == TABLES_TABLE.c.id, ACTIONS_TABLE.c.at >= cutoff)
            .exists()
        )
        async with self.transaction() as connection:
            result = await connection.execute(
                update(TABLES_TABLE)
                .where(
                    TABLES_TABLE.c.status == LIVE,
                    TABLES_TABLE.c.created_at < cutoff,
                    ~recent,
                )
                .values(status=CLOSED)
            )
        return int(result.rowcount or 0)

    async def quarantine(self, table_id: str) -> None:
        """Mark the table unloadable so that no start tries it again (kept for study)."""
        async with self.transaction() as connection:
            await connection.execute(
                update(TABLES_TABLE).where(TABLES_TABLE.c.id == table_id).values(status=QUARANTINED)
            )

    async def table_meta(self, table_id: str) -> TableMeta | None:
        """What of a table may change besides its actions, as stored."""
        columns = TABLES_TABLE.c
        async with self.read() as connection:
            row = (
                await connection.execute(
                    select(
                        columns.acknowledged_json,
                        columns.bot_delay,
                        columns.status,
                        columns.result_json,
                        columns.seats_json,
                        columns.token_digests_json,
                    ).where(columns.id == table_id)
                )
            ).first()
        if row is None:
            return None
        return TableMeta(
            acknowledged={int(k): int(v) for k, v in json.loads(row[0] or "{}").items()},
            bot_delay=float(row[1]),
            status=row[2],
            result=json.loads(row[3]) if row[3] else None,
            seats=[SeatSpec.from_dict(s) for s in json.loads(row[4])],
            token_digests=json.loads(row[5]),
        )

    async def last_action_at(self, table_id: str, not_seat: int | None = None) -> float | None:
        """When the table's last action (by a seat other than ``not_seat``) was stored."""
        query = select(func.max(ACTIONS_TABLE.c.at)).where(ACTIONS_TABLE.c.table_id == table_id)
        if not_seat is not None:
            query = query.where(ACTIONS_TABLE.c.seat != not_seat)
        async with self.transaction() as connection:
            value = await connection.scalar(query)
        return None if value is None else float(value)

    async def try_write(self) -> None:
        """Raise unless the database takes a write now (a no-op update of one
        row, rolled back; with no table yet, a read is all there is to try)."""
        async with self.engine.connect() as connection:
            transaction = await connection.begin()
            try:
                await connection.execute(
                    text(
                        "UPDATE tables SET status = status"
                        " WHERE id = (SELECT id FROM tables LIMIT 1)"
                    )
                )
            finally:
                await transaction.rollback()

    async def close(self) -> None:
        await self._appends.drain()
        if self._appends.sqlite is not None:
            await self._appends.sqlite.close()
        await self.engine.dispose()
        if self.autocommit is not None:
            await self.autocommit.dispose()
        if self.direct is not None:
            await self.direct.close()


def table_row(spec: TableSpec, token_digests: Sequence[str | None]) -> dict[str, Any]:
    """The row of a new live table (what :meth:`Store.create_table` inserts;
    the quick match inserts it in the transaction that seats its people)."""
    return {
        "id": spec.table_id,
        "created_at": spec.created_at,
        "finished_at": None,
        "preset": spec.preset,
        "options_json": json.dumps(spec.options, sort_keys=True),
        "seats_json": json.dumps([s.to_dict() for s in spec.seats]),
        "token_digests_json": json.dumps(list(token_digests)),
        "seed": spec.seed,
        "first_dealer": spec.first_dealer,
        "bot_delay": spec.bot_delay,
        "status": LIVE,
        "result_json": None,
        "acknowledged_json": "{}",
        "shuffle": spec.shuffle,
        "fair_salt": spec.salt,
        "rated": spec.rated,
    }


def parse_acknowledgement(payload: str) -> tuple[int, int] | None:
    """``(seat, deals)`` of the notice of a "Next deal" (``table:meta:ack:seat:deals``),
    None for any other notice.

    >>> parse_acknowledgement("t1:meta:ack:0:3"), parse_acknowledgement("t1:meta")
    ((0, 3), None)
    """
    parts = payload.split(":")
    if len(parts) != 5 or parts[1:3] != ["meta", ACKNOWLEDGED]:
        return None
    if not (parts[3].isdigit() and parts[4].isdigit()):
        return None
    return int(parts[3]), int(parts[4])


def parse_notice(payload: str) -> tuple[str, str, StoredAction | None]:
    """``(table_id, what, action)`` of a NOTIFY payload: ``what`` is ``meta`` or
    the action's number; ``action`` when the payload carries it.

    >>> parse_notice("t1:7:2:discard 9H")
    ('t1', '7', StoredAction(seq=7, seat=2, text='discard 9H'))
    >>> parse_notice("t1:meta"), parse_notice("t1:7")
    (('t1', 'meta', None), ('t1', '7', None))
    """
    table_id, _, rest = payload.partition(":")
    what, _, carried = rest.partition(":")
    seat, _, text = carried.partition(":")
    if what.isdigit() and seat.isdigit() and text:
        return table_id, what, StoredAction(int(what), int(seat), text)
    return table_id, what, None


def upgrade_schema(connection: Connection) -> None:
    """Bring the database on ``connection`` to the newest schema revision (Alembic)."""
    from pyrummy.server.migrations import upgrade

    upgrade(connection)


#: The columns of ``tables``, in the order the direct read of a table lists them.
_TABLE_KEYS = [column.key for column in TABLES_TABLE.columns]
_TABLE_COLUMNS = ", ".join(f"t.{key}" for key in _TABLE_KEYS)


def _stored_table(row: TableRow, actions: Sequence[Sequence[Any]]) -> StoredTable:
    """A table read back: its row and its actions as (seq, seat, text, at)."""
    spec = _spec_of(row)
    humans = {i for i, seat in enumerate(spec.seats) if seat.kind == "human"}
    return StoredTable(
        spec=spec,
        token_digests=json.loads(row.token_digests_json),
        status=row.status,
        finished_at=row.finished_at,
        result=json.loads(row.result_json) if row.result_json else None,
        actions=[StoredAction(seq, seat, text) for seq, seat, text, _ in actions],
        acknowledged={
            int(seat): deals for seat, deals in json.loads(row.acknowledged_json or "{}").items()
        },
        last_human_at=max((at for _, seat, _, at in actions if seat in humans), default=0.0),
    )


def _spec_of(row: TableRow) -> TableSpec:
    return TableSpec(
        table_id=row.id,
        preset=row.preset,
        options=json.loads(row.options_json),
        seats=[SeatSpec.from_dict(s) for s in json.loads(row.seats_json)],
        seed=row.seed,
        first_dealer=row.first_dealer,
        bot_delay=row.bot_delay,
        created_at=row.created_at,
        shuffle=row.shuffle,
        salt=row.fair_salt,
        rated=bool(row.rated),
    )
