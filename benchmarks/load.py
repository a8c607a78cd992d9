"""Load on the web game: many tables, one person per table, measured end to end.

A bounded loopback load generator. It starts ``pyrummy serve`` itself on a
free port of 127.0.0.1 (or drives one already running on a loopback address,
``--url``), creates ``--tables`` tables of one human seat against bots, opens
one WebSocket per table and plays the human seat: each time it is that seat's
turn it waits ``--think`` seconds, then posts one action. Bots play
server-side at their delay (``--bot-delay``). With ``--think 0`` (stress)
every seat acts as soon as it may.

Reported, over the measured window (after the ramp):

* human-action round trip, p50/p95/p99/max: from sending the POST to its HTTP
  reply (``http``), and to the WebSocket event of that action (``ws``); with
  ``--act-over ws`` the action goes over the table's WebSocket instead
  (``{"type": "act", ...}``, as the page does) and the first figure is from
  sending it to its ``ack`` (``ack``);
* actions/s (every event on the WebSockets: people's and bots'), the
  people's actions/s, tables created, and every error by kind (any non-2xx,
  lost connection, event not seen within ``--event-timeout``);
* server CPU (user+system of the server process and all its children, from
  /proc) per second and per action, and its RSS (sum over the processes) at
  the start, end and peak; ``--rss-every`` prints RSS along the way (soak).

Bounded: the run stops by itself after ``--duration`` seconds (at most 2 h) or
``--max-actions`` people's actions, whichever comes first; at most 2,000
tables; loopback addresses only. It stops the server it started.

Examples::

    .venv/bin/python benchmarks/load.py --tables 200 --think 1 --duration 60
    .venv/bin/python benchmarks/load.py --tables 50 --think 0 --duration 30     # stress
    .venv/bin/python benchmarks/load.py --tables 200 --think 1 --act-over ws
    .venv/bin/python benchmarks/load.py --tables 200 --think 1 --duration 600 --rss-every 30
    .venv/bin/python benchmarks/load.py --tables 200 --think 1 --postgres \\
        --server-args "--rate-limit off --workers 2"

Quick match (``--quick PEOPLE``): each person has a browser of their own (an
aiohttp session and cookie jar: the profile made on joining, the queue
ticket); they join the queues of ``--quick-mix`` (by default half 2-player Gin,
half 4-player Knock, in whole tables) over ``--ramp`` seconds, poll every
``--quick-poll`` seconds as the page does until seated, then play their seat as
above until the first deal ends (``--quick-until match``: the match). Reported
besides: people seated out of all, the wait from join to seat (p50/p90/max),
deals finished; the exit status is 1 unless everyone was seated without an
error. ``--duration`` bounds the run after the ramp::

    .venv/bin/python benchmarks/load.py --quick 400 --ramp 20 --think 1 --duration 240 \\
        --postgres --server-args "--rate-limit off --workers 2"

Client: aiohttp (HTTP keep-alive pool and WebSockets); the seat token goes
in the ``X-Seat-Token`` header, the WebSocket sends the page's own Origin.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import math
import os
import platform
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

MAX_TABLES = 2000
MAX_DURATION = 2 * 60 * 60
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# -- the server's processes, from /proc -------------------------------------------------


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(p) for p in task.read_text().split()]
    return found


def process_tree(pid: int) -> list[int]:
    """``pid`` and every descendant (workers, a bot pool)."""
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo += _children(current)
    return tree


@dataclass
class Usage:
    cpu_seconds: float
    #: The same split: user time (Python, the app) and system time (the kernel: sockets).
    cpu_user: float
    cpu_system: float
    rss_bytes: int
    processes: int
    # Each process's RSS (a soak with --workers must show every process flat).
    rss_by_pid: dict[int, int]


class DbCounters:
    """What the server asked of PostgreSQL over the measured window: transactions
    (every autocommit statement is one), rows inserted, and per statement its
    calls (pg_stat_statements, loaded by :func:`start_postgres`)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(url, autocommit=True)
        self.connection.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")

    def begin(self) -> None:
        self.before = self._database()
        self.connection.execute("SELECT pg_stat_statements_reset()")

    def _database(self) -> tuple[int, int]:
        row = self.connection.execute(
            "SELECT xact_commit + xact_rollback, tup_inserted FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    def end(self, actions: int) -> dict[str, Any]:
        transactions, inserted = (a - b for a, b in zip(self._database(), self.before, strict=True))
        rows = self.connection.execute(
            "SELECT calls, total_exec_time, query FROM pg_stat_statements"
            " WHERE query NOT LIKE '%pg_stat_%' ORDER BY calls DESC"
        ).fetchall()
        self.connection.close()
        per = max(1, actions)
        return {
            "transactions_per_action": round(transactions / per, 3),
            "rows_inserted_per_action": round(inserted / per, 3),
            "statements_per_action": round(sum(int(r[0]) for r in rows) / per, 3),
            "statements": [
                {
                    "per_action": round(int(calls) / per, 3),
                    "exec_ms_per_call": round(float(ms) / max(1, int(calls)), 3),
                    "query": " ".join(str(query).split())[:150],
                }
                for calls, ms, query in rows[:12]
            ],
        }


def usage_of(pid: int) -> Usage:
    """CPU (user+system, plus reaped children's) and RSS summed over the tree."""
    user = system = 0.0
    rss = 0
    rss_by_pid: dict[int, int] = {}
    pids = process_tree(pid)
    for each in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{each}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            # fields[11..14]: utime stime cutime cstime; fields[21]: rss pages
            user += (int(fields[11]) + int(fields[13])) / CLOCK_TICKS
            system += (int(fields[12]) + int(fields[14])) / CLOCK_TICKS
            rss_by_pid[each] = int(fields[21]) * PAGE_SIZE
            rss += rss_by_pid[each]
    return Usage(user + system, user, system, rss, len(pids), rss_by_pid)


# -- measurements ------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (``q`` in 0-100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(q * len(sorted_values) / 100)))
    return sorted_values[rank - 1]


@dataclass
class Stats:
    measuring: bool = False
    http_ms: list[float] = field(default_factory=list)
    ws_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    human_actions: int = 0
    events: int = 0
    #: Characters of those events' messages (the floor's stub sends as many: ws_floor.py).
    event_chars: int = 0
    tables_created: int = 0
    matches_finished: int = 0
    deals_finished: int = 0
    #: --quick: seconds from each person's join to their seat, and the tables they sat at
    waits_s: list[float] = field(default_factory=list)
    quick_tables: set[str] = field(default_factory=set)
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: dict[str, str] = field(default_factory=dict)

    def error(self, kind: str, example: str) -> None:
        self.errors[kind] += 1
        self.error_examples.setdefault(kind, example[:300])


# -- one table ---------------------------------------------------------------------------


def choose_action(state: dict[str, Any], rng: random.Random) -> str:
    """A plausible person: knock with the least deadwood once it is 5 or less, draw from the
    stock, throw away deadwood; otherwise any legal action."""
    legal: list[str] = state["legal_actions"]
    knocks = state.get("knock_deadwood") or {}
    if knocks:
        card = min(knocks, key=lambda c: knocks[c])
        if knocks[card] <= 5 and f"knock {card}" in legal:
            return f"knock {card}"
    if "draw stock" in legal:
        return "draw stock"
    arrangement = state.get("arrangement") or {}
    for card in reversed(arrangement.get("deadwood_cards") or []):
        if f"discard {card}" in legal:
            return f"discard {card}"
    plain = [a for a in legal if a != "undo"] or legal
    return rng.choice(plain)


class Player:
    """The person's seat at one table slot; a finished match starts a new table."""

    def __init__(self, index: int, run: Run) -> None:
        self.index = index
        self.run = run
        self.rng = random.Random(index)
        self.state: dict[str, Any] | None = None
        self.seq = 0
        self.changed = asyncio.Event()
        #: seq of the person's action in flight -> when it was sent
        self.pending: dict[int, float] = {}
        #: --act-over ws: the socket, and the answers awaited by request id
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0
        #: Leave the table once the first deal ends (--quick), not the match.
        self.until_deal = False

    async def play(self) -> None:
        while not self.run.stopping.is_set():
            try:
                await self._one_table()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # every failure is counted and the slot goes on
                self.run.stats.error(f"table:{type(exc).__name__}", repr(exc))
                await self.run.sleep(1.0)

    async def _one_table(self) -> None:
        run = self.run
        body = {"preset": run.args.preset, "bots": run.bots, "bot_delay": run.args.bot_delay}
        async with run.http.post(f"{run.url}/api/tables", json=body) as response:
            if response.status != 201:
                run.stats.error(f"create:{response.status}", await response.text())
                await run.sleep(2.0)
                return
            created = await response.json(loads=json.loads)
        run.stats.tables_created += 1
        await self._play_table(
            run.ws_http, created["table"]["id"], created["token"], created["state"]
        )

    async def _play_table(
        self, sockets: aiohttp.ClientSession, table_id: str, token: str, state: dict[str, Any]
    ) -> None:
        """Play the seat of ``token`` at ``table_id`` from ``state`` until the match
        (or, with :attr:`until_deal`, the deal) ends; its socket opened on ``sockets``."""
        run = self.run
        headers = {"X-Seat-Token": token}
        self.state = state
        self.seq = state["seq"]
        self.pending.clear()
        ws_url = f"{run.ws_url}/api/tables/{table_id}/ws?since={self.seq}"
        async with sockets.ws_connect(
            ws_url, headers=headers, origin=run.url, autoping=True, max_msg_size=0
        ) as ws:
            self.ws = ws if run.args.act_over == "ws" else None
            reader = asyncio.create_task(self._read(ws, headers, table_id))
            try:
                await self._act(table_id, headers)
            finally:
                reader.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await reader

    def _take(self, state: dict[str, Any]) -> None:
        if state["seq"] >= self.seq:
            self.seq = state["seq"]
            self.state = state
            self.changed.set()

    async def _read(self, ws: aiohttp.ClientWebSocketResponse, headers: Any, table_id: str) -> None:
        run = self.run
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data.get("type") == "event":
                now = time.perf_counter()
                seq = data["seq"]
                sent = self.pending.pop(seq, None)
                if sent is not None and run.stats.measuring:
                    run.stats.ws_ms.append((now - sent) * 1000)
                if run.stats.measuring:
                    run.stats.events += 1
                    run.stats.event_chars += len(message.data)
                if "state" in data:
                    self._take(data["state"])
                elif seq > self.seq:
                    await self._refresh(table_id, headers)
            elif data.get("type") == "state" and "state" in data:
                self._take(data["state"])
            elif data.get("type") in ("ack", "error"):
                waiting = self.answers.pop(data.get("id"), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(data)
        if not run.stopping.is_set():
            run.stats.error("ws:closed", f"close code {ws.close_code}")
        self.changed.set()

    async def _refresh(self, table_id: str, headers: Any) -> None:
        run = self.run
        async with run.http.get(f"{run.url}/api/tables/{table_id}/state", headers=headers) as r:
            if r.status == 200:
                self._take(await r.json(loads=json.loads))
            else:
                run.stats.error(f"state:{r.status}", await r.text())

    async def _act(self, table_id: str, headers: Any) -> None:
        run = self.run
        while not run.stopping.is_set():
            state = self.state
            assert state is not None
            if state["table"]["status"] == "over" or state["match"]["over"]:
                run.stats.matches_finished += 1
                return
            if self.until_deal and state.get("awaiting_continue"):
                run.stats.deals_finished += 1
                return
            if state.get("awaiting_continue"):
                path, body, expect_event = "continue", None, False
            elif state["legal_actions"]:
                action = choose_action(state, self.rng)
                path, body, expect_event = "actions", {"action": action}, True
            else:
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), run.args.event_timeout)
                except TimeoutError:
                    if not run.stopping.is_set():
                        run.stats.error("turn:timeout", f"table {table_id} seq {self.seq}")
                        await self._refresh(table_id, headers)
                continue
            if run.args.think > 0 and await run.sleep(run.args.think * self.rng.uniform(0.5, 1.5)):
                return
            seq = state["seq"] + 1
            sent = time.perf_counter()
            if expect_event:
                self.pending[seq] = sent
            if self.ws is not None:
                if not await self._send_over_socket(table_id, headers, path, body, seq, sent):
                    continue
                if expect_event:
                    await self._event_seen(seq, table_id)
                continue
            async with run.http.post(
                f"{run.url}/api/tables/{table_id}/{path}", json=body, headers=headers
            ) as response:
                text = await response.read()
                elapsed = (time.perf_counter() - sent) * 1000
                if response.status != 200:
                    self.pending.pop(seq, None)
                    run.stats.error(f"{path}:{response.status}", text.decode(errors="replace"))
                    await self._refresh(table_id, headers)
                    continue
            if run.stats.measuring and expect_event:
                run.stats.http_ms.append(elapsed)
                run.stats.human_actions += 1
            self._take(json.loads(text))
            if expect_event:
                await self._event_seen(seq, table_id)

    async def _send_over_socket(
        self, table_id: str, headers: Any, path: str, body: Any, seq: int, sent: float
    ) -> bool:
        """The action (or "next deal") over the socket; True when acknowledged."""
        run = self.run
        assert self.ws is not None
        self.next_id += 1
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[self.next_id] = answer
        kind = "act" if path == "actions" else "continue"
        await self.ws.send_str(json.dumps({"type": kind, "id": self.next_id} | (body or {})))
        try:
            reply = await asyncio.wait_for(answer, run.args.event_timeout)
        except TimeoutError:
            self.answers.pop(self.next_id, None)
            self.pending.pop(seq, None)
            if not run.stopping.is_set():
                run.stats.error(f"{kind}:timeout", f"table {table_id} seq {seq}")
                await self._refresh(table_id, headers)
            return False
        if reply["type"] != "ack":
            self.pending.pop(seq, None)
            run.stats.error(f"{path}:{reply.get('status')}", json.dumps(reply))
            await self._refresh(table_id, headers)
            return False
        if run.stats.measuring and kind == "act":
            run.stats.ack_ms.append((time.perf_counter() - sent) * 1000)
            run.stats.human_actions += 1
        return True

    async def _event_seen(self, seq: int, table_id: str) -> None:
        """Wait for the event of our own action (the round trip's second half)."""
        deadline = time.perf_counter() + self.run.args.event_timeout
        while seq in self.pending and time.perf_counter() < deadline:
            if self.run.stopping.is_set():
                return
            self.changed.clear()
            if seq not in self.pending:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), deadline - time.perf_counter())
        if self.pending.pop(seq, None) is not None and self.run.stats.measuring:
            self.run.stats.error("event:timeout", f"table {table_id} seq {seq}")


