"""The composition root: the FastAPI application, put together from its parts.

The server's parts are made once (:class:`~pyrummy.server.services.Services`,
from one :class:`~pyrummy.server.settings.Settings`) and started in the app's
lifespan; each resource's routes are a module-level router of
:mod:`pyrummy.server.api`; the middleware adds headers, limits and the last
resort. Nothing here handles a request. The API's reference is ``/api``.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from pyrummy.server.api import (
    health,
    matches,
    meta,
    page,
    passkeys,
    player,
    profile,
    quick,
    ratings,
    rooms,
    table_socket,
    tables,
)
from pyrummy.server.api.description import API_DESCRIPTION
from pyrummy.server.api.page import static_dir
from pyrummy.server.errors import add_error_handlers
from pyrummy.server.ratelimit import RateLimit
from pyrummy.server.security import BodyLimit, CatchAll, SecurityHeaders, WebSocketOrigins
from pyrummy.server.services import Services
from pyrummy.server.settings import Settings
from pyrummy.server.tables import BotFactory, default_bot_factory

#: The routers, in the order their paths are matched.
ROUTERS = (
    meta.router,
    health.router,
    tables.router,
    table_socket.router,
    player.router,
    rooms.router,
    ratings.router,
    quick.router,
    matches.router,
    profile.router,
    passkeys.router,
    page.router,
)

#: FastAPI 0.165+ asks OpenTelemetry on every request whether a provider is
#: configured (environment lookups: ~1.5% of the server's CPU under load);
#: pyrummy exports none, so the question is not asked.
_NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters
    else {}
)


def create_app(
    settings: Settings | None = None, bot_factory: BotFactory = default_bot_factory
) -> FastAPI:
    """The web game as an ASGI app; tables are resumed from storage at start."""
    services = Services(settings or Settings(), bot_factory)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await services.start()
        # For operators' hooks and tests: the parts by name.
        app.state.store, app.state.tables = services.store, services.tables
        app.state.rooms = services.rooms
        try:
            yield
        finally:
            await services.stop()

    app = FastAPI(
        title="pyrummy",
        summary="Knock Rummy, Rummy, Gin and their cousins against bots.",
        description=API_DESCRIPTION,
        version="0.1.0",
        lifespan=lifespan,
        # The Swagger/ReDoc pages load scripts from a CDN onto the game's
        # origin; /api is the reference, served from here with no script.
        docs_url=None,
        redoc_url=None,
        **_NO_TELEMETRY,
    )
    app.state.services = services
    # Outermost last: headers on every answer, then limits, then the body cap;
    # the catch-all sits innermost so its JSON 500 gets the headers too.
    app.add_middleware(CatchAll)
    app.add_middleware(BodyLimit, limit=services.settings.max_body)
    app.add_middleware(WebSocketOrigins, allowed=services.settings.allowed_origins)
    app.add_middleware(RateLimit, limits=services.settings.limits, counter=services.counter)
    app.add_middleware(SecurityHeaders)
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", page.static_files(), name="static")
    return app


__all__ = ["Settings", "create_app", "static_dir"]
