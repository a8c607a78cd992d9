"""Every refusal as JSON: ``{"error": {"status", "code", "message"}}``, a 4xx
with a message in the caller's language for bad input (the table's WebSocket
answers with the same parts: :func:`pyrummy.server.ws_actions.error_parts`)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pyrummy.core.errors import RummyError
from pyrummy.server.deps import request_language
from pyrummy.server.messages import server_text
from pyrummy.server.tables import TableError
from pyrummy.server.ws_actions import error_parts, validation_detail


def error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse(
        {"error": {"status": status, "code": code, "message": message, **extra}},
        status_code=status,
    )


async def refused(request: Request, exc: Exception) -> JSONResponse:
    """A table's or the rules core's refusal; one that says when to come back
    (``retry_after`` seconds, as a cooldown does) carries it as a field and as
    the ``Retry-After`` header."""
    wait = exc.params.get("retry_after") if isinstance(exc, TableError) else None
    if not isinstance(wait, int):
        return error_response(*error_parts(exc, request_language(request)))
    response = error_response(*error_parts(exc, request_language(request)), retry_after=wait)
    response.headers["Retry-After"] = str(wait)
    return response


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    """A body or parameter of the wrong shape: 400 for bad JSON, else 422."""
    assert isinstance(exc, RequestValidationError)
    lang = request_language(request)
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        detail = "; ".join(str(e.get("ctx", {}).get("error", e.get("msg"))) for e in errors)
        return error_response(
            400, "request.bad_json", server_text("request.bad_json", lang, detail=detail)
        )
    detail = validation_detail(list(errors))
    return error_response(
        422, "request.invalid", server_text("request.invalid", lang, detail=detail)
    )


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (an unknown path, a method not allowed)."""
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404:
        text = server_text("not_found", request_language(request), path=request.url.path)
    else:
        text = str(exc.detail)
    return error_response(exc.status_code, "http", text)


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(TableError, refused)
    app.add_exception_handler(RummyError, refused)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