class QuickPerson(Player):
    """A person of the quick match (--quick): a browser of their own (cookies: the
    profile made on joining, the queue ticket), who joins a game's queue, polls it
    until seated, then plays that seat until the deal (or match) ends."""

    def __init__(
        self, index: int, run: Run, preset: str, players: int, connector: aiohttp.BaseConnector
    ) -> None:
        super().__init__(index, run)
        self.preset = preset
        self.players = players
        self.connector = connector
        self.until_deal = run.args.quick_until == "deal"
        self.seated = False

    async def play(self) -> None:
        run = self.run
        # Cookies of loopback IP addresses are kept only by an "unsafe" jar.
        async with aiohttp.ClientSession(
            connector=self.connector,
            connector_owner=False,
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            timeout=run.http.timeout,
        ) as browser:
            try:
                seat = await self._queue(browser)
                if seat is not None:
                    await self._seat(browser, *seat)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # every failure is counted
                run.stats.error(f"quick:{type(exc).__name__}", repr(exc))

    async def _queue(self, browser: aiohttp.ClientSession) -> tuple[str, str] | None:
        """Join, then poll as the page does until seated: the table and the seat's token."""
        run = self.run
        body = {
            "preset": self.preset,
            "players": self.players,
            "name": f"P{self.index}",
            "bot_wait": run.args.quick_bot_wait,
        }
        joined = time.perf_counter()
        async with browser.post(f"{run.url}/api/quick/join", json=body) as response:
            if response.status != 201:
                run.stats.error(f"join:{response.status}", await response.text())
                return None
            view = await response.json(loads=json.loads)
        while view["status"] != "seated":
            if await run.sleep(run.args.quick_poll):
                return None
            async with browser.post(f"{run.url}/api/quick/poll") as response:
                if response.status != 200:
                    run.stats.error(f"poll:{response.status}", await response.text())
                    return None
                view = await response.json(loads=json.loads)
        run.stats.waits_s.append(time.perf_counter() - joined)
        run.stats.quick_tables.add(view["table_id"])
        self.seated = True
        return view["table_id"], view["token"]

    async def _seat(self, browser: aiohttp.ClientSession, table_id: str, token: str) -> None:
        run = self.run
        url = f"{run.url}/api/tables/{table_id}/state"
        async with browser.get(url, headers={"X-Seat-Token": token}) as response:
            if response.status != 200:
                run.stats.error(f"state:{response.status}", await response.text())
                return
            state = await response.json(loads=json.loads)
        await self._play_table(browser, table_id, token, state)


