"""Several server processes on one PostgreSQL database.

Any process answers any request for any table: no sticky sessions, so
``pyrummy serve`` processes on other ports or hosts can sit behind one
address. What keeps them consistent:

* **Storage decides the order.** An action is stored as ``(table, seq)``, the
  primary key: two processes can never both store action ``seq``. Before a
  process answers for a table it has in memory, it reads the actions stored
  after the ones it knows (one indexed query) and applies them, so a client
  acting through one process and reading through another sees its own
  actions.
* **Events reach every process.** Storing an action (or a "Next deal", or a
  bot pause change) sends ``NOTIFY pyrummy, 'table:seq:seat:action'`` in the
  same transaction; every process ``LISTEN``\\ s, applies the action it
  carries (reading the table's newer actions instead when one is missing)
  and sends the events, in order and once each, to its own WebSocket
  subscribers.
* **One process plays a table's bots**: the one holding the table's
  PostgreSQL advisory lock, taken on a connection kept open for that. Other
  processes keep the table's bots switched off. When the owner dies, its
  connection closes, the lock is free, and the next sweep (every
  ``takeover_every`` seconds) of another process takes the table over and
  plays on from the stored actions.
* **A copy nobody uses here leaves.** A process drops its copy of a table
  another process plays when it has had no socket and no request here for
  ``Lifecycle.unload_copies_after`` seconds (it stops applying the table's
  notices; the next request or socket reads it back from storage). A process
  whose socket or request uses a table another process plays *claims* it (a
  notice); the owner hands it over (drops its copy and its lock, which the
  claimer's next sweep takes) once nothing here has used it for as long and
  no bot is to move: a table is then played, and its actions applied, by the
  one process its person talks to.

SQLite stays single-process: this module is only used on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import psycopg

from pyrummy.server.storage import (
    CLAIM,
    OVER,
    Store,
    StoredAction,
    coordination,
    parse_acknowledgement,
    parse_notice,
)
from pyrummy.server.storage.pg_direct import conninfo
from pyrummy.server.tables import (
    DEFAULT_BOT,
    LiveTable,
    TableError,
    TableManager,
    bot_seed,
    resigned_seat,
)

log = logging.getLogger("pyrummy.server")


async def catch_up(table: LiveTable, store: Store) -> int:
    """Apply the actions stored after the ones ``table`` knows, publishing each
    one (in order) to this process's subscribers, and wake the table's bots
    (if it has them here); returns how many."""
    taken = table.take_all_stored(await store.actions_after(table.table_id, table.seq))
    if taken:
        # The notice of what was read here may come later and is then skipped
        # as known: a read that leaves a bot to move must start it itself, or
        # the table waits for the next event (seen: a stall of the bots while
        # a person's page polled the owner's state).
        table.wake_bots()
    return taken


async def refresh_meta(
    table: LiveTable, store: Store, seat_bot: Callable[[LiveTable, int, Any], None] | None = None
) -> None:
    """Take what another process stored of a table besides its actions: the
    acknowledged showdowns, the bot pause, a resignation, a bot taking a
    person's seat (seated through ``seat_bot``)."""
    meta = await store.table_meta(table.table_id)
    if meta is None:
        return
    import dataclasses

    finished = len(table.match.finished_deals)
    table.awaiting = {s for s in table.awaiting if meta.acknowledged.get(s, 0) < finished}
    if meta.bot_delay != table.bot_delay:
        table.bot_delay = meta.bot_delay
        table.spec = dataclasses.replace(table.spec, bot_delay=table.bot_delay)
    if meta.status == OVER and not table.is_over:
        table.resigned = resigned_seat(meta.result)
    if meta.seats != table.spec.seats:
        replaced = [
            seat
            for seat, (now, before) in enumerate(zip(meta.seats, table.spec.seats, strict=True))
            if now.kind == "bot" and before.kind == "human"
        ]
        table.take_seats(meta.seats, meta.token_digests)
        for seat in replaced:
            bot = table.bot_factory(
                meta.seats[seat].bot or DEFAULT_BOT, bot_seed(table.spec.seed, seat)
            )
            if seat_bot is not None:
                seat_bot(table, seat, bot)
    if table.on_change is not None:
        table.on_change(table, None)


