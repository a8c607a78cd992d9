"""Private tables for friends: a room code, a waiting room, presence, chat and stand-ins.

A **room** is what friends share before and around a table: a short code
(``/join/CODE``), the seats as the creator chose them (a person, an open seat
for a friend, a bot) and, once started, the table being played. People get a
secret token per seat exactly like a table's (only its SHA-256 digest is
stored); when the room starts, the table is created with the same digests, so
the token a friend got on joining plays that seat.

Everything a process needs to know about a room lives in the database (rooms,
``room_presence``, ``room_chat``), so several server processes serve one room:
the table itself goes through the cluster's events (``cluster.py``), the
room's own state is read from storage on every poll.

**Presence.** The page polls the room every couple of seconds; a poll stamps
the seat (or the watcher) as seen. A seat not seen for
:attr:`RoomSettings.presence_timeout` seconds is *disconnected*; one gone for
the room's grace period is *abandoned*. Polled rather than pushed on
purpose: the poll *is* the heartbeat presence needs (a WebSocket's mere being
open is known only to the process holding it), and it brings the room and new
chat back in the same request; a push would need a notification per presence
stamp across processes for no fewer requests.

**Bounded.** Chat keeps the newest :attr:`RoomSettings.chat_kept` messages of
a room; :meth:`RoomKeeper.prune` closes rooms that are over and deletes their
chat and presence, and watchers not seen for a while.

**Stand-ins.** The :class:`RoomKeeper` of the process that plays the table's
bots (every process on SQLite, the advisory-lock owner on PostgreSQL) makes
the ``simple`` bot play a person's seat while it is abandoned, or for one turn
when the room's turn timer runs out (the person is then marked away until
their own move at the table, or their "I'm back"). A person who comes back simply plays on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pyrummy.core.rules import find_rules
from pyrummy.server.profiles import PlayingProfile
from pyrummy.server.settings import RoomSettings
from pyrummy.server.storage import SeatSpec, Store, TableSpec
from pyrummy.server.storage.rooms import CLOSED, STARTED, WAITING, RoomStore
from pyrummy.server.tables import (
    WEB_BOTS,
    LiveTable,
    TableError,
    TableManager,
    new_table_spec,
    token_digest,
)

log = logging.getLogger("pyrummy.server")

#: Room codes are read aloud and typed: no 0/O, 1/I/l (and no lower case at all).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The bot that plays a person's seat while they are away.
STAND_IN_BOT = "simple"
OPEN, HUMAN, BOT = "open", "human", "bot"


@dataclass
class RoomSeat:
    kind: str
    bot: str | None = None
    name: str | None = None
    digest: str | None = None
    #: The id of the seated person's profile.
    profile: str | None = None

    def to_dict(self) -> dict[str, Any]:
        seat = {"kind": self.kind, "bot": self.bot, "name": self.name, "digest": self.digest}
        return seat if self.profile is None else seat | {"profile": self.profile}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoomSeat:
        return cls(
            str(data["kind"]),
            data.get("bot"),
            data.get("name"),
            data.get("digest"),
            data.get("profile"),
        )


@dataclass
class Room:
    code: str
    created_at: float
    started_at: float | None
    status: str
    version: int
    preset: str
    options: dict[str, Any]
    seats: list[RoomSeat]
    creator: int
    turn_timer: int
    grace: float
    bot_delay: float
    table_id: str | None
    tables: list[str] = field(default_factory=list)
    away: set[int] = field(default_factory=set)
    #: The room's matches change their people's ratings (the creator's choice before the start).
    rated: bool = False

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat this token holds here (None: no token); 403 for a foreign token."""
        if not token:
            return None
        digest = token_digest(token)
        for index, seat in enumerate(self.seats):
            if seat.digest is not None and secrets.compare_digest(seat.digest, digest):
                return index
        raise TableError(403, "seat.token_bad")

    def missing(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == OPEN]


