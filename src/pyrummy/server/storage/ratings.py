"""The statements of ratings: each profile's rating per game, the matches
rated, each person's change in each, and the leaderboards.

What a rating means is :mod:`pyrummy.ratings`; when a match is rated is
:mod:`pyrummy.server.rated`. This module only reads and writes the rows:

* ``ratings`` — one row per profile and game (preset): ``mu``, ``sigma`` and
  the rated matches played; a profile without a row in a game has never
  played a rated match of it (a newcomer);
* ``rated_matches`` — one row per table whose match was rated;
* ``rating_changes`` — one row per rated match and profile: the rating before
  and after, and the place.

**Once.** :meth:`RatingStore.rate_match` rates a match in one transaction
that first inserts the match's ``rated_matches`` row: a second attempt (a
retry, another server process, a request reading the result) breaks its
primary key and changes nothing. On PostgreSQL the second insert waits for
the first transaction and then fails; the ratings read are locked
(``FOR UPDATE``), so two matches of one person ending together update
their rating one after the other.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy
from sqlalchemy import and_, case, func, insert, select, update

from pyrummy.ratings import PROVISIONAL_MATCHES, Rating, newcomer
from pyrummy.server.storage.schema import PROFILES, RATED_MATCHES, RATING_CHANGES, RATINGS
from pyrummy.server.storage.store import Store

#: What the rating of a match computes from the ratings before (by seat):
#: each rated seat's place and rating after.
Update = Callable[[dict[int, Rating | None]], dict[int, tuple[int, Rating]]]


@dataclass(frozen=True)
class RatingChange:
    """One person's change in one rated match."""

    table_id: str
    profile_id: str
    seat: int
    preset: str
    place: int
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "place": self.place,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "change": round(self.after.points) - round(self.before.points),
        }


@dataclass(frozen=True)
class Standing:
    """A line of a leaderboard."""

    place: int
    profile_id: str
    name: str | None
    rating: Rating


def _rating(row: Any) -> Rating:
    return Rating(float(row.mu), float(row.sigma), int(row.matches))


def _change(row: Any) -> RatingChange:
    return RatingChange(
        table_id=row.table_id,
        profile_id=row.profile_id,
        seat=row.seat,
        preset=row.preset,
        place=row.place,
        before=Rating(row.mu_before, row.sigma_before, row.matches_after - 1),
        after=Rating(row.mu_after, row.sigma_after, row.matches_after),
    )


#: Established ratings first (1), then provisional ones (0).
_ESTABLISHED = case((RATINGS.c.matches >= PROVISIONAL_MATCHES, 1), else_=0)


