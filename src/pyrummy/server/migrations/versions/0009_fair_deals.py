"""Fair deals: each table's shuffle and the secret salt of its deals' commitments.

Tables made before have neither (NULL): their seeds keep dealing by the
legacy shuffle, so they replay as they were played, without commitments.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
    with op.batch_alter_table("tables") as batch:
        if "shuffle" not in columns:
            batch.add_column(sa.Column("shuffle", sa.String(16), nullable=True))
        if "fair_salt" not in columns:
            batch.add_column(sa.Column("fair_salt", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fair_salt")
        batch.drop_column("shuffle")