def normalize_code(text: str) -> str:
    """A code as typed (any case, spaces, dashes) in its stored form.

    >>> normalize_code(" abc-d2e ")
    'ABCD2E'
    """
    return "".join(ch for ch in text.upper() if ch not in " -")


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _row_to_room(row: Any) -> Room:
    return Room(
        code=row.code,
        created_at=row.created_at,
        started_at=row.started_at,
        status=row.status,
        version=row.version,
        preset=row.preset,
        options=json.loads(row.options_json),
        seats=[RoomSeat.from_dict(s) for s in json.loads(row.seats_json)],
        creator=row.creator,
        turn_timer=row.turn_timer,
        grace=row.grace,
        bot_delay=row.bot_delay,
        table_id=row.table_id,
        tables=json.loads(row.tables_json or "[]"),
        away={int(s) for s in json.loads(row.away_json or "{}")},
        rated=bool(row.rated),
    )


class Rooms:
    """Rooms in storage: every change is one conditional update (by version),
    so two processes (or two requests) never both take the last seat."""

    def __init__(self, store: Store, manager: TableManager, settings: RoomSettings) -> None:
        self.store = store
        self.rows = RoomStore(store)
        self.manager = manager
        self.settings = settings
        #: Tables opened for rooms by this process (see RoomKeeper.tick).
        self.tables_opened = 0

    # -- reading ----------------------------------------------------------------------
    async def load(self, code: str) -> Room:
        code = normalize_code(code)
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise TableError(404, "room.not_found", code=code[:12])
        row = await self.rows.row(code)
        if row is None:
            raise TableError(404, "room.not_found", code=code)
        return _row_to_room(row)

    async def by_table_or_none(self, table_id: str) -> Room | None:
        """The room whose table (now or earlier: "play again") is ``table_id``, if any."""
        if not re.fullmatch(r"[0-9a-f]{1,32}", table_id):
            return None
        row = await self.rows.row_of_table(table_id)
        return None if row is None else _row_to_room(row)

    async def seat_taken_by_bot(self, table_id: str, seat: int, level: str) -> None:
        """A person resigned at the room's table and a bot of ``level`` plays
        their seat: the room shows the bot, and the token no longer holds the
        seat here either (a new match of the room keeps the bot)."""
        for _attempt in range(5):
            room = await self.by_table_or_none(table_id)
            if room is None or room.table_id != table_id:
                return
            room.seats[seat] = RoomSeat(BOT, level)
            room.away.discard(seat)
            try:
                await self._save(room)
            except TableError:  # changed meanwhile (a poll): read it again
                continue
            return

    async def _save(self, room: Room, **changes: Any) -> None:
        """Store ``room``'s seats and away marks (and ``changes``) if nobody changed
        it meanwhile; 409 otherwise (the caller reloads and the person retries)."""
        values = {
            "seats_json": json.dumps([s.to_dict() for s in room.seats]),
            "away_json": json.dumps({str(s): True for s in sorted(room.away)}),
            "version": room.version + 1,
            **changes,
        }
        if not await self.rows.save(room.code, room.version, values):
            raise TableError(409, "room.changed")
        room.version += 1

    # -- the waiting room ---------------------------------------------------------------
    async def create(
        self,
        preset: str,
        options: dict[str, Any],
        seats: list[tuple[str, str | None]],
        name: str,
        turn_timer: int,
        grace: float,
        bot_delay: float,
        player: PlayingProfile | None = None,
        rated: bool = False,
    ) -> tuple[Room, str]:
        """A new room; ``seats`` holds ("you" | "open" | "bot", bot level); the
        creator's seat is ``player``'s profile (made now on a first play);
        ``rated``: its matches change the people's ratings.
        Returns the room and the creator's seat token."""
        you = [i for i, (kind, _) in enumerate(seats) if kind == "you"]
        if len(you) != 1:
            raise TableError(422, "room.one_you")
        if not any(kind == "open" for kind, _ in seats):
            raise TableError(422, "room.no_friend")
        for kind, bot in seats:
            if kind == "bot" and bot not in WEB_BOTS:
                raise TableError(422, "room.bad_bot", bot=str(bot)[:20])
        if turn_timer not in self.settings.turn_timer_choices:
            raise TableError(
                422,
                "room.bad_timer",
                choices=", ".join(map(str, self.settings.turn_timer_choices)),
            )
        if grace not in self.settings.grace_choices:
            raise TableError(
                422, "room.bad_grace", choices=", ".join(map(str, self.settings.grace_choices))
            )
        rules = find_rules(
            preset, **{k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
        )
        rules.check_players(len(seats))
        profile = None if player is None else (await player.get(name)).id
        token = secrets.token_urlsafe(24)
        room_seats = [
            RoomSeat(HUMAN, None, name, token_digest(token), profile)
            if kind == "you"
            else RoomSeat(BOT, bot)
            if kind == "bot"
            else RoomSeat(OPEN)
            for kind, bot in seats
        ]
        for _attempt in range(8):
            code = new_code()
            room = Room(
                code=code,
                created_at=time.time(),
                started_at=None,
                status=WAITING,
                version=1,
                preset=rules.name,
                options=options,
                seats=room_seats,
                creator=you[0],
                turn_timer=turn_timer,
                grace=grace,
                bot_delay=bot_delay,
                table_id=None,
                rated=rated,
            )
            stored = await self.rows.insert(
                {
                    "code": code,
                    "created_at": room.created_at,
                    "started_at": None,
                    "status": WAITING,
                    "version": 1,
                    "preset": rules.name,
                    "options_json": json.dumps(options, sort_keys=True),
                    "seats_json": json.dumps([s.to_dict() for s in room_seats]),
                    "creator": room.creator,
                    "turn_timer": turn_timer,
                    "grace": grace,
                    "bot_delay": bot_delay,
                    "table_id": None,
                    "tables_json": "[]",
                    "away_json": "{}",
                    "rated": rated,
                }
            )
            if not stored:  # the code is taken: draw another
                continue
            return room, token
        raise TableError(503, "server.busy")  # pragma: no cover - 8 collisions in 10^9

    def _waiting(self, room: Room) -> None:
        if room.status == STARTED:
            raise TableError(409, "room.started", code=room.code)
        if room.status == CLOSED:
            raise TableError(410, "room.closed", code=room.code)

    async def join(
        self, code: str, name: str, token: str | None, player: PlayingProfile | None = None
    ) -> tuple[Room, int, str | None]:
        """Sit in the first open seat as ``player``'s profile (made now on a
        first play); returns (room, seat, new token or None if the caller
        already sits here). A profile sits at most once: 409 when it holds a
        seat here already (another browser signed in to it)."""
        room = await self.load(code)
        mine = room.seat_of_token(token)
        if mine is not None:
            return room, mine, None
        self._waiting(room)
        missing = room.missing()
        if not missing:
            raise TableError(409, "room.full", code=room.code)
        current = None if player is None else player.current
        for index, taken in enumerate(room.seats):
            if current is not None and taken.profile == current.id:
                raise TableError(409, "profile.already_seated", seat=index + 1)
        profile = None if player is None else (await player.get(name)).id
        new_token = secrets.token_urlsafe(24)
        seat = missing[0]
        room.seats[seat] = RoomSeat(HUMAN, None, name, token_digest(new_token), profile)
        await self._save(room)
        return room, seat, new_token

    async def leave(self, code: str, token: str | None) -> Room:
        room = await self.load(code)
        seat = self._caller(room, token)
        self._waiting(room)
        if seat == room.creator:
            await self._save(room, status=CLOSED)
            room.status = CLOSED
        else:
            room.seats[seat] = RoomSeat(OPEN)
            await self._save(room)
        return room

    def _caller(self, room: Room, token: str | None) -> int:
        seat = room.seat_of_token(token)
        if seat is None:
            raise TableError(401, "seat.token_missing")
        return seat

    def _creator(self, room: Room, token: str | None) -> int:
        seat = self._caller(room, token)
        if seat != room.creator:
            raise TableError(403, "room.not_creator")
        return seat

    async def set_seat(
        self, code: str, index: int, kind: str, bot: str | None, token: str | None
    ) -> Room:
        """The creator makes an open seat a bot, or a bot seat open again."""
        room = await self.load(code)
        self._creator(room, token)
        self._waiting(room)
        if not 0 <= index < len(room.seats):
            raise TableError(404, "room.no_seat", seat=index + 1)
        if room.seats[index].kind == HUMAN:
            raise TableError(409, "room.seat_taken", seat=index + 1)
        if kind == BOT and bot not in WEB_BOTS:
            raise TableError(422, "room.bad_bot", bot=str(bot)[:20])
        room.seats[index] = RoomSeat(BOT, bot) if kind == BOT else RoomSeat(OPEN)
        await self._save(room)
        return room

    async def set_rated(self, code: str, rated: bool, token: str | None) -> Room:
        """The creator makes the room's matches rated (or not), before the start."""
        room = await self.load(code)
        self._creator(room, token)
        self._waiting(room)
        room.rated = rated
        await self._save(room, rated=rated)
        return room

    async def start(
        self, code: str, token: str | None, may_open: Callable[[], None] = lambda: None
    ) -> Room:
        """The creator starts the match; ``may_open`` raises (as for any new
        table) when the server's caps on unfinished tables refuse one more."""
        room = await self.load(code)
        self._creator(room, token)
        self._waiting(room)
        missing = room.missing()
        if missing:
            raise TableError(
                409, "room.seats_missing", seats=", ".join(str(i + 1) for i in missing)
            )
        may_open()
        return await self._open_table(room, status=WAITING)

    async def again(
        self, code: str, token: str | None, may_open: Callable[[], None] = lambda: None
    ) -> Room:
        """A new match with the same people, seats and tokens."""
        room = await self.load(code)
        self._creator(room, token)
        if room.status == CLOSED:
            raise TableError(410, "room.closed", code=room.code)
        if room.status != STARTED or room.table_id is None:
            raise TableError(409, "room.not_started", code=room.code)
        table = await self.manager.get(room.table_id)
        if not table.is_over:
            raise TableError(409, "room.not_over", code=room.code)
        may_open()
        return await self._open_table(room, status=STARTED)

    async def _open_table(self, room: Room, status: str) -> Room:
        seats = [
            SeatSpec("human", None, s.name, s.profile)
            if s.kind == HUMAN
            else SeatSpec("bot", s.bot)
            for s in room.seats
        ]
        spec: TableSpec = new_table_spec(room.preset, dict(room.options), seats, room.bot_delay)
        spec = TableSpec(
            table_id=uuid.uuid4().hex[:12],
            preset=spec.preset,
            options=spec.options,
            seats=spec.seats,
            seed=spec.seed,
            first_dealer=spec.first_dealer,
            bot_delay=spec.bot_delay,
            shuffle=spec.shuffle,
            salt=spec.salt,
            rated=room.rated,
        )
        previous = room.table_id
        now = time.time()
        # Claim the start first (by version): two presses start one table.
        room.away = set()
        self.tables_opened += 1
        await self._save(
            room,
            status=STARTED,
            started_at=now,
            table_id=spec.table_id,
            tables_json=json.dumps([*room.tables, previous] if previous else room.tables),
        )
        try:
            await self.store.create_table(spec, [s.digest for s in room.seats])
        except Exception:
            log.exception("room %s: the table could not be created", room.code)
            # Undo the claim: the room is as it was, the creator may press again.
            await self.rows.force(
                room.code, {"status": status, "table_id": previous, "started_at": room.started_at}
            )
            raise TableError(503, "server.busy") from None
        if previous:
            room.tables.append(previous)
        room.status, room.started_at, room.table_id = STARTED, now, spec.table_id
        table = await self.manager.get(spec.table_id)
        table.wake_bots()
        return room

    # -- presence and chat ------------------------------------------------------------------
    async def seen(self, room: Room, who: str, name: str, active: bool, seat: int | None) -> None:
        """Stamp ``who`` (``seat:N`` or ``watch:ID``) as here now; an active
        person marked away is back."""
        now = time.time()
        await self.rows.stamp(room.code, who, name, now)
        if active and seat is not None and seat in room.away:
            room.away.discard(seat)
            with contextlib.suppress(TableError):
                await self._save(room)

    async def presence(self, code: str) -> dict[str, tuple[str, float]]:
        return await self.rows.presence(code)

    async def say(self, room: Room, seat: int, text: str) -> None:
        """A chat message of ``seat``; 429 when it writes too fast."""
        settings = self.settings
        message = {
            "seat": seat,
            "name": room.seats[seat].name or f"{seat + 1}",
            "text": text,
            "at": time.time(),
        }
        stored = await self.rows.add_chat(
            room.code,
            message,
            settings.chat_window,
            settings.chat_burst,
            settings.chat_gap,
            settings.chat_kept,
        )
        if not stored:
            raise TableError(429, "room.chat_too_fast")

    async def chat_since(self, code: str, since: int) -> list[dict[str, Any]]:
        return await self.rows.chat_since(code, since)

    # -- views ------------------------------------------------------------------------------
    def seat_status(
        self, room: Room, index: int, presence: dict[str, tuple[str, float]], now: float
    ) -> dict[str, Any]:
        seat = room.seats[index]
        entry: dict[str, Any] = {"seat": index, "kind": seat.kind, "bot": seat.bot}
        entry["name"] = seat.name
        if seat.kind != HUMAN:
            return entry
        seen_at = presence.get(f"seat:{index}", ("", 0.0))[1]
        connected = now - seen_at <= self.settings.presence_timeout
        since = max(seen_at, room.started_at or room.created_at)
        abandoned = room.status == STARTED and not connected and now - since > room.grace
        entry.update(
            connected=connected,
            away=index in room.away,
            abandoned=abandoned,
            creator=index == room.creator,
        )
        return entry

    async def view(self, room: Room, you: int | None, chat_since: int = -1) -> dict[str, Any]:
        now = time.time()
        presence = await self.presence(room.code)
        watchers = sorted(
            name
            for who, (name, seen_at) in presence.items()
            if who.startswith("watch:") and now - seen_at <= self.settings.watcher_timeout
        )
        view: dict[str, Any] = {
            "code": room.code,
            "status": room.status,
            "preset": room.preset,
            "options": room.options,
            "creator": room.creator,
            "you": you,
            "turn_timer": room.turn_timer,
            "grace": room.grace,
            "rated": room.rated,
            "table_id": room.table_id,
            "tables": room.tables,
            "seats": [self.seat_status(room, i, presence, now) for i in range(len(room.seats))],
            "watchers": watchers,
            "missing": [i for i in room.missing()],
        }
        if room.status == STARTED and room.table_id is not None:
            with contextlib.suppress(TableError):
                table = await self.manager.get(room.table_id)
                view["to_play"] = table.match.current_seat
                view["over"] = table.is_over
                left = await self.turn_left(room, table, now)
                if left is not None:
                    view["turn_left"] = left
        if chat_since >= 0:
            view["chat"] = await self.chat_since(room.code, chat_since)
        return view

    async def turn_left(self, room: Room, table: LiveTable, now: float) -> float | None:
        """Seconds left of the turn timer for the person to play (the page's
        countdown; seconds, not a deadline, so the clocks need not agree), or
        None when no person's turn is timed."""
        seat = table.match.current_seat
        if not room.turn_timer or table.is_over or seat is None or table.awaiting:
            return None
        if room.seats[seat].kind != HUMAN:
            return None
        began = await self.last_action_at(table, seat) or (room.started_at or now)
        return round(max(0.0, room.turn_timer - (now - began)), 1)

    async def last_action_at(self, table: LiveTable, not_seat: int | None) -> float | None:
        """When the last action (by a seat other than ``not_seat``) was stored."""
        return await self.store.last_action_at(table.table_id, not_seat)
