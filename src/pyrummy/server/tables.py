"""Live tables: a match from the rules core, its seats, its events and its bots.

The server decides no rule: every action goes to :meth:`Match.apply`, and
every view of a table comes from :meth:`Match.observe` for one seat. What
this module adds is the plumbing around the core:

* **Durability.** An action is applied and stored in one transaction; if the
  store refuses it, the table is rebuilt from storage (seed + actions).
* **Events.** Every accepted action is event number ``seq`` (1, 2, ...). A
  subscriber that reconnects with the last number it saw gets the events it
  missed and a fresh state, so a refresh never loses a game.
* **Bots.** Bot seats play server-side, with ``bot_delay`` seconds between
  steps, and wait while a person is still looking at the last showdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
import uuid
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SqlTimeoutError

from pyrummy.bots.registry import DIFFICULTIES, find_level
from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.errors import RulesError, RummyError
from pyrummy.core.fairness import new_match_salt
from pyrummy.core.match import Match, new_match
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.seeds import bot_seed as bot_seed  # re-exported: the server names it here too
from pyrummy.core.shuffle import LEGACY_SHUFFLE, PORTABLE_SHUFFLE
from pyrummy.server.botpool import BotPool, fallback_move
from pyrummy.server.eager import start_now
from pyrummy.server.settings import Lifecycle
from pyrummy.server.storage import (
    CLOSED,
    LIVE,
    OVER,
    QUARANTINED,
    ActionConflict,
    SeatSpec,
    Store,
    StoredAction,
    StoredTable,
    TableSpec,
)

log = logging.getLogger("pyrummy.server")
Message = dict[str, Any]
#: What a subscriber's queue holds: a message, or its JSON text encoded once for
#: every subscriber of the same seat.
Outgoing = Message | str
#: A subscriber whose queue holds this many undelivered messages is dropped;
#: it reconnects with its last sequence number and catches up.
QUEUE_LIMIT = 500
#: The bots a table on the web may seat: the difficulties people choose from,
#: and the random player (names of :data:`pyrummy.bots.BOT_NAMES`).
WEB_BOTS: Final = (*DIFFICULTIES, "random", "learned")
#: The bot a seat gets when none is named (a new table's opponents, a hint).
DEFAULT_BOT: Final = "medium"
#: The shuffle new tables deal by: the documented one anyone can check
#: (docs/fair-deals.md); tables stored without one keep the legacy shuffle.
TABLE_SHUFFLE: Final = PORTABLE_SHUFFLE


class TableError(Exception):
    """A request the table refuses: ``status`` is the HTTP status, ``key`` and
    ``params`` the server message (see :mod:`pyrummy.server.messages`)."""

    def __init__(self, status: int, key: str, **params: object) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.params = params


def resigned_seat(result: dict[str, Any] | None) -> int | None:
    """The seat that resigned, in a stored result (None: the match was played out).

    >>> resigned_seat({"winners": [1], "resigned": 0}), resigned_seat({"winners": [1]})
    (0, None)
    """
    seat = (result or {}).get("resigned")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rules_of(spec: TableSpec) -> Rules:
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in spec.options.items()}
    return find_rules(spec.preset, **options)


def build_match(spec: TableSpec, actions: Sequence[StoredAction] = ()) -> Match:
    """The table's match, rebuilt from its spec and its stored ``actions``."""
    names = [seat_name(seat, i, spec.seats) for i, seat in enumerate(spec.seats)]
    match = new_match(
        rules_of(spec),
        players=len(spec.seats),
        seed=spec.seed,
        dealer=spec.first_dealer,
        names=names,
        shuffle=spec.shuffle or LEGACY_SHUFFLE,
        salt=spec.salt,
    )
    match.replay((action.seat, action.text) for action in actions)
    return match