def quick_people(args: argparse.Namespace) -> list[tuple[str, int]]:
    """Each person's game (preset, players), in the order they join: ``--quick``
    people shared out by ``--quick-mix`` in whole tables, shuffled (seeded)."""
    games = parse_mix(args.quick_mix)
    total = sum(share for _, _, share in games)
    people: list[tuple[str, int]] = []
    for i, (preset, players, share) in enumerate(games):
        if i == len(games) - 1:
            count = args.quick - len(people)
        else:
            count = round(args.quick * share / total / players) * players
        people += [(preset, players)] * count
    random.Random(0).shuffle(people)
    return people


def parse_mix(text: str) -> list[tuple[str, int, float]]:
    """``gin:2=1,knock:4=1`` -> [("gin", 2, 1.0), ("knock", 4, 1.0)]."""
    games = []
    for item in text.split(","):
        game, _, share = item.strip().partition("=")
        preset, _, players = game.partition(":")
        games.append((preset, int(players), float(share or 1)))
    return games


# -- the run -----------------------------------------------------------------------------


class Run:
    def __init__(self, args: argparse.Namespace, url: str, http: aiohttp.ClientSession) -> None:
        self.args = args
        self.url = url
        self.ws_url = "ws" + url[4:]
        self.http = http
        #: The session sockets are opened with (its own with --ws-own-connection).
        self.ws_http = http
        self.bots = [args.bot] * (args.players - 1)
        self.stats = Stats()
        self.stopping = asyncio.Event()

    async def sleep(self, seconds: float) -> bool:
        """Sleep unless the run stops first; True when it stopped."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stopping.wait(), seconds)
        return self.stopping.is_set()


async def drive(
    args: argparse.Namespace,
    url: str,
    server_pid: int | None,
    db_pid: int | None = None,
    db_counters: DbCounters | None = None,
) -> dict[str, Any]:
    # Idle connections are dropped before uvicorn's 5 s keep-alive ends them:
    # a request sent on a connection the server is closing fails for nothing.
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=2.0)
    timeout = aiohttp.ClientTimeout(total=args.event_timeout * 3)
    async with (
        aiohttp.ClientSession(connector=connector, timeout=timeout) as http,
        # No limit: an open socket holds its connection (aiohttp's default is 100).
        aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0), timeout=timeout
        ) as own_sockets,
    ):
        run = Run(args, url, http)
        if args.ws_own_connection:
            # Nothing else uses this session's pool: every socket is a new
            # connection, as a browser's is, and lands on any --workers process.
            run.ws_http = own_sockets
        players = [Player(i, run) for i in range(args.tables)]
        tasks = []
        for i, player in enumerate(players):
            tasks.append(asyncio.create_task(player.play()))
            # Spread the tables' first moves over the ramp.
            await asyncio.sleep(args.ramp / max(1, args.tables))
            if i == 0 and not tasks[0].done():
                await asyncio.sleep(0)
        await asyncio.sleep(args.warmup)
        stats = run.stats
        if args.generator_gc == "tuned":
            gc.collect()
            gc.freeze()
            gc.set_threshold(10_000, 5, 10)
        stats.measuring = True
        begin_wall = time.perf_counter()
        begin_self = time.process_time()
        begin = usage_of(server_pid) if server_pid else None
        db_begin = usage_of(db_pid) if db_pid else None
        if db_counters is not None:
            db_counters.begin()
        loop_begin = await loop_health(http, url, args.duration)
        # The generator's own loop is in every round trip measured: how late
        # a task sleeping 50 ms wakes tells its share.
        own_lag: list[float] = []
        lag_probe = asyncio.create_task(probe_lag(own_lag, run.stopping))
        own_gc: list[float] = []
        gc.callbacks.append(gc_timer(own_gc))
        rss_series: list[tuple[float, int]] = []
        peak_rss = begin.rss_bytes if begin else 0
        deadline = begin_wall + args.duration
        next_rss = begin_wall + args.rss_every if args.rss_every else None
        while time.perf_counter() < deadline and stats.human_actions < args.max_actions:
            await asyncio.sleep(0.5)
            if server_pid:
                now = usage_of(server_pid)
                peak_rss = max(peak_rss, now.rss_bytes)
                if next_rss is not None and time.perf_counter() >= next_rss:
                    elapsed = time.perf_counter() - begin_wall
                    rss_series.append((round(elapsed), now.rss_bytes))
                    each = " ".join(
                        f"{p}:{r / 2**20:.1f}" for p, r in sorted(now.rss_by_pid.items())
                    )
                    print(
                        f"  t={elapsed:5.0f}s rss={now.rss_bytes / 2**20:7.1f} MiB "
                        f"actions={stats.events} errors={sum(stats.errors.values())} "
                        f"[pid:MiB {each}]",
                        flush=True,
                    )
                    next_rss += args.rss_every
        seconds = time.perf_counter() - begin_wall
        end = usage_of(server_pid) if server_pid else None
        db_end = usage_of(db_pid) if db_pid else None
        db_work = db_counters.end(stats.events) if db_counters is not None else None
        self_cpu = time.process_time() - begin_self
        loop_end = await loop_health(http, url, seconds)
        stats.measuring = False
        run.stopping.set()
        lag_probe.cancel()
        gc.callbacks.pop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    result = report(args, stats, seconds, begin, end, peak_rss, self_cpu, rss_series)
    own_lag.sort()
    result["generator_loop_lag_ms"] = {
        "p50": round(percentile(own_lag, 50), 1),
        "p99": round(percentile(own_lag, 99), 1),
        "max": round(own_lag[-1], 1) if own_lag else 0.0,
    }
    result["generator_gc_ms"] = {
        "count": len(own_gc),
        "max": round(max(own_gc, default=0.0), 1),
        "total": round(sum(own_gc), 1),
    }
    if loop_begin is not None and loop_end is not None:
        result["server_loop"] = loop_figures(loop_begin, loop_end)
    if db_begin and db_end:
        result["database_cpu_per_s"] = round(
            (db_end.cpu_seconds - db_begin.cpu_seconds) / seconds, 3
        )
        if stats.events:
            result["database_cpu_ms_per_action"] = round(
                1000 * (db_end.cpu_seconds - db_begin.cpu_seconds) / stats.events, 3
            )
    if db_work is not None:
        result["database_work"] = db_work
    return result


async def drive_quick(
    args: argparse.Namespace,
    url: str,
    server_pid: int | None,
    db_pid: int | None = None,
    db_counters: DbCounters | None = None,
) -> dict[str, Any]:
    """--quick: the people join over ``--ramp`` seconds, each is measured from
    the start until their deal (or match) ends, at most ``--duration`` seconds
    after the ramp."""
    connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=2.0)
    timeout = aiohttp.ClientTimeout(total=args.event_timeout * 3)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        run = Run(args, url, http)
        stats = run.stats
        if args.generator_gc == "tuned":
            gc.collect()
            gc.freeze()
            gc.set_threshold(10_000, 5, 10)
        stats.measuring = True
        begin_wall = time.perf_counter()
        begin_self = time.process_time()
        begin = usage_of(server_pid) if server_pid else None
        db_begin = usage_of(db_pid) if db_pid else None
        if db_counters is not None:
            db_counters.begin()
        own_lag: list[float] = []
        lag_probe = asyncio.create_task(probe_lag(own_lag, run.stopping))
        people = [
            QuickPerson(i, run, preset, players, connector)
            for i, (preset, players) in enumerate(quick_people(args))
        ]
        tasks = []
        peak_rss = begin.rss_bytes if begin else 0
        for person in people:
            tasks.append(asyncio.create_task(person.play()))
            await asyncio.sleep(args.ramp / len(people))
        deadline = begin_wall + args.ramp + args.duration
        while time.perf_counter() < deadline and not all(t.done() for t in tasks):
            await asyncio.sleep(0.5)
            if server_pid:
                peak_rss = max(peak_rss, usage_of(server_pid).rss_bytes)
        seconds = time.perf_counter() - begin_wall
        end = usage_of(server_pid) if server_pid else None
        db_end = usage_of(db_pid) if db_pid else None
        db_work = db_counters.end(stats.events) if db_counters is not None else None
        self_cpu = time.process_time() - begin_self
        unfinished = sum(not t.done() for t in tasks)
        stats.measuring = False
        run.stopping.set()
        lag_probe.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    result = report(args, stats, seconds, begin, end, peak_rss, self_cpu, [])
    waits = sorted(stats.waits_s)
    counts = Counter(f"{preset}:{players}" for preset, players in quick_people(args))
    result |= {
        "tables": len(stats.quick_tables),
        "bots": [],
        "quick": {
            "people": len(people),
            "games": dict(counts),
            "seated": sum(p.seated for p in people),
            "unfinished": unfinished,
            "wait_s": {
                "n": len(waits),
                "p50": round(percentile(waits, 50), 2),
                "p90": round(percentile(waits, 90), 2),
                "max": round(waits[-1], 2) if waits else float("nan"),
            },
            "deals_finished": stats.deals_finished,
            "poll_s": args.quick_poll,
            "until": args.quick_until,
        },
    }
    own_lag.sort()
    result["generator_loop_lag_ms"] = {
        "p50": round(percentile(own_lag, 50), 1),
        "p99": round(percentile(own_lag, 99), 1),
        "max": round(own_lag[-1], 1) if own_lag else 0.0,
    }
    result["generator_gc_ms"] = {"count": 0, "max": 0.0, "total": 0.0}
    if db_begin and db_end:
        result["database_cpu_per_s"] = round(
            (db_end.cpu_seconds - db_begin.cpu_seconds) / seconds, 3
        )
        if stats.events:
            result["database_cpu_ms_per_action"] = round(
                1000 * (db_end.cpu_seconds - db_begin.cpu_seconds) / stats.events, 3
            )
    if db_work is not None:
        result["database_work"] = db_work
    return result


def gc_timer(pauses: list[float]) -> Callable[[str, dict[str, int]], None]:
    """A ``gc.callbacks`` hook appending each collection's pause (ms) to ``pauses``."""
    started = [0.0]

    def timer(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((time.perf_counter() - started[0]) * 1000)

    return timer


async def probe_lag(lags: list[float], stopping: asyncio.Event) -> None:
    """Append how late (ms) a 50 ms sleep wakes, until ``stopping``."""
    while not stopping.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.05)
        lags.append((time.perf_counter() - start - 0.05) * 1000)


