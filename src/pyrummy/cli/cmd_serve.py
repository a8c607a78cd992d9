"""``pyrummy serve``: the web game on http://HOST:PORT.

Tables live in a SQLite file under ``--data-dir`` (or the database named by
the ``DATABASE_URL`` environment variable, e.g. PostgreSQL); unfinished
tables resume when the server starts again.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web game",
        description="Run the web game: play Knock Rummy, Rummy, Gin and more against bots.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data"), help="folder of the SQLite database"
    )
    parser.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.8,
        help="default pause between bot steps, in seconds (each table can change it)",
    )
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let new tables choose their seed (tests and demos: the cards become predictable)",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn log level")
    parser.set_defaults(func=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError("the bot delay is 0-10 seconds")
    return value


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from pyrummy.server import Settings, create_app

    app = create_app(
        Settings(data_dir=args.data_dir, bot_delay=args.bot_delay, allow_seed=args.allow_seed)
    )
    print(f"pyrummy: the web game is on http://{args.host}:{args.port}/", flush=True)
    # permessage-deflate cost ~15% of the server's CPU under load for small
    # gains on loopback and LAN; a reverse proxy can compress instead.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_per_message_deflate=False,
    )
    return 0
