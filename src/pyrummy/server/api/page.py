"""The page: ``/``, its files under ``/static``, and the ``/api`` reference.

The files are answered with an ``ETag`` and ``Cache-Control: no-cache``: a
browser keeps them and asks each time whether they changed (304, no body),
so a reload is quick and a new version is seen at once without renaming the
files. They are gzip-compressed for clients that accept it (the scripts and
stylesheets are text; the API's JSON is not compressed here: a proxy may).
``HEAD`` is answered like ``GET``, without the body.

``/`` is ``index.html`` with the first screen's requests announced in its
head: a ``modulepreload`` link for every module ``main.js`` imports
statically (found by reading the imports, so the list cannot go stale) and
a ``preload`` of ``/api/presets``, which the lobby needs before Deal is
enabled. A browser then asks for all of them at once, one round trip after
the page, instead of discovering the modules level by level; the views
other than the lobby are imported by ``main.js`` when first shown.
"""

from __future__ import annotations

import functools
import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
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

#: The page's entry module and the data its first screen reads.
ENTRY_MODULE: Final = "js/main.js"
FIRST_DATA: Final = ("/api/presets",)
#: A static ``import ... from "./x.js"`` (or a bare ``import "./x.js"``) at a line's start.
_STATIC_IMPORT = re.compile(r'^import\s+(?:[^;]*?\sfrom\s+)?"\./([\w.-]+\.js)"', re.MULTILINE)


def static_dir() -> Path:
    """The folder of the page's files (index.html, js/, style sheets, sounds)."""
    return Path(str(resources.files("pyrummy") / "web" / "static"))


def first_modules(static: Path, entry: str = ENTRY_MODULE) -> list[str]:
    """The modules loaded before the page's first screen, entry first: every
    module reached from ``entry`` by static imports (``import()`` is not followed)."""
    folder = (static / entry).parent
    found = [entry]
    queue = [static / entry]
    while queue:
        for name in _STATIC_IMPORT.findall(queue.pop(0).read_text(encoding="utf-8")):
            relative = str((folder / name).relative_to(static))
            if relative not in found:
                found.append(relative)
                queue.append(folder / name)
    return found


def with_preloads(html: str, static: Path) -> str:
    """``index.html`` with its first requests announced before its entry script."""
    links = [f'<link rel="modulepreload" href="/static/{m}">' for m in first_modules(static)[1:]]
    links += [f'<link rel="preload" href="{url}" as="fetch" crossorigin>' for url in FIRST_DATA]
    entry = f'<script type="module" src="/static/{ENTRY_MODULE}">'
    if entry not in html:
        raise ValueError(f"index.html does not load {ENTRY_MODULE}")
    return html.replace(entry, "\n  ".join([*links, entry]))


@functools.cache
def _index_page(static: Path, stamp: tuple[float, ...]) -> tuple[bytes, str]:
    """The page's bytes and ETag, made again when a file it reads changes (``stamp``)."""
    body = with_preloads((static / "index.html").read_text(encoding="utf-8"), static).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


@router.api_route("/", methods=["GET", "HEAD"])
async def index(request: Request) -> Response:
    """The page (``HEAD`` too: monitors and link checkers ask it)."""
    static = static_dir()
    stamp = tuple(
        (static / name).stat().st_mtime for name in ["index.html", *first_modules(static)]
    )
    body, etag = _index_page(static, stamp)
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        return HTMLResponse(b"", headers=headers)
    return HTMLResponse(body, headers=headers)


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
