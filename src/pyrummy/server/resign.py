"""Resigning: a person gives the match up.

Alone against bots, the match ends now, lost by that person: the table's row
is stored as over, with a result whose ``resigned`` names the seat (every
other seat wins), and the table's subscribers get the final state. With
other people at the table (a friends' table), their match goes on: a bot
takes the seat for the rest of it (the table's first bot's level, else
:data:`~pyrummy.server.tables.DEFAULT_BOT`), the seat's token is forgotten,
and the person's name stays on the seat, so the record's players do not
change mid-match.

Either change is one conditional update of the table's row (it must still
be live: a second resignation is refused, 409) announced to the other
server processes, whose copies take it (:func:`pyrummy.server.cluster.refresh_meta`).
"""

from __future__ import annotations

from pyrummy.server.storage import SeatSpec
from pyrummy.server.tables import (
    DEFAULT_BOT,
    LiveTable,
    TableError,
    TableManager,
    bot_seed,
    seat_name,
)


async def resign(tables: TableManager, table: LiveTable, seat: int) -> str | None:
    """``seat`` gives the match up; returns the level of the bot that took
    the seat (None: the match ended)."""
    async with table.lock:
        if table.is_over:
            raise TableError(409, "match.over")
        if any(person != seat for person in table.humans):
            level = next((s.bot for s in table.spec.seats if s.kind == "bot" and s.bot), None)
            level = level or DEFAULT_BOT
            await _hand_to_bot(tables, table, seat, level)
        else:
            await _end_match(table, seat)
            level = None
    table.wake_bots()
    return level


async def _end_match(table: LiveTable, seat: int) -> None:
    result = table.result() | {
        "winners": [s for s in range(len(table.spec.seats)) if s != seat],
        "resigned": seat,
    }
    if not await table.store.resign(table.table_id, result):
        raise TableError(409, "match.over")
    table.resigned = seat
    table.awaiting = set()
    table.publish()
    table.match_ended()


async def _hand_to_bot(tables: TableManager, table: LiveTable, seat: int, level: str) -> None:
    person = table.spec.seats[seat]
    seats = list(table.spec.seats)
    seats[seat] = SeatSpec("bot", level, person.name or seat_name(person, seat, seats))
    digests = list(table.token_digests)
    digests[seat] = None
    if not await table.store.replace_seats(table.table_id, seats, digests):
        raise TableError(409, "match.over")
    table.take_seats(seats, digests)
    bot = table.bot_factory(level, bot_seed(table.spec.seed, seat))
    if tables.cluster is not None:  # played wherever the table's bots are played
        tables.cluster.seat_bot(table, seat, bot)
    else:
        table.bots[seat] = bot
