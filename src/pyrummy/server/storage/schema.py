"""The database schema: the one MetaData every statement of the server is written against.

``tables`` and ``actions`` hold the tables of play (ORM rows, for the reads
that build a table); ``rooms``, ``room_presence`` and ``room_chat`` hold the
rooms of friends; ``profiles``, ``profile_sessions``, ``profile_seats``,
``passkeys`` and ``passkey_challenges`` hold the players' profiles;
``ratings``, ``rated_matches`` and ``rating_changes`` their ratings (Core
tables); ``quick_queue``, ``quick_matches`` and ``quick_leaves`` the quick
match (:mod:`~pyrummy.server.storage.queue`). Alembic's revisions (:mod:`pyrummy.server.migrations`)
create them; this module says what the code expects to find.
"""

from __future__ import annotations

import sqlalchemy
from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    preset: Mapped[str] = mapped_column(String(32))
    options_json: Mapped[str] = mapped_column(Text)
    seats_json: Mapped[str] = mapped_column(Text)
    token_digests_json: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer)
    bot_delay: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(8), index=True)
    result_json: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Per human seat, how many finished deals that person has seen the
    # showdown of ("Next deal"): so a restart shows exactly what they saw.
    acknowledged_json: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    # Fair deals (docs/fair-deals.md): the shuffle the deals' seeds deal by
    # (NULL: the legacy one of tables made before) and the match's secret
    # salt, from which each deal's commitment is made (NULL: none).
    shuffle: Mapped[str | None] = mapped_column(String(16), nullable=True)
    fair_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Whether the match changes its people's ratings (a quick match, or a
    # friends' table its creator made rated).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sqlalchemy.false())


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    at: Mapped[float] = mapped_column(Float)


