"""Real ``pyrummy serve`` processes for tests, scripts and benchmarks: the one
way to start one.

:func:`start_server` picks a free loopback port, starts the server in a
process group of its own and waits until ``/api/health`` answers; a server
that exits or does not answer in time raises :class:`ServerDidNotStart` with
the end of its stderr. Stopping it (or killing it, as a crash) ends the whole
group, so what it started (``--workers`` processes, the bot pool's spawned
workers) is never left behind. :func:`running_server` does both around a
``with`` block.

Scripts and benchmarks outside ``tests/`` import this module after putting
``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

SERVE = (sys.executable, "-m", "pyrummy.cli.main", "serve")
HOST = "127.0.0.1"
#: How much of a failed server's stderr the error quotes (its last characters).
STDERR_SHOWN = 4000


class ServerDidNotStart(RuntimeError):
    """The server exited, or did not answer ``/api/health`` before the deadline;
    the message ends with what it wrote on stderr."""


def free_port() -> int:
    """A loopback port nothing listens on now (the kernel's choice)."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running ``pyrummy serve``: its process (leader of its own group),
    base URL and port."""

    process: subprocess.Popen[bytes]
    url: str
    port: int

    def kill(self) -> None:
        """SIGKILL the server and every process of its group (a crash of the
        machine's server: the workers die with it), and reap it."""
        kill_server(self.process)

    def stop(self, grace: float = 10) -> None:
        """SIGTERM the group, wait up to ``grace`` seconds, then SIGKILL what is left."""
        stop_server(self.process, grace)


def start_server(
    arguments: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    deadline: float = 120,
    port: int | None = None,
) -> Server:
    """``pyrummy serve --port PORT ARGUMENTS`` on a free port (or ``port``:
    a server started again where its clients look for it), answering.

    ``env`` is set on top of this process's environment (``DATABASE_URL`` goes
    through unless ``env`` sets it). Stderr is appended to ``log`` when given
    (a test may read it later), else kept in a temporary file for the error.
    ``deadline`` is generous by default: on a loaded shared machine importing
    the server alone has taken 14 s.
    """
    port = port or free_port()
    # The child holds its own copy of the descriptor: ours is closed once it answers.
    with log.open("a+b") if log is not None else tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), *arguments],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
        server = Server(process, f"http://{HOST}:{port}", port)
        try:
            _wait_until_healthy(server, time.monotonic() + deadline)
        except ServerDidNotStart as failure:
            kill_server(process)
            stderr.flush()
            stderr.seek(0)
            said = stderr.read()[-STDERR_SHOWN:].decode(errors="replace")
            raise ServerDidNotStart(f"{failure}; its stderr ends:\n{said}") from None
        except BaseException:  # interrupted while waiting: never leave it running
            kill_server(process)
            raise
    return server


def _wait_until_healthy(server: Server, deadline: float) -> None:
    with httpx.Client(base_url=server.url, timeout=5) as client:
        while True:
            with contextlib.suppress(httpx.TransportError):
                if client.get("/api/health").status_code == 200:
                    return
            if (code := server.process.poll()) is not None:
                raise ServerDidNotStart(f"pyrummy serve exited with status {code}")
            if time.monotonic() > deadline:
                raise ServerDidNotStart(f"pyrummy serve did not answer on {server.url} in time")
            time.sleep(0.05)


@contextlib.contextmanager
def running_server(
    arguments: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    deadline: float = 120,
    graceful: bool = False,
) -> Iterator[Server]:
    """A server for the ``with`` block: killed with its group at the end
    (``graceful``: stopped with SIGTERM first, as an operator would)."""
    server = start_server(arguments, env=env, log=log, deadline=deadline)
    try:
        yield server
    finally:
        if graceful:
            server.stop()
        else:
            server.kill()


@contextlib.contextmanager
def server_and_client(
    arguments: Sequence[str] = (),
    *,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    graceful: bool = False,
) -> Iterator[tuple[httpx.Client, Server]]:
    """:func:`running_server` with an HTTP client on it (10 s per request)."""
    with (
        running_server(arguments, env=env, log=log, graceful=graceful) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        yield client, server


def kill_server(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server and every process of its group, and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def stop_server(process: subprocess.Popen[bytes], grace: float = 10) -> None:
    """SIGTERM the group, wait up to ``grace`` seconds, then SIGKILL what is left."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(grace)
    # Also after a clean exit: a worker may outlive its server.
    kill_server(process)
