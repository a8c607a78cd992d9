"""Who the caller is across tables: the profile cookie, and a profile made on first play.

A browser playing as a profile holds its secret in the ``pyrummy_profile``
cookie: HttpOnly (no script reads it), SameSite=Lax (sent when the person
follows a link here, not with another site's form posts), Secure when the
request came over HTTPS, for about a year, on the whole site. The storage
keeps only the secret's digest (:mod:`pyrummy.server.storage.profiles`).

:class:`PlayingProfile` is what a route that seats a person gets
(``ProfileOrNew`` in :mod:`pyrummy.server.deps`): the caller's profile if any,
and :meth:`PlayingProfile.get` to make one only once the request is known to
be good, so a refused request stores no profile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from fastapi import Response
from starlette.requests import HTTPConnection

from pyrummy.server.storage.profiles import Profile, ProfileStore

#: The cookie holding a browser's profile secret.
PROFILE_COOKIE: Final = "pyrummy_profile"
#: How long the cookie lasts (seconds): about a year (browsers cap at 400 days).
PROFILE_COOKIE_AGE: Final = 60 * 60 * 24 * 365
#: A longer cookie value is no secret of ours: it is not looked up.
SECRET_MAX: Final = 64


def profile_secret(connection: HTTPConnection) -> str | None:
    """The profile secret the request's cookie carries (None: none, or not one of ours)."""
    secret = connection.cookies.get(PROFILE_COOKIE)
    if not secret or len(secret) > SECRET_MAX:
        return None
    return secret


def set_profile_cookie(response: Response, secret: str, secure: bool) -> None:
    """Sign this browser in: the secret in the long-lived HttpOnly cookie."""
    response.set_cookie(
        PROFILE_COOKIE,
        secret,
        max_age=PROFILE_COOKIE_AGE,
        path="/",
        httponly=True,
        secure=secure,
        samesite="lax",
    )


def clear_profile_cookie(response: Response, secure: bool) -> None:
    """Sign this browser out: the cookie is removed."""
    response.delete_cookie(PROFILE_COOKIE, path="/", httponly=True, secure=secure, samesite="lax")


class PlayingProfile:
    """The caller's profile for a route that seats them: ``current`` (None
    before their first play) and :meth:`get`, which makes one if needed.

    ``may_create`` is asked before a profile is made: it raises (the
    client's new-profile rate limit: a 429 with ``Retry-After``) or counts it.
    """

    def __init__(
        self,
        profiles: ProfileStore,
        current: Profile | None,
        response: Response,
        secure: bool,
        may_create: Callable[[], None] | None = None,
    ) -> None:
        self.profiles = profiles
        self.current = current
        self._response = response
        self._secure = secure
        self._may_create = may_create

    async def get(self, name: str | None = None) -> Profile:
        """The caller's profile; on first play a new one named ``name``, and
        the answer signs this browser in to it (the cookie). Refused by
        ``may_create`` before anything is stored."""
        if self.current is None:
            if self._may_create is not None:
                self._may_create()
            self.current, secret = await self.profiles.create(name)
            set_profile_cookie(self._response, secret, self._secure)
        return self.current
