"""``pyrummy serve``: the web game on http://HOST:PORT.

Tables live in a SQLite file under ``--data-dir`` (or the database named by
the ``DATABASE_URL`` environment variable, e.g. PostgreSQL); unfinished
tables resume when the server starts again.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from pyrummy.cli.arguments import amount, whole_number


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web game",
        description="Run the web game: play Knock Rummy, Rummy, Gin and more against bots.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument(
        "--port", type=whole_number(0, 65535), default=8000, help="port to listen on"
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data"), help="folder of the SQLite database"
    )
    parser.add_argument(
        "--bot-delay",
        type=amount("seconds", 0, 10),
        default=0.8,
        help="default pause between bot steps, in seconds (each table can change it)",
    )
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let new tables choose their seed (tests and demos: the cards become predictable)",
    )
    limits = parser.add_argument_group("limits (for a public server)")
    limits.add_argument(
        "--rate-limit",
        choices=("on", "off"),
        default="on",
        help="per-client rate limits on table creation, actions and WebSocket connections, and"
        " the caps on unfinished tables unless given below (off: load tests on loopback)",
    )
    limits.add_argument(
        "--max-tables-per-client",
        type=whole_number(0, 1_000_000),
        default=None,
        help="unfinished tables one client address may have (0: no cap; default 10)",
    )
    limits.add_argument(
        "--max-tables",
        type=whole_number(0, 1_000_000),
        default=None,
        help="unfinished tables on the server (0: no cap; default 1000)",
    )
    limits.add_argument(
        "--allow-bot-only",
        action="store_true",
        help="allow tables with no person (bots playing each other)",
    )
    limits.add_argument(
        "--bot-workers",
        type=whole_number(0, 1_000_000),
        default=1,
        help="worker processes for bot decisions (0: a thread of the server; default 1)",
    )
    limits.add_argument(
        "--bot-think-limit",
        type=amount("seconds", 0.05, 60),
        default=5.0,
        help="the longest one bot decision may take, in seconds (then the simple bot moves)",
    )
    limits.add_argument(
        "--abandon-after",
        type=amount("hours", 0, 24 * 365, above_low=True),
        default=6.0,
        metavar="HOURS",
        help="close a live table when no person acted for this long (default 6 hours)",
    )
    limits.add_argument(
        "--idle-after",
        type=amount("minutes", 0, 24 * 60, above_low=True),
        default=10.0,
        metavar="MINUTES",
        help="a table nobody watches leaves memory after this long, and comes back from"
        " storage when asked for (default 10 minutes)",
    )
    web = parser.add_argument_group("web security")
    web.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="another origin whose pages may open WebSockets (repeatable; the server's own"
        " origin always may)",
    )
    web.add_argument(
        "--secure-cookies", action="store_true", help="always mark seat cookies Secure (HTTPS)"
    )
    web.add_argument(
        "--behind-proxy",
        action="store_true",
        help="trust X-Forwarded-For/-Proto from --forwarded-allow-ips: client addresses for"
        " the limits, and Secure cookies for requests that came over HTTPS",
    )
    web.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        help="the proxies trusted with --behind-proxy (comma-separated, or *)",
    )
    storage = parser.add_argument_group("storage and processes")
    storage.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="postgresql://USER@HOST/DB or sqlite:///FILE (default: $DATABASE_URL, else the"
        " SQLite file under --data-dir); the schema is upgraded at start",
    )
    storage.add_argument(
        "--workers",
        type=whole_number(1, 64),
        default=1,
        help="server processes sharing this port (2 or more need PostgreSQL); separate"
        " `pyrummy serve` processes on one PostgreSQL database also work behind one address",
    )
    storage.add_argument(
        "--worker-healthcheck",
        type=whole_number(1, 600),
        default=30,
        metavar="SECONDS",
        help="with --workers: a worker that does not answer the parent's health check for"
        " this long, starting included, is killed and replaced (default 30)",
    )
    storage.add_argument(
        "--unload-copies-after",
        type=amount("seconds", 0, 24 * 3600),
        default=30.0,
        metavar="SECONDS",
        help="with several processes: a process drops its copy of a table another process"
        " plays when no socket or request used it here for this long, and hands a table it"
        " plays over to the process its person uses (default 30 s; 0: never)",
    )
    storage.add_argument(
        "--no-tune-gc",
        dest="tune_gc",
        action="store_false",
        help="leave Python's garbage collector as it is (by default, after start-up, what was"
        " loaded is frozen out of its view and it collects less often: thresholds 10000,5,10"
        " or $PYRUMMY_GC_THRESHOLDS=a,b,c; $PYRUMMY_GC_REFREEZE=seconds also freezes what survives"
        " each collection, thawed and collected every that many seconds; off by default)",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn log level")
    parser.set_defaults(func=run)


def settings_from(args: argparse.Namespace) -> Any:
    """The server's :class:`~pyrummy.server.app.Settings` from the options."""
    from pyrummy.core.errors import RummyError
    from pyrummy.server import Settings
    from pyrummy.server.loopstats import gc_thresholds_from_env, refreeze_from_env
    from pyrummy.server.ratelimit import RateLimits
    from pyrummy.server.tables import Lifecycle

    limited = args.rate_limit == "on"
    defaults = Settings()
    try:
        gc_thresholds = gc_thresholds_from_env()
        gc_refreeze = refreeze_from_env()
    except ValueError as exc:
        raise RummyError(str(exc)) from None

    def cap(given: int | None, default: int) -> int:
        if given is not None:
            return given
        return default if limited else 0

    return Settings(
        data_dir=args.data_dir,
        database_url=getattr(args, "database_url", None),
        bot_delay=args.bot_delay,
        allow_seed=args.allow_seed,
        rate_limits=RateLimits() if limited else RateLimits.off(),
        max_tables_per_client=cap(args.max_tables_per_client, defaults.max_tables_per_client),
        max_tables=cap(args.max_tables, defaults.max_tables),
        allow_bot_only=args.allow_bot_only,
        allowed_origins=tuple(args.allowed_origin),
        secure_cookies=args.secure_cookies,
        behind_proxy=args.behind_proxy,
        bot_workers=args.bot_workers,
        bot_think_limit=args.bot_think_limit,
        lifecycle=Lifecycle(
            abandon_after=args.abandon_after * 3600,
            idle_after=args.idle_after * 60,
            unload_copies_after=args.unload_copies_after,
        ),
        tune_gc=args.tune_gc,
        gc_thresholds=gc_thresholds,
        gc_refreeze=gc_refreeze,
    )