ROOMS = sqlalchemy.Table(
    "rooms",
    Base.metadata,
    sqlalchemy.Column("code", sqlalchemy.String(8), primary_key=True),
    sqlalchemy.Column("created_at", sqlalchemy.Float),
    sqlalchemy.Column("started_at", sqlalchemy.Float, nullable=True),
    sqlalchemy.Column("status", sqlalchemy.String(8)),
    sqlalchemy.Column("version", sqlalchemy.Integer),
    sqlalchemy.Column("preset", sqlalchemy.String(32)),
    sqlalchemy.Column("options_json", sqlalchemy.Text),
    sqlalchemy.Column("seats_json", sqlalchemy.Text),
    sqlalchemy.Column("creator", sqlalchemy.Integer),
    sqlalchemy.Column("turn_timer", sqlalchemy.Integer),
    sqlalchemy.Column("grace", sqlalchemy.Float),
    sqlalchemy.Column("bot_delay", sqlalchemy.Float),
    sqlalchemy.Column("table_id", sqlalchemy.String(32), nullable=True),
    sqlalchemy.Column("tables_json", sqlalchemy.Text),
    sqlalchemy.Column("away_json", sqlalchemy.Text),
    sqlalchemy.Column("rated", sqlalchemy.Boolean, server_default=sqlalchemy.false()),
)
PRESENCE = sqlalchemy.Table(
    "room_presence",
    Base.metadata,
    sqlalchemy.Column("code", sqlalchemy.String(8), primary_key=True),
    sqlalchemy.Column("who", sqlalchemy.String(48), primary_key=True),
    sqlalchemy.Column("name", sqlalchemy.String(32)),
    sqlalchemy.Column("seen_at", sqlalchemy.Float),
)
CHAT = sqlalchemy.Table(
    "room_chat",
    Base.metadata,
    sqlalchemy.Column("id", sqlalchemy.Integer, primary_key=True, autoincrement=True),
    sqlalchemy.Column("code", sqlalchemy.String(8)),
    sqlalchemy.Column("seat", sqlalchemy.Integer),
    sqlalchemy.Column("name", sqlalchemy.String(32)),
    sqlalchemy.Column("text", sqlalchemy.String(200)),
    sqlalchemy.Column("at", sqlalchemy.Float),
)
QUEUE = sqlalchemy.Table(
    "quick_queue",
    Base.metadata,
    sqlalchemy.Column("id", sqlalchemy.Integer, primary_key=True, autoincrement=True),
    sqlalchemy.Column("player", sqlalchemy.String(64)),
    sqlalchemy.Column("ticket_digest", sqlalchemy.String(64), unique=True),
    sqlalchemy.Column("preset", sqlalchemy.String(32)),
    sqlalchemy.Column("players", sqlalchemy.Integer),
    sqlalchemy.Column("name", sqlalchemy.String(32)),
    sqlalchemy.Column("bot_wait", sqlalchemy.Float, nullable=True),
    sqlalchemy.Column("bot_level", sqlalchemy.String(16)),
    sqlalchemy.Column("joined_at", sqlalchemy.Float),
    sqlalchemy.Column("seen_at", sqlalchemy.Float),
    sqlalchemy.Column("status", sqlalchemy.String(8)),
    sqlalchemy.Column("table_id", sqlalchemy.String(32), nullable=True),
    sqlalchemy.Column("seat", sqlalchemy.Integer, nullable=True),
    sqlalchemy.Column("seated_at", sqlalchemy.Float, nullable=True),
)
QUICK_MATCHES = sqlalchemy.Table(
    "quick_matches",
    Base.metadata,
    sqlalchemy.Column(
        "table_id",
        sqlalchemy.String(32),
        ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sqlalchemy.Column("preset", sqlalchemy.String(32)),
    sqlalchemy.Column("players", sqlalchemy.Integer),
    sqlalchemy.Column("rated", sqlalchemy.Boolean),
    sqlalchemy.Column("created_at", sqlalchemy.Float),
    sqlalchemy.Column("seat_players_json", sqlalchemy.Text),
    sqlalchemy.Column("left_json", sqlalchemy.Text),
)
LEAVES = sqlalchemy.Table(
    "quick_leaves",
    Base.metadata,
    sqlalchemy.Column("id", sqlalchemy.Integer, primary_key=True, autoincrement=True),
    sqlalchemy.Column("player", sqlalchemy.String(64)),
    sqlalchemy.Column("table_id", sqlalchemy.String(32)),
    sqlalchemy.Column("seat", sqlalchemy.Integer),
    sqlalchemy.Column("at", sqlalchemy.Float),
    sqlalchemy.UniqueConstraint("table_id", "seat", name="quick_leaves_once"),
)

PROFILES = sqlalchemy.Table(
    "profiles",
    Base.metadata,
    sqlalchemy.Column("id", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("name", sqlalchemy.String(32), nullable=True),
    sqlalchemy.Column("created_at", sqlalchemy.Float),
    sqlalchemy.Column("deleted_at", sqlalchemy.Float, nullable=True),
)
#: One row per signed-in browser: the SHA-256 of its cookie's secret, never the secret.
PROFILE_SESSIONS = sqlalchemy.Table(
    "profile_sessions",
    Base.metadata,
    sqlalchemy.Column("digest", sqlalchemy.String(64), primary_key=True),
    sqlalchemy.Column(
        "profile_id",
        sqlalchemy.String(32),
        ForeignKey("profiles.id", ondelete="CASCADE"),
        index=True,
    ),
    sqlalchemy.Column("created_at", sqlalchemy.Float),
)
#: Which profile sat in which seat of which table (at most once per table).
PROFILE_SEATS = sqlalchemy.Table(
    "profile_seats",
    Base.metadata,
    sqlalchemy.Column("table_id", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("seat", sqlalchemy.Integer, primary_key=True),
    sqlalchemy.Column("profile_id", sqlalchemy.String(32), index=True),
    sqlalchemy.UniqueConstraint("table_id", "profile_id", name="one_seat_per_profile"),
)
PASSKEYS = sqlalchemy.Table(
    "passkeys",
    Base.metadata,
    sqlalchemy.Column("credential_id", sqlalchemy.String(1400), primary_key=True),
    sqlalchemy.Column(
        "profile_id",
        sqlalchemy.String(32),
        ForeignKey("profiles.id", ondelete="CASCADE"),
        index=True,
    ),
    sqlalchemy.Column("public_key", sqlalchemy.LargeBinary),
    sqlalchemy.Column("sign_count", sqlalchemy.BigInteger),
    sqlalchemy.Column("label", sqlalchemy.String(64)),
    sqlalchemy.Column("created_at", sqlalchemy.Float),
    sqlalchemy.Column("used_at", sqlalchemy.Float, nullable=True),
)
#: Each WebAuthn challenge the server handed out, until used once or expired.
PASSKEY_CHALLENGES = sqlalchemy.Table(
    "passkey_challenges",
    Base.metadata,
    sqlalchemy.Column("challenge", sqlalchemy.String(128), primary_key=True),
    sqlalchemy.Column("purpose", sqlalchemy.String(16)),
    sqlalchemy.Column("profile_id", sqlalchemy.String(32), nullable=True),
    sqlalchemy.Column("expires_at", sqlalchemy.Float, index=True),
)
#: A profile's rating in one game (see :mod:`pyrummy.server.storage.ratings`).
RATINGS = sqlalchemy.Table(
    "ratings",
    Base.metadata,
    sqlalchemy.Column(
        "profile_id",
        sqlalchemy.String(32),
        ForeignKey("profiles.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sqlalchemy.Column("preset", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("mu", sqlalchemy.Float),
    sqlalchemy.Column("sigma", sqlalchemy.Float),
    sqlalchemy.Column("matches", sqlalchemy.Integer),
    sqlalchemy.Column("updated_at", sqlalchemy.Float),
    sqlalchemy.Index("ratings_by_game", "preset", "mu"),
)
#: The matches already rated: one row each, so a match is rated once.
RATED_MATCHES = sqlalchemy.Table(
    "rated_matches",
    Base.metadata,
    sqlalchemy.Column("table_id", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("preset", sqlalchemy.String(32)),
    sqlalchemy.Column("rated_at", sqlalchemy.Float),
)
#: Each person's change in each rated match (one row per match and profile).
RATING_CHANGES = sqlalchemy.Table(
    "rating_changes",
    Base.metadata,
    sqlalchemy.Column("table_id", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("profile_id", sqlalchemy.String(32), primary_key=True),
    sqlalchemy.Column("seat", sqlalchemy.Integer),
    sqlalchemy.Column("preset", sqlalchemy.String(32)),
    sqlalchemy.Column("place", sqlalchemy.Integer),
    sqlalchemy.Column("mu_before", sqlalchemy.Float),
    sqlalchemy.Column("sigma_before", sqlalchemy.Float),
    sqlalchemy.Column("mu_after", sqlalchemy.Float),
    sqlalchemy.Column("sigma_after", sqlalchemy.Float),
    sqlalchemy.Column("matches_after", sqlalchemy.Integer),
    sqlalchemy.Column("rated_at", sqlalchemy.Float),
)

#: The statuses of a stored table: played, finished, closed because its people
#: left (not resumed at start), or set aside because it no longer loads (kept
#: for study, not deleted).
LIVE, OVER, CLOSED, QUARANTINED = "live", "over", "closed", "broken"
#: The tables of play as Core objects, for the statements on the hot path of play.
ACTIONS_TABLE = Base.metadata.tables["actions"]
TABLES_TABLE = Base.metadata.tables["tables"]
