"""The statements of rooms (private tables for friends): the rooms, who is
present, and the chat. What a room means is :mod:`pyrummy.server.rooms`; this
module only reads and writes its rows.

Every change of a room is conditional on its ``version``, so two processes
(or two requests) never both take the last seat.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy
from sqlalchemy import delete, func, insert, or_, select, update

from pyrummy.server.storage.schema import (
    ACTIONS_TABLE,
    CHAT,
    LIVE,
    PRESENCE,
    ROOMS,
    TABLES_TABLE,
)
from pyrummy.server.storage.store import Store

#: The statuses of a room: seats being filled, its table being played, over.
WAITING, STARTED, CLOSED = "waiting", "started", "closed"


class RoomStore:
    """Rooms' rows in the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def row(self, code: str) -> Any | None:
        async with self.store.transaction() as connection:
            return (await connection.execute(select(ROOMS).where(ROOMS.c.code == code))).first()

    async def row_of_table(self, table_id: str) -> Any | None:
        """The room whose table (now or earlier: "play again") is ``table_id``."""
        async with self.store.transaction() as connection:
            return (
                await connection.execute(
                    select(ROOMS).where(
                        or_(ROOMS.c.table_id == table_id, ROOMS.c.tables_json.contains(table_id))
                    )
                )
            ).first()

    async def insert(self, values: dict[str, Any]) -> bool:
        """A new room's row; False when its code is taken already."""
        try:
            async with self.store.transaction() as connection:
                await connection.execute(insert(ROOMS), values)
        except sqlalchemy.exc.IntegrityError:
            return False
        return True

    async def save(self, code: str, version: int, values: dict[str, Any]) -> bool:
        """Change the room if it is still at ``version``; whether it was."""
        async with self.store.transaction() as connection:
            result = await connection.execute(
                update(ROOMS)
                .where(ROOMS.c.code == code, ROOMS.c.version == version)
                .values(**values)
            )
        return bool(result.rowcount == 1)

    async def force(self, code: str, values: dict[str, Any]) -> None:
        """Change the room whatever its version (undoing a claim of this process)."""
        async with self.store.transaction() as connection:
            await connection.execute(update(ROOMS).where(ROOMS.c.code == code).values(**values))

    async def started(self) -> list[Any]:
        """The rooms whose table is being played."""
        async with self.store.transaction() as connection:
            return list(
                (
                    await connection.execute(
                        select(ROOMS)
                        .join(TABLES_TABLE, TABLES_TABLE.c.id == ROOMS.c.table_id)
                        .where(ROOMS.c.status == STARTED, TABLES_TABLE.c.status == LIVE)
                    )
                ).all()
            )

    # -- presence and chat ---------------------------------------------------------------
    async def stamp(self, code: str, who: str, name: str, now: float) -> None:
        """``who`` (``seat:N`` or ``watch:ID``) is here now."""
        async with self.store.transaction() as connection:
            result = await connection.execute(
                update(PRESENCE)
                .where(PRESENCE.c.code == code, PRESENCE.c.who == who)
                .values(seen_at=now, name=name)
            )
            if result.rowcount == 0:
                await connection.execute(
                    insert(PRESENCE), {"code": code, "who": who, "name": name, "seen_at": now}
                )

    async def presence(self, code: str) -> dict[str, tuple[str, float]]:
        async with self.store.transaction() as connection:
            rows = await connection.execute(
                select(PRESENCE.c.who, PRESENCE.c.name, PRESENCE.c.seen_at).where(
                    PRESENCE.c.code == code
                )
            )
            return {who: (name, seen_at) for who, name, seen_at in rows}

    async def add_chat(
        self,
        code: str,
        message: dict[str, Any],
        window: float,
        burst: int,
        gap: float,
        kept: int,
    ) -> bool:
        """Store ``message`` (seat, name, text, at) unless its seat wrote ``burst``
        messages in the last ``window`` seconds or one in the last ``gap``
        (False then); the room keeps its newest ``kept`` messages."""
        now = message["at"]
        async with self.store.transaction() as connection:
            recent = list(
                (
                    await connection.execute(
                        select(CHAT.c.at).where(
                            CHAT.c.code == code,
                            CHAT.c.seat == message["seat"],
                            CHAT.c.at > now - window,
                        )
                    )
                ).scalars()
            )
            if len(recent) >= burst or any(now - at < gap for at in recent):
                return False
            await connection.execute(insert(CHAT), {"code": code, **message})
            oldest_kept = await connection.scalar(
                select(CHAT.c.id)
                .where(CHAT.c.code == code)
                .order_by(CHAT.c.id.desc())
                .offset(kept - 1)
                .limit(1)
            )
            if oldest_kept is not None:
                await connection.execute(
                    delete(CHAT).where(CHAT.c.code == code, CHAT.c.id < oldest_kept)
                )
        return True

    async def chat_since(self, code: str, since: int, limit: int = 50) -> list[dict[str, Any]]:
        """The newest ``limit`` messages after id ``since``, oldest first."""
        async with self.store.transaction() as connection:
            rows = (
                await connection.execute(
                    select(CHAT.c.id, CHAT.c.seat, CHAT.c.name, CHAT.c.text, CHAT.c.at)
                    .where(CHAT.c.code == code, CHAT.c.id > since)
                    .order_by(CHAT.c.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            {"id": i, "seat": seat, "name": name, "text": text, "at": at}
            for i, seat, name, text, at in reversed(rows)
        ]

    # -- clean-up ---------------------------------------------------------------------
    async def prune(
        self, now: float, waiting_ttl: float, ended_ttl: float, watcher_ttl: float
    ) -> int:
        """Close rooms still waiting after ``waiting_ttl`` seconds and rooms whose
        table ended ``ended_ttl`` seconds ago; delete the chat and presence of
        closed rooms and watchers gone for ``watcher_ttl``. Returns how many
        rooms were closed."""
        last_action = (
            select(func.max(ACTIONS_TABLE.c.at))
            .where(ACTIONS_TABLE.c.table_id == ROOMS.c.table_id)
            .scalar_subquery()
        )
        ended = (
            select(TABLES_TABLE.c.id)
            .where(TABLES_TABLE.c.id == ROOMS.c.table_id, TABLES_TABLE.c.status != LIVE)
            .exists()
        )
        async with self.store.transaction() as connection:
            stale_waiting = await connection.execute(
                update(ROOMS)
                .where(ROOMS.c.status == WAITING, ROOMS.c.created_at < now - waiting_ttl)
                .values(status=CLOSED, version=ROOMS.c.version + 1)
            )
            stale_ended = await connection.execute(
                update(ROOMS)
                .where(
                    ROOMS.c.status == STARTED,
                    ended,
                    func.coalesce(last_action, ROOMS.c.started_at) < now - ended_ttl,
                )
                .values(status=CLOSED, version=ROOMS.c.version + 1)
            )
            closed = select(ROOMS.c.code).where(ROOMS.c.status == CLOSED)
            await connection.execute(delete(CHAT).where(CHAT.c.code.in_(closed)))
            await connection.execute(
                delete(PRESENCE).where(
                    or_(
                        PRESENCE.c.code.in_(closed),
                        PRESENCE.c.who.startswith("watch:")
                        & (PRESENCE.c.seen_at < now - watcher_ttl),
                    )
                )
            )
        return int(stale_waiting.rowcount) + int(stale_ended.rowcount)
