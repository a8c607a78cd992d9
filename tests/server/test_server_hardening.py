"""Regression tests for the breaks of issue 9 (a server given to the public):
poisoned input, unbounded numbers, abuse, 500s, health, web hardening.

Each test names the break it guards against. Limits are tested at the
defaults a public server runs with (``Settings()``), or with small values
where waiting out the default would make the test slow.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from db_fixtures import committed_rows, sync_url
from pyrummy.server import Settings, create_app
from pyrummy.server.security import CONTENT_SECURITY_POLICY
from pyrummy.server.settings import RateLimits
from pyrummy.server.storage import Store, async_url
from server_helpers import act, app_client, create, headers, state

ONE_PERSON = {"preset": "knock", "bots": ["easy"], "bot_delay": 0}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def public_client(tmp_path: Path, **settings: Any) -> TestClient:
    """A client of a server with the public defaults (limits on)."""
    return TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0, **settings)))


def live_count(client: TestClient) -> int:
    total: int = client.get("/api/matches?status=all").json()["total"]
    return total


# -- 1. nothing a client sends breaks the server -------------------------------------------------


@pytest.mark.parametrize("name", ["a,b", "[a]", "a\u200bb", "a\x85b", "x" * 25])
def test_a_name_the_core_refuses_is_refused_before_anything_is_stored(
    tmp_path: Path, name: str
) -> None:
    """Break: the poison name committed a table and the server never started again."""
    with app_client(tmp_path) as client:
        refused = client.post("/api/tables", json={"name": name, "bots": ["easy"]})
        assert refused.status_code in (400, 422), refused.text
        assert refused.json()["error"]["message"]
        assert live_count(client) == 0
    with app_client(tmp_path) as client:
        assert client.get("/api/health").status_code == 200
        assert create(client, name="Ann", bots=["easy"])["table"]["id"]


@pytest.mark.parametrize("name", ["a ", " a", "\u00a0x"])
def test_a_name_with_outer_spaces_is_trimmed_before_the_core_sees_it(
    tmp_path: Path, name: str
) -> None:
    """The core refuses a name with outer spaces; the server trims them (the
    display-name rule of every form) so the table stores the name the core takes."""
    with app_client(tmp_path) as client:
        table = create(client, name=name, bots=["easy"])["table"]
        assert table["seats"][0]["name"] == name.strip()
    with app_client(tmp_path) as client:
        assert client.get("/api/health").status_code == 200
        assert live_count(client) == 1


def write_rows(url: str, statement: str, **params: Any) -> None:
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as connection:
            connection.execute(text(statement), params)
    finally:
        engine.dispose()


def test_a_table_that_cannot_be_loaded_is_quarantined_and_the_rest_start(
    tmp_path: Path,
) -> None:
    """Break: any single unreadable row aborted the start for every table."""
    with app_client(tmp_path) as client:
        good, bad_options, bad_action = (create(client, **ONE_PERSON) for _ in range(3))
        url = client.app.state.store.url  # type: ignore[attr-defined]
    bad_options_id, bad_action_id = bad_options["table"]["id"], bad_action["table"]["id"]
    write_rows(
        url,
        'UPDATE tables SET options_json = \'{"target": "x"}\' WHERE id = :id',
        id=bad_options_id,
    )
    write_rows(
        url,
        # After whatever the bot has played already: the next action is unreadable.
        "INSERT INTO actions (table_id, seq, seat, text, at)"
        " SELECT :id, COALESCE(MAX(seq), 0) + 1, 0, 'discard ZZ', 0 FROM actions"
        " WHERE table_id = :id",
        id=bad_action_id,
    )
    for _ in range(2):  # the first start sets them aside, the next does not even try
        with app_client(tmp_path) as client:
            assert client.get("/api/health").status_code == 200
            # Served (200) and playable; its bots may have moved already.
            assert state(client, good["table"]["id"], good["token"])["seq"] >= 0
            for table_id in (bad_options_id, bad_action_id):
                gone = client.get(f"/api/tables/{table_id}")
                assert gone.status_code == 410, gone.text
                assert gone.json()["error"]["code"] == "table.broken"
            live = client.get("/api/matches?status=live").json()["matches"]
            assert [m["id"] for m in live] == [good["table"]["id"]]
    statuses = dict(committed_rows(url, "SELECT id, status FROM tables"))
    assert statuses == {
        good["table"]["id"]: "live",
        bad_options_id: "broken",
        bad_action_id: "broken",
    }


def test_a_table_the_database_cannot_read_now_is_busy_not_quarantined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break: a pool wait that timed out under load (a soak starved of CPU)
    marked the tables it was loading broken, for good."""
    from sqlalchemy.exc import TimeoutError as SqlTimeoutError

    with app_client(tmp_path) as client:
        created = create(client, **ONE_PERSON)
        table_id = created["table"]["id"]
        app: Any = client.app
        app.state.tables.tables.pop(table_id)  # left memory (idle)
        store = app.state.store
        read = store.load_table

        async def timed_out(_table_id: str) -> Any:
            raise SqlTimeoutError("QueuePool limit of size 5 overflow 10 reached")

        monkeypatch.setattr(store, "load_table", timed_out)
        busy = client.get(f"/api/tables/{table_id}")
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "server.busy"
        monkeypatch.setattr(store, "load_table", read)
        assert state(client, table_id, created["token"])["seq"] >= 0
        url = store.url
    assert dict(committed_rows(url, "SELECT id, status FROM tables")) == {table_id: "live"}