class RatingStore:
    """Ratings' rows in the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def rate_match(
        self, table_id: str, preset: str, profiles: dict[int, str], compute: Update
    ) -> list[RatingChange] | None:
        """Rate the match at ``table_id`` once: ``compute`` gets the ratings of
        the seats in ``profiles`` (None: a newcomer) and gives each its place
        and new rating. Returns the changes, or None when the match was
        rated already."""
        for _attempt in range(3):
            try:
                return await self._rate_once(table_id, preset, profiles, compute)
            except sqlalchemy.exc.IntegrityError:
                # The match was rated meanwhile, or another match made one of
                # these people's first rating in this game: look again.
                if await self.is_rated(table_id):
                    return None
        raise RuntimeError(f"table {table_id}: the ratings kept changing under the update")

    async def _rate_once(
        self, table_id: str, preset: str, profiles: dict[int, str], compute: Update
    ) -> list[RatingChange]:
        now = time.time()
        async with self.store.transaction() as connection:
            await connection.execute(
                insert(RATED_MATCHES), {"table_id": table_id, "preset": preset, "rated_at": now}
            )
            query = select(RATINGS).where(
                RATINGS.c.preset == preset, RATINGS.c.profile_id.in_(list(profiles.values()))
            )
            if connection.dialect.name == "postgresql":
                query = query.with_for_update()
            rows = {row.profile_id: row for row in (await connection.execute(query)).all()}
            before = {
                seat: _rating(rows[profile]) if profile in rows else None
                for seat, profile in profiles.items()
            }
            after = compute(before)
            changes = []
            for seat, (place, rating) in sorted(after.items()):
                profile = profiles[seat]
                old = before[seat]
                values = {
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "matches": rating.matches,
                    "updated_at": now,
                }
                if profile in rows:
                    await connection.execute(
                        update(RATINGS)
                        .where(RATINGS.c.profile_id == profile, RATINGS.c.preset == preset)
                        .values(**values)
                    )
                else:
                    await connection.execute(
                        insert(RATINGS), {"profile_id": profile, "preset": preset, **values}
                    )
                # a newcomer's "before" is the newcomer's rating
                change = RatingChange(
                    table_id, profile, seat, preset, place, old or newcomer(), rating
                )
                changes.append(change)
            if changes:
                await connection.execute(
                    insert(RATING_CHANGES),
                    [
                        {
                            "table_id": table_id,
                            "profile_id": c.profile_id,
                            "seat": c.seat,
                            "preset": preset,
                            "place": c.place,
                            "mu_before": c.before.mu,
                            "sigma_before": c.before.sigma,
                            "mu_after": c.after.mu,
                            "sigma_after": c.after.sigma,
                            "matches_after": c.after.matches,
                            "rated_at": now,
                        }
                        for c in changes
                    ],
                )
        return changes

    async def is_rated(self, table_id: str) -> bool:
        async with self.store.read() as connection:
            found = await connection.execute(
                select(RATED_MATCHES.c.table_id).where(RATED_MATCHES.c.table_id == table_id)
            )
            return found.first() is not None

    async def changes_of(self, table_id: str) -> list[RatingChange]:
        """The changes of the match at ``table_id``, by seat (empty: not rated)."""
        async with self.store.read() as connection:
            rows = await connection.execute(
                select(RATING_CHANGES)
                .where(RATING_CHANGES.c.table_id == table_id)
                .order_by(RATING_CHANGES.c.seat)
            )
            return [_change(row) for row in rows.all()]

    async def ratings_of(self, profile_id: str) -> dict[str, Rating]:
        """The profile's rating in each game it played rated, by preset."""
        async with self.store.read() as connection:
            rows = await connection.execute(
                select(RATINGS).where(RATINGS.c.profile_id == profile_id).order_by(RATINGS.c.preset)
            )
            return {row.preset: _rating(row) for row in rows.all()}

    async def leaderboard(self, preset: str, limit: int) -> list[Standing]:
        """The best ``limit`` players of ``preset``: established ratings first, highest first."""
        async with self.store.read() as connection:
            rows = await connection.execute(
                select(RATINGS, PROFILES.c.name)
                .join(PROFILES, PROFILES.c.id == RATINGS.c.profile_id)
                .where(RATINGS.c.preset == preset, PROFILES.c.deleted_at.is_(None))
                .order_by(_ESTABLISHED.desc(), RATINGS.c.mu.desc(), RATINGS.c.profile_id)
                .limit(limit)
            )
            return [
                Standing(place, row.profile_id, row.name, _rating(row))
                for place, row in enumerate(rows.all(), start=1)
            ]

    async def place_of(self, profile_id: str, preset: str) -> Standing | None:
        """The profile's line of the ``preset`` leaderboard (None: never rated in it)."""
        async with self.store.read() as connection:
            mine = (
                await connection.execute(
                    select(RATINGS, PROFILES.c.name)
                    .join(PROFILES, PROFILES.c.id == RATINGS.c.profile_id)
                    .where(RATINGS.c.preset == preset, RATINGS.c.profile_id == profile_id)
                )
            ).first()
            if mine is None:
                return None
            rating = _rating(mine)
            established = 0 if rating.provisional else 1
            tier = _ESTABLISHED
            ahead = await connection.execute(
                select(func.count())
                .select_from(RATINGS.join(PROFILES, PROFILES.c.id == RATINGS.c.profile_id))
                .where(
                    RATINGS.c.preset == preset,
                    PROFILES.c.deleted_at.is_(None),
                    sqlalchemy.or_(
                        tier > established,
                        and_(
                            tier == established,
                            sqlalchemy.or_(
                                RATINGS.c.mu > rating.mu,
                                and_(RATINGS.c.mu == rating.mu, RATINGS.c.profile_id < profile_id),
                            ),
                        ),
                    ),
                )
            )
            return Standing(int(ahead.scalar_one()) + 1, profile_id, mine.name, rating)
