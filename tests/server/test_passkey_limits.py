"""Hostile bursts on the passkey ceremonies and on new profiles.

A client that hammers the passkey routes (registration and sign-in, options
and answers) or makes profile after profile (dropping its cookie before each
first play) gets a 429 with ``Retry-After`` once over its limit
(:class:`~pyrummy.server.settings.RateLimits` ``passkey`` and ``profile``):
the refusal stores nothing (no challenge, passkey, session, profile, table or
queue entry) and signs nobody in. Reading is never limited, a browser that
has its profile plays on, and another address has limits of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient

from passkey_authenticator import SoftPasskey
from pyrummy.server.profiles import PROFILE_COOKIE
from pyrummy.server.settings import RateLimits
from server_helpers import app_client

#: Only the limits under test: four passkey requests and two new profiles a minute.
LIMITS = RateLimits(
    create=None, act=None, connect=None, queue=None, passkey="4/minute", profile="2/minute"
)
TABLES = ("profiles", "profile_sessions", "passkeys", "passkey_challenges", "tables", "quick_queue")
RU_WAIT = "слишком много запросов: повторите через {wait} с"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path, bot_workers=0, rate_limits=LIMITS) as test_client:
        yield test_client


def browser(client: TestClient, address: str = "testclient") -> TestClient:
    """Another browser (no cookies) at ``address``, on the same app and event loop."""
    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal
    return other


def stored(client: TestClient) -> dict[str, list[tuple[str, ...]]]:
    """Every row of the tables a refusal must not touch."""
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def read() -> dict[str, list[tuple[str, ...]]]:
        found: dict[str, list[tuple[str, ...]]] = {}
        async with store.read() as connection:
            for name in TABLES:
                result = await connection.execute(sqlalchemy.text(f"SELECT * FROM {name}"))
                found[name] = sorted(tuple(map(str, row)) for row in result)
        return found

    result: dict[str, list[tuple[str, ...]]] = client.portal.call(read)  # type: ignore[union-attr]
    return result


def first_play(who: TestClient) -> Any:
    return who.post("/api/tables", json={"bots": ["easy"], "name": "Anna"})


def limited(response: Any, code: str = "request.rate_limited") -> int:
    """The seconds a 429 says to wait, checked against the body and the window."""
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    wait = int(response.headers["retry-after"])
    assert 50 <= wait <= 60, wait  # the window is a minute, opened moments ago
    assert str(wait) in error["message"]
    return wait


def options(who: TestClient, kind: str = "passkeys") -> Any:
    return who.post(f"/api/profile/{kind}/options", headers={"Accept-Language": "ru"})


def test_a_burst_of_passkey_registrations_is_refused_and_stores_nothing(
    client: TestClient,
) -> None:
    assert first_play(client).status_code == 201
    first = SoftPasskey()
    answer = first.create(options(client).json()["publicKey"])
    assert client.post("/api/profile/passkeys", json={"credential": answer}).status_code == 201
    assert options(client).status_code == 200
    handed_out = options(client)  # the fourth: still answered
    assert handed_out.status_code == 200
    before = stored(client)
    # A valid answer to a challenge handed out, past the limit: refused, not kept.
    answer = SoftPasskey().create(handed_out.json()["publicKey"])
    refused = client.post(
        "/api/profile/passkeys", json={"credential": answer}, headers={"Accept-Language": "ru"}
    )
    wait = limited(refused)
    assert refused.json()["error"]["message"] == RU_WAIT.format(wait=wait)
    limited(options(client))
    limited(options(client, "signin"))
    assert stored(client) == before
    # Reading is not a ceremony: the one passkey is listed.
    listed = client.get("/api/profile/passkeys")
    assert listed.status_code == 200 and len(listed.json()["passkeys"]) == 1
    # Another address has its own count.
    elsewhere = browser(client, "10.0.0.2")
    assert options(elsewhere, "signin").status_code == 200


def test_a_burst_of_sign_ins_is_refused_and_signs_nobody_in(client: TestClient) -> None:
    assert first_play(client).status_code == 201
    passkey = SoftPasskey()
    answer = passkey.create(options(client).json()["publicKey"])
    assert client.post("/api/profile/passkeys", json={"credential": answer}).status_code == 201
    # Boris's browser, behind the same address, signs in with Anna's passkey
    # twice in a row (a script replaying the ceremony): the second is over the limit.
    boris = browser(client)
    first_answer = passkey.get(options(boris, "signin").json()["publicKey"])
    second_answer = passkey.get(options(boris, "signin").json()["publicKey"])
    before = stored(client)
    refused = boris.post("/api/profile/signin", json={"credential": second_answer})
    limited(refused)
    assert PROFILE_COOKIE not in refused.headers.get("set-cookie", "")
    assert boris.get("/api/profile").status_code == 404  # signed in to nothing
    assert stored(client) == before
    # Even an answer that would have worked first is refused while over the limit.
    limited(boris.post("/api/profile/signin", json={"credential": first_answer}))
    assert stored(client) == before


def test_a_burst_of_new_profiles_is_refused_and_stores_none(client: TestClient) -> None:
    # A refused play makes no profile and does not count.
    bad = browser(client).post("/api/tables", json={"preset": "canasta", "bots": ["easy"]})
    assert bad.status_code in (400, 422), bad.text
    anna = browser(client)
    assert first_play(anna).status_code == 201
    assert first_play(browser(client)).status_code == 201
    before = stored(client)
    assert len(before["profiles"]) == 2
    # The third cookie-less browser of the minute: no table, no profile, no cookie.
    third = browser(client)
    refused = third.post(
        "/api/tables", json={"bots": ["easy"], "name": "Vera"}, headers={"Accept-Language": "ru"}
    )
    wait = limited(refused, "profile.rate_limited")
    assert refused.json()["error"]["retry_after"] == wait
    assert "новых профилей" in refused.json()["error"]["message"]
    assert PROFILE_COOKIE not in refused.headers.get("set-cookie", "")
    queued = third.post(
        "/api/quick/join", json={"preset": "gin", "players": 2, "name": "Vera", "bot_wait": None}
    )
    limited(queued, "profile.rate_limited")
    assert stored(client) == before
    # A browser with its profile plays on (nothing new is made); another address makes its own.
    assert first_play(anna).status_code == 201
    assert first_play(browser(client, "10.0.0.3")).status_code == 201
    after = stored(client)
    assert len(after["profiles"]) == 3 and len(after["tables"]) == 4
