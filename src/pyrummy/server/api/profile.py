"""The caller's profile: read it, rename it, sign out, delete it.

* ``GET    /api/profile`` — the profile, its statistics per game and its
  finished matches (404 ``profile.none`` before the first play).
* ``PUT    /api/profile`` — a new display name (validated as a seat's name).
* ``POST   /api/profile/signout`` — this browser forgets the profile (the cookie goes).
* ``DELETE /api/profile`` — the profile is anonymised: its name, browsers and
  passkeys go; its matches stay, as "Player N".

The profile is the one the ``pyrummy_profile`` cookie signs in
(:mod:`pyrummy.server.profiles`); it is made on first play, never here.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from pyrummy.server.deps import CurrentProfile, ProfilesDep, ServicesDep
from pyrummy.server.profiles import clear_profile_cookie, profile_secret
from pyrummy.server.schemas import Rename
from pyrummy.server.storage.profiles import Profile, statistics_of
from pyrummy.server.tables import TableError

router = APIRouter(prefix="/api/profile", tags=["profile"])
#: Finished matches listed with the profile (the newest).
MATCHES_LISTED = 50


def signed_in(profile: Profile | None) -> Profile:
    """The caller's profile; 404 ``profile.none`` without one."""
    if profile is None:
        raise TableError(404, "profile.none")
    return profile


def profile_view(profile: Profile) -> dict[str, Any]:
    return {"id": profile.id, "name": profile.name, "created_at": profile.created_at}


@router.get("")
async def get_profile(profile: CurrentProfile, profiles: ProfilesDep) -> dict[str, Any]:
    """The caller's profile, its statistics per game (finished matches: played,
    won, points) and its newest finished matches."""
    profile = signed_in(profile)
    matches = await profiles.matches(profile.id)
    return {
        "profile": profile_view(profile),
        "statistics": [
            {"preset": preset} | game.to_dict() for preset, game in statistics_of(matches).items()
        ],
        "matches": [
            {
                "table": m.table_id,
                "preset": m.preset,
                "finished_at": m.finished_at,
                "seat": m.seat,
                "players": m.players,
                "won": m.won,
                "points": m.points,
                "resigned": m.resigned,
            }
            for m in matches[:MATCHES_LISTED]
        ],
    }


@router.put("")
async def rename(body: Rename, profile: CurrentProfile, profiles: ProfilesDep) -> dict[str, Any]:
    """A new display name for the caller's profile (its next seats carry it)."""
    renamed = await profiles.rename(signed_in(profile).id, body.name)
    return {"profile": profile_view(signed_in(renamed))}


@router.post("/signout")
async def sign_out(
    request: Request, response: Response, profile: CurrentProfile, services: ServicesDep
) -> dict[str, Any]:
    """This browser forgets the profile; a passkey signs it in again."""
    signed_in(profile)
    secret = profile_secret(request)
    if secret is not None:
        await services.profiles.end_session(secret)
    clear_profile_cookie(response, services.secure_cookie(request))
    return {"profile": None}


@router.delete("")
async def delete_profile(
    request: Request, response: Response, profile: CurrentProfile, services: ServicesDep
) -> dict[str, Any]:
    """Delete the caller's profile: every browser is signed out, the passkeys
    are forgotten, and the matches it played stay with the name removed."""
    live = await services.profiles.delete(signed_in(profile).id)
    for table_id in live:
        table = services.tables.tables.get(table_id)
        meta = await services.store.table_meta(table_id)
        if table is not None and meta is not None:
            table.take_seats(meta.seats, meta.token_digests)
    clear_profile_cookie(response, services.secure_cookie(request))
    return {"profile": None, "deleted": True}
