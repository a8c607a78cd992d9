"""Players' profiles: the profile, its signed-in browsers (cookie digests),
the seats it took, its passkeys and the WebAuthn challenges handed out.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float, nullable=True),
    )
    op.create_table(
        "profile_sessions",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "profile_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("profile_id", sa.String(32), nullable=False, index=True),
        sa.UniqueConstraint("table_id", "profile_id", name="one_seat_per_profile"),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column(
            "profile_id",
            sa.String(32),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
    op.drop_table("profile_seats")
    op.drop_table("profile_sessions")
    op.drop_table("profiles")
