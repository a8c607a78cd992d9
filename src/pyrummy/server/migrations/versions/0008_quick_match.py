"""Quick match: the queue of people waiting to be seated, the tables it started
(rated, and who sat where), and the rated matches people left (their cooldowns).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "quick_queue" not in existing:
        op.create_table(
            "quick_queue",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("player", sa.String(64), nullable=False, index=True),
            sa.Column("ticket_digest", sa.String(64), nullable=False, unique=True),
            sa.Column("preset", sa.String(32), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("name", sa.String(32), nullable=False),
            sa.Column("bot_wait", sa.Float, nullable=True),
            sa.Column("bot_level", sa.String(16), nullable=False),
            sa.Column("joined_at", sa.Float, nullable=False),
            sa.Column("seen_at", sa.Float, nullable=False),
            sa.Column("status", sa.String(8), nullable=False),
            sa.Column("table_id", sa.String(32), nullable=True),
            sa.Column("seat", sa.Integer, nullable=True),
            sa.Column("seated_at", sa.Float, nullable=True),
        )
        op.create_index(
            "quick_queue_waiting", "quick_queue", ["preset", "players", "status", "joined_at"]
        )
        # One waiting entry per person: a second browser of the same person is refused.
        op.create_index(
            "quick_queue_one_wait",
            "quick_queue",
            ["player"],
            unique=True,
            sqlite_where=sa.text("status = 'waiting'"),
            postgresql_where=sa.text("status = 'waiting'"),
        )
    if "quick_matches" not in existing:
        op.create_table(
            "quick_matches",
            sa.Column(
                "table_id",
                sa.String(32),
                sa.ForeignKey("tables.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("preset", sa.String(32), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
            sa.Column("created_at", sa.Float, nullable=False),
            # Per seat the player id of the person there (null: a bot).
            sa.Column("seat_players_json", sa.Text, nullable=False),
            # The seats whose person left the match (a bot played on): each a loss.
            sa.Column("left_json", sa.Text, nullable=False, server_default="[]"),
        )
    if "quick_leaves" not in existing:
        op.create_table(
            "quick_leaves",
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("player", sa.String(64), nullable=False, index=True),
            sa.Column("table_id", sa.String(32), nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            # A seat is left once.
            sa.UniqueConstraint("table_id", "seat", name="quick_leaves_once"),
        )


def downgrade() -> None:
    op.drop_table("quick_leaves")
    op.drop_table("quick_matches")
    op.drop_index("quick_queue_one_wait", table_name="quick_queue")
    op.drop_index("quick_queue_waiting", table_name="quick_queue")
    op.drop_table("quick_queue")