@pytest.mark.parametrize(
    "url",
    [
        "/api/matches?offset=100000000000000000000",
        "/api/matches?offset=-1",
        "/api/matches?limit=100000000000000000000",
        "/api/matches?limit=0",
        "/api/matches?status=everything",
    ],
)
def test_out_of_range_list_queries_are_4xx(client: TestClient, url: str) -> None:
    """Break: ``offset=10**20`` was an OverflowError (500)."""
    response = client.get(url)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "request.invalid"


def test_out_of_range_event_numbers_are_4xx(client: TestClient) -> None:
    created = create(client, **ONE_PERSON)
    table_id, token = created["table"]["id"], created["token"]
    for url in (
        f"/api/tables/{table_id}/events?since=100000000000000000000",
        f"/api/matches/{table_id}/replay?step=100000000000000000000",
    ):
        assert client.get(url, headers=headers(token)).status_code == 422, url
    huge_seq = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": "draw stock", "seq": 2**70},
        headers=headers(token),
    )
    assert huge_seq.status_code == 422
    # A WebSocket ``since`` that is not a small ASCII number means "send a full state".
    for since in ("100000000000000000000", "%C2%B2", "-1", "x"):
        with client.websocket_connect(
            f"/api/tables/{table_id}/ws?since={since}", headers=headers(token)
        ) as ws:
            first = ws.receive_json()
            assert first["type"] == "state" and first["resync"] is True


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"target": 2**70}, "target is at most 1000"),
        ({"target": 1001}, "target is at most 1000"),
        ({"match_end": "deals", "deals": 51}, "deals is at most 50"),
        ({"turn_cap": 100_000}, "turn_cap is at most 1000"),
        ({"rum_bonus": 1001}, "rum_bonus is at most 1000"),
        ({"all_seven_deals": [1] * 21}, "all_seven_deals"),
        ({"target": -5}, "target"),
    ],
)
def test_option_values_are_bounded_and_nothing_is_stored(
    client: TestClient, options: dict[str, Any], fragment: str
) -> None:
    """Break: ``target: 2**70`` was accepted (a match that never ends)."""
    response = client.post("/api/tables", json={**ONE_PERSON, "options": options})
    assert response.status_code in (400, 422), response.text
    assert fragment in response.json()["error"]["message"]
    assert live_count(client) == 0


def test_the_largest_options_still_make_a_table(client: TestClient) -> None:
    options = {"target": 1000, "turn_cap": 1000, "rum_bonus": 1000}
    created = create(client, **ONE_PERSON, options=options)
    assert created["table"]["id"]


