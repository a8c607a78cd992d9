"""Private tables for friends: rooms (a code, seats, the waiting room), who is
here (presence) and the table's chat.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "rooms" not in existing:
        op.create_table(
            "rooms",
            sa.Column("code", sa.String(8), primary_key=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("started_at", sa.Float, nullable=True),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("preset", sa.String(32), nullable=False),
            sa.Column("options_json", sa.Text, nullable=False),
            sa.Column("seats_json", sa.Text, nullable=False),
            sa.Column("creator", sa.Integer, nullable=False),
            sa.Column("turn_timer", sa.Integer, nullable=False),
            sa.Column("grace", sa.Float, nullable=False),
            sa.Column("bot_delay", sa.Float, nullable=False),
            sa.Column("table_id", sa.String(32), nullable=True, index=True),
            sa.Column("tables_json", sa.Text, nullable=False, server_default="[]"),
            sa.Column("away_json", sa.Text, nullable=False, server_default="{}"),
        )
    if "room_presence" not in existing:
        op.create_table(
            "room_presence",
            sa.Column("code", sa.String(8), primary_key=True),
            sa.Column("who", sa.String(48), primary_key=True),
            sa.Column("name", sa.String(32), nullable=False),
            sa.Column("seen_at", sa.Float, nullable=False),
        )
    if "room_chat" not in existing:
        op.create_table(
            "room_chat",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("code", sa.String(8), nullable=False, index=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("name", sa.String(32), nullable=False),
            sa.Column("text", sa.String(200), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("room_chat")
    op.drop_table("room_presence")
    op.drop_table("rooms")
