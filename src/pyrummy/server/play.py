"""A person's moves, whichever way they come (a POST or the table's WebSocket),
and how a table's changes reach its sockets.

One function per move, so that both ways play it with the same checks, seat
rule, storage and events (see :mod:`pyrummy.server.ws_actions`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from pyrummy.core.actions import ActionKind, parse_action
from pyrummy.core.errors import IllegalActionError, RummyError
from pyrummy.core.melds import explain_meld
from pyrummy.server.storage import StoredAction
from pyrummy.server.tables import LiveTable, TableError, TableManager
from pyrummy.server.views import event_with_state_json, state_message_json


def broadcast(table: LiveTable, stored: StoredAction | None) -> None:
    """Send the table's change to its subscribers: the event (``stored``) with
    each seat's new state, or the new state alone (None)."""
    # Messages go out as JSON text encoded once per seat (not per socket).
    cache: dict[int | None, str] = {}
    for subscriber in list(table.subscribers):
        seat = subscriber.seat
        if seat not in cache:
            if stored is None:
                cache[seat] = state_message_json(table, seat)
            else:
                cache[seat] = event_with_state_json(table, stored, seat)
        table.deliver(subscriber, cache[seat])


async def play_action(
    tables: TableManager,
    table_id: str,
    token: str | None,
    action: str,
    seq: int | None,
    lang: Callable[[], str],
    played: Callable[[LiveTable], None] | None = None,
) -> LiveTable:
    """A person's move; ``played`` is called once it is stored, applied and
    its event published. ``lang`` is asked only to explain a refused meld."""
    # As this process knows it: play() reads storage only if refused.
    table = await tables.get(table_id, current=False)
    seat = table.seat_of_token(token)
    if seat is None:
        raise TableError(401, "seat.token_missing")
    async with table.lock:
        try:
            await tables.play(table, seat, action, seq)
        except IllegalActionError as exc:
            # The language only when explaining: as a dependency it cost
            # FastAPI's dependency solving on every action.
            raise explained(exc, action, table, lang()) from exc
    table.wake_bots()
    if played is not None:
        played(table)
    return table


async def continue_deal(tables: TableManager, table_id: str, token: str | None) -> LiveTable:
    """The person has seen the showdown: bots may play the next deal."""
    table = await tables.get(table_id)
    seat = table.seat_of_token(token)
    if seat is None:
        raise TableError(401, "seat.token_missing")
    await table.acknowledge(seat)
    table.wake_bots()
    return table


def explained(exc: IllegalActionError, text: str, table: LiveTable, lang: str) -> Exception:
    """An illegal meld is explained in words (the core's catalogue, ``lang``)."""
    with contextlib.suppress(RummyError):
        action = parse_action(text)
        if action.kind is ActionKind.MELD:
            reason = explain_meld(action.cards, table.rules, lang, run=action.run)
            if reason is not None:
                return MeldRefused(reason)
    return exc


class MeldRefused(IllegalActionError):
    """An illegal meld, with why in the person's language."""

    def __init__(self, explanation: str) -> None:
        super().__init__(explanation)
        self.explanation = explanation