class Tidied(NamedTuple):
    """What one :meth:`Cluster.tidy` did: copies dropped, tables handed over, claims sent."""

    dropped: int
    handed: int
    claimed: int


class Cluster:
    """This process's part in a cluster: listening, catching up, owning bots."""

    def __init__(self, store: Store, manager: TableManager, takeover_every: float = 1.0) -> None:
        self.store = store
        self.manager = manager
        self.takeover_every = takeover_every
        self._info = conninfo(str(store.engine.url.render_as_string(hide_password=False)))
        #: The bots of tables another process owns, switched off here.
        self._idle_bots: dict[str, dict[int, Any]] = {}
        self._owned: set[str] = set()
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._lock_guard = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        #: What each table has to catch up with ("actions", "meta"), and the
        #: task doing it: one per table, so that a table whose lock is held
        #: (a bot thinking, a commit) never delays the events of the others.
        self._pending: dict[str, set[str]] = {}
        self._runners: dict[str, asyncio.Task[None]] = {}
        #: Actions carried by notifications, not applied yet (by table, by number).
        self._carried: dict[str, dict[int, StoredAction]] = {}
        #: "Next deal"s carried by notifications (by table: seat -> finished deals seen).
        self._acks: dict[str, dict[int, int]] = {}
        #: When a table found waiting for a person was last loaded by adopt_orphans.
        self._waiting_checked: dict[str, float] = {}
        #: When this process last claimed a table another process plays.
        self._claims_sent: dict[str, float] = {}
        #: When another process last claimed a table this one plays.
        self._claimed: dict[str, float] = {}
        #: Set once the listening connection is up (tests wait for it).
        self.listening = asyncio.Event()

    @classmethod
    async def start(
        cls, store: Store, manager: TableManager, takeover_every: float = 1.0
    ) -> Cluster:
        cluster = cls(store, manager, takeover_every)
        cluster._locks = await psycopg.AsyncConnection.connect(cluster._info, autocommit=True)
        await cluster._connect_listener()
        loop = asyncio.get_running_loop()
        cluster._tasks = [
            loop.create_task(cluster._listen_forever()),
            loop.create_task(cluster._take_over_forever()),
        ]
        manager.cluster = cluster
        return cluster

    async def stop(self) -> None:
        for task in [*self._tasks, *self._runners.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for connection in (self._listener, self._locks):
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.close()

    # -- hooks called by the TableManager -------------------------------------------
    async def adopt(self, table: LiveTable) -> None:
        """A table just loaded here: play its bots only if no other process does."""
        # Its bots are set aside while the lock is asked for: nothing may
        # wake them meanwhile (a catch-up, a request), or two processes
        # would play them.
        bots, table.bots = table.bots, {}
        # A table of several people may have no bots but need stand-ins
        # (rooms.RoomKeeper): one process owns it all the same.
        if (bots or len(table.humans) > 1) and not table.is_over:
            if await self._try_lock(table.table_id):
                table.bots = bots
            else:
                self._idle_bots[table.table_id] = bots
        # What was stored between its load and now was announced while it
        # was not listed here yet: read it.
        self.notified(table.table_id, "actions")

    def seat_bot(self, table: LiveTable, seat: int, bot: Any) -> None:
        """A bot now plays ``seat``: it plays here if this process plays the
        table's bots, else it waits with them (see :meth:`take_over`)."""
        if table.table_id in self._owned:
            table.bots[seat] = bot
        else:
            self._idle_bots.setdefault(table.table_id, {})[seat] = bot

    async def release(self, table_id: str) -> None:
        """The table left this process's memory: another process may play its bots."""
        self._idle_bots.pop(table_id, None)
        self._carried.pop(table_id, None)
        self._acks.pop(table_id, None)
        self._claims_sent.pop(table_id, None)
        self._claimed.pop(table_id, None)
        if table_id not in self._owned:
            return
        self._owned.discard(table_id)
        with contextlib.suppress(Exception):  # a lost connection released it already
            async with self._lock_guard:
                assert self._locks is not None
                await coordination.unlock(self._locks, table_id)

    async def refresh(self, table: LiveTable) -> None:
        """Before answering for a table held in memory: take what others stored.

        Waits for an action under way here (the table's lock): a reader must
        see at least everything stored before its request arrived.
        """
        async with table.lock:
            await catch_up(table, self.store)

    async def catch_up_locked(self, table: LiveTable) -> int:
        """Apply what others stored after what ``table`` knows (call with its
        lock held); returns how many actions."""
        return await catch_up(table, self.store)

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    # -- internals --------------------------------------------------------------------
    async def _try_lock(self, table_id: str) -> bool:
        if table_id in self._owned:
            return True
        try:
            async with self._lock_guard:
                assert self._locks is not None
                locked = await coordination.try_lock(self._locks, table_id)
        except psycopg.Error:
            # The next check of the lock connection reconnects; until then
            # another process may own the table: its bots stay off here.
            log.warning("table %s: the advisory lock could not be asked for", table_id)
            return False
        if locked:
            self._owned.add(table_id)
            return True
        return False

    async def _try_lock_many(self, table_ids: list[str]) -> list[str]:
        """The tables among ``table_ids`` whose advisory lock this process now
        holds (taken now, or held already), asked for in one statement."""
        wanted = [t for t in table_ids if t not in self._owned]
        taken = [t for t in table_ids if t in self._owned]
        if not wanted:
            return taken
        try:
            async with self._lock_guard:
                assert self._locks is not None
                locked = await coordination.try_lock_many(self._locks, wanted)
        except psycopg.Error:
            log.warning("%d table(s): the advisory locks could not be asked for", len(wanted))
            return taken
        self._owned.update(locked)
        return taken + locked

    async def _connect_listener(self) -> None:
        self._listener = await psycopg.AsyncConnection.connect(self._info, autocommit=True)
        await coordination.listen(self._listener)
        self.listening.set()

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen()
            except psycopg.Error as exc:
                log.error("the LISTEN connection was lost (%s): reconnecting", exc)
            self.listening.clear()
            while not self.listening.is_set():
                await asyncio.sleep(1.0)
                try:
                    await self._connect_listener()
                except psycopg.Error as exc:
                    log.error("LISTEN: cannot reconnect yet (%s)", exc)
            # Notifications sent while nobody listened are gone: every table
            # in memory reads what it missed.
            for table_id in list(self.manager.tables):
                self.notified(table_id, "actions")
                self.notified(table_id, "meta")

    async def _listen(self) -> None:
        assert self._listener is not None
        async for notice in self._listener.notifies():
            table_id, what, action = parse_notice(notice.payload)
            table = self.manager.tables.get(table_id)
            if table is None:
                continue
            if what == CLAIM:
                if table_id in self._owned:
                    self._claimed[table_id] = time.monotonic()
            elif what == "meta":
                acknowledged = parse_acknowledgement(notice.payload)
                if acknowledged is None:
                    self.notified(table_id, "meta")
                else:
                    seat, deals = acknowledged
                    acks = self._acks.setdefault(table_id, {})
                    acks[seat] = max(deals, acks.get(seat, 0))
                    self.notified(table_id, "acks")
            elif not what.isdigit() or int(what) > table.seq:
                # Not an action this process stored itself or already read.
                if action is None:
                    self.notified(table_id, "actions")
                elif self._take_at_once(table, action):
                    continue
                else:
                    self._carried.setdefault(table_id, {})[action.seq] = action
                    self.notified(table_id, "carried")

    def notified(self, table_id: str, what: str) -> None:
        """Catch ``table_id`` up in its own task: ``actions`` (read what it
        missed), ``carried`` (apply the notified actions; read only past a
        gap), ``acks`` (the "Next deal"s notified) or ``meta`` (read them and
        the bot pause)."""
        self._pending.setdefault(table_id, set()).add(what)
        runner = self._runners.get(table_id)
        if runner is None or runner.done():
            self._runners[table_id] = asyncio.get_running_loop().create_task(
                self._catch_up_table(table_id)
            )

    async def _catch_up_table(self, table_id: str) -> None:
        try:
            while (pending := self._pending.pop(table_id, None)) is not None:
                table = self.manager.tables.get(table_id)
                if table is None:
                    self._carried.pop(table_id, None)
                    self._acks.pop(table_id, None)
                    continue
                try:
                    async with table.lock:
                        # Actions first: a showdown read here sets who is still
                        # looking at it, which the acknowledgements then narrow.
                        # A carried action is applied without a read; "actions"
                        # (a notification without one, a reconnection) reads.
                        complete = self._apply_carried(table)
                        if "actions" in pending or ("carried" in pending and not complete):
                            await catch_up(table, self.store)
                        acks = self._acks.pop(table_id, {})
                        if "meta" in pending or not self._take_acks(table, acks):
                            await refresh_meta(table, self.store, self.seat_bot)
                    table.wake_bots()
                except Exception:
                    log.exception("table %s: catching up with another process failed", table_id)
        finally:
            if self._runners.get(table_id) is asyncio.current_task():
                del self._runners[table_id]

    def _take_at_once(self, table: LiveTable, action: StoredAction) -> bool:
        """Apply a notified action here and now when it is the table's next
        and nothing else is under way for the table (no catch-up queued or
        running, its lock free): the usual case, which then costs no task and
        no lock. False: it goes through the table's catch-up task."""
        if (
            action.seq != table.seq + 1
            or table.lock.locked()
            or table.table_id in self._pending
            or table.table_id in self._carried
            or table.table_id in self._runners
        ):
            return False
        try:
            table.take_stored(action)
        except Exception:
            log.exception("table %s: a notified action could not be applied", table.table_id)
            self.notified(table.table_id, "actions")
            return True
        table.wake_bots()
        return True

    @staticmethod
    def _take_acks(table: LiveTable, acks: dict[int, int]) -> bool:
        """Take the "Next deal"s the notices carried (seat -> finished deals
        seen); False when one is for a deal not finished here yet (then the
        table must read them)."""
        finished = len(table.match.finished_deals)
        if any(deals > finished for deals in acks.values()):
            return False
        still = {s for s in table.awaiting if acks.get(s, -1) < finished}
        # Unchanged (this process's own "Next deal" coming back): nothing to send.
        if still != table.awaiting:
            table.awaiting = still
            if table.on_change is not None:
                table.on_change(table, None)
        return True

    def _apply_carried(self, table: LiveTable) -> bool:
        """Apply the actions the notifications carried, in order (call with the
        table's lock held); False when one is missing (not carried, or a
        notification lost), so that the table must read what it missed."""
        carried = self._carried.pop(table.table_id, {})
        while (action := carried.pop(table.seq + 1, None)) is not None:
            table.take_stored(action)
        # What is left is either known already (stored by this process, or
        # read meanwhile) or past a gap.
        return all(seq <= table.seq for seq in carried)

    async def _take_over_forever(self) -> None:
        while True:
            await asyncio.sleep(self.takeover_every)
            try:
                await self.check_locks()
                await self.take_over()
                await self.tidy()
            except Exception:
                log.exception("taking over tables failed")

    async def tidy(self, now: float | None = None) -> Tidied:
        """Drop the copies of tables others play that nothing here used for
        ``unload_copies_after`` seconds, claim the tables others play that are
        used here, and hand over the claimed tables that nothing here uses
        (0 s: none of it)."""
        after = self.manager.lifecycle.unload_copies_after
        if after <= 0:
            return Tidied(0, 0, 0)
        now = time.monotonic() if now is None else now
        dropped = handed = 0
        claims: list[str] = []
        for table_id, table in list(self.manager.tables.items()):
            used_here = bool(table.subscribers) or now - table.asked_at < after
            if table_id in self._owned:
                claimed_at = self._claimed.get(table_id)
                if claimed_at is None:
                    continue
                if now - claimed_at > after:  # the claimer stopped asking
                    del self._claimed[table_id]
                elif not used_here and self._may_drop(table):
                    await self._drop(table)
                    log.info("table %s: handed over to the process that claimed it", table_id)
                    handed += 1
            elif used_here:
                # Only a table that needs an owner (bots, stand-ins) is claimed,
                # every half period while it is used here.
                if (
                    table_id in self._idle_bots
                    and now - self._claims_sent.get(table_id, -after) >= after / 2
                ):
                    self._claims_sent[table_id] = now
                    claims.append(table_id)
            elif self._may_drop(table):
                await self._drop(table)
                dropped += 1
        if claims:
            async with self._lock_guard:
                assert self._locks is not None
                await coordination.notify_all(self._locks, claims, CLAIM)
        return Tidied(dropped, handed, len(claims))

    def _may_drop(self, table: LiveTable) -> bool:
        """Nobody watches here, nothing is under way for it here, and no bot of
        it is to move (a handover then costs no bot a turn)."""
        table_id = table.table_id
        return (
            table.is_idle()
            and table.bot_to_move() is None
            and table_id not in self._runners
            and table_id not in self._pending
        )

    async def _drop(self, table: LiveTable) -> None:
        """The table leaves this process's memory (and its lock, if held)."""
        self.manager.tables.pop(table.table_id, None)
        await self.release(table.table_id)

    async def check_locks(self) -> bool:
        """Whether the advisory-lock connection is alive; when it was lost, so
        were the locks: the bots of the tables it held stop here (another
        process may be playing them already), and it reconnects, so that
        :meth:`take_over` can take the tables back that nobody took."""
        assert self._locks is not None
        try:
            async with self._lock_guard:
                await coordination.ping(self._locks)
            return True
        except psycopg.Error as exc:
            lost = sorted(self._owned)
            log.error(
                "the advisory-lock connection was lost (%s): the bots of %d table(s) stop here",
                exc,
                len(lost),
            )
        for table_id in lost:
            table = self.manager.tables.get(table_id)
            if table is not None and table.bots:
                self._idle_bots[table_id] = table.bots
                table.bots = {}
                if table.bot_task is not None:
                    table.bot_task.cancel()
        self._owned.clear()
        with contextlib.suppress(Exception):
            await self._locks.close()
        try:
            self._locks = await psycopg.AsyncConnection.connect(self._info, autocommit=True)
        except psycopg.Error as exc:
            log.error("advisory locks: cannot reconnect yet (%s)", exc)
        return False

    async def take_over(self) -> int:
        """Take the tables whose owner is gone; returns how many."""
        taken = 0
        for table_id in list(self._idle_bots):
            table = self.manager.tables.get(table_id)
            if table is None or table.is_over:
                self._idle_bots.pop(table_id, None)
        # Every table another process owns, asked for in one statement: asked
        # one by one, the sweep cost a round trip per table every second
        # (half the statements of a loaded server of two processes).
        for table_id in await self._try_lock_many(list(self._idle_bots)):
            table = self.manager.tables.get(table_id)
            bots = self._idle_bots.pop(table_id, None)
            if table is not None and bots is not None:
                async with table.lock:
                    await catch_up(table, self.store)
                    table.bots = bots
                log.info("table %s: taken over (its owner is gone)", table_id)
                table.wake_bots()
                taken += 1
            elif table_id in self._owned:  # left memory meanwhile: not ours to keep
                await self.release(table_id)
        return taken

    def forget_waiting_checks(self, now: float, recheck_after: float) -> None:
        """Drop the checks old enough to be done again: one entry per table
        ever found waiting was kept for the life of the process."""
        self._waiting_checked = {
            table_id: at
            for table_id, at in self._waiting_checked.items()
            if now - at < recheck_after
        }

    async def adopt_orphans(self) -> int:
        """Load the live tables with bots that no process holds, and play them.

        A table that left the memory of every process (idle there, or its
        owner died with nobody else holding it) would otherwise wait for its
        person's next request; one whose bot is to move plays on now.
        Returns how many tables were adopted.
        """
        adopted = 0
        now = time.monotonic()
        recheck_after = self.manager.lifecycle.idle_after
        self.forget_waiting_checks(now, recheck_after)
        for table_id in await self.store.table_ids(status="live"):
            if table_id in self.manager.tables:
                continue
            if now - self._waiting_checked.get(table_id, -recheck_after) < recheck_after:
                continue
            if not await self._try_lock(table_id):
                continue
            try:
                table = await self.manager.get(table_id)
            except TableError:
                await self.release(table_id)
                continue
            if table.bot_to_move() is None:
                # Waiting for a person: it comes back when they ask for it
                # (and is not read again here for a while).
                self._waiting_checked[table_id] = now
                self.manager.tables.pop(table_id, None)
                await self.release(table_id)
                continue
            log.info("table %s: nobody played its bots; adopted", table_id)
            table.wake_bots()
            adopted += 1
        return adopted
