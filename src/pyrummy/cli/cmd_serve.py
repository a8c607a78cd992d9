"""``pyrummy serve``: the web game on http://HOST:PORT.

Tables live in a SQLite file under ``--data-dir`` (or the database named by
the ``DATABASE_URL`` environment variable, e.g. PostgreSQL); unfinished
tables resume when the server starts again.

Every flag is generated from :class:`pyrummy.server.settings.Settings`: its
name, bounds, default and help are declared there once. A flag given wins
over the environment (``PYRUMMY_*``), which wins over the default.
"""

from __future__ import annotations

import argparse
import os
import typing
from typing import Any

from pyrummy.cli.arguments import amount, whole_number
from pyrummy.extras import MissingExtraError

#: The largest WebSocket frame the server reads from a client (bytes).
WS_MAX_FRAME = 64 * 1024


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web game",
        description="Run the web game: play Knock Rummy, Rummy, Gin and more against bots.",
    )
    parser.set_defaults(func=run)
    add_setting_flags(parser)


def add_setting_flags(parser: Any, names: tuple[str, ...] | None = None) -> None:
    """The server's settings (those of ``names``, default all) as flags of ``parser``."""
    try:
        from pyrummy.server.settings import cli_flags
    except (ImportError, MissingExtraError):  # no web extra: run() says which
        return
    groups: dict[str, Any] = {"": parser}
    for _section, name, info, flag in cli_flags():
        if names is not None and name not in names:
            continue
        if flag.group not in groups and names is None:
            title = f"{flag.group} (for a public server)" if flag.group == "limits" else flag.group
            groups[flag.group] = parser.add_argument_group(title)
        _add_flag(groups.get(flag.group, parser), name, info, flag)


def _add_flag(group: Any, name: str, info: Any, flag: Any) -> None:
    """One setting as a flag: its type, bounds and default shown in the help."""
    option = flag.name or "--" + name.replace("_", "-")
    kind = _plain_type(info.annotation)
    default = flag.serve_default if flag.serve_default is not None else info.get_default()
    common: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS}
    if kind is bool:
        if default:
            option = "--no-" + name.replace("_", "-")
            group.add_argument(option, action="store_false", help=flag.help, **common)
        else:
            group.add_argument(option, action="store_true", help=flag.help, **common)
        return
    numeric = isinstance(default, int | float)
    shown = f"{default / flag.scale:g}" if numeric else default
    help_text = flag.help if default is None else f"{flag.help} (default {shown})"
    if typing.get_origin(kind) is typing.Literal:
        group.add_argument(option, choices=typing.get_args(kind), help=help_text, **common)
    elif kind is tuple:
        group.add_argument(option, action="append", metavar=flag.metavar, help=flag.help, **common)
    elif kind in (int, float):
        low, high, above_low = _bounds(info)
        if kind is int:
            parse: Any = whole_number(int(low), None if high is None else int(high))
        else:
            scale = flag.scale
            parse = amount(
                flag.unit or "seconds", low / scale, (high or 1e18) / scale, above_low=above_low
            )
        group.add_argument(option, type=parse, metavar=flag.metavar, help=help_text, **common)
    else:
        group.add_argument(option, type=kind, metavar=flag.metavar, help=help_text, **common)


def _plain_type(annotation: Any) -> Any:
    """``int`` of ``int | None``; ``tuple`` of ``tuple[str, ...]``; Literals as they are."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return annotation
    if origin is tuple:
        return tuple
    if origin is not None and len(args) == 1:  # X | None
        return _plain_type(args[0])
    return annotation


def _bounds(info: Any) -> tuple[float, float | None, bool]:
    """(low, high, whether low itself is refused) of a numeric field."""
    low, high, above_low = 0.0, None, False
    for rule in info.metadata:
        if getattr(rule, "ge", None) is not None:
            low = rule.ge
        if getattr(rule, "gt", None) is not None:
            low, above_low = rule.gt, True
        if getattr(rule, "le", None) is not None:
            high = rule.le
    return low, high, above_low


def settings_from(args: argparse.Namespace) -> Any:
    """The server's :class:`~pyrummy.server.settings.Settings`: the flags given,
    then the environment, then the defaults."""
    import pydantic

    from pyrummy.core.errors import RummyError
    from pyrummy.server.settings import Lifecycle, Settings, cli_flags

    given: dict[str, Any] = {}
    lifecycle: dict[str, Any] = {}
    for section, name, _info, flag in cli_flags():
        env_set = f"PYRUMMY_{name.upper()}" in os.environ
        if hasattr(args, name):
            value = getattr(args, name)
            value = value * flag.scale if isinstance(value, float) else value
        elif flag.serve_default is not None and not env_set:
            value = flag.serve_default
        else:
            continue
        (lifecycle if section == "lifecycle" else given)[name] = value
    try:
        if lifecycle:
            given["lifecycle"] = Lifecycle(**lifecycle)
        return Settings(**given)
    except pydantic.ValidationError as exc:
        raise RummyError(_first_problem(exc)) from None


def _first_problem(error: Any) -> str:
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem.get("loc", ()))
    return f"{where}: {problem.get('msg', error)}"


def app_from_environment() -> Any:
    """The app of one ``--workers`` process (uvicorn's factory): its settings
    come from the environment the parent set (:meth:`Settings.environment`)."""
    from pyrummy.server import Settings, create_app

    return create_app(Settings())


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from pyrummy.core.errors import RummyError
    from pyrummy.extras import require

    require("web")
    from pyrummy.server import create_app
    from pyrummy.server.connections import uvicorn_http, uvicorn_ws

    settings = settings_from(args)
    app: Any
    if settings.workers > 1:
        # Events and table ownership cross processes through PostgreSQL only.
        if not settings.url().startswith(("postgresql", "postgres")):
            raise RummyError("--workers 2 or more needs PostgreSQL (--database-url)")
        # uvicorn starts each worker from an import string: the settings
        # travel in the environment, read back by Settings() there.
        os.environ.update(settings.environment())
        app = "pyrummy.cli.cmd_serve:app_from_environment"
    else:
        app = create_app(settings)
    print(f"pyrummy: the web game is on http://{settings.host}:{settings.port}/", flush=True)
    # permessage-deflate cost ~15% of the server's CPU under load for small
    # gains on loopback and LAN; a reverse proxy can compress instead.
    uvicorn.run(
        app,
        factory=settings.workers > 1,
        workers=settings.workers if settings.workers > 1 else None,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_per_message_deflate=False,
        # Upgraded connections freed at once, not at a full GC (connections.py).
        http=uvicorn_http(),
        ws=uvicorn_ws(),
        # A client sends only small moves (ws_actions.MAX_MESSAGE): a bigger
        # frame closes its socket (1009) before it is read into memory.
        ws_max_size=WS_MAX_FRAME,
        # Forwarded headers are believed only when the operator says a proxy
        # is in front; otherwise any client could claim another address.
        proxy_headers=settings.behind_proxy,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        # uvicorn kills a worker that has not answered its health check within
        # this many seconds, also while it is still starting: at uvicorn's 5 s
        # default, workers importing on a busy machine were killed and
        # restarted over and over.
        timeout_worker_healthcheck=settings.worker_healthcheck,
    )
    return 0
