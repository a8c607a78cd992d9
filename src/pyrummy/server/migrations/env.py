"""Alembic's entry point: migrations always run on a connection given by the caller."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached through the alembic CLI
    raise RuntimeError("run migrations with `pyrummy db upgrade` (it opens the database)")
context.configure(connection=connection, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
