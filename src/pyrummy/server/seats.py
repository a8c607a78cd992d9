"""Who a request speaks for: the seat token, and the ways a client may send it.

A person's seat (at a table or in a room) is a secret token given once
(``POST /api/tables``, ``POST /api/rooms``, ``.../join``). :data:`TOKEN_WAYS`
declares every way a client may present it; :func:`seat_token` reads exactly
those, and the ``/api`` reference describes exactly those (``api.description``), so
the reference cannot offer a way the server refuses. A token in a URL is
refused (:data:`REFUSED_IN_URL`): URLs end up in logs, histories and referrers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fastapi import Response
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from pyrummy.server.tables import TableError

#: The cookie of a table's seat (``+ table id``, path ``/api/tables/{id}``).
TABLE_COOKIE: Final = "pyrummy_seat_"
#: The cookie of a room's seat (``+ code``, path ``/api/rooms/{code}``).
ROOM_COOKIE: Final = "pyrummy_room_"
#: A browser cannot set headers on a WebSocket: it offers ``pyrummy`` and
#: ``pyrummy.token.<seat token>`` as subprotocols instead (never the URL).
WS_SUBPROTOCOL: Final = "pyrummy"
TOKEN_SUBPROTOCOL_PREFIX: Final = "pyrummy.token."
#: How long a seat cookie lasts (seconds).
COOKIE_AGE: Final = 60 * 60 * 24 * 30


@dataclass(frozen=True)
class TokenWay:
    """One way a client may present its seat token, and where it works."""

    name: str
    #: How the reference says it (Markdown-like text, ``TOKEN`` for the token).
    text: str
    http: bool
    websocket: bool


#: Every way a seat token is read, in the order it is looked for.
TOKEN_WAYS: Final = (
    TokenWay("header", "the header `X-Seat-Token: TOKEN`", http=True, websocket=True),
    TokenWay("bearer", "the header `Authorization: Bearer TOKEN`", http=True, websocket=True),
    TokenWay(
        "subprotocol",
        f"on a WebSocket, the subprotocols `{WS_SUBPROTOCOL}` and"
        f" `{TOKEN_SUBPROTOCOL_PREFIX}TOKEN` (a browser cannot set a WebSocket's headers;"
        f" the server accepts `{WS_SUBPROTOCOL}`)",
        http=False,
        websocket=True,
    ),
    TokenWay(
        "cookie",
        f"the HttpOnly cookie set with the token (`{TABLE_COOKIE}ID` for a table,"
        f" `{ROOM_COOKIE}CODE` for a room)",
        http=True,
        websocket=True,
    ),
)
#: The query parameter a token must never travel in (400 ``seat.token_in_url``).
REFUSED_IN_URL: Final = "token"


def seat_token(connection: HTTPConnection, cookie: str) -> str | None:
    """The seat token ``connection`` carries (one of :data:`TOKEN_WAYS`), or
    None for a spectator; ``cookie`` is the name of the seat's cookie here."""
    header = connection.headers.get("x-seat-token")
    if header:
        return header
    auth = connection.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    if isinstance(connection, WebSocket):
        if REFUSED_IN_URL in connection.query_params:
            # URLs end up in logs, histories and referrers: never a secret.
            raise TableError(400, "seat.token_in_url")
        for protocol in connection.scope.get("subprotocols") or []:
            if protocol.startswith(TOKEN_SUBPROTOCOL_PREFIX):
                return str(protocol[len(TOKEN_SUBPROTOCOL_PREFIX) :])
    return connection.cookies.get(cookie)


def table_token(connection: HTTPConnection, table_id: str) -> str | None:
    """The token of a seat at table ``table_id``."""
    return seat_token(connection, TABLE_COOKIE + table_id)


def set_seat_cookie(response: Response, name: str, token: str, path: str, secure: bool) -> None:
    """Keep the seat's token in an HttpOnly cookie sent only to ``path``."""
    response.set_cookie(
        name,
        token,
        httponly=True,
        secure=secure,
        samesite="strict",
        path=path,
        max_age=COOKIE_AGE,
    )
