"""The API's introduction: the top of the ``/api`` reference and of OpenAPI.

What it says of seat tokens and of the table's WebSocket is written from the
declarations the server runs (:data:`pyrummy.server.seats.TOKEN_WAYS`,
:data:`pyrummy.server.api.table_socket.HANDSHAKE`), so it cannot describe a
way the server refuses.
"""

from __future__ import annotations

from typing import Any

from pyrummy.server.api.table_socket import HANDSHAKE
from pyrummy.server.seats import TOKEN_WAYS


def _ways(http: bool) -> str:
    ways = [way.text for way in TOKEN_WAYS if (way.http if http else way.websocket)]
    return "; ".join(ways)


def socket_reference() -> dict[str, Any]:
    """The table's WebSocket as the reference page prints it."""
    return {
        "path": HANDSHAKE.path,
        "summary": "Live events, numbered, and the person's moves.",
        "token": _ways(http=False),
        "query": list(HANDSHAKE.query),
        "subprotocols": list(HANDSHAKE.subprotocols),
        "close_codes": list(HANDSHAKE.close_codes),
    }


_DESCRIPTION = """
The web game's JSON API. The server decides no rule: actions go to the rules
core, and every answer for a seat is built from that seat's observation.

**Seats.** `POST /api/tables` returns a secret token for each person's seat
(also set as an HttpOnly cookie). Send it as HTTP_WAYS. Without a token
you are a spectator. A token never travels in a URL.

**Actions** are text: `draw stock`, `draw discard`, `decline`, `discard 7H`,
`knock 7H`, `meld 7H 8H 9H`, `layoff 9H 2` (table meld number from 0),
`swap-joker 5H 1`, `undo`. Out of turn, a bad token, an unknown card or an
illegal action is a 4xx with a message (in `Accept-Language` or `?lang=`
en/ru) and changes nothing.

**Live events.** `WS /api/tables/{id}/ws?since=N`, the token as
SOCKET_WAYS. Every accepted action is event number `seq`
(1, 2, ...). On connect the server sends the events after `N` as
`{"type": "event", "seq", "seat", "action", "kind"}` (the knock card hidden
from other seats), then `{"type": "state", "seq", "state", "resync"}`: a
snapshot, whole. Live messages carry the new state for the receiving seat:
`{"type": "event", ..., "state": {...}}` (and `{"type": "state", ...}` when a
person moves on from a showdown or a setting changes), with one difference:
of the finished deals (`match.deals`, `deal_histories`, `taken_cards`: the
card each `draw discard` took, per deal, the current deal's last) only the
last one is there, starting at index `state.deals_from`; the earlier ones are the
client's already, so a message's size does not grow with the match (nor is
a finished match's `record` there: `GET /api/matches/{id}/record`).
`GET /api/tables/{id}/events?since=N` is the same by polling (its state is
whole).

**Moves over the socket.** On a socket opened with a seat's token the client
may send `{"type": "act", "id": 7, "action": "discard 7H", "seq": 12}` (as
`POST .../actions`) or `{"type": "continue", "id": 8}` (as `POST
.../continue`); `id` is the client's number (0 to 2^53-1). The move is played
exactly as the POST plays it (same checks, seat, rate limit, storage and
events); after the move's own event the socket answers `{"type": "ack",
"id", "seq"}`, or `{"type": "error", "id", "status", "code", "message"}` with
the POST's status, code and message (in `?lang=`/`Accept-Language` of the
socket). A spectator's socket gets 401 `seat.token_missing`; a message over
4096 bytes (413), not JSON (400), of another shape (422) or over the
client's action rate (429, `retry_after`) is refused and changes nothing;
after 10 refusals the socket is closed (1008). The POSTs stay.

**Resigning.** `POST /api/tables/{id}/resign` (the seat's token, as for
an action) gives the match up: against bots the match ends at once, lost by
the resigning seat; at a friends' table a bot plays that seat to the end and
the token no longer plays it.

**Storage.** Every action is stored in the transaction that applies it;
tables resume exactly after a restart, even after SIGKILL.
"""

API_DESCRIPTION = _DESCRIPTION.replace("HTTP_WAYS", _ways(http=True)).replace(
    "SOCKET_WAYS", _ways(http=False)
)
