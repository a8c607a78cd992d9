"""Real ``pyrummy serve`` processes for tests: each in a process group of its
own, so that stopping it (or killing it, as a crash) also ends what it started
(``--workers`` processes, the bot pool's spawned workers): none is left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import IO

SERVE = [sys.executable, "-m", "pyrummy.cli.main", "serve"]


def start_server(
    arguments: Sequence[str], env: Mapping[str, str], stderr: IO[bytes] | int | None
) -> subprocess.Popen[bytes]:
    """``pyrummy serve ARGUMENTS`` in a new session (its own process group)."""
    return subprocess.Popen(
        [*SERVE, *arguments],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env=dict(env),
        start_new_session=True,
    )


def kill_server(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server and every process of its group (a crash of the machine's
    server: the workers die with it), and reap it."""
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
