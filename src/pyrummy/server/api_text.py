"""The API's introduction: the top of the ``/api`` reference and of OpenAPI."""

from __future__ import annotations

API_DESCRIPTION = """
The web game's JSON API. The server decides no rule: actions go to the rules
core, and every answer for a seat is built from that seat's observation.

**Seats.** `POST /api/tables` returns a secret token for each person's seat
(also set as an HttpOnly cookie). Send it as `X-Seat-Token` (or
`Authorization: Bearer ...`). Without a token you are a spectator.

**Actions** are text: `draw stock`, `draw discard`, `decline`, `discard 7H`,
`knock 7H`, `meld 7H 8H 9H`, `layoff 9H 2` (table meld number from 0),
`swap-joker 5H 1`, `undo`. Out of turn, a bad token, an unknown card or an
illegal action is a 4xx with a message (in `Accept-Language` or `?lang=`
en/ru) and changes nothing.

**Live events.** `WS /api/tables/{id}/ws?since=N` (token as `?token=`, a
header or the cookie). Every accepted action is event number `seq`
(1, 2, ...). On connect the server sends the events after `N` as
`{"type": "event", "seq", "seat", "action", "kind"}` (the knock card hidden
from other seats), then `{"type": "state", "seq", "state", "resync"}`: a
snapshot, whole. Live messages carry the new state for the receiving seat:
`{"type": "event", ..., "state": {...}}` (and `{"type": "state", ...}` when a
person moves on from a showdown or a setting changes), with one difference:
of the finished deals (`match.deals`, `deal_histories`) only the last one is
there, starting at index `state.deals_from`; the earlier ones are the
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

**Storage.** Every action is stored in the transaction that applies it;
tables resume exactly after a restart, even after SIGKILL.
"""
