"""Passkeys (WebAuthn) for profiles: register one, sign in with one, from any browser.

The ceremonies are the ``webauthn`` library's; this module adds what the
server owns around them:

* **The relying party** (:func:`relying_party`): the domain and origins from
  the settings (``--passkey-rp-id``, ``--passkey-origin``), or by default the
  request's own host and origin, so ``http://localhost:PORT`` works with no
  setting. An IP address cannot hold passkeys (WebAuthn needs a domain).
* **Challenges** are random, stored server-side with an expiry, and used
  once: the answer names its challenge (in ``clientDataJSON``), which is taken
  out of storage before anything else is checked, so a replayed, expired or
  foreign answer is refused and the challenge is gone either way.
* **Discoverable credentials**: sign-in options name no credential (the
  browser offers the passkeys it holds for this site), so no name is typed.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import HTTPConnection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from pyrummy.server.settings import Settings
from pyrummy.server.storage.profiles import Passkey, Profile, ProfileStore
from pyrummy.server.tables import TableError

#: How long a challenge may be answered (seconds).
CHALLENGE_TTL: Final = 300.0
#: What a challenge was handed out for.
REGISTER: Final = "register"
SIGN_IN: Final = "signin"
#: The name the browser shows for this site.
RP_NAME: Final = "pyrummy"


@dataclass(frozen=True)
class RelyingParty:
    """The site passkeys are made for: its domain and the origins of its pages."""

    id: str
    origins: tuple[str, ...]


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def relying_party(settings: Settings, connection: HTTPConnection) -> RelyingParty | None:
    """The relying party for this request, or None where passkeys cannot work
    (the page was opened at an IP address and no domain is set)."""
    rp_id = settings.passkey_rp_id or (connection.url.hostname or "")
    if not rp_id or _is_ip(rp_id):
        return None
    origins = settings.passkey_origins or (f"{connection.url.scheme}://{connection.url.netloc}",)
    return RelyingParty(rp_id, tuple(origins))


def _answered_challenge(credential: dict[str, Any]) -> str:
    """The challenge an answer says it answers (base64url), read from its
    ``clientDataJSON``; 400 when the answer is not shaped as one."""
    try:
        response = credential["response"]
        client_data = json.loads(base64url_to_bytes(response["clientDataJSON"]))
        challenge = client_data["challenge"]
    except (KeyError, TypeError, ValueError) as error:
        raise TableError(400, "passkey.bad_answer", detail="no clientDataJSON challenge") from error
    if not isinstance(challenge, str) or not 1 <= len(challenge) <= 128:
        raise TableError(400, "passkey.bad_answer", detail="no clientDataJSON challenge")
    return challenge


def _user_handle(profile_id: str) -> bytes:
    return profile_id.encode()


class Passkeys:
    """The passkey ceremonies for one request's relying party."""

    def __init__(self, profiles: ProfileStore, party: RelyingParty | None) -> None:
        self.profiles = profiles
        self.party = party

    def _party(self) -> RelyingParty:
        if self.party is None:
            raise TableError(400, "passkey.not_here", rp_id="a domain name (localhost)")
        return self.party

    async def _challenge(self, purpose: str, profile_id: str | None) -> bytes:
        challenge = secrets.token_bytes(32)
        await self.profiles.put_challenge(
            bytes_to_base64url(challenge), purpose, profile_id, time.time() + CHALLENGE_TTL
        )
        return challenge

    async def _take(
        self, credential: dict[str, Any], purpose: str, profile_id: str | None
    ) -> bytes:
        challenge = _answered_challenge(credential)
        if not await self.profiles.take_challenge(challenge, purpose, profile_id):
            raise TableError(400, "passkey.challenge_bad")
        return base64url_to_bytes(challenge)

    # -- registration ------------------------------------------------------------------------
    async def registration_options(self, profile: Profile) -> dict[str, Any]:
        """The options of ``navigator.credentials.create`` for a new passkey of
        ``profile`` (a discoverable one), as WebAuthn's JSON."""
        party = self._party()
        known = await self.profiles.passkeys(profile.id)
        options = generate_registration_options(
            rp_id=party.id,
            rp_name=RP_NAME,
            user_id=_user_handle(profile.id),
            user_name=profile.name or "pyrummy",
            user_display_name=profile.name or "pyrummy",
            challenge=await self._challenge(REGISTER, profile.id),
            timeout=int(CHALLENGE_TTL * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in known
            ],
        )
        result: dict[str, Any] = json.loads(options_to_json(options))
        return result

    async def register(self, profile: Profile, credential: dict[str, Any], label: str) -> Passkey:
        """Verify the browser's answer and keep the new passkey (400 for a bad
        or replayed answer, 409 for a passkey registered already)."""
        party = self._party()
        challenge = await self._take(credential, REGISTER, profile.id)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=party.id,
                expected_origin=list(party.origins),
            )
        except (WebAuthnException, KeyError, TypeError, ValueError) as error:
            raise TableError(400, "passkey.bad_answer", detail=str(error)[:200]) from error
        passkey = Passkey(
            credential_id=bytes_to_base64url(verified.credential_id),
            profile_id=profile.id,
            public_key=verified.credential_public_key,
            sign_count=verified.sign_count,
            label=label,
            created_at=time.time(),
            used_at=None,
        )
        if not await self.profiles.add_passkey(passkey):
            raise TableError(409, "passkey.known")
        return passkey

    # -- signing in --------------------------------------------------------------------------
    async def sign_in_options(self) -> dict[str, Any]:
        """The options of ``navigator.credentials.get``: no credential named,
        so the browser offers the passkeys it holds for this site."""
        party = self._party()
        options = generate_authentication_options(
            rp_id=party.id,
            challenge=await self._challenge(SIGN_IN, None),
            timeout=int(CHALLENGE_TTL * 1000),
            allow_credentials=[],
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        result: dict[str, Any] = json.loads(options_to_json(options))
        return result

    async def sign_in(self, credential: dict[str, Any]) -> Passkey:
        """The passkey that signed this answer (400 for a bad or replayed
        answer, 404 for a credential no profile here holds)."""
        party = self._party()
        challenge = await self._take(credential, SIGN_IN, None)
        credential_id = credential.get("id")
        if not isinstance(credential_id, str) or not 1 <= len(credential_id) <= 1400:
            raise TableError(400, "passkey.bad_answer", detail="no credential id")
        passkey = await self.profiles.passkey(credential_id)
        if passkey is None:
            raise TableError(404, "passkey.unknown")
        response = credential.get("response")
        handle = response.get("userHandle") if isinstance(response, dict) else None
        try:
            foreign = bool(handle) and base64url_to_bytes(str(handle)) != _user_handle(
                passkey.profile_id
            )
        except ValueError:
            foreign = True
        if foreign:
            raise TableError(
                400, "passkey.bad_answer", detail="the user handle is not the passkey's"
            )
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=party.id,
                expected_origin=list(party.origins),
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
            )
        except (WebAuthnException, KeyError, TypeError, ValueError) as error:
            raise TableError(400, "passkey.bad_answer", detail=str(error)[:200]) from error
        await self.profiles.passkey_used(passkey.credential_id, verified.new_sign_count)
        return passkey
