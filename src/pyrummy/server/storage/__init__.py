"""Durable storage: every SQL statement of the server and the one schema they use.

* :mod:`~pyrummy.server.storage.schema` — the tables (one MetaData);
* :mod:`~pyrummy.server.storage.store` — tables of play and their actions
  (SQLAlchemy 2 asyncio; SQLite by default, PostgreSQL by URL);
* :mod:`~pyrummy.server.storage.group_commit` — the actions of many tables in one commit;
* :mod:`~pyrummy.server.storage.rooms` — rooms, presence and chat;
* :mod:`~pyrummy.server.storage.coordination` — PostgreSQL's advisory locks
  and notifications between server processes;
* :mod:`~pyrummy.server.storage.sqlite_writer` and
  :mod:`~pyrummy.server.storage.pg_direct` — the hot path of play, straight on
  each driver.

The rest of the server calls these; none of it writes SQL.
"""

from pyrummy.server.storage.group_commit import (
    NOTIFY_CHANNEL,
    ActionConflict,
    _Append,
    notice_of,
)
from pyrummy.server.storage.schema import (
    ACTIONS_TABLE,
    CLOSED,
    LIVE,
    OVER,
    QUARANTINED,
    TABLES_TABLE,
    ActionRow,
    Base,
    TableRow,
)
from pyrummy.server.storage.store import (
    ACKNOWLEDGED,
    CLAIM,
    SeatSpec,
    Store,
    StoredAction,
    StoredTable,
    TableMeta,
    TableSpec,
    async_url,
    default_url,
    make_engine,
    parse_acknowledgement,
    parse_notice,
)

__all__ = [
    "ACKNOWLEDGED",
    "ACTIONS_TABLE",
    "CLAIM",
    "CLOSED",
    "LIVE",
    "NOTIFY_CHANNEL",
    "OVER",
    "QUARANTINED",
    "TABLES_TABLE",
    "ActionConflict",
    "ActionRow",
    "Base",
    "SeatSpec",
    "Store",
    "StoredAction",
    "StoredTable",
    "TableMeta",
    "TableRow",
    "TableSpec",
    "_Append",
    "async_url",
    "default_url",
    "make_engine",
    "notice_of",
    "parse_acknowledgement",
    "parse_notice",
]
