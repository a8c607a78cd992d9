"""Ratings: the leaderboards, the caller's ratings, a match's changes.

* ``GET /api/leaderboard/{preset}`` — the best players of a game (``limit``,
  at most 100): established ratings first, then provisional ones, highest
  first; and the caller's own line (``you``, None without a rating there).
  404 ``ratings.unknown_game`` for a game that does not exist.
* ``GET /api/profile/ratings`` — the caller's rating in each game played rated
  (404 ``profile.none`` without a profile).
* ``GET /api/tables/{table_id}/rating`` — whether the match is rated and, once
  it is over, each rated seat's change (rating before and after, place), with
  the number of rated matches a rating stays provisional for (so the match's
  end can say how many more a provisional one needs).

A rating reads as points with its interval and a provisional mark
(:meth:`pyrummy.ratings.Rating.to_dict`; docs/ratings.md says what they mean).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from pyrummy.core.errors import RulesError
from pyrummy.core.rules import find_rules
from pyrummy.ratings import PROVISIONAL_MATCHES, anchors_of
from pyrummy.server.deps import CurrentProfile, ServicesDep, TablesDep
from pyrummy.server.storage.ratings import RatingStore, Standing
from pyrummy.server.tables import TableError

router = APIRouter(tags=["ratings"])
#: The longest leaderboard one request reads.
LEADERBOARD_LIMIT = 100


def game_of(preset: str) -> str:
    """The preset's own name (aliases allowed); 404 for no such game."""
    try:
        return find_rules(preset[:40]).name
    except (RulesError, ValueError):
        raise TableError(404, "ratings.unknown_game", game=preset[:40]) from None


def standing_view(standing: Standing, you: str | None) -> dict[str, Any]:
    return {
        "place": standing.place,
        "name": standing.name,
        "you": standing.profile_id == you,
    } | standing.rating.to_dict()


@router.get("/api/leaderboard/{preset}")
async def leaderboard(
    preset: Annotated[str, Path(max_length=40)],
    services: ServicesDep,
    profile: CurrentProfile,
    limit: Annotated[int, Query(ge=1, le=LEADERBOARD_LIMIT)] = 50,
) -> dict[str, Any]:
    """The game's leaderboard, the caller's place, and the bots' fixed ratings."""
    game = game_of(preset)
    rows = RatingStore(services.store)
    you = profile.id if profile is not None else None
    mine = await rows.place_of(you, game) if you is not None else None
    return {
        "preset": game,
        "provisional_matches": PROVISIONAL_MATCHES,
        "players": [standing_view(s, you) for s in await rows.leaderboard(game, limit)],
        "you": None if mine is None else standing_view(mine, you),
        "bots": [
            {"bot": anchor.bot, "rating": round(anchor.points)}
            for anchor in sorted(anchors_of(game).values(), key=lambda a: -a.points)
        ],
    }


@router.get("/api/profile/ratings")
async def my_ratings(services: ServicesDep, profile: CurrentProfile) -> dict[str, Any]:
    """The caller's rating in each game it played rated."""
    if profile is None:
        raise TableError(404, "profile.none")
    rows = RatingStore(services.store)
    ratings = await rows.ratings_of(profile.id)
    return {
        "provisional_matches": PROVISIONAL_MATCHES,
        "ratings": [{"preset": preset} | rating.to_dict() for preset, rating in ratings.items()],
    }


@router.get("/api/tables/{table_id}/rating")
async def match_rating(
    table_id: Annotated[str, Path(max_length=32)], services: ServicesDep, tables: TablesDep
) -> dict[str, Any]:
    """Whether the match is rated, and each rated seat's change once it is over."""
    table = await tables.get(table_id)
    if not table.spec.rated or not table.is_over:
        return {
            "rated": table.spec.rated,
            "over": table.is_over,
            "changes": [],
            "provisional_matches": PROVISIONAL_MATCHES,
        }
    result = table.result() | ({"resigned": table.resigned} if table.resigned is not None else {})
    changes = await services.ratings.rate(table.spec, result)
    return {
        "rated": True,
        "over": True,
        "changes": [c.to_dict() for c in changes],
        "provisional_matches": PROVISIONAL_MATCHES,
    }
