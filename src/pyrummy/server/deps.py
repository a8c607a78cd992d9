"""The typed dependencies routes declare: the server's parts and the caller.

Each is an ``Annotated[..., Depends(...)]`` alias (``TablesDep``, ``SeatToken``…),
so a route says what it needs in its signature and a test can override one
part (``app.dependency_overrides``). All are ``async``: FastAPI runs a plain
``def`` dependency in its thread pool, a thread hop per request.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from pyrummy.server.messages import pick_language
from pyrummy.server.profiles import PlayingProfile, profile_secret
from pyrummy.server.quick import QuickMatch
from pyrummy.server.rooms import Rooms
from pyrummy.server.seats import table_token
from pyrummy.server.services import Services
from pyrummy.server.settings import Settings
from pyrummy.server.storage import Store
from pyrummy.server.storage.profiles import Profile, ProfileStore
from pyrummy.server.tables import TableError, TableManager


def services_of(connection: HTTPConnection) -> Services:
    """The app's :class:`Services` (set by ``create_app``)."""
    services: Services = connection.app.state.services
    return services


async def _services(connection: HTTPConnection) -> Services:
    return services_of(connection)


async def _settings(connection: HTTPConnection) -> Settings:
    return services_of(connection).settings


async def _store(connection: HTTPConnection) -> Store:
    return services_of(connection).store


async def _tables(connection: HTTPConnection) -> TableManager:
    return services_of(connection).tables


async def _rooms(connection: HTTPConnection) -> Rooms:
    return services_of(connection).rooms


async def _profiles(connection: HTTPConnection) -> ProfileStore:
    return services_of(connection).profiles


async def current_profile(connection: HTTPConnection) -> Profile | None:
    """The profile the request's cookie signs in (None: none, a forged or
    signed-out secret, or a deleted profile)."""
    secret = profile_secret(connection)
    if secret is None:
        return None
    return await services_of(connection).profiles.by_secret(secret)


async def _profile_or_new(request: Request, response: Response) -> PlayingProfile:
    services = services_of(request)
    client = client_of(request)

    def may_create() -> None:
        # New profiles per client address (RateLimits.profile): 429 and nothing stored.
        wait = services.counter.over_limit("profile", client)
        if wait is not None:
            raise TableError(429, "profile.rate_limited", wait=wait, retry_after=wait)

    return PlayingProfile(
        services.profiles,
        await current_profile(request),
        response,
        services.secure_cookie(request),
        may_create,
    )


async def _quick(connection: HTTPConnection) -> QuickMatch:
    return services_of(connection).quick


def request_language(connection: HTTPConnection) -> str:
    """The language of answers: ``?lang=``, else ``Accept-Language``, else English."""
    return pick_language(
        connection.headers.get("accept-language"), connection.query_params.get("lang")
    )


async def _language(request: Request) -> str:
    return request_language(request)


async def _table_token(request: Request, table_id: str) -> str | None:
    return table_token(request, table_id)


def client_of(connection: HTTPConnection) -> str:
    """The client's address (as a trusted proxy forwarded it, if any)."""
    return connection.client.host if connection.client else "unknown"


async def _client(request: Request) -> str:
    return client_of(request)


ServicesDep = Annotated[Services, Depends(_services)]
SettingsDep = Annotated[Settings, Depends(_settings)]
StoreDep = Annotated[Store, Depends(_store)]
TablesDep = Annotated[TableManager, Depends(_tables)]
RoomsDep = Annotated[Rooms, Depends(_rooms)]
QuickDep = Annotated[QuickMatch, Depends(_quick)]
#: The answer's language (``?lang=`` or ``Accept-Language``).
Lang = Annotated[str, Depends(_language)]
#: The seat token the request carries for table ``{table_id}`` (None: a spectator).
SeatToken = Annotated[str | None, Depends(_table_token)]
#: The client's address, for the per-client caps.
Client = Annotated[str, Depends(_client)]
ProfilesDep = Annotated[ProfileStore, Depends(_profiles)]
#: The caller's profile (its cookie), or None.
CurrentProfile = Annotated[Profile | None, Depends(current_profile)]
#: The caller's profile for a route that seats them: ``.current`` or, with
#: ``await .get(name)``, one made now (the answer then sets its cookie).
ProfileOrNew = Annotated[PlayingProfile, Depends(_profile_or_new)]
