"""A person's moves over the table's WebSocket: the POST routes' twin.

On a table's WebSocket opened with a seat's token the client may send::

    {"type": "act", "id": 7, "action": "discard 7H", "seq": 12}
    {"type": "continue", "id": 8}

``act`` is played exactly as ``POST /api/tables/{id}/actions`` plays it
(one function does both: the same validation, seat rule, rate limit bucket,
errors, storage and events); ``continue`` is ``POST .../continue``. The
answer comes on the same socket after the action's own event::

    {"type": "ack", "id": 7, "seq": 13}
    {"type": "error", "id": 7, "status": 409, "code": "seat.not_your_turn", "message": "..."}

with the status, code and message (in the socket's language) the POST would
have answered. A spectator's socket is refused (401 ``seat.token_missing``).
A message over :data:`MAX_MESSAGE` bytes (413), not JSON (400) or of the
wrong shape (422), or over the client's ``act`` rate limit (429, with
``retry_after``), is refused and changes nothing; after
:data:`MAX_REFUSALS` such refusals the server closes the socket with
:data:`POLICY_CLOSE`. Nothing is sent that the events do not already say.

>>> read_request('{"type": "act", "id": 1, "action": "draw stock", "seq": 0}')
ClientRequest(kind='act', id=1, action='draw stock', seq=0)
>>> read_request('{"type": "continue", "id": 2}')
ClientRequest(kind='continue', id=2, action=None, seq=None)
>>> try:
...     read_request('{"type": "act", "id": 3}')
... except Refusal as refused:
...     print(refused.status, refused.key, refused.params, refused.request_id)
422 request.invalid {'detail': 'action: Field required'} 3
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket

from pyrummy.core.errors import CardNotationError, IllegalActionError, RummyError
from pyrummy.core.messages import Message, render
from pyrummy.server.messages import server_text
from pyrummy.server.ratelimit import ClientCounter
from pyrummy.server.schemas import PostAction
from pyrummy.server.tables import LiveTable, Subscriber, TableError

log = logging.getLogger("pyrummy.server")

#: The longest message a client may send on a table's socket (bytes).
MAX_MESSAGE = 4096
#: Refused messages (malformed, too long, too fast, from a spectator) one
#: socket may send before the server closes it.
MAX_REFUSALS = 10
#: WebSocket close code "policy violation".
POLICY_CLOSE = 1008
#: Request ids are the client's numbers, echoed back (JavaScript's safe integers).
MAX_ID = 2**53 - 1

#: A person's move: table id, seat token, action text, the seq it was made
#: at, and what to do once it is played (called in the turn of the loop that
#: published its event).
PlayAction = Callable[
    [str, str | None, str, int | None, Callable[[LiveTable], None]], Awaitable[LiveTable]
]
#: "Next deal" for a seat: (table id, the seat's token) -> the table.
ContinueDeal = Callable[[str, str | None], Awaitable[LiveTable]]


class Refusal(Exception):
    """A message refused before anything is played: status, catalogue key, params."""

    def __init__(self, status: int, key: str, params: dict[str, Any] | None = None) -> None:
        super().__init__(status, key, params or {})
        self.status = status
        self.key = key
        self.params = params or {}
        #: The message's id when it could be read (echoed in the error).
        self.request_id: int | None = None


@dataclass(frozen=True)
class ClientRequest:
    kind: str
    id: int
    action: str | None = None
    seq: int | None = None


def validation_detail(errors: list[Any]) -> str:
    """Pydantic's errors as one line (the 422 ``request.invalid`` detail)."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
    return "; ".join(parts)


