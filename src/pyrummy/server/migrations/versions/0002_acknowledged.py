"""Per human seat, how many finished deals' showdowns that person has seen.

Databases made before this column crashed the server at start
(``no such column: tables.acknowledged_json``); here it is added where missing.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
    if "acknowledged_json" not in columns:
        with op.batch_alter_table("tables") as batch:
            batch.add_column(
                sa.Column("acknowledged_json", sa.Text, nullable=False, server_default="{}")
            )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("acknowledged_json")
