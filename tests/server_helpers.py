"""Helpers shared by the server tests (no tests here): an app on a temporary
folder, and a seat that plays through the HTTP API."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from pyrummy.server import Settings, create_app
from pyrummy.server.settings import RateLimits

CARD_TOKEN = re.compile(r"^(?:[A2-9TJQK][SHDC]|X[123])$")


@contextmanager
def app_client(
    data_dir: Path, bot_delay: float = 0.0, allow_seed: bool = False, **overrides: Any
) -> Iterator[TestClient]:
    """An app for functional tests: the limits meant for the public (rate
    limits, table caps, no bot-only tables) are off unless a test sets them;
    tests/server/test_server_hardening.py checks them at their defaults."""
    options: dict[str, Any] = {
        "rate_limits": RateLimits.off(),
        "max_tables_per_client": 0,
        "max_tables": 0,
        "allow_bot_only": True,
    }
    options.update(overrides)
    app = create_app(
        Settings(data_dir=data_dir, bot_delay=bot_delay, allow_seed=allow_seed, **options)
    )
    with TestClient(app) as client:
        yield client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def headers(token: str | None, lang: str = "en") -> dict[str, str]:
    result = {"Accept-Language": lang}
    if token:
        result["X-Seat-Token"] = token
    return result


def state(client: TestClient, table_id: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers=headers(token))
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def act(client: TestClient, table_id: str, token: str | None, action: str, lang: str = "en") -> Any:
    return client.post(
        f"/api/tables/{table_id}/actions", json={"action": action}, headers=headers(token, lang)
    )


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server")
        time.sleep(0.01)


def cards_in(value: Any) -> set[str]:
    """Every card token anywhere in a JSON value (strings equal to a card, or
    card words inside action texts like ``discard 7H``)."""
    found: set[str] = set()
    if isinstance(value, str):
        for word in value.split():
            if CARD_TOKEN.match(word):
                found.add(word)
    elif isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found
