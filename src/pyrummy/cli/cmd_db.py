"""``pyrummy db``: the server's database (schema revisions, with Alembic).

``pyrummy db upgrade`` brings a database to the newest schema (the server
also does it at every start); ``pyrummy db current`` shows its revision.
The database is ``--database-url``, else ``DATABASE_URL``, else the SQLite
file under ``--data-dir`` (what ``pyrummy serve`` uses).
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from pyrummy.cli.cmd_serve import add_setting_flags


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "db",
        help="upgrade or inspect the web game's database",
        description="Upgrade or inspect the web game's database schema.",
    )
    parser.add_argument(
        "action",
        choices=("upgrade", "current"),
        help="upgrade: to the newest schema; current: print the schema revision",
    )
    # The same flags as ``pyrummy serve``'s, from the same declarations.
    add_setting_flags(parser, ("database_url", "data_dir"))
    parser.set_defaults(func=run)


def database_url(args: argparse.Namespace) -> str:
    """The database as ``pyrummy serve`` would use it with the same flags."""
    from pyrummy.cli.cmd_serve import settings_from

    return str(settings_from(args).url())


async def _revision(url: str, upgrade: bool) -> str | None:
    from pyrummy.server.migrations import current_revision
    from pyrummy.server.storage import Store, make_engine

    if upgrade:
        store = await Store.open(url)
        engine = store.engine
    else:
        engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(current_revision)
    finally:
        await engine.dispose()


def run(args: argparse.Namespace) -> int:
    from pyrummy.server.migrations import head_revision

    url = database_url(args)
    revision = asyncio.run(_revision(url, upgrade=args.action == "upgrade"))
    head = head_revision()
    shown = revision or "none (not yet created or made before schema versioning)"
    print(f"database schema revision: {shown} (newest: {head})")
    return 0 if args.action == "current" or revision == head else 1
