"""The server's settings: each one declared once, with its default, its bounds and its help.

One :class:`Settings` object says how a server runs. It is read from keyword
arguments (tests, embedding), from ``PYRUMMY_*`` environment variables (and
``DATABASE_URL``), and from the flags of ``pyrummy serve``, which are generated
from these declarations (:func:`cli_flags`, used by :mod:`pyrummy.cli.cmd_serve`).
The processes of ``--workers`` get theirs through the environment
(:meth:`Settings.environment`), so that a setting travels the same way to
every process.

A field carries a :class:`Flag` when ``pyrummy serve`` offers it: the flag's
name, group and unit come from there, its bounds and default from the field.

This module imports nothing of the server but the names of its defaults, so
that building the command line does not load the web stack.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

#: The largest request body the server reads (bytes).
MAX_BODY: Final = 16 * 1024
#: The longest one bot decision may take by default (seconds); then the simple bot moves.
DEFAULT_THINK_LIMIT: Final = 5.0
#: The garbage collector's thresholds once tuned (see loopstats.tune_gc).
TUNED_THRESHOLDS: Final = (10_000, 5, 10)
GC_THRESHOLDS_ENV: Final = "PYRUMMY_GC_THRESHOLDS"
GC_REFREEZE_ENV: Final = "PYRUMMY_GC_REFREEZE"
#: The room choices a creator has unless the environment says otherwise.
TURN_TIMERS: Final = (0, 30, 60, 120)
GRACE_CHOICES: Final = (30, 60, 120, 300)
#: Unfinished tables per client address and on the server, with the rate limits on.
TABLE_CAP_PER_CLIENT: Final = 10
TABLE_CAP: Final = 1000


@dataclass(frozen=True)
class Flag:
    """How ``pyrummy serve`` offers a setting.

    ``scale`` converts the flag's unit into the field's (hours into seconds:
    3600); ``serve_default`` is the flag's default where ``pyrummy serve``
    runs otherwise than an embedded app (the garbage collector's tuning).
    """

    help: str
    group: str = ""
    unit: str | None = None
    scale: float = 1.0
    metavar: str | None = None
    name: str | None = None
    serve_default: Any = None


@dataclass(frozen=True)
class RateLimits:
    """Limits in the ``limits`` notation (``"10/minute;3/second"``); None: unlimited."""

    create: str | None = "20/minute;5/second"
    act: str | None = "1200/minute;30/second"
    connect: str | None = "120/minute;10/second"
    #: Joining a quick-match queue (a flood of joins and leaves is refused).
    queue: str | None = "12/minute;2/second"
    #: The passkey ceremonies: options and answers to register a passkey or
    #: sign in with one (each options request stores a challenge; each answer
    #: checks a signature).
    passkey: str | None = "30/minute;5/second"
    #: New profiles (made on a first play from a browser without one): a
    #: client that drops its cookie to make them by the thousand is refused.
    profile: str | None = "20/minute;200/day"

    @classmethod
    def off(cls) -> RateLimits:
        return cls(None, None, None, None, None, None)


def parse_gc_thresholds(text: str) -> tuple[int, int, int]:
    """``a,b,c`` as the collector's thresholds (the first at least 1: 0 stops it).

    >>> parse_gc_thresholds("2000, 10, 10")
    (2000, 10, 10)
    """
    if not text.strip():
        return TUNED_THRESHOLDS
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(
            f"{GC_THRESHOLDS_ENV}={text!r}: expected three whole numbers a,b,c"
            f" (like {','.join(map(str, TUNED_THRESHOLDS))})"
        )
    first, second, third = (int(p) for p in parts)
    if not 1 <= first <= 10_000_000 or not 1 <= second <= 1000 or not 1 <= third <= 1000:
        raise ValueError(
            f"{GC_THRESHOLDS_ENV}={text!r}: the first is 1-10000000, the others 1-1000"
            " (0 would stop the collector)"
        )
    return first, second, third


def parse_refreeze(text: str) -> float:
    """Seconds between two thaws of the refreezer, 0 to 86400 (0: off).

    >>> parse_refreeze("600"), parse_refreeze("")
    (600.0, 0.0)
    """
    if not text.strip():
        return 0.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 86_400:
        raise ValueError(f"{GC_REFREEZE_ENV}={text!r}: expected seconds from 0 to 86400 (0: off)")
    return seconds


def _whole_numbers(value: Any) -> Any:
    """A comma-separated list from the environment (``30,60,120``) as numbers."""
    if isinstance(value, str):
        return tuple(int(part) for part in value.split(",") if part.strip())
    return value


class Lifecycle(BaseModel):
    """How long tables live."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    abandon_after: Annotated[
        float,
        Field(gt=0, le=365 * 24 * 3600),
        Flag(
            "close a live table when no person acted for this long",
            "limits",
            "hours",
            3600,
            "HOURS",
        ),
    ] = 6 * 60 * 60
    idle_after: Annotated[
        float,
        Field(gt=0, le=24 * 3600),
        Flag(
            "a table nobody watches leaves memory after this long, and comes back from"
            " storage when asked for",
            "limits",
            "minutes",
            60,
            "MINUTES",
        ),
    ] = 10 * 60
    #: How often abandoned and idle tables are looked for (seconds).
    sweep_every: Annotated[float, Field(gt=0)] = 30.0
    unload_copies_after: Annotated[
        float,
        Field(ge=0, le=24 * 3600),
        Flag(
            "with several processes: a process drops its copy of a table another process"
            " plays when no socket or request used it here for this long, and hands a table"
            " it plays over to the process its person uses (0: never)",
            "storage and processes",
            "seconds",
            1,
            "SECONDS",
        ),
    ] = 30.0


