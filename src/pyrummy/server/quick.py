"""Quick match: people you don't know, seated as soon as enough of them wait.

**The queue.** A person joins the queue of a game (preset) for a number of
players, with the wait after which bots may fill the empty seats (or never)
and the bots' level. They get a secret *ticket* (an HttpOnly cookie, or the
``X-Queue-Ticket`` header); their page polls with it every second or two.
A poll stamps the entry as alive (an entry not polled for
:attr:`QuickSettings.expire_after` seconds is gone: a closed tab leaves the
queue) and tries to seat people. So does every server process once per
:attr:`QuickSettings.tick`, so a full group never waits for a poll.

**Seating.** The oldest ``players`` waiting people of a queue are one table;
when fewer wait and one of them has waited their chosen time, they are seated
with the others of the queue who accept bots, and bots of that person's level
fill the rest. The seats are shuffled; the table is an ordinary table
(:func:`~pyrummy.server.tables.new_table_spec`) of the preset's rules, with
the operator's match target if there is one (:func:`match_options`), and the
ticket's digest is the seat's token digest, so the ticket the page holds is
its seat token at the table. Claiming is in :mod:`pyrummy.server.storage.queue`: row locks on
PostgreSQL (several processes never seat a person twice), a conditional
update everywhere.

**One queue at a time.** A person (``player``: the profile's id) waiting in
one queue who joins another is refused (409 ``quick.already_queued``), from
any browser: they cancel first. So a profile is never matched against itself.

**Fair play.** Quick matches are rated (``quick_matches.rated``; see the
storage module for what ratings read). A person who leaves one — resigns, or
lets a turn (or a showdown) run past :attr:`QuickSettings.turn_limit` — has a
bot play their seat for the rest of the match (:mod:`pyrummy.server.resign`;
alone with bots, the match ends), the seat is listed as left (their loss),
and the leave is counted. Leaves within :attr:`QuickSettings.window` beyond
the first :attr:`QuickSettings.free_leaves` each bring the next cooldown
(5 min, 1 h, 24 h by default) during which joining is refused with 403
``quick.cooldown`` and the seconds left (``retry_after``, ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from pyrummy.bots.registry import find_level
from pyrummy.core.errors import RummyError
from pyrummy.core.rules import PRESETS, find_rules
from pyrummy.server.background import BackgroundRound
from pyrummy.server.resign import resign
from pyrummy.server.settings import QuickSettings
from pyrummy.server.storage import SeatSpec, Store
from pyrummy.server.storage.queue import (
    SEATED,
    ClaimLost,
    QueueEntry,
    QueueStore,
)
from pyrummy.server.tables import TableError, TableManager, new_table_spec, token_digest

log = logging.getLogger("pyrummy.server")


@dataclass(frozen=True)
class Group:
    """People to seat at one table, and how many bots of which level join them."""

    people: list[QueueEntry]
    bots: int = 0
    bot_level: str | None = None


def plan_groups(waiting: list[QueueEntry], players: int, now: float) -> list[Group]:
    """The tables to start from a queue's waiting entries (oldest first).

    Full groups first, oldest people first; then, if someone left over has
    waited their chosen time, one table of them and the others left over who
    accept bots, the rest bots of their level.

    >>> def entry(i, bot_wait, joined):
    ...     return QueueEntry(i, f"p{i}", "d", "gin", 2, "x", bot_wait, "easy", joined, joined, "waiting")
    >>> [([e.id for e in g.people], g.bots) for g in plan_groups([entry(1, 45, 0), entry(2, None, 1), entry(3, 45, 2)], 2, 10)]
    [([1, 2], 0)]
    >>> [([e.id for e in g.people], g.bots) for g in plan_groups([entry(3, 5, 2)], 2, 10)]
    [([3], 1)]
    """
    groups: list[Group] = []
    rest = list(waiting)
    while len(rest) >= players:
        groups.append(Group(rest[:players]))
        rest = rest[players:]
    due = [e for e in rest if e.bot_wait is not None and now - e.joined_at >= e.bot_wait]
    if due:
        people = [e for e in rest if e.bot_wait is not None]
        groups.append(Group(people, players - len(people), due[0].bot_level))
    return groups


def match_options(preset: str, settings: QuickSettings) -> dict[str, Any]:
    """The rules' options of a quick match of ``preset``: the operator's
    :attr:`QuickSettings.target` where the game plays to a score, else none
    (the game as its preset says).

    >>> match_options("gin", QuickSettings(target=10)), match_options("gin", QuickSettings())
    ({'target': 10}, {})
    >>> match_options("rotham", QuickSettings(target=10))  # six deals, no score to reach
    {}
    """
    if settings.target and find_rules(preset).ending in ("target", "penalty_limit"):
        return {"target": settings.target}
    return {}


def cooldown_left(
    leaves: list[float], now: float, settings: QuickSettings
) -> tuple[int, int] | None:
    """``(seconds left, leaves counted)`` of the cooldown ``leaves`` (times,
    oldest first, within the window) bring, or None when there is none now.

    >>> settings = QuickSettings()
    >>> cooldown_left([0.0], 10.0, settings) is None
    True
    >>> cooldown_left([0.0, 100.0], 160.0, settings)
    (240, 2)
    >>> cooldown_left([0.0, 100.0, 200.0], 260.0, settings)
    (3540, 3)
    """
    over = len(leaves) - settings.free_leaves
    if over <= 0:
        return None
    cooldown = settings.cooldowns[min(over, len(settings.cooldowns)) - 1]
    left = leaves[-1] + cooldown - now
    return (math.ceil(left), len(leaves)) if left > 0 else None


class QuickMatch(BackgroundRound):
    """The quick match of one server process (the queue itself is in storage)."""

    def __init__(
        self, store: Store, tables: TableManager, settings: QuickSettings, bot_delay: float
    ) -> None:
        self.rows = QueueStore(store)
        self.tables = tables
        self.settings = settings
        self.bot_delay = bot_delay
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}

    # -- joining, polling, leaving --------------------------------------------------
    def check_game(self, preset: str, players: int, bot_level: str, bot_wait: int | None) -> str:
        """The preset's name; 422 for a game, player count, bot or wait it cannot offer."""
        try:
            rules = find_rules(preset)
            rules.check_players(players)
        except (RummyError, KeyError, ValueError):
            raise TableError(422, "quick.bad_game", game=preset[:32], players=players) from None
        if not find_level(bot_level).plays(rules, players):
            raise TableError(422, "quick.bad_bot", bot=bot_level, players=players)
        if bot_wait is not None and not 0 <= bot_wait <= self.settings.max_bot_wait:
            raise TableError(422, "quick.bad_wait", limit=self.settings.max_bot_wait)
        return rules.name

    async def cooldown(self, player: str, now: float | None = None) -> tuple[int, int] | None:
        """``(seconds left, leaves)`` of ``player``'s cooldown, or None."""
        now = time.time() if now is None else now
        leaves = await self.rows.leaves_since(player, now - self.settings.window)
        return cooldown_left(leaves, now, self.settings)

    async def join(
        self,
        player: str,
        preset: str,
        players: int,
        name: str,
        bot_wait: int | None,
        bot_level: str,
    ) -> tuple[str, dict[str, Any]]:
        """Put ``player`` in the queue; returns the ticket and the entry's view.
        Refused (nothing stored): a game not offered (422), a cooldown (403), a
        queue joined already (409)."""
        preset = self.check_game(preset, players, bot_level, bot_wait)
        now = time.time()
        cooling = await self.cooldown(player, now)
        if cooling is not None:
            seconds, leaves = cooling
            raise TableError(
                403,
                "quick.cooldown",
                leaves=leaves,
                minutes=math.ceil(seconds / 60),
                retry_after=seconds,
            )
        ticket = secrets.token_urlsafe(24)
        joined = await self.rows.join(
            {
                "player": player,
                "ticket_digest": token_digest(ticket),
                "preset": preset,
                "players": players,
                "name": name,
                "bot_wait": None if bot_wait is None else float(bot_wait),
                "bot_level": bot_level,
                "joined_at": now,
                "seen_at": now,
            }
        )
        if not joined:
            other = await self.rows.waiting_of(player)
            raise TableError(
                409,
                "quick.already_queued",
                game=other.preset if other else preset,
                players=other.players if other else players,
            )
        await self.match(preset, players)
        return ticket, await self.view(await self._entry(ticket), ticket)

    async def _entry(self, ticket: str | None) -> QueueEntry:
        if not ticket:
            raise TableError(401, "quick.ticket_missing")
        entry = await self.rows.by_ticket(token_digest(ticket[:100]))
        if entry is None:
            raise TableError(404, "quick.not_queued")
        return entry

    async def poll(self, ticket: str | None) -> dict[str, Any]:
        """The page is still there: the entry stays, people are seated if
        enough wait; the entry's view (with the table once seated)."""
        entry = await self._entry(ticket)
        if entry.status != SEATED:
            now = time.time()
            if now - entry.seen_at > self.settings.expire_after:
                raise TableError(404, "quick.not_queued")  # gone: the sweeper removes it
            await self.rows.seen(entry.id, now)
            await self.match(entry.preset, entry.players)
            entry = await self._entry(ticket)
        return await self.view(entry, ticket)

    async def leave(self, ticket: str | None) -> None:
        """Leave the queue (409 once seated: the seat is the person's)."""
        entry = await self._entry(ticket)
        if entry.status == SEATED or not await self.rows.leave(entry.id):
            seated = await self._entry(ticket)
            raise TableError(409, "quick.seated", table=seated.table_id or "")

    async def view(self, entry: QueueEntry, ticket: str | None) -> dict[str, Any]:
        """What the entry's page shows: the queue, the place in it, the seat once seated."""
        now = time.time()
        fresh = now - self.settings.expire_after
        view: dict[str, Any] = {
            "status": entry.status,
            "preset": entry.preset,
            "players": entry.players,
            "bot_wait": entry.bot_wait,
            "bot": entry.bot_level,
            "waited": round(now - entry.joined_at, 1),
        }
        if entry.status == SEATED:
            view.update(table_id=entry.table_id, seat=entry.seat, token=ticket)
            return view
        counts = await self.rows.waiting_counts(fresh)
        view["waiting"] = counts.get((entry.preset, entry.players), 0)
        view["position"] = await self.rows.ahead_of(entry, fresh) + 1
        if entry.bot_wait is not None:
            view["bots_in"] = round(max(0.0, entry.joined_at + entry.bot_wait - now), 1)
        return view

    async def overview(self, player: str | None) -> dict[str, Any]:
        """The lobby's line per game: how many wait, and the caller's cooldown."""
        counts = await self.rows.waiting_counts(time.time() - self.settings.expire_after)
        cooling = None if player is None else await self.cooldown(player)
        offered = []
        for rules in PRESETS.values():
            for players in range(rules.min_players, rules.max_players + 1):
                offered.append(
                    {
                        "preset": rules.name,
                        "players": players,
                        "waiting": counts.get((rules.name, players), 0),
                    }
                )
        return {
            "queues": offered,
            "cooldown": None if cooling is None else {"seconds": cooling[0], "leaves": cooling[1]},
            "default_bot_wait": self.settings.default_bot_wait,
            "max_bot_wait": self.settings.max_bot_wait,
        }

    # -- seating -----------------------------------------------------------------------
    async def match(self, preset: str, players: int) -> list[str]:
        """Seat whom the queue can seat now; the ids of the tables started."""
        lock = self._locks.setdefault((preset, players), asyncio.Lock())
        started: list[str] = []
        async with lock:
            now = time.time()
            try:
                async with self.rows.claim(
                    preset, players, now - self.settings.expire_after
                ) as claim:
                    for group in plan_groups(claim.waiting, players, now):
                        started.append(await self._seat(claim, group, preset, players, now))
            except ClaimLost:
                # Seated or gone meanwhile (another process): the next poll or
                # tick looks again. Nothing of this claim was stored.
                return []
        for table_id in started:
            with contextlib.suppress(TableError):
                table = await self.tables.get(table_id)
                table.wake_bots()
        return started

    async def _seat(self, claim: Any, group: Group, preset: str, players: int, now: float) -> str:
        seats: list[QueueEntry | None] = [*group.people, *([None] * group.bots)]
        random.SystemRandom().shuffle(seats)
        specs = [
            SeatSpec("human", None, e.name, e.player)
            if e is not None
            else SeatSpec("bot", group.bot_level)
            for e in seats
        ]
        spec = dataclasses.replace(
            new_table_spec(preset, match_options(preset, self.settings), specs, self.bot_delay),
            rated=True,
        )
        await claim.seat(
            spec,
            [e.ticket_digest if e is not None else None for e in seats],
            {e.id: i for i, e in enumerate(seats) if e is not None},
            [e.player if e is not None else None for e in seats],
            now,
        )
        log.info(
            "quick match: table %s for %s (%d people, %d bots)",
            spec.table_id,
            preset,
            len(group.people),
            group.bots,
        )
        return spec.table_id

    # -- leaving a rated match -------------------------------------------------------
    async def left(self, table_id: str, seat: int) -> str | None:
        """``seat``'s person left the match at ``table_id`` (resigned or timed
        out): counted if it is a quick match. Returns the player, if counted."""
        return await self.rows.record_leave(table_id, seat, time.time())

    async def time_out(self, now: float | None = None) -> int:
        """People of quick-match tables this process plays whose turn (or look
        at a showdown) ran past the turn limit leave their match; returns how many."""
        limit = self.settings.turn_limit
        if not limit:
            return 0
        now = time.time() if now is None else now
        gone = 0
        cluster = self.tables.cluster
        for table_id in await self.rows.live_tables():
            if cluster is not None and not cluster.owns(table_id):
                continue
            try:
                table = await self.tables.get(table_id)
            except TableError:
                continue
            if table.is_over:
                continue
            seat = table.match.current_seat
            waiting_on = sorted(table.awaiting) or (
                [seat] if seat is not None and seat in table.humans else []
            )
            if not waiting_on:
                continue
            since = await table.store.last_action_at(table_id) or table.spec.created_at
            if now - since <= limit:
                continue
            for person in waiting_on:
                with contextlib.suppress(TableError):
                    await resign(self.tables, table, person)
                    await self.left(table_id, person)
                    gone += 1
                    log.info("quick match: table %s seat %d timed out", table_id, person)
        return gone

    # -- the background round -------------------------------------------------------
    async def _forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            try:
                await self.tick()
            except Exception:  # the round must outlive a database hiccup
                log.exception("quick match: a round failed")

    async def tick(self, now: float | None = None) -> None:
        """Forget closed tabs, seat whom the queues can seat, time out the absent."""
        now = time.time() if now is None else now
        settings = self.settings
        await self.rows.prune(now - settings.expire_after, now - settings.seated_kept)
        for preset, players in await self.rows.queues_waiting(now - settings.expire_after):
            await self.match(preset, players)
        await self.time_out(now)
