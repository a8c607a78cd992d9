"""The statements server processes coordinate with on PostgreSQL: advisory
locks (which process plays a table's bots) and notifications (what changed).

Each runs on a dedicated autocommit psycopg connection of :mod:`pyrummy.server.cluster`
(a lock belongs to the session that took it); the cluster decides when.
"""

from __future__ import annotations

import hashlib
from typing import Any

import psycopg

from pyrummy.server.storage.group_commit import NOTIFY_CHANNEL

Connection = psycopg.AsyncConnection[Any]


def lock_key(table_id: str) -> int:
    """The advisory lock number of a table (a stable signed 64-bit integer).

    >>> lock_key("abc") == lock_key("abc") != lock_key("abd")
    True
    """
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:8], "big", signed=True)


async def unlock(connection: Connection, table_id: str) -> None:
    await connection.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))


async def try_lock(connection: Connection, table_id: str) -> bool:
    """Take the table's lock unless another session holds it; whether it is held now."""
    cursor = await connection.execute("SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),))
    row = await cursor.fetchone()
    return bool(row is not None and row[0])


async def try_lock_many(connection: Connection, table_ids: list[str]) -> list[str]:
    """The tables among ``table_ids`` whose lock was taken now (one statement)."""
    keys = {lock_key(t): t for t in table_ids}
    cursor = await connection.execute(
        "SELECT key FROM unnest(%s::bigint[]) AS key WHERE pg_try_advisory_lock(key)",
        (list(keys),),
    )
    return [keys[key] for (key,) in await cursor.fetchall()]


async def listen(connection: Connection) -> None:
    """Receive the notices of every stored change on ``connection``."""
    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")


async def notify_all(connection: Connection, table_ids: list[str], what: str) -> None:
    """Send ``table:what`` for each table, in one statement."""
    await connection.execute(
        "SELECT pg_notify(%s, t || %s) FROM unnest(%s::text[]) AS t",
        (NOTIFY_CHANNEL, f":{what}", table_ids),
    )


async def ping(connection: Connection) -> None:
    """Raise ``psycopg.Error`` when the connection (and so its locks) is gone."""
    await connection.execute("SELECT 1")