class RoomSettings(BaseSettings):
    """How rooms (private tables for friends) behave; ``PYRUMMY_ROOM_*`` in the
    environment (how browser tests get a short grace period from ``pyrummy serve``)."""

    model_config = SettingsConfigDict(
        env_prefix="PYRUMMY_ROOM_", frozen=True, extra="forbid", populate_by_name=True
    )

    #: Seconds without a poll after which a seat shows as disconnected.
    presence_timeout: Annotated[float, Field(gt=0)] = 8.0
    #: How often the keeper looks for seats to stand in for.
    tick: Annotated[float, Field(gt=0)] = 1.0
    #: The grace periods a creator may choose (seconds); ``default_grace``
    #: unless it is not among them, then the longest.
    grace_choices: Annotated[tuple[int, ...], NoDecode, Field(min_length=1)] = GRACE_CHOICES
    default_grace: int = 120
    #: Chat: at least this many seconds between two messages of one seat, and
    #: at most ``chat_burst`` messages per ``chat_window`` seconds.
    chat_gap: float = 1.0
    chat_burst: int = 8
    chat_window: float = 30.0
    #: Watchers listed: seen within this many seconds.
    watcher_timeout: float = 10.0
    #: The turn timers a creator may choose (seconds; 0: none).
    turn_timer_choices: Annotated[
        tuple[int, ...],
        NoDecode,
        Field(
            min_length=1,
            validation_alias=AliasChoices("turn_timer_choices", "PYRUMMY_ROOM_TURN_TIMERS"),
        ),
    ] = TURN_TIMERS
    #: Chat messages kept per room (older ones are deleted as new ones come).
    chat_kept: int = 100
    #: How often the keeper prunes rooms, and when: a room still waiting after
    #: ``waiting_ttl`` seconds is closed; a room whose table ended (finished or
    #: closed as abandoned) ``ended_ttl`` seconds ago is closed; a closed room
    #: keeps no chat and no presence; a watcher's row goes after ``watcher_ttl``.
    prune_every: float = 60.0
    waiting_ttl: float = 24 * 60 * 60
    ended_ttl: float = 60 * 60
    watcher_ttl: float = 10 * 60

    _lists = field_validator("grace_choices", "turn_timer_choices", mode="before")(
        classmethod(lambda cls, value: _whole_numbers(value))
    )

    @model_validator(mode="after")
    def _default_among_choices(self) -> RoomSettings:
        if self.default_grace not in self.grace_choices:
            # Frozen: the one correction a validator makes to its own model.
            object.__setattr__(self, "default_grace", self.grace_choices[-1])
        return self


