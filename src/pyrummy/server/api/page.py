"""The page: ``/``, its files under ``/static``, and the ``/api`` reference.

The files are answered with an ``ETag`` and ``Cache-Control: no-cache``: a
browser keeps them and asks each time whether they changed (304, no body),
so a reload is quick and a new version is seen at once without renaming the
files. They are gzip-compressed for clients that accept it (the scripts and
stylesheets are text; the API's JSON is not compressed here: a proxy may).
``HEAD`` is answered like ``GET``, without the body.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pyrummy.server.api.description import socket_reference
from pyrummy.server.reference import REFERENCE_CSS, REFERENCE_CSS_PATH, reference_html

#: Browsers keep the files and revalidate them by ETag on every use.
CACHE_CONTROL: Final = "no-cache"
#: Smaller answers are sent as they are (compressing them saves nothing).
GZIP_MINIMUM: Final = 500

router = APIRouter(include_in_schema=False)


def static_dir() -> Path:
    """The folder of the page's files (index.html, js/, style sheets, sounds)."""
    return Path(str(resources.files("pyrummy") / "web" / "static"))


@router.api_route("/", methods=["GET", "HEAD"])
async def index(request: Request) -> Response:
    """The page (``HEAD`` too: monitors and link checkers ask it)."""
    path = static_dir() / "index.html"
    page = FileResponse(path, stat_result=path.stat(), headers={"Cache-Control": CACHE_CONTROL})
    if request.headers.get("if-none-match") == page.headers.get("etag"):
        return Response(status_code=304, headers={"ETag": page.headers["etag"]})
    return page


@router.get("/api", response_class=HTMLResponse)
async def api_reference(request: Request) -> str:
    """The API reference, built from the routes, schemas and socket the server runs."""
    return reference_html(request.app.openapi(), socket_reference())


@router.get(REFERENCE_CSS_PATH)
async def api_reference_css() -> Response:
    return Response(REFERENCE_CSS, media_type="text/css")


class _Revalidated:
    """Add :data:`CACHE_CONTROL` to every answer of the wrapped app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_cache_control(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                headers.append((b"cache-control", CACHE_CONTROL.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cache_control)


def static_files() -> ASGIApp:
    """The page's files: ETags and 304s (Starlette's), no-cache, gzip."""
    return GZipMiddleware(
        _Revalidated(StaticFiles(directory=static_dir())), minimum_size=GZIP_MINIMUM
    )
