"""Rated matches: when a match changes its people's ratings, and how, once.

A table is rated when its :class:`~pyrummy.server.storage.TableSpec` says
``rated``: the quick match sets it on every table it starts, a friends' room
when its creator ticked "rated" before the start (:mod:`pyrummy.server.rooms`).

When a rated match ends (its last action stored, or its one person resigned),
:class:`Ratings` rates it in the background; a request for the match's
changes (``GET /api/tables/{id}/rating``) rates it too if that has not
happened yet (a process that stopped between the two). Either way the
storage rates a match once (:mod:`pyrummy.server.storage.ratings`).

Who is rated: the seats of a profile (``profile_seats``, so a person whose
seat a bot took over is still found). Where each finished: by the match's
totals; a person who left (resigned, timed out: their seat is now a bot's)
finishes after everyone who stayed, whatever the bot made of their seat.
The bots play at their anchors and people without a profile at a
newcomer's rating; neither is updated.
"""

from __future__ import annotations

import asyncio
import logging
from fractions import Fraction
from typing import Any

from pyrummy.ratings import Seat, anchor_rating, newcomer, places_of, rate_match
from pyrummy.server.storage import TableSpec
from pyrummy.server.storage.profiles import ProfileStore
from pyrummy.server.storage.ratings import RatingChange, RatingStore
from pyrummy.server.tables import DEFAULT_BOT, LiveTable, resigned_seat

log = logging.getLogger("pyrummy.server")


def left_seats(spec: TableSpec, seated: dict[int, str], result: dict[str, Any]) -> list[int]:
    """The profiles' seats whose person left the match: a bot took the seat
    over, or the person resigned (which ended it)."""
    left = {seat for seat in seated if spec.seats[seat].kind != "human"}
    resigned = resigned_seat(result)
    if resigned is not None:
        left.add(resigned)
    return sorted(left)


class Ratings:
    """Rates finished rated matches (see the module's docstring)."""

    def __init__(self, rows: RatingStore, profiles: ProfileStore) -> None:
        self.rows = rows
        self.profiles = profiles
        self._running: set[asyncio.Task[Any]] = set()

    async def rate(self, spec: TableSpec, result: dict[str, Any] | None) -> list[RatingChange]:
        """Rate the finished match of ``spec`` (``result``: its stored result)
        if it is rated and not rated yet; returns its changes."""
        if not spec.rated or result is None:
            return []
        seated = await self.profiles.seated_at(spec.table_id)
        if not seated:
            return []
        totals = [Fraction(total) for total in result["totals"]]
        places = places_of(totals, left_seats(spec, seated, result))

        def compute(before: dict[int, Any]) -> dict[int, tuple[int, Any]]:
            seats = []
            for index, seat in enumerate(spec.seats):
                if index in seated:
                    seats.append(Seat(before[index] or newcomer()))
                elif seat.kind == "bot":
                    seats.append(Seat(anchor_rating(spec.preset, seat.bot or DEFAULT_BOT), True))
                else:
                    seats.append(Seat(newcomer(), fixed=True))
            after = rate_match(seats, places)
            return {index: (places[index], after[index]) for index in seated}

        changes = await self.rows.rate_match(spec.table_id, spec.preset, seated, compute)
        if changes is None:  # rated already (elsewhere, or a moment ago)
            return await self.rows.changes_of(spec.table_id)
        return changes

    def table_over(self, table: LiveTable) -> None:
        """The match at ``table`` just ended here: rate it in the background."""
        if not table.spec.rated:
            return
        result = table.result() | (
            {"resigned": table.resigned} if table.resigned is not None else {}
        )
        task = asyncio.get_running_loop().create_task(self._rate_logged(table.spec, result))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _rate_logged(self, spec: TableSpec, result: dict[str, Any]) -> None:
        try:
            await self.rate(spec, result)
        except Exception:  # rated later, when the match's changes are asked for
            log.exception("table %s: the match was not rated", spec.table_id)

    async def stop(self) -> None:
        """Let the ratings under way finish."""
        if self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