class QuickSettings(BaseSettings):
    """How the quick match behaves; ``PYRUMMY_QUICK_*`` in the environment."""

    model_config = SettingsConfigDict(
        env_prefix="PYRUMMY_QUICK_", frozen=True, extra="forbid", populate_by_name=True
    )

    #: A waiting entry not polled for this many seconds has left (a closed tab).
    expire_after: Annotated[float, Field(gt=0)] = 20.0
    #: How often each process matches the queues, fills seats with bots and
    #: looks for people who timed out (seconds).
    tick: Annotated[float, Field(gt=0)] = 1.0
    #: The wait before bots may fill the empty seats, unless the person chooses
    #: (seconds), and the longest wait they may choose.
    default_bot_wait: Annotated[int, Field(ge=0)] = 45
    max_bot_wait: Annotated[int, Field(ge=0)] = 600
    #: A seated entry is kept this long for its page to read its seat (seconds).
    seated_kept: Annotated[float, Field(gt=0)] = 600.0
    #: A person whose turn (or look at a showdown) at a quick-match table lasts
    #: longer than this has left the match (seconds; 0: never).
    turn_limit: Annotated[float, Field(ge=0)] = 120.0
    #: The score a quick match plays to, for the games that play to a score
    #: (a penalty limit under penalty scoring); 0: the game's own (100). A
    #: lower one makes shorter rated matches: an operator's choice (a blitz
    #: server, a demo) and the browser tests' way to play a whole match.
    target: Annotated[int, Field(ge=0, le=10_000)] = 0
    #: Leaving rated matches: the first ``free_leaves`` within ``window``
    #: seconds cost only the match; each one after brings the next cooldown
    #: from quick match (seconds; the last repeats).
    free_leaves: Annotated[int, Field(ge=0)] = 1
    cooldowns: Annotated[tuple[int, ...], NoDecode, Field(min_length=1)] = (300, 3600, 86400)
    window: Annotated[float, Field(gt=0)] = 24 * 60 * 60

    _lists = field_validator("cooldowns", mode="before")(
        classmethod(lambda cls, value: _whole_numbers(value))
    )


