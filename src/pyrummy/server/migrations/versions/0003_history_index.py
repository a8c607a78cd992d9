"""The match list, newest first per status, read from an index.

``GET /api/matches`` orders a status's tables by creation time; with this
index a page costs the same whatever the history's size.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

INDEX = "ix_tables_status_created_at"


def upgrade() -> None:
    indexes = {i["name"] for i in sa.inspect(op.get_bind()).get_indexes("tables")}
    if INDEX not in indexes:
        op.create_index(INDEX, "tables", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="tables")