async def loop_health(
    http: aiohttp.ClientSession, url: str, window: float
) -> dict[str, Any] | None:
    """The server's event-loop lag and GC pauses over the last ``window`` seconds
    (``GET /api/health/loop``; with --workers, of whichever process answers);
    None from a server without that endpoint."""
    window = min(300.0, max(1.0, window))
    try:
        async with http.get(f"{url}/api/health/loop", params={"window": f"{window:.1f}"}) as reply:
            if reply.status != 200:
                return None
            found: dict[str, Any] = await reply.json()
            return found
    except (aiohttp.ClientError, TimeoutError, ValueError):
        return None


def loop_figures(begin: dict[str, Any], end: dict[str, Any]) -> dict[str, Any]:
    """The measured window's lag (p50/p99/max) and, per GC generation, the
    collections in it (count and total: differences of the counters; max: the
    longest kept in the window)."""
    lag = end["lag"]
    # With --workers the two answers may come from different processes: then
    # only the end's window counts (collections kept in it), no totals.
    same_process = begin.get("pid") == end.get("pid")
    generations: list[dict[str, Any]] = []
    for before, after in zip(begin["gc"]["generations"], end["gc"]["generations"], strict=True):
        if not same_process:
            generations.append(
                {
                    "count": after["in_window"],
                    "total_ms": None,
                    "cpu_ms": None,
                    "max_ms": after["max_ms"],
                }
            )
            continue
        generations.append(
            {
                "count": after["count"] - before["count"],
                "total_ms": round(after["total_ms"] - before["total_ms"], 2),
                "cpu_ms": round(after.get("cpu_ms", 0.0) - before.get("cpu_ms", 0.0), 2),
                "max_ms": after["max_ms"],
            }
        )
    return {
        "lag_p50_ms": lag["p50_ms"],
        "lag_p99_ms": lag["p99_ms"],
        "lag_max_ms": lag["max_ms"],
        "lag_window_s": lag["window_s"],
        "gc": generations,
        "gc_thresholds": end["gc"]["thresholds"],
        "gc_frozen": end["gc"]["frozen"],
    }


