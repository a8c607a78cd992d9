"""Passkeys of the caller's profile, and signing in with one.

* ``GET    /api/profile/passkeys`` — whether passkeys work at this address, and the profile's.
* ``POST   /api/profile/passkeys/options`` — options for ``navigator.credentials.create``.
* ``POST   /api/profile/passkeys`` — the browser's answer: a new passkey (201).
* ``DELETE /api/profile/passkeys/{id}`` — forget one of the profile's passkeys.
* ``POST   /api/profile/signin/options`` — options for ``navigator.credentials.get``.
* ``POST   /api/profile/signin`` — the browser's answer: this browser is signed
  in to the passkey's profile (the cookie is replaced).

The ceremonies are :mod:`pyrummy.server.passkeys`; options and answers are
WebAuthn's JSON forms (base64url for binary fields).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from pyrummy.server.api.profile import profile_view, signed_in
from pyrummy.server.deps import CurrentProfile, ServicesDep, services_of
from pyrummy.server.passkeys import Passkeys, relying_party
from pyrummy.server.profiles import profile_secret, set_profile_cookie
from pyrummy.server.schemas import NewPasskey, SignIn
from pyrummy.server.storage.profiles import Passkey
from pyrummy.server.tables import TableError

router = APIRouter(prefix="/api/profile", tags=["profile"])


async def _passkeys(request: Request) -> Passkeys:
    services = services_of(request)
    return Passkeys(services.profiles, relying_party(services.settings, request))


PasskeysDep = Annotated[Passkeys, Depends(_passkeys)]


def passkey_view(passkey: Passkey) -> dict[str, Any]:
    return {
        "id": passkey.credential_id,
        "label": passkey.label,
        "created_at": passkey.created_at,
        "used_at": passkey.used_at,
    }


@router.get("/passkeys")
async def list_passkeys(profile: CurrentProfile, passkeys: PasskeysDep) -> dict[str, Any]:
    """The profile's passkeys, and whether passkeys work where the page was
    opened (``available``; not at an IP address such as 127.0.0.1)."""
    profile = signed_in(profile)
    party = passkeys.party
    return {
        "available": party is not None,
        "rp_id": None if party is None else party.id,
        "passkeys": [passkey_view(p) for p in await passkeys.profiles.passkeys(profile.id)],
    }


@router.post("/passkeys/options")
async def registration_options(profile: CurrentProfile, passkeys: PasskeysDep) -> dict[str, Any]:
    """Options for a new passkey of the caller's profile (its challenge lasts
    five minutes and works once)."""
    return {"publicKey": await passkeys.registration_options(signed_in(profile))}


@router.post("/passkeys", status_code=201)
async def register(
    body: NewPasskey, profile: CurrentProfile, passkeys: PasskeysDep
) -> dict[str, Any]:
    """Keep the passkey the browser made (400 for an answer that does not
    verify or a used/expired challenge, 409 for one registered already)."""
    passkey = await passkeys.register(signed_in(profile), body.credential, body.label or "Passkey")
    return {"passkey": passkey_view(passkey)}


@router.delete("/passkeys/{credential_id}")
async def remove(
    credential_id: str, profile: CurrentProfile, services: ServicesDep
) -> dict[str, Any]:
    """Forget one of the caller's passkeys (404 for another profile's or none)."""
    if not await services.profiles.remove_passkey(signed_in(profile).id, credential_id[:1400]):
        raise TableError(404, "passkey.not_found")
    return {"removed": credential_id}


@router.post("/signin/options")
async def sign_in_options(passkeys: PasskeysDep) -> dict[str, Any]:
    """Options to sign in with a passkey this browser (or its phone) holds."""
    return {"publicKey": await passkeys.sign_in_options()}


@router.post("/signin")
async def sign_in(
    body: SignIn, request: Request, response: Response, passkeys: PasskeysDep, services: ServicesDep
) -> dict[str, Any]:
    """Sign this browser in to the passkey's profile; the profile it was
    signed in to before (if any) is signed out here."""
    passkey = await passkeys.sign_in(body.credential)
    profile = signed_in(await services.profiles.by_id(passkey.profile_id))
    before = profile_secret(request)
    if before is not None:
        await services.profiles.end_session(before)
    secret = await services.profiles.new_session(profile.id)
    set_profile_cookie(response, secret, services.secure_cookie(request))
    return {"profile": profile_view(profile)}
