"""tests/server_process.py, the one way tests, scripts and benchmarks start a
real server: it answers when started, says why when it cannot start, and
leaves nothing running."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from server_process import ServerDidNotStart, running_server, start_server


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    with pytest.raises(ServerDidNotStart) as failed:
        start_server(["--data-dir", str(tmp_path), "--workers", "0"], deadline=60)
    message = str(failed.value)
    assert "exited with status 2" in message
    assert "argument --workers: expected a whole number 1-64, got '0'" in message  # its stderr


def test_a_started_server_answers_and_is_gone_after(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = {"DATABASE_URL": ""}
    with running_server(["--data-dir", str(tmp_path)], env=env, log=log) as server:
        assert server.url == f"http://127.0.0.1:{server.port}"
        assert httpx.get(f"{server.url}/api/health").status_code == 200
    assert server.process.poll() is not None
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{server.url}/api/health", timeout=2)
    assert log.exists()  # stderr went where it was asked to