def seat_name(seat: SeatSpec, index: int, seats: Sequence[SeatSpec] = ()) -> str:
    """The seat's name in the record, numbered as the page numbers it: people
    and bots each counted among themselves (the first bot is Bot 1 even after
    a person), with the bot's difficulty.

    >>> people, bot = SeatSpec("human"), SeatSpec("bot", "easy")
    >>> [seat_name(s, i, [people, bot, bot]) for i, s in enumerate([people, bot, bot])]
    ['Player 1', 'Bot 1 (easy)', 'Bot 2 (easy)']
    """
    if seat.name:
        return seat.name
    before = seats[: index + 1] if seats else ()
    number = sum(1 for other in before if other.kind == seat.kind) or index + 1
    if seat.kind == "human":
        return f"Player {number}"
    return f"Bot {number} ({seat.bot})"


#: Stored actions read back from their (canonical) text: every event is read
#: again for each seat it goes to, and a table's texts repeat ("draw stock").
_stored_action = functools.lru_cache(maxsize=4096)(parse_action)


def public_action(action: Action, actor: int, viewer: int | None) -> str:
    """The action as ``viewer`` may know it: the knock card stays face down.

    >>> public_action(parse_action("knock 7H"), 0, 1), public_action(parse_action("knock 7H"), 0, 0)
    ('knock', 'knock 7H')
    """
    if action.kind is ActionKind.KNOCK and viewer != actor:
        return "knock"
    return str(action)


@dataclass(eq=False)
class Subscriber:
    """One live connection watching a table from one seat (None: a spectator)."""

    seat: int | None
    queue: asyncio.Queue[Outgoing | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=QUEUE_LIMIT)
    )
    #: The connection's send, set while it waits on an empty queue: the
    #: publisher writes a message at once (see :meth:`LiveTable.deliver`).
    send_now: Callable[[str], Coroutine[Any, Any, None]] | None = None
    #: A message written at once that had to wait for the socket: the
    #: connection finishes it before it sends anything else.
    unfinished: asyncio.Task[Any] | None = None

    def write_now(self, message: str) -> None:
        """Send ``message`` in this turn of the loop (``send_now`` set, queue empty)."""
        assert self.send_now is not None
        try:
            unfinished = start_now(self.send_now(message))
        except Exception:  # the socket is gone: its reader ends the connection
            self.send_now = None
            return
        if unfinished is not None:  # the socket asked to wait: the rest queues
            self.send_now = None
            self.unfinished = unfinished

    async def sending_done(self) -> None:
        """The connection took a message from the queue: no more writes at
        once, and the one under way (if any) finishes first, in order."""
        self.send_now = None
        if self.unfinished is not None:
            unfinished, self.unfinished = self.unfinished, None
            await unfinished


BotFactory = Callable[[str, int], Any]


def _listed(match: Match, action: Action) -> Action:
    """The action of ``match.legal_actions()`` that reads as ``action`` (or
    ``action`` itself): the core applies a listed action found by identity,
    and compares any other with each legal one field by field (twice per
    move: the checked copy and the table), which cost more than the lookup.
    Actions' texts are remembered on them, so this compares cached strings.
    """
    text = str(action)
    for legal in match.legal_actions():
        if str(legal) == text:
            return legal
    return action


def default_bot_factory(name: str, seed: int) -> Any:
    from pyrummy.bots import make_bot

    return make_bot(name, seed)


