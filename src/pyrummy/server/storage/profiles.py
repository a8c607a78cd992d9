"""The statements of players' profiles: the profile, its signed-in browsers,
the seats it took, its passkeys and the WebAuthn challenges handed out.

A profile is a person without a password: a random ``id``, a display name
(None until one is chosen) and when it was made. Each browser that plays as
the profile holds a secret in the ``pyrummy_profile`` cookie; only the
secret's SHA-256 is stored (``profile_sessions``), so a copy of the database
signs nobody in. Deleting a profile anonymises it: the name, the browsers and
the passkeys go, and the stored tables it sat at lose its name and id (their
matches stay, as "Player N").

The interface the rest of the server uses (routes get it through
:mod:`pyrummy.server.deps`: ``CurrentProfile`` is the caller's
:class:`Profile` or None; ``ProfileOrNew`` makes one on first play; a seat is
bound by ``SeatSpec(..., profile=profile.id)`` and stored with the table):

* :meth:`ProfileStore.create` ``(name) -> (Profile, secret)`` and
  :meth:`~ProfileStore.by_secret` ``(secret) -> Profile | None``;
* :meth:`~ProfileStore.by_id`, :meth:`~ProfileStore.rename`,
  :meth:`~ProfileStore.delete`;
* :meth:`~ProfileStore.new_session` / :meth:`~ProfileStore.end_session` (sign
  in and out of one browser);
* :meth:`~ProfileStore.seated_at` ``(table_id) -> {seat: profile_id}`` and
  :meth:`~ProfileStore.tables_of` (the tables a profile sat at);
* :meth:`~ProfileStore.matches` and :meth:`~ProfileStore.statistics` (its
  finished matches, per game: played, won, points);
* passkeys and challenges (:mod:`pyrummy.server.passkeys` uses them).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

import sqlalchemy
from sqlalchemy import delete, insert, select, update

from pyrummy.server.storage.schema import (
    LIVE,
    OVER,
    PASSKEY_CHALLENGES,
    PASSKEYS,
    PROFILE_SEATS,
    PROFILE_SESSIONS,
    PROFILES,
    TABLES_TABLE,
)
from pyrummy.server.storage.store import Store


@dataclass(frozen=True)
class Profile:
    """A player: ``id`` is public within the server (seats, ratings), never a secret."""

    id: str
    name: str | None
    created_at: float


@dataclass(frozen=True)
class Passkey:
    """A passkey of a profile; ``credential_id`` is base64url, as WebAuthn sends it."""

    credential_id: str
    profile_id: str
    public_key: bytes
    sign_count: int
    label: str
    created_at: float
    used_at: float | None


@dataclass(frozen=True)
class FinishedMatch:
    """One finished match of a profile, as its profile page lists it."""

    table_id: str
    preset: str
    finished_at: float
    seat: int
    players: int
    won: bool
    points: float
    resigned: bool


@dataclass
class GameStatistics:
    """A profile's finished matches of one game (preset)."""

    played: int = 0
    won: int = 0
    points: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def statistics_of(matches: Iterable[FinishedMatch]) -> dict[str, GameStatistics]:
    """Per game (preset), sorted by name: matches played, won, and points scored."""
    games: dict[str, GameStatistics] = {}
    for match in sorted(matches, key=lambda m: m.preset):
        game = games.setdefault(match.preset, GameStatistics())
        game.played += 1
        game.won += int(match.won)
        game.points += match.points
    return games


def secret_digest(secret: str) -> str:
    """The SHA-256 of a cookie's secret: what is stored instead of it.

    >>> len(secret_digest("x")), secret_digest("x") == secret_digest("x")
    (64, True)
    """
    return hashlib.sha256(secret.encode()).hexdigest()


def _profile(row: Any) -> Profile:
    return Profile(row.id, row.name, row.created_at)


