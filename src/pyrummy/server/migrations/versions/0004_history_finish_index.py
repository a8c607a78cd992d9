"""The match list ordered by finish time (as History shows it), from an index.

``GET /api/matches`` orders a status's tables by ``finished_at`` (then
``created_at``); with this index a page costs the same whatever the
history's size.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None

INDEX = "ix_tables_status_finished_at"


def upgrade() -> None:
    indexes = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("tables")}
    if INDEX not in indexes:
        op.create_index(INDEX, "tables", ["status", "finished_at", "created_at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="tables")