def report(
    args: argparse.Namespace,
    stats: Stats,
    seconds: float,
    begin: Usage | None,
    end: Usage | None,
    peak_rss: int,
    self_cpu: float,
    rss_series: list[tuple[float, int]],
) -> dict[str, Any]:
    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "n": len(ordered),
            "p50": round(percentile(ordered, 50), 2),
            "p95": round(percentile(ordered, 95), 2),
            "p99": round(percentile(ordered, 99), 2),
            "max": round(ordered[-1], 2) if ordered else float("nan"),
        }

    result: dict[str, Any] = {
        "tables": args.tables,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "bots": [args.bot] * (args.players - 1),
        "seconds": round(seconds, 1),
        "act_over": args.act_over,
        "http_ms": summary(stats.http_ms),
        "ack_ms": summary(stats.ack_ms),
        "ws_ms": summary(stats.ws_ms),
        "human_actions": stats.human_actions,
        "human_actions_per_s": round(stats.human_actions / seconds, 1),
        "actions": stats.events,
        "actions_per_s": round(stats.events / seconds, 1),
        "event_chars_mean": round(stats.event_chars / stats.events) if stats.events else None,
        "tables_created": stats.tables_created,
        "matches_finished": stats.matches_finished,
        "errors": sum(stats.errors.values()),
        "errors_by_kind": dict(stats.errors),
        "error_examples": stats.error_examples,
        "generator_cpu_per_s": round(self_cpu / seconds, 3),
        "load_average": os.getloadavg(),
    }
    if begin and end:
        cpu = end.cpu_seconds - begin.cpu_seconds
        result |= {
            "server_processes": end.processes,
            "server_cpu_per_s": round(cpu / seconds, 3),
            "server_cpu_ms_per_action": round(1000 * cpu / stats.events, 3)
            if stats.events
            else None,
            "server_cpu_user_system_ms_per_action": [
                round(1000 * (end.cpu_user - begin.cpu_user) / stats.events, 3),
                round(1000 * (end.cpu_system - begin.cpu_system) / stats.events, 3),
            ]
            if stats.events
            else None,
            "server_rss_mib": {
                "start": round(begin.rss_bytes / 2**20, 1),
                "end": round(end.rss_bytes / 2**20, 1),
                "peak": round(peak_rss / 2**20, 1),
            },
        }
    if rss_series:
        result["rss_series_mib"] = [(t, round(r / 2**20, 1)) for t, r in rss_series]
    return result