#: How ``--workers`` processes get the options: uvicorn starts each one from
#: an import string, so the options travel in the environment.
OPTIONS_ENV = "PYRUMMY_SERVE_OPTIONS"
#: The largest WebSocket frame the server reads from a client (bytes).
WS_MAX_FRAME = 64 * 1024


def app_from_environment() -> Any:
    """The app of one ``--workers`` process (uvicorn's factory)."""
    import json

    from pyrummy.server import create_app

    options = json.loads(os.environ[OPTIONS_ENV])
    options["data_dir"] = Path(options["data_dir"])
    return create_app(settings_from(argparse.Namespace(**options)))


def run(args: argparse.Namespace) -> int:
    import json

    import uvicorn

    from pyrummy.core.errors import RummyError
    from pyrummy.server import create_app
    from pyrummy.server.connections import uvicorn_http, uvicorn_ws

    settings = settings_from(args)
    app: Any
    if args.workers > 1:
        # Events and table ownership cross processes through PostgreSQL only.
        if not settings.url().startswith(("postgresql", "postgres")):
            raise RummyError("--workers 2 or more needs PostgreSQL (--database-url)")
        options = {k: v for k, v in vars(args).items() if k != "func"}
        options["data_dir"] = str(args.data_dir)
        os.environ[OPTIONS_ENV] = json.dumps(options)
        app = "pyrummy.cli.cmd_serve:app_from_environment"
    else:
        app = create_app(settings)
    print(f"pyrummy: the web game is on http://{args.host}:{args.port}/", flush=True)
    # permessage-deflate cost ~15% of the server's CPU under load for small
    # gains on loopback and LAN; a reverse proxy can compress instead.
    uvicorn.run(
        app,
        factory=args.workers > 1,
        workers=args.workers if args.workers > 1 else None,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_per_message_deflate=False,
        # Upgraded connections freed at once, not at a full GC (connections.py).
        http=uvicorn_http(),
        ws=uvicorn_ws(),
        # A client sends only small moves (ws_actions.MAX_MESSAGE): a bigger
        # frame closes its socket (1009) before it is read into memory.
        ws_max_size=WS_MAX_FRAME,
        # Forwarded headers are believed only when the operator says a proxy
        # is in front; otherwise any client could claim another address.
        proxy_headers=args.behind_proxy,
        forwarded_allow_ips=args.forwarded_allow_ips,
        # uvicorn kills a worker that has not answered its health check within
        # this many seconds, also while it is still starting: at uvicorn's 5 s
        # default, workers importing on a busy machine were killed and
        # restarted over and over.
        timeout_worker_healthcheck=args.worker_healthcheck,
    )
    return 0