def _passkey(row: Any) -> Passkey:
    return Passkey(
        row.credential_id,
        row.profile_id,
        bytes(row.public_key),
        int(row.sign_count),
        row.label,
        row.created_at,
        row.used_at,
    )


class ProfileStore:
    """Profiles' rows in the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- profiles and their browsers -------------------------------------------------------
    async def create(self, name: str | None) -> tuple[Profile, str]:
        """A new profile signed in on one browser: the profile and that browser's
        secret (given once; only its digest is kept)."""
        profile = Profile(secrets.token_hex(12), name, time.time())
        secret = secrets.token_urlsafe(32)
        async with self.store.transaction() as connection:
            await connection.execute(
                insert(PROFILES),
                {"id": profile.id, "name": name, "created_at": profile.created_at},
            )
            await connection.execute(
                insert(PROFILE_SESSIONS),
                {
                    "digest": secret_digest(secret),
                    "profile_id": profile.id,
                    "created_at": profile.created_at,
                },
            )
        return profile, secret

    async def by_secret(self, secret: str) -> Profile | None:
        """The live profile a browser's secret signs in (None: unknown, signed
        out, or the profile was deleted)."""
        async with self.store.read() as connection:
            row = (
                await connection.execute(
                    select(PROFILES)
                    .join(PROFILE_SESSIONS, PROFILE_SESSIONS.c.profile_id == PROFILES.c.id)
                    .where(
                        PROFILE_SESSIONS.c.digest == secret_digest(secret),
                        PROFILES.c.deleted_at.is_(None),
                    )
                )
            ).first()
        return None if row is None else _profile(row)

    async def by_id(self, profile_id: str) -> Profile | None:
        """The live profile ``profile_id`` (None: none, or deleted)."""
        async with self.store.read() as connection:
            row = (
                await connection.execute(
                    select(PROFILES).where(
                        PROFILES.c.id == profile_id, PROFILES.c.deleted_at.is_(None)
                    )
                )
            ).first()
        return None if row is None else _profile(row)

    async def new_session(self, profile_id: str) -> str:
        """Sign one more browser in to ``profile_id``: its new secret."""
        secret = secrets.token_urlsafe(32)
        async with self.store.transaction() as connection:
            await connection.execute(
                insert(PROFILE_SESSIONS),
                {
                    "digest": secret_digest(secret),
                    "profile_id": profile_id,
                    "created_at": time.time(),
                },
            )
        return secret

    async def end_session(self, secret: str) -> bool:
        """Sign the browser holding ``secret`` out; whether it was signed in."""
        async with self.store.transaction() as connection:
            result = await connection.execute(
                delete(PROFILE_SESSIONS).where(PROFILE_SESSIONS.c.digest == secret_digest(secret))
            )
        return bool(result.rowcount)

    async def rename(self, profile_id: str, name: str) -> Profile | None:
        """Change the display name (None: no such live profile)."""
        async with self.store.transaction() as connection:
            await connection.execute(
                update(PROFILES)
                .where(PROFILES.c.id == profile_id, PROFILES.c.deleted_at.is_(None))
                .values(name=name)
            )
        return await self.by_id(profile_id)

    async def delete(self, profile_id: str) -> list[str]:
        """Anonymise the profile: its name, browsers, passkeys and seats go, and
        the tables it sat at forget its name and id. Returns the ids of those
        tables still being played (the caller updates them in memory)."""
        live: list[str] = []
        async with self.store.transaction() as connection:
            seats = (
                await connection.execute(
                    select(
                        PROFILE_SEATS.c.table_id,
                        PROFILE_SEATS.c.seat,
                        TABLES_TABLE.c.seats_json,
                        TABLES_TABLE.c.status,
                    )
                    .join(TABLES_TABLE, TABLES_TABLE.c.id == PROFILE_SEATS.c.table_id)
                    .where(PROFILE_SEATS.c.profile_id == profile_id)
                )
            ).all()
            for table_id, seat, seats_json, status in seats:
                stored = json.loads(seats_json)
                if 0 <= seat < len(stored) and stored[seat].get("profile") == profile_id:
                    stored[seat].pop("profile", None)
                    stored[seat]["name"] = None
                await connection.execute(
                    update(TABLES_TABLE)
                    .where(TABLES_TABLE.c.id == table_id)
                    .values(seats_json=json.dumps(stored))
                )
                if status == LIVE:
                    live.append(table_id)
                    await self.store._announce(connection, table_id, "meta")
            await connection.execute(
                delete(PROFILE_SEATS).where(PROFILE_SEATS.c.profile_id == profile_id)
            )
            await connection.execute(
                delete(PROFILE_SESSIONS).where(PROFILE_SESSIONS.c.profile_id == profile_id)
            )
            await connection.execute(delete(PASSKEYS).where(PASSKEYS.c.profile_id == profile_id))
            await connection.execute(
                delete(PASSKEY_CHALLENGES).where(PASSKEY_CHALLENGES.c.profile_id == profile_id)
            )
            await connection.execute(
                update(PROFILES)
                .where(PROFILES.c.id == profile_id)
                .values(name=None, deleted_at=time.time())
            )
        return live

    # -- seats -----------------------------------------------------------------------------
    async def seated_at(self, table_id: str) -> dict[int, str]:
        """``{seat: profile id}`` of the profiles that sat at ``table_id``."""
        async with self.store.read() as connection:
            rows = await connection.execute(
                select(PROFILE_SEATS.c.seat, PROFILE_SEATS.c.profile_id).where(
                    PROFILE_SEATS.c.table_id == table_id
                )
            )
            return {int(seat): str(profile) for seat, profile in rows}

    async def tables_of(self, profile_id: str, status: str | None = None) -> list[str]:
        """The tables ``profile_id`` sat at (with ``status``: only those)."""
        query = select(PROFILE_SEATS.c.table_id).where(PROFILE_SEATS.c.profile_id == profile_id)
        if status is not None:
            query = query.join(TABLES_TABLE, TABLES_TABLE.c.id == PROFILE_SEATS.c.table_id).where(
                TABLES_TABLE.c.status == status
            )
        async with self.store.read() as connection:
            return [str(t) for t in (await connection.execute(query)).scalars()]

    async def matches(self, profile_id: str, limit: int | None = None) -> list[FinishedMatch]:
        """The profile's finished matches, newest first."""
        query = (
            select(
                TABLES_TABLE.c.id,
                TABLES_TABLE.c.preset,
                TABLES_TABLE.c.finished_at,
                TABLES_TABLE.c.seats_json,
                TABLES_TABLE.c.result_json,
                PROFILE_SEATS.c.seat,
            )
            .join(PROFILE_SEATS, PROFILE_SEATS.c.table_id == TABLES_TABLE.c.id)
            .where(PROFILE_SEATS.c.profile_id == profile_id, TABLES_TABLE.c.status == OVER)
            .order_by(TABLES_TABLE.c.finished_at.desc(), TABLES_TABLE.c.id)
        )
        if limit is not None:
            query = query.limit(limit)
        async with self.store.read() as connection:
            rows = (await connection.execute(query)).all()
        found = []
        for table_id, preset, finished_at, seats_json, result_json, seat in rows:
            result = json.loads(result_json) if result_json else {}
            totals = result.get("totals") or []
            found.append(
                FinishedMatch(
                    table_id=table_id,
                    preset=preset,
                    finished_at=float(finished_at or 0.0),
                    seat=seat,
                    players=len(json.loads(seats_json)),
                    won=seat in (result.get("winners") or []),
                    points=float(Fraction(totals[seat])) if seat < len(totals) else 0.0,
                    resigned=result.get("resigned") == seat,
                )
            )
        return found

    async def statistics(self, profile_id: str) -> dict[str, GameStatistics]:
        """Per game (preset): finished matches played, won, and points scored."""
        return statistics_of(await self.matches(profile_id))

    # -- passkeys --------------------------------------------------------------------------
    async def add_passkey(self, passkey: Passkey) -> bool:
        """Keep a new passkey; False when that credential is known already."""
        try:
            async with self.store.transaction() as connection:
                await connection.execute(
                    insert(PASSKEYS),
                    {
                        "credential_id": passkey.credential_id,
                        "profile_id": passkey.profile_id,
                        "public_key": passkey.public_key,
                        "sign_count": passkey.sign_count,
                        "label": passkey.label,
                        "created_at": passkey.created_at,
                        "used_at": passkey.used_at,
                    },
                )
        except sqlalchemy.exc.IntegrityError:
            return False
        return True

    async def passkeys(self, profile_id: str) -> list[Passkey]:
        """The profile's passkeys, oldest first."""
        async with self.store.read() as connection:
            rows = await connection.execute(
                select(PASSKEYS)
                .where(PASSKEYS.c.profile_id == profile_id)
                .order_by(PASSKEYS.c.created_at, PASSKEYS.c.credential_id)
            )
            return [_passkey(row) for row in rows]

    async def passkey(self, credential_id: str) -> Passkey | None:
        """The passkey with this credential id, of a live profile."""
        async with self.store.read() as connection:
            row = (
                await connection.execute(
                    select(PASSKEYS)
                    .join(PROFILES, PROFILES.c.id == PASSKEYS.c.profile_id)
                    .where(
                        PASSKEYS.c.credential_id == credential_id,
                        PROFILES.c.deleted_at.is_(None),
                    )
                )
            ).first()
        return None if row is None else _passkey(row)

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        """A sign-in with the passkey succeeded: its new signature counter."""
        async with self.store.transaction() as connection:
            await connection.execute(
                update(PASSKEYS)
                .where(PASSKEYS.c.credential_id == credential_id)
                .values(sign_count=sign_count, used_at=time.time())
            )

    async def remove_passkey(self, profile_id: str, credential_id: str) -> bool:
        """Forget one of the profile's passkeys; False when it has no such passkey."""
        async with self.store.transaction() as connection:
            result = await connection.execute(
                delete(PASSKEYS).where(
                    PASSKEYS.c.credential_id == credential_id,
                    PASSKEYS.c.profile_id == profile_id,
                )
            )
        return bool(result.rowcount)

    # -- challenges ------------------------------------------------------------------------
    async def put_challenge(
        self, challenge: str, purpose: str, profile_id: str | None, expires_at: float
    ) -> None:
        """Remember a challenge handed out (and forget the expired ones)."""
        async with self.store.transaction() as connection:
            await connection.execute(
                delete(PASSKEY_CHALLENGES).where(PASSKEY_CHALLENGES.c.expires_at < time.time())
            )
            await connection.execute(
                insert(PASSKEY_CHALLENGES),
                {
                    "challenge": challenge,
                    "purpose": purpose,
                    "profile_id": profile_id,
                    "expires_at": expires_at,
                },
            )

    async def take_challenge(self, challenge: str, purpose: str, profile_id: str | None) -> bool:
        """Use a challenge once: True when it was handed out for ``purpose`` (and
        ``profile_id``) and has not expired. It is gone afterwards either way, so
        a challenge answered wrongly cannot be tried again."""
        async with self.store.transaction() as connection:
            taken = (
                await connection.execute(
                    delete(PASSKEY_CHALLENGES)
                    .where(PASSKEY_CHALLENGES.c.challenge == challenge)
                    .returning(
                        PASSKEY_CHALLENGES.c.purpose,
                        PASSKEY_CHALLENGES.c.profile_id,
                        PASSKEY_CHALLENGES.c.expires_at,
                    )
                )
            ).first()
        return (
            taken is not None
            and taken.purpose == purpose
            and taken.profile_id == profile_id
            and taken.expires_at >= time.time()
        )