def test_an_unexpected_error_is_a_json_500(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break: an unexpected error escaped as a plain-text 500 (and a raised app)."""

    async def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Store, "list_tables", broken)
    response = client.get("/api/matches")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server.error"
    assert "disk on fire" not in response.text
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_a_500_does_not_poison_the_keep_alive_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break: after a 500 the next request on the same connection was reset."""

    async def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Store, "list_tables", broken)
    app = create_app(Settings(data_dir=tmp_path, rate_limits=RateLimits.off()))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="critical", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/api/matches")
        failed = connection.getresponse()
        assert failed.status == 500
        assert json.loads(failed.read())["error"]["code"] == "server.error"
        assert failed.getheader("connection") != "close"
        for _ in range(2):  # the same connection keeps working
            connection.request("GET", "/api/presets")
            after = connection.getresponse()
            assert after.status == 200 and json.loads(after.read())["presets"]
        connection.close()
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def read_only_engine(url: str) -> Any:
    """An engine on the same database that cannot write (root ignores file modes)."""
    url = async_url(url)
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1]
        return create_async_engine(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true")
    return create_async_engine(url, connect_args={"options": "-c default_transaction_read_only=on"})


def test_health_touches_the_database_and_is_503_when_it_cannot_write(client: TestClient) -> None:
    """Break: /api/health answered ok without ever touching the database."""
    create(client, **ONE_PERSON)
    healthy = client.get("/api/health")
    assert healthy.status_code == 200 and healthy.json()["database"] == "ok"
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    writable = store.engine
    store.engine = read_only_engine(store.url)
    try:
        sick = client.get("/api/health")
        assert sick.status_code == 503, sick.text
        assert sick.json()["ok"] is False and "cannot write" in sick.json()["database"]
    finally:
        client.portal.call(store.engine.dispose)  # type: ignore[union-attr]
        store.engine = writable
    assert client.get("/api/health").status_code == 200


# -- 2. limits ----------------------------------------------------------------------------------


def test_table_creation_is_rate_limited_with_retry_after(tmp_path: Path) -> None:
    settings = {"rate_limits": RateLimits(create="2/minute"), "max_tables_per_client": 0}
    with public_client(tmp_path, **settings) as client:
        for _ in range(2):
            create(client, **ONE_PERSON)
        refused = client.post("/api/tables", json=ONE_PERSON)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "request.rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        assert live_count(client) == 2


def test_actions_are_rate_limited_and_the_refusal_changes_nothing(tmp_path: Path) -> None:
    with public_client(tmp_path, rate_limits=RateLimits(act="1/minute")) as client:
        created = create(client, preset="knock", humans=2, bots=[])
        table_id = created["table"]["id"]
        tokens = {entry["seat"]: entry["token"] for entry in created["tokens"]}
        current = state(client, table_id, tokens[0])["observation"]["current_seat"]
        token = tokens[current]
        # The first action may be refused by the rules; it still counts.
        act(client, table_id, token, "draw stock")
        before = state(client, table_id, token)
        refused = act(client, table_id, token, "discard 2C")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert state(client, table_id, token) == before


def test_websocket_connections_are_rate_limited(tmp_path: Path) -> None:
    with public_client(tmp_path, rate_limits=RateLimits(connect="1/minute")) as client:
        created = create(client, **ONE_PERSON)
        url = f"/api/tables/{created['table']['id']}/ws"
        with client.websocket_connect(url, headers=headers(created["token"])) as ws:
            assert ws.receive_json()["type"] == "state"
        with pytest.raises(WebSocketDenialResponse) as refused:
            client.websocket_connect(url, headers=headers(created["token"])).__enter__()
        assert refused.value.status_code == 429
        assert int(refused.value.headers["retry-after"]) >= 1


def test_unfinished_tables_are_capped_per_client_and_in_total(tmp_path: Path) -> None:
    """Break: ten POSTs of busy tables took a player from 167 to 2.8 actions/s."""
    no_rate_limits = RateLimits.off()
    with public_client(tmp_path, rate_limits=no_rate_limits) as client:  # default: 10 per client
        for _ in range(10):
            create(client, **ONE_PERSON)
        mine = client.post("/api/tables", json=ONE_PERSON)
        assert mine.status_code == 429 and mine.json()["error"]["code"] == "table.too_many_yours"
    with public_client(tmp_path / "total", rate_limits=no_rate_limits, max_tables=2) as client:
        for _ in range(2):
            create(client, **ONE_PERSON)
        full = client.post("/api/tables", json=ONE_PERSON)
        assert full.status_code == 503 and full.json()["error"]["code"] == "table.server_full"
        assert live_count(client) == 2


def test_bot_only_tables_need_the_server_option(tmp_path: Path) -> None:
    bots_only = {"preset": "knock", "bots": ["hard", "hard"], "humans": 0, "bot_delay": 0}
    with public_client(tmp_path) as client:
        refused = client.post("/api/tables", json=bots_only)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "table.bot_only_forbidden"
        assert live_count(client) == 0
    with public_client(tmp_path / "allowed", allow_bot_only=True) as client:
        assert create(client, **bots_only)["table"]["id"]


# -- 5. web hardening ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/", "/api", "/api/presets", "/static/style.css", "/nowhere", "/api/matches?offset=x"]
)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    """Break: no CSP, nosniff, frame-ancestors or Referrer-Policy."""
    response = client.get(path)
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    assert "http" not in policy  # no CDN or other origin anywhere
    assert "unsafe-inline" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_too_large_and_rate_limited_answers_carry_the_headers_too(tmp_path: Path) -> None:
    # A refused body counts against the limit too: 2 = the big one + one table.
    with public_client(tmp_path, rate_limits=RateLimits(create="2/minute")) as client:
        big = client.post("/api/tables", content=b"x" * 20_000)
        assert big.status_code == 413
        assert big.headers["x-content-type-options"] == "nosniff"
        create(client, **ONE_PERSON)
        limited = client.post("/api/tables", json=ONE_PERSON)
        assert limited.status_code == 429
        assert "frame-ancestors 'none'" in limited.headers["content-security-policy"]


