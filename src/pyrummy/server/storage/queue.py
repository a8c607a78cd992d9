"""The statements of the quick match: the queue, the tables it started, and who left them.

What the queue means is :mod:`pyrummy.server.quick`; this module only reads
and writes its rows.

* ``quick_queue`` — one row per person waiting (``waiting``) or just seated
  (``seated``, with the table and seat, until the person's page has read it).
  A person (``player``: an opaque id, the profile) waits in one queue at a
  time: a partial unique index refuses a second waiting row, whichever
  browser or server process sends it. The entry's secret ticket is never
  stored, only its SHA-256 digest, which becomes the seat's token digest
  when the person is seated: the ticket the page holds *is* its seat token.
* ``quick_matches`` — the tables the queue started. **For ratings:** a row
  here says the table is a quick match; ``rated`` (always true for quick
  matches) says whether it counts; ``seat_players`` names the player id of
  each person's seat (None: a bot); ``left`` lists the seats whose person
  left the match (resigned, or timed out), each of which counts as that
  person's loss whatever the bot that played on made of it. Read it with
  :meth:`QueueStore.quick_match`.
* ``quick_leaves`` — one row per rated match a person left; the cooldowns
  are counted from them.

**Claiming.** :meth:`QueueStore.claim` opens one transaction, reads a
queue's waiting rows oldest first with ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL (rows another process is seating are skipped, not waited for),
and seats groups with a conditional update (``status = 'waiting'``), the
table's row and its ``quick_matches`` row in the same transaction: a person
is seated once or not at all, and a table exists exactly when its people
were seated at it. SQLite has no row locks: one process serves it, and the
conditional update (with the service's lock per queue) suffices.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pyrummy.server.storage.schema import (
    LEAVES,
    LIVE,
    PROFILE_SEATS,
    QUEUE,
    QUICK_MATCHES,
    TABLES_TABLE,
)
from pyrummy.server.storage.store import Store, TableSpec, table_row

#: The statuses of a queue entry.
WAITING, SEATED = "waiting", "seated"


@dataclass(frozen=True)
class QueueEntry:
    """One person in a queue (``preset`` for ``players`` people)."""

    id: int
    player: str
    ticket_digest: str
    preset: str
    players: int
    name: str
    #: Seconds after joining when bots may fill the empty seats (None: never).
    bot_wait: float | None
    bot_level: str
    joined_at: float
    seen_at: float
    status: str
    table_id: str | None = None
    seat: int | None = None


@dataclass(frozen=True)
class QuickMatchRow:
    """A table the quick match started (see the module's docstring: for ratings)."""

    table_id: str
    preset: str
    players: int
    rated: bool
    created_at: float
    seat_players: list[str | None]
    left: list[int]


class ClaimLost(Exception):
    """A row of the group was seated or left meanwhile: the claim is undone."""


def _entry(row: Any) -> QueueEntry:
    return QueueEntry(
        id=row.id,
        player=row.player,
        ticket_digest=row.ticket_digest,
        preset=row.preset,
        players=row.players,
        name=row.name,
        bot_wait=row.bot_wait,
        bot_level=row.bot_level,
        joined_at=row.joined_at,
        seen_at=row.seen_at,
        status=row.status,
        table_id=row.table_id,
        seat=row.seat,
    )


@dataclass
class Claim:
    """A queue's waiting rows, locked in an open transaction, and the seating of groups."""

    connection: AsyncConnection
    #: The fresh waiting rows, oldest first.
    waiting: list[QueueEntry]

    async def seat(
        self,
        spec: TableSpec,
        token_digests: Sequence[str | None],
        seated: dict[int, int],
        seat_players: Sequence[str | None],
        now: float,
    ) -> None:
        """Start table ``spec`` and seat the entries ``seated`` (entry id → seat).

        Raises :class:`ClaimLost` (the caller's transaction is then rolled
        back) when one of them is no longer waiting.
        """
        for entry_id, seat in seated.items():
            changed = await self.connection.execute(
                update(QUEUE)
                .where(QUEUE.c.id == entry_id, QUEUE.c.status == WAITING)
                .values(status=SEATED, table_id=spec.table_id, seat=seat, seated_at=now)
            )
            if changed.rowcount != 1:
                raise ClaimLost(entry_id)
        await self.connection.execute(insert(TABLES_TABLE), table_row(spec, token_digests))
        profiled = [
            {"table_id": spec.table_id, "seat": i, "profile_id": seat.profile}
            for i, seat in enumerate(spec.seats)
            if seat.profile is not None
        ]
        if profiled:
            await self.connection.execute(insert(PROFILE_SEATS), profiled)
        await self.connection.execute(
            insert(QUICK_MATCHES),
            {
                "table_id": spec.table_id,
                "preset": spec.preset,
                "players": len(spec.seats),
                "rated": True,
                "created_at": now,
                "seat_players_json": json.dumps(list(seat_players)),
                "left_json": "[]",
            },
        )


class QueueStore:
    """The quick match's rows in the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- entries ---------------------------------------------------------------------
    async def join(self, values: dict[str, Any]) -> bool:
        """A new waiting entry; False when its person waits in a queue already."""
        try:
            async with self.store.transaction() as connection:
                await connection.execute(insert(QUEUE), {"status": WAITING, **values})
        except sqlalchemy.exc.IntegrityError:
            return False
        return True

    async def by_ticket(self, digest: str) -> QueueEntry | None:
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(select(QUEUE).where(QUEUE.c.ticket_digest == digest))
            ).first()
        return None if row is None else _entry(row)

    async def waiting_of(self, player: str) -> QueueEntry | None:
        """The queue ``player`` waits in, if any."""
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(
                    select(QUEUE).where(QUEUE.c.player == player, QUEUE.c.status == WAITING)
                )
            ).first()
        return None if row is None else _entry(row)

    async def seen(self, entry_id: int, now: float) -> None:
        """The entry's page is still open (a poll)."""
        async with self.store.transaction() as connection:
            await connection.execute(
                update(QUEUE).where(QUEUE.c.id == entry_id).values(seen_at=now)
            )

    async def leave(self, entry_id: int) -> bool:
        """Remove a waiting entry; False when it was seated (or gone) meanwhile."""
        async with self.store.transaction() as connection:
            removed = await connection.execute(
                delete(QUEUE).where(QUEUE.c.id == entry_id, QUEUE.c.status == WAITING)
            )
        return bool(removed.rowcount == 1)

    async def waiting_counts(self, fresh_since: float) -> dict[tuple[str, int], int]:
        """How many people wait, per (preset, players)."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(QUEUE.c.preset, QUEUE.c.players, func.count())
                .where(QUEUE.c.status == WAITING, QUEUE.c.seen_at >= fresh_since)
                .group_by(QUEUE.c.preset, QUEUE.c.players)
            )
            return {(preset, players): int(n) for preset, players, n in rows}

    async def ahead_of(self, entry: QueueEntry, fresh_since: float) -> int:
        """How many fresh entries of the same queue joined before ``entry``."""
        earlier = (QUEUE.c.joined_at < entry.joined_at) | (
            (QUEUE.c.joined_at == entry.joined_at) & (QUEUE.c.id < entry.id)
        )
        async with self.store.transaction() as connection:
            found = await connection.scalar(
                select(func.count()).where(
                    QUEUE.c.preset == entry.preset,
                    QUEUE.c.players == entry.players,
                    QUEUE.c.status == WAITING,
                    QUEUE.c.seen_at >= fresh_since,
                    earlier,
                )
            )
        return int(found or 0)

    async def queues_waiting(self, fresh_since: float) -> list[tuple[str, int]]:
        """The queues somebody fresh waits in."""
        return sorted(await self.waiting_counts(fresh_since))

    @contextlib.asynccontextmanager
    async def claim(self, preset: str, players: int, fresh_since: float) -> AsyncIterator[Claim]:
        """The queue's fresh waiting rows, locked (PostgreSQL: ``FOR UPDATE SKIP
        LOCKED``) for one transaction; what :meth:`Claim.seat` does in it is
        committed together when the block ends, or not at all."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(QUEUE)
                .where(
                    QUEUE.c.preset == preset,
                    QUEUE.c.players == players,
                    QUEUE.c.status == WAITING,
                    QUEUE.c.seen_at >= fresh_since,
                )
                .order_by(QUEUE.c.joined_at, QUEUE.c.id)
                .limit(200)
                .with_for_update(skip_locked=True)
            )
            yield Claim(connection, [_entry(row) for row in rows])

    async def prune(self, stale_before: float, seated_before: float) -> int:
        """Remove waiting entries not polled since ``stale_before`` (a closed
        tab) and seated ones older than ``seated_before``; returns how many."""
        async with self.store.transaction() as connection:
            stale = await connection.execute(
                delete(QUEUE).where(QUEUE.c.status == WAITING, QUEUE.c.seen_at < stale_before)
            )
            seated = await connection.execute(
                delete(QUEUE).where(QUEUE.c.status == SEATED, QUEUE.c.seated_at < seated_before)
            )
        return int(stale.rowcount or 0) + int(seated.rowcount or 0)

    # -- the tables it started ---------------------------------------------------------
    async def quick_match(self, table_id: str) -> QuickMatchRow | None:
        """The quick match at ``table_id`` (None: not a quick-match table)."""
        async with self.store.transaction() as connection:
            row = (
                await connection.execute(
                    select(QUICK_MATCHES).where(QUICK_MATCHES.c.table_id == table_id)
                )
            ).first()
        if row is None:
            return None
        return QuickMatchRow(
            table_id=row.table_id,
            preset=row.preset,
            players=row.players,
            rated=bool(row.rated),
            created_at=row.created_at,
            seat_players=json.loads(row.seat_players_json),
            left=json.loads(row.left_json),
        )

    async def live_tables(self) -> list[str]:
        """The quick-match tables still being played."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(QUICK_MATCHES.c.table_id)
                .join(TABLES_TABLE, TABLES_TABLE.c.id == QUICK_MATCHES.c.table_id)
                .where(TABLES_TABLE.c.status == LIVE)
            )
            return [table_id for (table_id,) in rows]

    async def record_leave(self, table_id: str, seat: int, now: float) -> str | None:
        """``seat``'s person left the quick match at ``table_id``: the seat is
        added to the match's ``left`` and a leave is counted against its
        player. Returns the player (None: not a quick match, a bot's seat, or
        the seat was left already)."""
        try:
            async with self.store.transaction() as connection:
                row = (
                    await connection.execute(
                        select(QUICK_MATCHES.c.seat_players_json, QUICK_MATCHES.c.left_json)
                        .where(QUICK_MATCHES.c.table_id == table_id)
                        .with_for_update()
                    )
                ).first()
                if row is None:
                    return None
                seat_players = json.loads(row[0])
                player = seat_players[seat] if 0 <= seat < len(seat_players) else None
                if player is None:
                    return None
                await connection.execute(
                    insert(LEAVES),
                    {"player": player, "table_id": table_id, "seat": seat, "at": now},
                )
                await connection.execute(
                    update(QUICK_MATCHES)
                    .where(QUICK_MATCHES.c.table_id == table_id)
                    .values(left_json=json.dumps(sorted({*json.loads(row[1]), seat})))
                )
        except sqlalchemy.exc.IntegrityError:  # left once already
            return None
        return str(player)

    async def leaves_since(self, player: str, since: float) -> list[float]:
        """When ``player`` left rated matches since ``since``, oldest first."""
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(LEAVES.c.at)
                .where(LEAVES.c.player == player, LEAVES.c.at >= since)
                .order_by(LEAVES.c.at)
            )
            return [float(at) for (at,) in rows]
