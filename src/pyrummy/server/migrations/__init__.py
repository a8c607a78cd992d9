"""The storage schema's history, as Alembic revisions (``versions/``).

:func:`upgrade` runs at every server start (through ``Store.open``) and with
``pyrummy db upgrade``. The first revisions are written to accept the
databases made before Alembic: they create or add only what is missing, so
an old file is upgraded in place and stamped.

A new schema change is one new file in ``versions/`` (copy the newest one:
``revision`` is the next number, ``down_revision`` the previous), written
with ``op`` against explicit column lists (never the ORM models, which move
on), and checked by a test that upgrades a database of the previous revision.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

LOCATION = Path(__file__).resolve().parent


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration for this package, bound to ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(LOCATION))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision in ``versions/``."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the database on ``connection`` is at (None: never stamped)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Upgrade the database on ``connection`` (inside its transaction) to ``revision``."""
    command.upgrade(alembic_config(connection), revision)