class LiveTable:
    """One table in memory: the match rebuilt from storage, and who is watching."""

    def __init__(
        self, stored: StoredTable, store: Store, bot_factory: BotFactory = default_bot_factory
    ) -> None:
        self.spec = stored.spec
        self.store = store
        self.bot_factory = bot_factory
        self.token_digests = stored.token_digests
        self.bot_delay = stored.spec.bot_delay
        self.rules = rules_of(self.spec)
        self.match = build_match(self.spec, stored.actions)
        self.actions: list[StoredAction] = list(stored.actions)
        self.bots = {
            seat: bot_factory(spec.bot or DEFAULT_BOT, bot_seed(self.spec.seed, seat))
            for seat, spec in enumerate(self.spec.seats)
            if spec.kind == "bot"
        }
        self.humans = [i for i, s in enumerate(self.spec.seats) if s.kind == "human"]
        #: The seat that gave the match up (which ended it then), if one did.
        self.resigned = (
            resigned_seat(stored.result)
            if stored.status == OVER and not self.match.is_over
            else None
        )
        # People still looking at the last showdown; bots wait for them. A
        # person has moved on once they pressed "Next deal" (stored) or played
        # in the new deal; bots only play on when nobody is waiting.
        self.awaiting: set[int] = set()
        finished = len(self.match.finished_deals)
        if finished and not self.match.is_over:
            acted = {seat for seat, _ in self.match.deal.history}
            self.awaiting = {
                seat
                for seat in self.humans
                if stored.acknowledged.get(seat, 0) < finished and seat not in acted
            }
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_pool = BotPool()
        #: When a person last acted here (wall clock; the creation before that).
        self.last_human_at = self.spec.created_at
        #: When this table was last asked for (monotonic): idle ones leave memory.
        self.touched = time.monotonic()
        #: When a request (or socket) here last asked for it: unlike ``touched``,
        #: not moved by the bots' moves (see cluster.Cluster.tidy).
        self.asked_at = self.touched
        self.on_change: Callable[[LiveTable, StoredAction | None], None] | None = None
        #: Told once when the match ends here (last action or resignation): the ratings.
        self.on_over: Callable[[LiveTable], None] | None = None

    # -- identity -----------------------------------------------------------
    @property
    def table_id(self) -> str:
        return self.spec.table_id

    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        """Played out, or given up by a seat."""
        return self.resigned is not None or self.match.is_over

    @property
    def status(self) -> str:
        """``over`` or ``live``, as stored."""
        return OVER if self.is_over else LIVE

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat this token plays; ``TableError`` when it plays none here."""
        if not token:
            return None
        digest = token_digest(token)
        for seat, known in enumerate(self.token_digests):
            if known is not None and hmac.compare_digest(known, digest):
                return seat
        raise TableError(403, "seat.token_bad")

    # -- actions --------------------------------------------------------------
    async def apply(self, seat: int, text: str | Action) -> StoredAction:
        """Apply ``text`` (or an action of :meth:`Match.legal_actions`, as a
        bot's) for ``seat`` and store it, atomically.

        Raises ``TableError`` (not your turn, match over) or the core's
        ``RummyError`` (unreadable or illegal action); nothing changes then.
        Call with :attr:`lock` held.
        """
        if self.is_over:
            raise TableError(409, "match.over")
        current = self.match.current_seat
        if current != seat:
            raise TableError(409, "seat.not_your_turn", seat=(current or 0) + 1)
        action = _listed(self.match, text if isinstance(text, Action) else parse_action(text))
        deals_before = len(self.match.finished_deals)
        stored = StoredAction(self.seq + 1, seat, str(action))
        # The action goes first to a copy (checked, and the match's result if
        # it ends it), and to the table once stored: readers during the write
        # (states, new subscribers) see the table as stored, never an action
        # that may yet be refused. An illegal action raises here and changes
        # nothing.
        before = self.match
        candidate = self.match.clone()
        candidate.apply(action)
        try:
            result = self.result(candidate) if candidate.is_over else None
            await self.store.append_action(self.table_id, stored.seq, seat, stored.text, result)
        except (IntegrityError, ActionConflict):
            # Another server process stored action number seq first: what this
            # one knows is right but old. It reads the newer actions (and
            # publishes them) rather than the whole table.
            log.info("table %s: action %d was stored by another process", self.table_id, stored.seq)
            self.take_all_stored(await self.store.actions_after(self.table_id, self.seq))
            raise TableError(409, "seat.stale", seq=self.seq) from None
        except Exception:
            # The store refused (or something broke mid-way): storage is the
            # truth, so rebuild the table from it before answering.
            log.exception("table %s: action %r not stored", self.table_id, stored.text)
            await self._reload()
            raise TableError(503, "server.busy") from None
        if self.match is before:  # (the table was not rebuilt meanwhile)
            # Stored: the same action on the table's own match, in place (its
            # random generator is the copy's: the same outcome). The copy is
            # dropped: kept as the table, its dozens of young containers
            # were walked by the next collections of the garbage collector.
            self.match.apply(action)
        else:  # pragma: no cover - the lock keeps others from rebuilding it
            self.match = candidate
        self.actions.append(stored)
        self.touched = time.monotonic()
        if seat in self.humans:
            self.last_human_at = time.time()
        if len(self.match.finished_deals) > deals_before and not self.match.is_over:
            self.awaiting = set(self.humans)
        elif seat in self.awaiting:
            self.awaiting.discard(seat)
        self.publish(stored)
        if self.match.is_over:
            self.match_ended()
        return stored

    def match_ended(self) -> None:
        """The match has just ended here: tell :attr:`on_over`."""
        if self.on_over is not None:
            self.on_over(self)

    def take_stored(self, stored: StoredAction) -> None:
        """Apply action ``stored.seq`` that another server process stored, and
        publish it (call with :attr:`lock` held, ``stored.seq == seq + 1``)."""
        deals_before = len(self.match.finished_deals)
        # In place: an action refused raises before it changes anything.
        self.match.apply(stored.text)
        self.actions.append(stored)
        # The same bookkeeping as apply: who still looks at a showdown.
        if len(self.match.finished_deals) > deals_before and not self.match.is_over:
            self.awaiting = set(self.humans)
        elif stored.seat in self.awaiting:
            self.awaiting.discard(stored.seat)
        if stored.seat in self.humans:  # not abandoned, though the person acts elsewhere
            self.last_human_at = time.time()
        self.publish(stored)

    def take_all_stored(self, actions: Sequence[StoredAction]) -> int:
        """:meth:`take_stored` each of ``actions`` that comes next, in order
        (call with :attr:`lock` held); returns how many."""
        taken = 0
        for stored in actions:
            if stored.seq == self.seq + 1:  # else applied meanwhile, or a gap: next time
                self.take_stored(stored)
                taken += 1
        return taken

    async def _reload(self) -> None:
        """Read the table back from storage. Actions stored meanwhile (by
        another server process) are applied one by one and published: the
        subscribers here get their events as from any other action."""
        fresh = await self.store.load_table(self.table_id)
        if fresh is None:  # pragma: no cover - the row was there a moment ago
            return
        known = [(a.seq, a.seat, a.text) for a in self.actions]
        agree = [(a.seq, a.seat, a.text) for a in fresh.actions[: len(known)]] == known
        # The match is rebuilt whatever happened to it in memory: storage is the truth.
        kept = fresh.actions[: len(known) if agree else None]
        self.match = build_match(fresh.spec, kept)
        self.actions = list(kept)
        if agree:
            for stored in fresh.actions[len(known) :]:
                self.take_stored(stored)
        else:  # (should not happen) subscribers get the state as stored
            self.publish(None)

    async def acknowledge(self, seat: int) -> None:
        """The person in ``seat`` has seen the showdown: bots may go on."""
        self.last_human_at = time.time()
        if seat in self.awaiting:
            await self.store.set_acknowledged(self.table_id, seat, len(self.match.finished_deals))
        self.awaiting.discard(seat)
        self.publish(None)

    async def set_bot_delay(self, delay: float) -> None:
        await self.store.set_bot_delay(self.table_id, delay)
        self.bot_delay = delay
        self.spec = dataclasses.replace(self.spec, bot_delay=delay)
        self.publish(None)

    # -- who sits where ---------------------------------------------------------------
    def take_seats(self, seats: list[SeatSpec], token_digests: list[str | None]) -> None:
        """Who sits where, as stored (by this process or another)."""
        self.spec = dataclasses.replace(self.spec, seats=seats)
        self.token_digests = token_digests
        self.humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        self.awaiting &= set(self.humans)
        self.publish(None)

    def result(self, match: Match | None = None) -> dict[str, Any]:
        match = match or self.match
        standings = match.standings
        return {
            "totals": [str(t) for t in standings.totals],
            "winners": list(standings.winners),
            "deals": len(match.finished_deals),
        }

    # -- events ---------------------------------------------------------------
    def subscribe(self, seat: int | None) -> Subscriber:
        subscriber = Subscriber(seat)
        self.subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)

    def missed_events(self, seat: int | None, since: int) -> list[Message] | None:
        """The events after ``since`` as ``seat`` may see them (None: too many or
        a number from the future, so only a full state makes sense)."""
        if since < 0 or since > self.seq or self.seq - since > QUEUE_LIMIT:
            return None
        return [self.event_summary(a, seat) for a in self.actions[since:]]

    def event_summary(self, stored: StoredAction, viewer: int | None) -> Message:
        action = _stored_action(stored.text)
        return {
            "type": "event",
            "seq": stored.seq,
            "seat": stored.seat,
            "action": public_action(action, stored.seat, viewer),
            "kind": action.kind.name.lower(),
        }

    def publish(self, stored: StoredAction | None = None) -> None:
        """Tell the table's subscribers (``on_change``) what changed: ``stored``, or the state."""
        if self.on_change is not None:
            self.on_change(self, stored)

    def deliver(self, subscriber: Subscriber, message: Outgoing) -> None:
        if (
            subscriber.send_now is not None
            and isinstance(message, str)
            and subscriber.queue.empty()
        ):
            # Nothing before it to send: written now, in this turn of the
            # loop, not one turn later by the connection's task (eager.py).
            subscriber.write_now(message)
            return
        try:
            subscriber.queue.put_nowait(message)
        except asyncio.QueueFull:
            # Too slow: close it; the client reconnects and catches up by number.
            self.subscribers.discard(subscriber)
            with contextlib.suppress(asyncio.QueueEmpty):
                subscriber.queue.get_nowait()
            subscriber.queue.put_nowait(None)

    # -- bots -------------------------------------------------------------------
    def bot_to_move(self) -> int | None:
        seat = self.match.current_seat
        if seat is None or self.resigned is not None or seat not in self.bots or self.awaiting:
            return None
        return seat

    def wake_bots(self) -> None:
        """Start the bot loop if a bot is to move and no loop is running."""
        if self.bot_to_move() is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        while True:
            if self.bot_to_move() is None:
                return
            await asyncio.sleep(self.bot_delay)
            async with self.lock:
                seat = self.bot_to_move()
                if seat is None:
                    continue
                observation = self.match.observe(seat)
                legal = self.match.legal_actions()
                kind = self.spec.seats[seat].bot
                try:
                    action, self.bots[seat] = await self.bot_pool.choose(
                        self.bots[seat], kind, observation, legal, self._inline_key(kind)
                    )
                except TimeoutError:
                    # Its decision is abandoned (the bot keeps its state from
                    # before it): the simple bot, which decides in well under
                    # a millisecond, plays this move instead.
                    log.warning(
                        "table %s: bot in seat %d thought over %.1f s: the simple bot moves",
                        self.table_id,
                        seat,
                        self.bot_pool.think_limit,
                    )
                    action = fallback_move(observation, legal, self.spec.seed, self.seq)
                except Exception:
                    # A broken bot must not freeze the table: play on with any
                    # legal action (the core's list) and say so in the log.
                    log.exception("table %s: bot in seat %d failed", self.table_id, seat)
                    action = random.choice(legal)
                try:
                    # The action itself, not its text read back: the core then
                    # finds it among its legal actions by identity.
                    await self.apply(seat, action)
                except TableError:
                    # Not stored (the table was read back from storage): the
                    # loop looks again at who is to move, rather than die.
                    continue

    def _inline_key(self, kind: str | None) -> str | None:
        """The kind of game a cheap bot may decide inline in (see botpool); None
        with jokers, where a decision of the cheap bots can take 100 ms and more."""
        if self.rules.jokers:
            return None
        return f"{kind}:{self.spec.preset}:{len(self.spec.seats)}"

    def is_idle(self) -> bool:
        """Nobody watches and no bot is playing: the table may leave memory."""
        bots_playing = self.bot_task is not None and not self.bot_task.done()
        return not self.subscribers and not bots_playing and not self.lock.locked()

    async def stop(self, reason: str | None = None) -> None:
        """Stop the bots and close every socket (``reason``: a server message
        key when the table itself ends, else the server is going away)."""
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.bot_task
        for subscriber in list(self.subscribers):
            self.deliver(subscriber, {"type": "closing", "reason": reason})


def new_table_spec(
    preset: str,
    options: dict[str, Any],
    seats: list[SeatSpec],
    bot_delay: float,
    seed: int | None = None,
) -> TableSpec:
    """A fresh table: validated rules, a secret seed and the first dealer, and
    the portable shuffle with a secret salt, so that every deal is committed
    to before it is played (docs/fair-deals.md)."""
    rules = find_rules(
        preset, **{k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}
    )
    rules.check_players(len(seats))
    for seat in seats:
        if seat.kind == "bot" and seat.bot not in WEB_BOTS:
            raise RulesError(f"unknown bot {seat.bot!r}; bots are: {', '.join(WEB_BOTS)}")
        if seat.kind == "bot" and not find_level(seat.bot or DEFAULT_BOT).plays(rules, len(seats)):
            raise RulesError(
                f"the {seat.bot} bot does not play {rules.title or rules.name} "
                f"with {len(seats)} players"
            )
    if seed is None:
        seed = secrets.randbits(62)
    # The whole match is built here, names included, so that whatever the
    # core refuses is refused before anything is stored.
    names = [seat_name(seat, i, seats) for i, seat in enumerate(seats)]
    probe = new_match(rules, players=len(seats), seed=seed, names=names)
    return TableSpec(
        table_id=uuid.uuid4().hex[:12],
        preset=rules.name,
        options=options,
        seats=seats,
        seed=seed,
        first_dealer=probe.first_dealer,
        bot_delay=bot_delay,
        shuffle=TABLE_SHUFFLE,
        salt=new_match_salt(),
    )


class TableManager:
    """Every table this process serves, loaded from storage on start."""

    def __init__(
        self,
        store: Store,
        bot_factory: BotFactory = default_bot_factory,
        bot_pool: BotPool | None = None,
        lifecycle: Lifecycle | None = None,
    ) -> None:
        self.store = store
        self.bot_factory = bot_factory
        self.bot_pool = bot_pool or BotPool()
        self.lifecycle = lifecycle or Lifecycle()
        self._sweeper: asyncio.Task[None] | None = None
        self.tables: dict[str, LiveTable] = {}
        #: Set by ``cluster.Cluster`` when other processes share the database.
        self.cluster: Any = None
        self.on_change: Callable[[LiveTable, StoredAction | None], None] | None = None
        self.on_over: Callable[[LiveTable], None] | None = None

    async def resume_all(self) -> int:
        """Load every unfinished table and start its bots; returns how many.

        Tables nobody played for :attr:`Lifecycle.abandon_after` are closed
        first, not replayed. A table that cannot be loaded is quarantined
        (see :meth:`get`): the server starts with all the others.
        """
        closed = await self.close_abandoned_in_storage()
        if closed:
            log.info("pyrummy: %d abandoned table(s) closed", closed)
        for table_id in await self.store.table_ids(status="live"):
            with contextlib.suppress(TableError):
                await self.get(table_id)
        for table in self.tables.values():
            table.wake_bots()
        return len(self.tables)

    async def get(self, table_id: str, current: bool = True) -> LiveTable:
        """The table, loaded on demand. With other processes on the database
        (``cluster``) it has first read what they stored, unless ``current``
        is False: then it is as this process knows it (see :meth:`play`)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.touched = table.asked_at = time.monotonic()
            if current and self.cluster is not None:
                await self.cluster.refresh(table)
            return table
        if len(table_id) > 32:
            raise TableError(404, "table.not_found", table=table_id)
        try:
            stored = await self.store.load_table(table_id)
        except (OperationalError, InterfaceError, SqlTimeoutError, OSError):
            # The database did not answer (a pool wait timed out under load, a
            # lost connection): the row is not broken, so it is not quarantined.
            log.exception("table %s: not read from storage", table_id)
            raise TableError(503, "server.busy") from None
        try:
            if stored is None:
                raise TableError(404, "table.not_found", table=table_id)
            if stored.status == QUARANTINED:
                raise TableError(410, "table.broken", table=table_id)
            if stored.status == CLOSED:
                raise TableError(410, "table.closed", table=table_id)
            table = self.tables.get(table_id)
            if table is not None:  # loaded by another request while this one waited
                return table
            table = LiveTable(stored, self.store, self.bot_factory)
        except TableError:
            raise
        except Exception:
            # A row that no longer loads (edited by hand, a bug of an older
            # version, a rules change) must not take the server down with it.
            log.exception("table %s cannot be loaded: quarantined", table_id)
            await self.quarantine(table_id)
            raise TableError(410, "table.broken", table=table_id) from None
        table.on_change = self.on_change
        table.on_over = self.on_over
        table.bot_pool = self.bot_pool
        # (Read with the table: a query of its own cost a transaction per load.)
        table.last_human_at = max(stored.last_human_at, table.spec.created_at)
        existing = self.tables.setdefault(table_id, table)
        existing.touched = existing.asked_at = time.monotonic()
        if existing is table and self.cluster is not None:
            await self.cluster.adopt(table)
        return existing

    async def play(
        self, table: LiveTable, seat: int, text: str, seq: int | None = None
    ) -> StoredAction:
        """A person's action on ``table`` (got with ``current=False``; call with
        its lock held): ``seq``, when given, must be the table's number.

        With other processes on the database, the table as this process knows
        it is tried first, without reading storage (a round trip per action
        saved): storage takes action ``seq + 1`` only if nobody stored it
        before, so an action it takes was played on the table as stored. When
        the action is refused (another's turn, illegal, a stale number, or
        storage refusing the number), the table reads what the others stored
        and the action is tried once more: only then is the refusal the answer.
        """
        known = table.seq
        try:
            return await self._play_once(table, seat, text, seq)
        except (TableError, RummyError):
            if self.cluster is None:
                raise
            await self.cluster.catch_up_locked(table)
            if table.seq == known:  # the table was current: the refusal stands
                raise
        return await self._play_once(table, seat, text, seq)

    @staticmethod
    async def _play_once(table: LiveTable, seat: int, text: str, seq: int | None) -> StoredAction:
        if seq is not None and seq != table.seq:
            raise TableError(409, "seat.stale", seq=table.seq)
        return await table.apply(seat, text)

    # -- lifecycle ----------------------------------------------------------------
    def start_sweeping(self) -> None:
        """Close abandoned tables and evict idle ones every so often (in the background)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lifecycle.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the sweeper must outlive a database hiccup
                log.exception("sweeping tables failed")

    async def sweep(self, now: float | None = None, monotonic_now: float | None = None) -> None:
        """Close tables abandoned by their people; let idle tables leave memory."""
        now = time.time() if now is None else now
        monotonic_now = time.monotonic() if monotonic_now is None else monotonic_now
        for table in list(self.tables.values()):
            if not table.is_over and now - table.last_human_at > self.lifecycle.abandon_after:
                await self.close(table)
            elif table.is_idle() and (
                table.is_over or monotonic_now - table.touched > self.lifecycle.idle_after
            ):
                # Stored already: it comes back from storage when asked for.
                self.tables.pop(table.table_id, None)
                if self.cluster is not None:
                    await self.cluster.release(table.table_id)
        if self.cluster is not None:
            await self.cluster.adopt_orphans()

    async def close(self, table: LiveTable) -> None:
        """Close an abandoned table: marked in storage, its bots and sockets stopped."""
        await self.store.close_table(table.table_id)
        self.tables.pop(table.table_id, None)
        await table.stop(reason="table.closed")
        if self.cluster is not None:
            await self.cluster.release(table.table_id)
        log.info("table %s closed: no person acted for too long", table.table_id)

    async def close_abandoned_in_storage(self, now: float | None = None) -> int:
        """Close stored live tables with no action since the abandonment age.

        At start nothing is in memory: a table whose last action of anybody is
        that old has had no human action that recent either (bots wait for
        people), so it is closed without being replayed.
        """
        cutoff = (time.time() if now is None else now) - self.lifecycle.abandon_after
        return await self.store.close_abandoned(cutoff)

    async def quarantine(self, table_id: str) -> None:
        """Mark the table unloadable so that no start tries it again (kept for study)."""
        try:
            await self.store.quarantine(table_id)
        except Exception:
            log.exception("table %s: could not be marked quarantined", table_id)

    async def create(self, spec: TableSpec) -> tuple[LiveTable, list[str | None]]:
        tokens = [secrets.token_urlsafe(24) if s.kind == "human" else None for s in spec.seats]
        await self.store.create_table(spec, [token_digest(t) if t else None for t in tokens])
        table = await self.get(spec.table_id)
        return table, tokens

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in self.tables.values():
            await table.stop()
        self.bot_pool.shutdown()
