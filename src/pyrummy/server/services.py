"""What the server is made of, built once per app: the composition root's product.

:class:`Services` holds the settings, the store, the live tables, the rooms
and the per-client counters. :func:`pyrummy.server.app.create_app` makes one
and starts it in the app's lifespan; routes get its parts through the typed
dependencies of :mod:`pyrummy.server.deps`, never through a bag of state.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from pyrummy.server import memtrace
from pyrummy.server.botpool import BotPool
from pyrummy.server.cluster import Cluster
from pyrummy.server.loopstats import LoopStats, Refreezer, tune_gc
from pyrummy.server.play import broadcast
from pyrummy.server.quick import QuickMatch
from pyrummy.server.rated import Ratings
from pyrummy.server.ratelimit import ClientCounter, CreatedBy
from pyrummy.server.room_keeper import RoomKeeper
from pyrummy.server.rooms import Rooms
from pyrummy.server.settings import Settings
from pyrummy.server.storage import Store
from pyrummy.server.storage.profiles import ProfileStore
from pyrummy.server.storage.ratings import RatingStore
from pyrummy.server.tables import BotFactory, TableError, TableManager, default_bot_factory

log = logging.getLogger("pyrummy.server")


@dataclass
class Services:
    """The server's parts; ``store``, ``tables`` and ``rooms`` exist once started."""

    settings: Settings
    bot_factory: BotFactory = default_bot_factory
    loop_stats: LoopStats = field(default_factory=LoopStats)
    refreezer: Refreezer = field(default_factory=Refreezer)
    _store: Store | None = None
    _tables: TableManager | None = None
    _rooms: Rooms | None = None
    _profiles: ProfileStore | None = None
    _ratings: Ratings | None = None
    _cluster: Cluster | None = None
    _keeper: RoomKeeper | None = None
    _quick: QuickMatch | None = None
    _memory_trace: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        #: One count per client for HTTP requests and moves sent over WebSockets.
        self.counter = ClientCounter(self.settings.limits)
        #: Tables created per client address (this process), for the per-client cap.
        self.created_by = CreatedBy(self.settings.table_cap_per_client, self.unfinished)

    # -- the parts -------------------------------------------------------------------
    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the server has not started")
        return self._store

    @property
    def tables(self) -> TableManager:
        if self._tables is None:
            raise RuntimeError("the server has not started")
        return self._tables

    @property
    def rooms(self) -> Rooms:
        if self._rooms is None:
            raise RuntimeError("the server has not started")
        return self._rooms

    @property
    def profiles(self) -> ProfileStore:
        if self._profiles is None:
            raise RuntimeError("the server has not started")
        return self._profiles

    @property
    def ratings(self) -> Ratings:
        if self._ratings is None:
            raise RuntimeError("the server has not started")
        return self._ratings

    @property
    def quick(self) -> QuickMatch:
        if self._quick is None:
            raise RuntimeError("the server has not started")
        return self._quick

    # -- rules that several routes share -------------------------------------------------
    def unfinished(self, table_ids: set[str]) -> set[str]:
        """Tables in memory and not over: those that cost something now (an
        idle table left memory; an abandoned one was closed)."""
        tables = self.tables.tables
        return {t for t in table_ids if t in tables and not tables[t].is_over}

    def check_table_caps(self, client: str) -> None:
        """Raise when ``client`` (or the server) may not open one more table."""
        cap = self.settings.table_cap_per_client
        if cap and self.created_by.count(client) >= cap:
            raise TableError(429, "table.too_many_yours", limit=cap)
        limit = self.settings.table_cap
        if limit:
            live = sum(1 for table in self.tables.tables.values() if not table.is_over)
            if live >= limit:
                raise TableError(503, "table.server_full", limit=limit)

    def secure_cookie(self, connection: HTTPConnection) -> bool:
        """Whether a seat or profile cookie is marked Secure for this request."""
        settings = self.settings
        return settings.secure_cookies or (
            settings.behind_proxy and connection.url.scheme == "https"
        )

    # -- start and stop ----------------------------------------------------------------
    async def start(self) -> None:
        """Open the store, resume the tables, start the background work."""
        settings = self.settings
        store = self._store = await Store.open(settings.url())
        self._profiles = ProfileStore(store)
        # Bots of the default factory are importable by worker processes;
        # a factory of the caller's (tests) runs its bots in a thread.
        workers = settings.bot_workers if self.bot_factory is default_bot_factory else 0
        bot_pool = BotPool(workers, settings.bot_think_limit)
        await bot_pool.warm_up()
        tables = self._tables = TableManager(store, self.bot_factory, bot_pool, settings.lifecycle)
        tables.on_change = broadcast
        ratings = self._ratings = Ratings(RatingStore(store), self._profiles)
        tables.on_over = ratings.table_over
        # PostgreSQL: other server processes may serve the same tables.
        self._cluster = await Cluster.start(store, tables) if store.notifies else None
        resumed = await tables.resume_all()
        tables.start_sweeping()
        self._rooms = Rooms(store, tables, settings.rooms)
        self._keeper = RoomKeeper(self._rooms)
        self._keeper.start()
        self._quick = QuickMatch(store, tables, settings.quick, settings.bot_delay)
        self._quick.start()
        log.info("pyrummy: %d live table(s) resumed from %s", resumed, store.url)
        self.loop_stats.start()
        # A soak's diagnosis; off by default.
        self._memory_trace = memtrace.start(
            settings.memory_trace, settings.memory_trace_every, settings.memory_trace_frames
        )
        if settings.tune_gc:
            tune_gc(settings.gc_thresholds)
            if settings.gc_refreeze:
                self.refreezer.thaw_every = settings.gc_refreeze
                self.refreezer.install()

    async def stop(self) -> None:
        """Stop what :meth:`start` started, the store last."""
        if self._memory_trace is not None:
            self._memory_trace.cancel()
        self.refreezer.uninstall()
        await self.loop_stats.stop()
        if self._cluster is not None:
            await self._cluster.stop()
        if self._keeper is not None:
            await self._keeper.stop()
        if self._quick is not None:
            await self._quick.stop()
        await self.tables.stop()
        if self._ratings is not None:
            await self._ratings.stop()
        await self.store.close()
