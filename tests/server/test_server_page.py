"""The page's files, the facts the page reads from the server, and the /api reference.

The reference is generated from the declarations the server runs: every way
it documents to present a seat token works, and the way the server refuses
(a token in the URL) is not offered.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pyrummy.bots.registry import BOT_NAMES, DIFFICULTIES
from pyrummy.core.families import family_of
from pyrummy.core.rules import find_rules
from pyrummy.server.api.page import ENTRY_MODULE, first_modules, static_dir, with_preloads
from pyrummy.server.api.table_socket import HANDSHAKE
from pyrummy.server.seats import TABLE_COOKIE, TOKEN_WAYS, TokenWay
from server_helpers import app_client, create


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


# -- the page's files -------------------------------------------------------------------


def test_the_page_answers_head_like_get(client: TestClient) -> None:
    got = client.get("/")
    head = client.head("/")
    assert got.status_code == head.status_code == 200
    assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["etag"] == got.headers["etag"]
    static = client.head("/static/js/main.js")
    assert static.status_code == 200 and static.content == b""


@pytest.mark.parametrize("path", ["/", "/static/js/table.js", "/static/style.css"])
def test_files_are_revalidated_by_etag(client: TestClient, path: str) -> None:
    first = client.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "no-cache"
    etag = first.headers["etag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    changed = client.get(path, headers={"If-None-Match": '"another"'})
    assert changed.status_code == 200 and changed.content == first.content


def test_scripts_are_compressed_for_clients_that_accept_gzip(client: TestClient) -> None:
    plain = client.get("/static/js/table.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    packed = client.get(
        "/static/js/table.js", headers={"Accept-Encoding": "gzip"}, extensions={"raw": True}
    )
    assert packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    # httpx decodes it: the same file, sent in fewer bytes.
    assert packed.content == plain.content
    assert len(gzip.compress(plain.content)) < len(plain.content) // 2


def test_the_api_is_not_compressed_here(client: TestClient) -> None:
    presets = client.get("/api/presets", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in presets.headers


# -- facts the page hand-copied ------------------------------------------------------------


def test_presets_say_what_each_family_can_do(client: TestClient) -> None:
    presets = {p["name"]: p for p in client.get("/api/presets").json()["presets"]}
    for name, preset in presets.items():
        policy = family_of(find_rules(name))
        capabilities = preset["capabilities"]
        assert capabilities == policy.capabilities()
        for attribute in ("knocks", "table_play", "out_by_discard", "wall", "nobody_out"):
            assert capabilities[attribute] == getattr(policy, attribute)
    assert presets["rummy"]["capabilities"]["table_play"] is True
    assert presets["knock"]["capabilities"]["table_play"] is False


def test_the_bots_come_from_the_registry(client: TestClient) -> None:
    answer = client.get("/api/bots").json()
    names = [bot["name"] for bot in answer["bots"]]
    assert names == [*DIFFICULTIES, "random", "learned"]
    assert set(names) <= set(BOT_NAMES) and answer["default"] in names
    for bot in answer["bots"]:
        assert bot["plays_as"] == DIFFICULTIES.get(bot["name"], bot["name"])
    assert client.get("/api/presets").json()["bots"] == names
    # A name the registry does not list is refused by the schema built from it.
    refused = client.post("/api/tables", json={"bots": ["grandmaster"]})
    assert refused.status_code == 422


# -- the reference and the ways to authenticate ---------------------------------------------


def present(way: TokenWay, token: str, table_id: str) -> dict[str, object]:
    """The request arguments that present ``token`` the way ``way`` documents."""
    if way.name == "header":
        return {"headers": {"X-Seat-Token": token}}
    if way.name == "bearer":
        return {"headers": {"Authorization": f"Bearer {token}"}}
    if way.name == "subprotocol":
        return {"subprotocols": ["pyrummy", f"pyrummy.token.{token}"]}
    if way.name == "cookie":
        return {"headers": {"Cookie": f"{TABLE_COOKIE}{table_id}={token}"}}
    raise AssertionError(f"a way the test does not know: {way.name}")


@pytest.mark.parametrize("way", TOKEN_WAYS, ids=lambda way: way.name)
def test_each_documented_way_to_present_a_token_works(client: TestClient, way: TokenWay) -> None:
    created = create(client, bots=[], humans=2)
    client.cookies.clear()
    table_id = created["table"]["id"]
    second = created["tokens"][1]["token"]
    reference = client.get("/api").text
    assert way.text.split("TOKEN")[0].split("`")[-1] in reference.replace("&#x27;", "'")
    if way.http:
        response = client.get(f"/api/tables/{table_id}/state", **present(way, second, table_id))
        assert response.status_code == 200 and response.json()["seat"] == 1
    if way.websocket:
        with client.websocket_connect(
            f"/api/tables/{table_id}/ws",
            **present(way, second, table_id),  # type: ignore[arg-type]
        ) as ws:
            assert ws.receive_json()["state"]["seat"] == 1


def test_the_refused_way_is_not_documented(client: TestClient) -> None:
    created = create(client, bots=[], humans=2)
    client.cookies.clear()
    table_id, token = created["table"]["id"], created["token"]
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}"),
    ):
        pass
    assert refused.value.code == 4400
    reference = client.get("/api").text
    openapi = client.get("/openapi.json").text
    for text in (reference, openapi):
        assert "?token=" not in text and "token=" not in text
    # The socket's handshake is in the reference, as declared.
    assert f"WS {HANDSHAKE.path}" in reference
    for code, _meaning in HANDSHAKE.close_codes:
        assert f"<code>{code}</code>" in reference


def test_the_reference_lists_every_route_the_server_runs(client: TestClient) -> None:
    reference = client.get("/api").text
    openapi = client.get("/openapi.json").json()
    for path, operations in openapi["paths"].items():
        for method in operations:
            assert f"{method.upper()} {path}" in reference
    assert "POST /api/tables/{table_id}/resign" in reference
    assert "GET /api/bots" in reference
    # Nothing that is not served: there is no /docs page.
    assert "/docs" not in reference and client.get("/docs").status_code == 404


def test_the_page_announces_the_lobby_s_modules_and_data(client: TestClient) -> None:
    page = client.get("/").text
    static = static_dir()
    first = first_modules(static)
    assert first[0] == ENTRY_MODULE and len(set(first)) == len(first)
    # Every module the lobby needs is preloaded, each once; the other views are not.
    for module in first[1:]:
        assert page.count(f'<link rel="modulepreload" href="/static/{module}">') == 1
    assert "js/lobby.js" in first
    for later in ("js/table.js", "js/history.js", "js/room.js", "js/tutorial.js"):
        assert later not in first and later not in page
    assert '<link rel="preload" href="/api/presets" as="fetch" crossorigin>' in page
    # The preloads come before the entry script, which stays the only script.
    assert page.index("modulepreload") < page.index(f'src="/static/{ENTRY_MODULE}"')
    assert page.count("<script") == 1


def test_the_module_list_follows_static_imports_only(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text(
        'import { a } from "./a.js";\nimport "./side.js";\nconst later = () => import("./lazy.js");\n'
    )
    (tmp_path / "js" / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "js" / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    (tmp_path / "js" / "side.js").write_text("")
    assert first_modules(tmp_path) == ["js/main.js", "js/a.js", "js/side.js", "js/b.js"]
    assert "lazy" not in with_preloads('<script type="module" src="/static/js/main.js">', tmp_path)
