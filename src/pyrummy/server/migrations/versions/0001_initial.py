"""The tables and actions of the first stored schema (created only where missing).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "tables" not in existing:
        op.create_table(
            "tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("finished_at", sa.Float, nullable=True),
            sa.Column("preset", sa.String(32), nullable=False),
            sa.Column("options_json", sa.Text, nullable=False),
            sa.Column("seats_json", sa.Text, nullable=False),
            sa.Column("token_digests_json", sa.Text, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("first_dealer", sa.Integer, nullable=False),
            sa.Column("bot_delay", sa.Float, nullable=False),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("result_json", sa.Text, nullable=True),
        )
        op.create_index("ix_tables_status", "tables", ["status"])
    if "actions" not in existing:
        op.create_table(
            "actions",
            sa.Column(
                "table_id",
                sa.String(32),
                sa.ForeignKey("tables.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("text", sa.String(200), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("tables")