class Settings(BaseSettings):
    """How the server runs: where data lives, its limits, and how fast bots play by default."""

    model_config = SettingsConfigDict(
        env_prefix="PYRUMMY_",
        frozen=True,
        extra="forbid",
        populate_by_name=True,
        arbitrary_types_allowed=True,
    )

    host: Annotated[str, Flag("address to listen on")] = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535), Flag("port to listen on")] = 8000
    data_dir: Annotated[Path, Flag("folder of the SQLite database")] = Path("data")
    bot_delay: Annotated[
        float,
        Field(ge=0, le=10),
        Flag(
            "default pause between bot steps, in seconds (each table can change it)",
            unit="seconds",
        ),
    ] = 0.8
    allow_seed: Annotated[
        bool,
        Flag("let new tables choose their seed (tests and demos: the cards become predictable)"),
    ] = False
    log_level: Annotated[str, Flag("uvicorn log level")] = "warning"
    rate_limit: Annotated[
        Literal["on", "off"],
        Flag(
            "per-client rate limits on table creation, actions and WebSocket connections, and"
            " the caps on unfinished tables unless given below (off: load tests on loopback)",
            "limits",
        ),
    ] = "on"
    #: The limits themselves (tests set their own); None: those of ``rate_limit``.
    rate_limits: RateLimits | None = None
    max_tables_per_client: Annotated[
        int | None,
        Field(ge=0, le=1_000_000),
        Flag(
            "unfinished tables one client address may have (0: no cap;"
            f" {TABLE_CAP_PER_CLIENT} with the rate limits)",
            "limits",
        ),
    ] = None
    max_tables: Annotated[
        int | None,
        Field(ge=0, le=1_000_000),
        Flag(
            f"unfinished tables on the server (0: no cap; {TABLE_CAP} with the rate limits)",
            "limits",
        ),
    ] = None
    allow_bot_only: Annotated[
        bool, Flag("allow tables with no person (bots playing each other)", "limits")
    ] = False
    bot_workers: Annotated[
        int,
        Field(ge=0, le=1_000_000),
        Flag("worker processes for bot decisions (0: a thread of the server)", "limits"),
    ] = 1
    bot_think_limit: Annotated[
        float,
        Field(ge=0.05, le=60),
        Flag(
            "the longest one bot decision may take, in seconds (then the simple bot moves)",
            "limits",
            "seconds",
        ),
    ] = DEFAULT_THINK_LIMIT
    lifecycle: Lifecycle = Field(default_factory=Lifecycle)
    allowed_origins: Annotated[
        tuple[str, ...],
        NoDecode,
        Flag(
            "another origin whose pages may open WebSockets (repeatable; the server's own"
            " origin always may)",
            "web security",
            metavar="URL",
            name="--allowed-origin",
        ),
    ] = ()
    secure_cookies: Annotated[
        bool, Flag("always mark seat cookies Secure (HTTPS)", "web security")
    ] = False
    behind_proxy: Annotated[
        bool,
        Flag(
            "trust X-Forwarded-For/-Proto from --forwarded-allow-ips: client addresses for"
            " the limits, and Secure cookies for requests that came over HTTPS",
            "web security",
        ),
    ] = False
    forwarded_allow_ips: Annotated[
        str, Flag("the proxies trusted with --behind-proxy (comma-separated, or *)", "web security")
    ] = "127.0.0.1"
    passkey_rp_id: Annotated[
        str | None,
        Field(max_length=253),
        Flag(
            "the passkeys' relying party: the site's domain as people open it (example.org);"
            " default: the host name of each request (so http://localhost:PORT works; an IP"
            " address such as 127.0.0.1 cannot hold passkeys)",
            "web security",
            metavar="DOMAIN",
        ),
    ] = None
    passkey_origins: Annotated[
        tuple[str, ...],
        NoDecode,
        Flag(
            "an origin whose pages may use passkeys, https://example.org (repeatable; default:"
            " the origin of each request, as --behind-proxy sees it)",
            "web security",
            metavar="URL",
            name="--passkey-origin",
        ),
    ] = ()
    database_url: Annotated[
        str | None,
        Field(validation_alias=AliasChoices("database_url", "DATABASE_URL")),
        Flag(
            "postgresql://USER@HOST/DB or sqlite:///FILE (default: $DATABASE_URL, else the"
            " SQLite file under --data-dir); the schema is upgraded at start",
            "storage and processes",
            metavar="URL",
        ),
    ] = None
    workers: Annotated[
        int,
        Field(ge=1, le=64),
        Flag(
            "server processes sharing this port (2 or more need PostgreSQL); separate"
            " `pyrummy serve` processes on one PostgreSQL database also work behind one address",
            "storage and processes",
        ),
    ] = 1
    worker_healthcheck: Annotated[
        int,
        Field(ge=1, le=600),
        Flag(
            "with --workers: a worker that does not answer the parent's health check for"
            " this long, starting included, is killed and replaced",
            "storage and processes",
            "seconds",
            metavar="SECONDS",
        ),
    ] = 30
    #: After start-up, freeze what was loaded and collect garbage less often
    #: (see :func:`pyrummy.server.loopstats.tune_gc`).
    tune_gc: Annotated[
        bool,
        Flag(
            "tune Python's garbage collector after start-up: what was loaded is frozen out of"
            f" its view and it collects less often ({GC_THRESHOLDS_ENV}=a,b,c;"
            f" {GC_REFREEZE_ENV}=seconds also freezes what survives each collection, thawed"
            " and collected every that many seconds)",
            "storage and processes",
            serve_default=True,
        ),
    ] = False
    gc_thresholds: Annotated[tuple[int, int, int], NoDecode] = TUNED_THRESHOLDS
    #: With tune_gc: seconds between the thaws of loopstats.Refreezer (0: off).
    gc_refreeze: float = 0.0
    #: A soak's diagnosis (see :mod:`pyrummy.server.memtrace`): the folder of
    #: the memory snapshots, seconds between two, and frames kept per
    #: allocation (0: only the counts of objects by type). Off by default.
    memory_trace: Path | None = None
    memory_trace_every: Annotated[float, Field(ge=1)] = 60.0
    memory_trace_frames: Annotated[int, Field(ge=0, le=100)] = 6
    max_body: Annotated[int, Field(ge=1)] = MAX_BODY
    rooms: RoomSettings = Field(default_factory=RoomSettings)
    quick: QuickSettings = Field(default_factory=QuickSettings)

    @field_validator("gc_thresholds", mode="before")
    @classmethod
    def _thresholds(cls, value: Any) -> Any:
        return parse_gc_thresholds(value) if isinstance(value, str) else value

    @field_validator("gc_refreeze", mode="before")
    @classmethod
    def _refreeze(cls, value: Any) -> Any:
        return parse_refreeze(value) if isinstance(value, str) else value

    @field_validator("allowed_origins", "passkey_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        return tuple(part for part in value.split(",") if part) if isinstance(value, str) else value

    # -- what follows from the settings ------------------------------------------------
    @property
    def limits(self) -> RateLimits:
        """The per-client rate limits in force."""
        if self.rate_limits is not None:
            return self.rate_limits
        return RateLimits() if self.rate_limit == "on" else RateLimits.off()

    @property
    def table_cap_per_client(self) -> int:
        """Unfinished tables one client may have (0: no cap)."""
        if self.max_tables_per_client is not None:
            return self.max_tables_per_client
        return TABLE_CAP_PER_CLIENT if self.rate_limit == "on" else 0

    @property
    def table_cap(self) -> int:
        """Unfinished tables on the whole server (0: no cap)."""
        if self.max_tables is not None:
            return self.max_tables
        return TABLE_CAP if self.rate_limit == "on" else 0

    def url(self) -> str:
        """The database: ``database_url``, else the SQLite file under ``data_dir``."""
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{self.data_dir / 'pyrummy.sqlite3'}"

    def environment(self) -> dict[str, str]:
        """These settings as environment variables: what another process reads
        back with ``Settings()`` (the processes of ``--workers``)."""
        values = self.model_dump(exclude={"rate_limits", "rooms", "quick"}, exclude_none=True)
        env: dict[str, str] = {}
        for name, value in values.items():
            key = "DATABASE_URL" if name == "database_url" else f"PYRUMMY_{name.upper()}"
            if isinstance(value, tuple):
                env[key] = ",".join(map(str, value))
            elif isinstance(value, dict):
                env[key] = json.dumps(value)
            else:
                env[key] = str(value)
        for name, value in self.rooms.model_dump().items():
            room_key = "TURN_TIMERS" if name == "turn_timer_choices" else name.upper()
            env[f"PYRUMMY_ROOM_{room_key}"] = (
                ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            )
        for name, value in self.quick.model_dump().items():
            env[f"PYRUMMY_QUICK_{name.upper()}"] = (
                ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            )
        return env


def cli_flags() -> list[tuple[str, str, Any, Flag]]:
    """``(section, field, field info, flag)`` of every setting ``pyrummy serve``
    offers, in declaration order; ``section`` is ``""`` or ``"lifecycle"``."""
    found: list[tuple[str, str, Any, Flag]] = []
    for section, model in (("", Settings), ("lifecycle", Lifecycle)):
        for name, info in model.model_fields.items():
            flag = next((m for m in info.metadata if isinstance(m, Flag)), None)
            if flag is not None:
                found.append((section, name, info, flag))
    return found
