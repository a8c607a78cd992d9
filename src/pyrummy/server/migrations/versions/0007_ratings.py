"""Ratings: which tables and rooms are rated, each profile's rating per game,
the matches already rated, and each person's change in each.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "rooms", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ratings_by_game", "ratings", ["preset", "mu"])
    op.create_table(
        "rated_matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("profile_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("matches_after", sa.Integer, nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("rated_matches")
    op.drop_index("ratings_by_game", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
