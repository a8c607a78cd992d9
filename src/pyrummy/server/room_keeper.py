"""The room keeper: stand-ins for people who are away, and clean-up of rooms that are over.

One :class:`RoomKeeper` runs in every server process (started by the app's
lifespan); it plays only the tables this process owns (every table on SQLite,
the advisory-lock owner's on PostgreSQL). What it does is described in
:mod:`pyrummy.server.rooms` ("Stand-ins", "Bounded").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from pyrummy.server.background import BackgroundRound
from pyrummy.server.rooms import HUMAN, STAND_IN_BOT, Room, Rooms, _row_to_room
from pyrummy.server.tables import LiveTable, TableError

log = logging.getLogger("pyrummy.server")


class RoomKeeper(BackgroundRound):
    """Plays the seats of people who are away (see the module's docstring)."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        #: ``rooms.tables_opened`` when a round last found no started room, on
        #: a store only this process writes (SQLite): until a room starts here,
        #: a round has nothing to look at and skips its query.
        self._none_started_as_of: int | None = None

    async def _forever(self) -> None:
        pruned_at = time.monotonic()
        while True:
            await asyncio.sleep(self.rooms.settings.tick)
            try:
                await self.tick()
                if time.monotonic() - pruned_at >= self.rooms.settings.prune_every:
                    pruned_at = time.monotonic()
                    await self.prune()
            except Exception:  # the keeper must outlive a database hiccup
                log.exception("room keeper: a round failed")

    async def prune(self, now: float | None = None) -> int:
        """Close rooms that are over (see :class:`RoomSettings`) and delete the
        chat and presence of closed rooms and stale watchers; returns how many
        rooms were closed. Idempotent: every process may run it."""
        now = time.time() if now is None else now
        settings = self.rooms.settings
        return await self.rooms.rows.prune(
            now, settings.waiting_ttl, settings.ended_ttl, settings.watcher_ttl
        )

    async def tick(self, now: float | None = None) -> int:
        """One round over the started rooms; returns how many stand-in steps were taken."""
        now = time.time() if now is None else now
        opened = self.rooms.tables_opened
        if self._none_started_as_of == opened:
            return 0
        rows = await self.rooms.rows.started()
        # Counted before the query: a room started while it ran is looked at
        # next round. On PostgreSQL other processes start rooms too: always ask.
        if not rows and not self.rooms.store.notifies:
            self._none_started_as_of = opened
        steps = 0
        for row in rows:
            room = _row_to_room(row)
            try:
                steps += await self._keep(room, now)
            except TableError:
                continue
        return steps

    def _plays_here(self, table: LiveTable) -> bool:
        cluster = self.rooms.manager.cluster
        return cluster is None or bool(cluster.owns(table.table_id))

    async def _keep(self, room: Room, now: float) -> int:
        assert room.table_id is not None
        presence = await self.rooms.presence(room.code)
        people = [i for i, seat in enumerate(room.seats) if seat.kind == HUMAN]
        gone = [
            i for i in people if self.rooms.seat_status(room, i, presence, now).get("abandoned")
        ]
        # Nothing to do without a timer or an abandoned seat (the table is not
        # even loaded); when every person has gone, nobody is served by the
        # match going on: it waits, and closes as abandoned in the end.
        if (not gone and not room.turn_timer) or len(gone) == len(people):
            return 0
        table = await self.rooms.manager.get(room.table_id)
        if table.is_over or not self._plays_here(table):
            return 0
        steps = 0
        timed_out = False
        if table.awaiting and room.turn_timer:
            # When the table last moved: the same for every seat it waits for.
            last = await self.rooms.last_action_at(table, None) or (room.started_at or now)
            timed_out = now - last > room.turn_timer
        for looking in sorted(table.awaiting):
            status = self.rooms.seat_status(room, looking, presence, now)
            if status.get("abandoned") or timed_out:
                await table.acknowledge(looking)
                table.wake_bots()
        seat = table.match.current_seat
        if seat is None or room.seats[seat].kind != HUMAN or table.awaiting:
            return steps
        status = self.rooms.seat_status(room, seat, presence, now)
        stand_in = bool(status.get("abandoned"))
        if not stand_in and room.turn_timer:
            turn_began = await self.rooms.last_action_at(table, seat) or (room.started_at or now)
            if now - turn_began > room.turn_timer:
                stand_in = True
                if seat not in room.away:
                    room.away.add(seat)
                    with contextlib.suppress(TableError):
                        await self.rooms._save(room)
        if not stand_in:
            return steps
        from pyrummy.bots import make_bot

        async with table.lock:
            if table.match.current_seat != seat or table.is_over:
                return steps
            observation = table.match.observe(seat)
            legal = table.match.legal_actions()
            action = make_bot(STAND_IN_BOT, seed=table.seq).choose(observation, legal)
            await table.apply(seat, str(action))
        log.info(
            "room %s: the stand-in played %s for seat %d (%s)",
            room.code,
            action,
            seat,
            "abandoned" if status.get("abandoned") else "turn timer",
        )
        table.wake_bots()
        return steps + 1