def test_no_page_loads_anything_from_a_cdn(client: TestClient) -> None:
    """Break: /docs loaded Swagger's script from a CDN onto the game's origin."""
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    for path in ("/", "/api"):
        page = client.get(path).text
        assert "cdn" not in page.lower() and "https://" not in page
        assert "<style" not in page and " style=" not in page
        assert "<script>" not in page and " onclick=" not in page
    css = client.get("/api/reference.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")


def test_cookies_are_secure_when_asked(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        plain = client.post("/api/tables", json=ONE_PERSON)
        assert "secure" not in plain.headers["set-cookie"].lower()
    with app_client(tmp_path / "always", secure_cookies=True) as client:
        secure = client.post("/api/tables", json=ONE_PERSON)
        assert "secure" in secure.headers["set-cookie"].lower()
    with app_client(tmp_path / "proxy", behind_proxy=True) as client:
        # uvicorn's proxy_headers turn X-Forwarded-Proto into the scheme; the
        # test client speaks https directly to stand for it.
        over_https = client.post("https://testserver/api/tables", json=ONE_PERSON)
        assert "secure" in over_https.headers["set-cookie"].lower()
        over_http = client.post("/api/tables", json=ONE_PERSON)
        assert "secure" not in over_http.headers["set-cookie"].lower()


def open_socket(client: TestClient, url: str, **kwargs: Any) -> dict[str, Any]:
    with client.websocket_connect(url, **kwargs) as ws:
        message: dict[str, Any] = ws.receive_json()
        return message


def test_websockets_only_from_allowed_origins(tmp_path: Path) -> None:
    """Break: the WebSocket accepted any Origin (a foreign page could use the seat cookie)."""
    with app_client(tmp_path, allowed_origins=("https://play.example.org",)) as client:
        created = create(client, **ONE_PERSON)
        url = f"/api/tables/{created['table']['id']}/ws"
        token = headers(created["token"])
        same = open_socket(client, url, headers={**token, "Origin": "http://testserver"})
        assert same["type"] == "state" and same["state"]["seat"] == 0
        listed = {**token, "Origin": "https://play.example.org"}
        assert open_socket(client, url, headers=listed)["type"] == "state"
        assert open_socket(client, url, headers=token)["type"] == "state"  # not a browser
        for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
            with pytest.raises(WebSocketDisconnect) as refused:
                open_socket(client, url, headers={**token, "Origin": origin})
            assert refused.value.code == 1008, origin


def test_the_seat_token_is_refused_in_the_url(client: TestClient) -> None:
    created = create(client, **ONE_PERSON)
    client.cookies.clear()  # only what each connection sends names the seat
    url = f"/api/tables/{created['table']['id']}/ws"
    with pytest.raises(WebSocketDisconnect) as refused:
        open_socket(client, f"{url}?token={created['token']}")
    assert refused.value.code == 4400 and refused.value.reason == "seat.token_in_url"
    by_protocol = open_socket(
        client, url, subprotocols=["pyrummy", f"pyrummy.token.{created['token']}"]
    )
    assert by_protocol["state"]["seat"] == 0
    spectator = open_socket(client, url, subprotocols=["pyrummy"])
    assert spectator["state"]["seat"] is None