def read_request(text: str) -> ClientRequest:
    """The client's message, checked as the POST's body is; ``Refusal`` if bad."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Refusal(400, "request.bad_json", {"detail": str(exc)}) from None
    if not isinstance(data, dict):
        raise Refusal(422, "request.invalid", {"detail": "a JSON object is expected"})
    request_id = data.get("id")
    if type(request_id) is not int or not 0 <= request_id <= MAX_ID:
        raise Refusal(422, "request.invalid", {"detail": f"id: an integer 0..{MAX_ID}"})
    try:
        return _checked(data, request_id)
    except Refusal as exc:
        exc.request_id = request_id
        raise


def _checked(data: dict[str, Any], request_id: int) -> ClientRequest:
    kind = data.get("type")
    if kind == "continue":
        extra = set(data) - {"type", "id"}
        if extra:
            detail = "; ".join(f"{name}: Extra inputs are not permitted" for name in sorted(extra))
            raise Refusal(422, "request.invalid", {"detail": detail})
        return ClientRequest("continue", request_id)
    if kind != "act":
        raise Refusal(422, "request.invalid", {"detail": "type: 'act' or 'continue'"})
    body = {k: v for k, v in data.items() if k not in ("type", "id")}
    try:
        checked = PostAction.model_validate(body)
    except ValidationError as exc:
        raise Refusal(422, "request.invalid", {"detail": validation_detail(exc.errors())}) from None
    return ClientRequest("act", request_id, checked.action, checked.seq)


def core_error_text(exc: RummyError, lang: str) -> str:
    """The core's message in ``lang`` where the error carries a catalogue Message.

    Details the core adds after the catalogue text (``cannot read the action
    'discard 1X': '1X' is not a card ...``) are kept.
    """
    reason = getattr(exc, "reason", None)
    if isinstance(reason, Message):
        with contextlib.suppress(RummyError):
            english = render(reason, "en")
            text = str(exc)
            detail = text[len(english) :] if text.startswith(english) else ""
            return render(reason, lang) + detail
    return str(exc)


def is_unreadable(exc: RummyError) -> bool:
    reason = getattr(exc, "reason", None)
    return isinstance(reason, Message) and reason.key == "action.unknown"


def error_parts(exc: Exception, lang: str) -> tuple[int, str, str]:
    """(status, code, message) for a refused request: the HTTP routes' answer
    and the socket's ``error`` message alike. Other exceptions are re-raised."""
    if isinstance(exc, (TableError, Refusal)):
        return exc.status, exc.key, server_text(exc.key, lang, **exc.params)
    if isinstance(exc, IllegalActionError):
        text = core_error_text(exc, lang)
        return (
            (400, "action.unreadable", text)
            if is_unreadable(exc)
            else (409, "action.illegal", text)
        )
    if isinstance(exc, RummyError):
        code = "cards.invalid" if isinstance(exc, CardNotationError) else "request.rejected"
        return 400, code, core_error_text(exc, lang)
    raise exc


@dataclass
class SocketActions:
    """Reads what one table socket's client sends and answers in its queue.

    Answers go through the subscriber's queue, the way events go, so the
    socket has one writer and an action's own event is sent before its ack.
    """

    websocket: WebSocket
    table: LiveTable
    subscriber: Subscriber
    token: str | None
    lang: str
    client: str
    counter: ClientCounter
    play: PlayAction
    continue_deal: ContinueDeal
    refusals: int = 0

    async def run(self) -> None:
        """Until the client goes away (or is closed for abuse)."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
            answer = await self.answer(text, size)
            if answer is not None:
                self.table.deliver(self.subscriber, answer)
            if self.refusals >= MAX_REFUSALS:
                self.table.deliver(self.subscriber, {"type": "closing", "code": POLICY_CLOSE})
                return

    async def answer(self, text: str | None, size: int) -> str | None:
        """The answer to one message, or None when a move's ack was sent already."""
        request_id: int | None = None
        try:
            if size > MAX_MESSAGE:
                raise Refusal(413, "request.too_large", {"limit": MAX_MESSAGE})
            wait = self.counter.over_limit("act", self.client)
            if wait is not None:
                self.refusals += 1
                return self._error(None, 429, "request.rate_limited", self._text(wait), wait)
            if text is None:
                raise Refusal(400, "request.bad_json", {"detail": "a text message is expected"})
            request = read_request(text)
            request_id = request.id
            if self.subscriber.seat is None:
                refused = Refusal(401, "seat.token_missing")
                refused.request_id = request_id
                raise refused
            # Shielded: a socket closing mid-way must not cut a move between
            # storage and the table in memory.
            if request.kind == "act":
                assert request.action is not None

                def acknowledge(played: LiveTable, request_id: int | None = request_id) -> None:
                    # Right behind the move's event, in the same turn of the
                    # loop: after the shielded task, the ack came two turns
                    # later, and at 200 tables a turn can take milliseconds.
                    self.table.deliver(self.subscriber, _ack(request_id, played.seq))

                await _shielded(
                    self.play(
                        self.table.table_id, self.token, request.action, request.seq, acknowledge
                    )
                )
                return None
            else:
                table = await _shielded(self.continue_deal(self.table.table_id, self.token))
            return _ack(request_id, table.seq)
        except Refusal as exc:
            self.refusals += 1
            return self._error(exc.request_id, *error_parts(exc, self.lang))
        except (TableError, RummyError) as exc:
            return self._error(request_id, *error_parts(exc, self.lang))

    def _text(self, wait: int) -> str:
        return server_text("request.rate_limited", self.lang, wait=wait)

    @staticmethod
    def _error(
        request_id: int | None, status: int, code: str, text: str, wait: int | None = None
    ) -> str:
        body: dict[str, Any] = {
            "type": "error",
            "id": request_id,
            "status": status,
            "code": code,
            "message": text,
        }
        if wait is not None:
            body["retry_after"] = wait
        return json.dumps(body)


def _ack(request_id: int | None, seq: int) -> str:
    """The answer to a move or a "Next deal" that was played: the table's seq after it."""
    return json.dumps({"type": "ack", "id": request_id, "seq": seq})


async def _shielded(coroutine: Awaitable[LiveTable]) -> LiveTable:
    task = asyncio.ensure_future(coroutine)
    # If the socket's task is cancelled, the move still finishes (its error,
    # if any, is read here rather than reported as never retrieved).
    task.add_done_callback(lambda done: done.cancelled() or done.exception())
    return await asyncio.shield(task)