def print_report(result: dict[str, Any]) -> None:
    print(
        f"\n{result['tables']} tables, think {result['think_s']} s, bots {result['bots']} "
        f"at {result['bot_delay_s']} s, measured {result['seconds']} s"
    )
    for name in ("ack_ms" if result.get("act_over") == "ws" else "http_ms", "ws_ms"):
        s = result[name]
        print(
            f"  human action round trip {name[:-3]:>4}: n={s['n']} p50={s['p50']} ms "
            f"p95={s['p95']} ms p99={s['p99']} ms max={s['max']} ms"
        )
    print(
        f"  actions/s {result['actions_per_s']} (people {result['human_actions_per_s']}), "
        f"tables created {result['tables_created']}, events of {result['event_chars_mean']} "
        f"characters on average, errors {result['errors']} "
        f"{result['errors_by_kind'] or ''}"
    )
    for kind, example in result["error_examples"].items():
        print(f"    {kind}: {example}")
    if "quick" in result:
        quick, wait = result["quick"], result["quick"]["wait_s"]
        print(
            f"  quick match: {quick['people']} people {quick['games']}, seated "
            f"{quick['seated']}/{quick['people']} at {result['tables']} tables; wait from join"
            f" to seat p50={wait['p50']} s p90={wait['p90']} s max={wait['max']} s (polling "
            f"every {quick['poll_s']} s); "
            + (
                f"deals finished {quick['deals_finished']}"
                if quick["until"] == "deal"
                else f"matches finished {result['matches_finished']}"
            )
            + f", unfinished people {quick['unfinished']}"
        )
    if "database_cpu_per_s" in result:
        print(
            f"  database (PostgreSQL): CPU {result['database_cpu_per_s']} s/s, "
            f"{result.get('database_cpu_ms_per_action')} ms per action"
        )
    if "database_work" in result:
        work = result["database_work"]
        print(
            f"  database work per action: {work['statements_per_action']} statements, "
            f"{work['transactions_per_action']} transactions, "
            f"{work['rows_inserted_per_action']} rows inserted"
        )
        for statement in work["statements"][:8]:
            print(
                f"    {statement['per_action']:>6} x {statement['exec_ms_per_call']:.3f} ms"
                f"  {statement['query'][:110]}"
            )
    if "server_cpu_per_s" in result:
        rss = result["server_rss_mib"]
        user, system = result["server_cpu_user_system_ms_per_action"] or (None, None)
        print(
            f"  server ({result['server_processes']} process(es)): CPU {result['server_cpu_per_s']} s/s, "
            f"{result['server_cpu_ms_per_action']} ms per action (user {user}, system "
            f"{system}); RSS {rss['start']} -> "
            f"{rss['end']} MiB (peak {rss['peak']})"
        )
    if "server_loop" in result:
        loop = result["server_loop"]
        print(
            f"  server loop: lag p50={loop['lag_p50_ms']} ms p99={loop['lag_p99_ms']} ms "
            f"max={loop['lag_max_ms']} ms (last {loop['lag_window_s']} s)"
        )
        print(
            "  GC pauses: "
            + "; ".join(
                f"gen{i} {g['count']}x max {g['max_ms']} ms"
                + (
                    f" total {g['total_ms']} ms (CPU {g['cpu_ms']} ms)"
                    if g["total_ms"] is not None
                    else " (one process's window)"
                )
                for i, g in enumerate(loop["gc"])
            )
            + f" (thresholds {loop['gc_thresholds']}, frozen {loop['gc_frozen']})"
        )
    print(
        f"  generator CPU {result['generator_cpu_per_s']} s/s, loop lag p50/p99/max "
        + "/".join(str(v) for v in result["generator_loop_lag_ms"].values())
        + f" ms, GC {result['generator_gc_ms']['count']} pauses, max "
        f"{result['generator_gc_ms']['max']} ms, total {result['generator_gc_ms']['total']} ms;"
        " load average "
        f"{' '.join(f'{x:.2f}' for x in result['load_average'])}"
    )


# -- the server --------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SystemExit(f"load.py drives loopback servers only, not {host!r}")


async def wait_ready(url: str, process: subprocess.Popen[bytes] | None, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            if process is not None and process.poll() is not None:
                raise SystemExit(f"the server exited with code {process.returncode}")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with http.get(f"{url}/api/presets") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.2)
    raise SystemExit(f"the server at {url} did not answer within {seconds} s")


def start_postgres(folder: Path) -> tuple[str, int]:
    """A throwaway PostgreSQL cluster (scripts/pg-cluster.sh): its URL and postmaster's pid."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "pg-cluster.sh"
    # pg_stat_statements counts the statements the server sends (per action, see DbCounters).
    env = dict(os.environ, PYRUMMY_PG_OPTIONS="-c shared_preload_libraries=pg_stat_statements")
    url = subprocess.run(
        ["bash", str(script), "start", str(folder)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.split()[-1]
    pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    print(f"postgres: {url} (pid {pid})", flush=True)
    return url, pid


def stop_postgres(folder: Path) -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "pg-cluster.sh"
    subprocess.run(["bash", str(script), "stop", str(folder)], check=False)


def start_server(
    args: argparse.Namespace, data_dir: Path, database_url: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "pyrummy.cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *shlex.split(args.server_args),
    ]
    if args.against_stub:
        # The floor: the same web stack doing no game work (ws_stub.py).
        stub = Path(__file__).resolve().parent / "ws_stub.py"
        command = [sys.executable, str(stub), "--app", args.against_stub, "--port", str(port)]
        command += ["--event-chars", str(args.event_chars), "--store", args.stub_store]
    env = dict(os.environ)
    if database_url:
        env["DATABASE_URL"] = database_url  # what an operator sets, as --database-url
    print("server:", " ".join(command), flush=True)
    process = subprocess.Popen(command, start_new_session=True, env=env)
    return process, f"http://127.0.0.1:{port}"


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and every process it started (workers, a bot pool)."""
    started = process_tree(process.pid)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    time.sleep(0.5)
    # A pool worker may outlive its server (re-parented to init), even one
    # started while the server was shutting down: the whole group goes.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid in started[1:]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument(
        "--think", type=float, default=1.0, help="person's think time (s); 0: stress"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="bots' pause between steps (s)"
    )
    parser.add_argument("--bot", default="easy", help="the bots' difficulty")
    parser.add_argument("--players", type=int, default=3, help="seats per table (one person)")
    parser.add_argument("--preset", default="knock", help="the game (default: as the lobby)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--max-actions", type=int, default=10**9, help="stop after this many")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds to open all tables")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds after the ramp")
    parser.add_argument("--event-timeout", type=float, default=10.0)
    parser.add_argument("--rss-every", type=float, default=0.0, help="print RSS every N s")
    parser.add_argument("--url", help="a server already running on a loopback address")
    parser.add_argument("--server-pid", type=int, help="its process id (for CPU and RSS)")
    parser.add_argument(
        "--server-args",
        default="--rate-limit off",
        help="`pyrummy serve` arguments (default: --rate-limit off, as every table comes from"
        " one address); e.g. add --workers 2",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL cluster (scripts/pg-cluster.sh) and serve from it",
    )
    parser.add_argument(
        "--act-over",
        choices=("http", "ws"),
        default="http",
        help="send the person's actions by POST (http) or over the table's WebSocket (ws)",
    )
    parser.add_argument(
        "--ws-own-connection",
        action="store_true",
        help="open each table's socket on a new connection, as a browser does (by default it"
        " may reuse the creation's keep-alive connection, so with --workers the socket lands"
        " on the process that created the table)",
    )
    parser.add_argument(
        "--against-stub",
        choices=("fastapi", "asgi"),
        help="the floor: drive benchmarks/ws_stub.py instead of `pyrummy serve` (the same"
        " uvicorn settings and messages, no game work), as a FastAPI app with the real"
        " middlewares or as a bare ASGI app; use with --act-over ws",
    )
    parser.add_argument(
        "--event-chars",
        type=int,
        default=4200,
        help="--against-stub: characters per event (the real server's mean, as reported)",
    )
    parser.add_argument(
        "--stub-store",
        choices=("none", "sqlite", "sqlite-inline"),
        default="none",
        help="--against-stub: sqlite stores each move before its event, as the server"
        " does (the real schema and SQLite writer): the floor of a server that"
        " acknowledges only stored moves; sqlite-inline: the same writes in the loop's"
        " thread (a diagnosis: the server must not block its loop so)",
    )
    parser.add_argument(
        "--generator-gc",
        choices=("tuned", "python"),
        default="tuned",
        help="the generator's own garbage collector: tuned as the server's (what lives"
        " at the start of measuring frozen, thresholds 10000, 5, 10), or Python's"
        " defaults (its pauses, up to 0.2 s on a busy machine, were in the round trips)",
    )
    parser.add_argument(
        "--quick",
        type=int,
        default=0,
        metavar="PEOPLE",
        help="quick match: PEOPLE join the queues over --ramp (each with a browser of"
        " their own), poll until seated and play their seats; --duration bounds the run"
        " after the ramp",
    )
    parser.add_argument(
        "--quick-mix",
        default="gin:2=1,knock:4=1",
        help="--quick: the games, preset:players=share (people shared out in whole tables)",
    )
    parser.add_argument(
        "--quick-bot-wait",
        type=int,
        default=None,
        help="--quick: seconds before bots may fill the empty seats (default: never)",
    )
    parser.add_argument("--quick-poll", type=float, default=1.0, help="--quick: poll every N s")
    parser.add_argument(
        "--quick-until",
        choices=("deal", "match"),
        default="deal",
        help="--quick: each person plays until the first deal ends, or the match",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.quick:
        if not 1 <= args.quick <= MAX_TABLES:
            parser.error(f"--quick is 1-{MAX_TABLES} people")
        try:
            counts = Counter(quick_people(args))
        except ValueError:
            parser.error("--quick-mix is preset:players=share, comma-separated")
        uneven = [f"{g}:{n}" for (g, n), count in counts.items() if count % n]
        if uneven and args.quick_bot_wait is None:
            parser.error(f"--quick {args.quick} leaves a table of {uneven[0]} short")
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables is 1-{MAX_TABLES}")
    if not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--duration is at most {MAX_DURATION} s")
    if args.think < 0 or args.bot_delay < 0:
        parser.error("times are not negative")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    process: subprocess.Popen[bytes] | None = None
    db_pid: int | None = None
    with tempfile.TemporaryDirectory(prefix="pyrummy-load-") as tmp:
        # Its own folder under /tmp: the cluster's owner (postgres) must reach it.
        cluster = Path(tempfile.mkdtemp(prefix="pyrummy-load-pg-"))
        database_url = None
        if args.url:
            url = args.url.rstrip("/")
            require_loopback(url)
            server_pid = args.server_pid
        else:
            if args.postgres:
                database_url, db_pid = start_postgres(cluster)
            process, url = start_server(args, Path(tmp), database_url)
            server_pid = process.pid
        try:
            asyncio.run(wait_ready(url, process, 60))
            what = f"{args.quick} quick-match people" if args.quick else f"{args.tables} tables"
            print(
                f"load: {what}, think {args.think} s, ramp {args.ramp} s, "
                f"warm-up {args.warmup} s, measuring {args.duration} s; "
                f"{platform.python_version()}, {os.cpu_count()} cores",
                flush=True,
            )
            counters = DbCounters(database_url) if db_pid and database_url else None
            driver = drive_quick if args.quick else drive
            result = asyncio.run(driver(args, url, server_pid, db_pid, counters))
        finally:
            if process is not None:
                stop_server(process)
            if db_pid is not None:
                stop_postgres(cluster)
            shutil.rmtree(cluster, ignore_errors=True)
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    quick = result.get("quick")
    everyone = quick is None or quick["seated"] == quick["people"] == quick["wait_s"]["n"]
    return 0 if result["errors"] == 0 and everyone else 1


if __name__ == "__main__":
    raise SystemExit(main())
