"""Players' profiles: made on first play, the cookie, names, seats, passkeys,
sign-out and deletion, and every hostile request refused precisely.

A refused request is a precise 4xx that stores nothing and changes nothing
(the rows of the profile tables are counted before and after). Each test runs
on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient

from passkey_authenticator import SoftPasskey, b64url
from pyrummy.server.profiles import PROFILE_COOKIE
from server_helpers import app_client, headers

PROFILE_TABLES = ("profiles", "profile_sessions", "profile_seats", "passkeys", "passkey_challenges")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> str | None:
    if request.param == "sqlite":
        return None
    from db_fixtures import fresh_postgres_database

    url: str = fresh_postgres_database(request.getfixturevalue("postgres_server"))
    return url


@pytest.fixture
def client(tmp_path: Path, db: str | None) -> Iterator[TestClient]:
    with app_client(tmp_path, database_url=db, bot_workers=0) as test_client:
        yield test_client


def rows(client: TestClient) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the profile tables (and the tables' seats), as stored."""
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        found: dict[str, list[tuple[Any, ...]]] = {}
        async with store.read() as connection:
            for name in (*PROFILE_TABLES, "tables"):
                result = await connection.execute(sqlalchemy.text(f"SELECT * FROM {name}"))
                found[name] = sorted(tuple(map(str, row)) for row in result)
        return found

    result: dict[str, list[tuple[Any, ...]]] = client.portal.call(read)  # type: ignore[union-attr]
    return result


def first_play(client: TestClient, name: str | None = None) -> dict[str, Any]:
    """A table against a bot (the browser's first play makes its profile)."""
    body: dict[str, Any] = {"bots": ["easy"]}
    if name is not None:
        body["name"] = name
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def me(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/profile")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text


def register(client: TestClient, passkey: SoftPasskey | None = None) -> SoftPasskey:
    passkey = passkey or SoftPasskey()
    options = client.post("/api/profile/passkeys/options").json()["publicKey"]
    answer = passkey.create(options)
    response = client.post("/api/profile/passkeys", json={"credential": answer, "label": "Phone"})
    assert response.status_code == 201, response.text
    return passkey


def sign_in_answer(client: TestClient, passkey: SoftPasskey, **spoil: Any) -> dict[str, Any]:
    options = client.post("/api/profile/signin/options").json()["publicKey"]
    return passkey.get(options, **spoil)


# -- made on first play, the cookie -----------------------------------------------------
def test_the_first_play_makes_a_profile_with_a_long_lived_httponly_lax_cookie(
    client: TestClient,
) -> None:
    refused(client.get("/api/profile"), 404, "profile.none")
    response = client.post("/api/tables", json={"bots": ["easy"], "name": "Anna"})
    assert response.status_code == 201
    cookie = next(
        c for c in response.headers.get_list("set-cookie") if c.startswith(PROFILE_COOKIE)
    )
    parts = {p.strip().split("=")[0].lower(): p.strip() for p in cookie.split(";")}
    assert "httponly" in parts and "secure" not in parts
    assert parts["samesite"].lower() == "samesite=lax" and parts["path"] == "Path=/"
    assert int(parts["max-age"].split("=")[1]) >= 300 * 24 * 3600
    profile = me(client)["profile"]
    assert profile["name"] == "Anna"
    # The secret is stored only as its digest.
    secret = client.cookies[PROFILE_COOKIE]
    stored = rows(client)
    assert secret not in str(stored)
    assert [row[1] for row in stored["profile_sessions"]] == [profile["id"]]
    # The same browser plays again as the same profile; the seat carries its name.
    table = first_play(client)
    assert table["table"]["seats"][0]["name"] == "Anna"
    assert len(rows(client)["profiles"]) == 1
    assert {row[2] for row in rows(client)["profile_seats"]} == {profile["id"]}


def test_a_cookie_is_secure_when_the_server_says_so(tmp_path: Path) -> None:
    with app_client(tmp_path, secure_cookies=True, bot_workers=0) as client:
        response = client.post("/api/tables", json={"bots": ["easy"]})
        cookie = next(
            c for c in response.headers.get_list("set-cookie") if c.startswith(PROFILE_COOKIE)
        )
        assert "secure" in cookie.lower()


def test_a_refused_table_makes_no_profile(client: TestClient) -> None:
    before = rows(client)
    for body in ({"preset": "nope"}, {"bots": ["nobody"]}, {"name": "a\nb"}, {"name": "x" * 25}):
        response = client.post("/api/tables", json=body)
        assert 400 <= response.status_code < 500, response.text
        assert PROFILE_COOKIE not in response.cookies
    assert rows(client) == before


# -- names ------------------------------------------------------------------------------
def test_a_name_is_changed_and_validated_as_names_are(client: TestClient) -> None:
    first_play(client)
    renamed = client.put("/api/profile", json={"name": "  Boris  "})
    assert renamed.status_code == 200 and renamed.json()["profile"]["name"] == "Boris"
    before = rows(client)
    for name in ("", " ", "x" * 25, "a<b", 'a"b', "a,b", "a\u0000b", "a\u202eb", "[x]"):
        response = client.put("/api/profile", json={"name": name})
        assert response.status_code == 422, (name, response.text)
    for body in ({"name": 7}, {"name": "Ok", "admin": True}, {}):
        assert client.put("/api/profile", json=body).status_code == 422
    assert rows(client) == before
    assert me(client)["profile"]["name"] == "Boris"


def test_without_a_profile_nothing_is_changed(client: TestClient) -> None:
    before = rows(client)
    refused(client.put("/api/profile", json={"name": "Anna"}), 404, "profile.none")
    refused(client.post("/api/profile/signout"), 404, "profile.none")
    refused(client.delete("/api/profile"), 404, "profile.none")
    refused(client.post("/api/profile/passkeys/options"), 404, "profile.none")
    refused(client.get("/api/profile/passkeys"), 404, "profile.none")
    assert rows(client) == before


# -- hostile cookies ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "forged", ["x", "A" * 43, "A" * 65, "' OR 1=1 --", "%00", "a.b.c", "%C3%BCn%C3%AFcode"]
)
def test_a_forged_cookie_signs_nobody_in(client: TestClient, forged: str) -> None:
    first_play(client)
    before = rows(client)
    client.cookies.clear()
    client.cookies.set(PROFILE_COOKIE, forged)
    refused(client.get("/api/profile"), 404, "profile.none")
    refused(client.put("/api/profile", json={"name": "Mallory"}), 404, "profile.none")
    refused(client.delete("/api/profile"), 404, "profile.none")
    assert rows(client) == before


def test_a_signed_out_cookie_replayed_signs_nobody_in(client: TestClient) -> None:
    first_play(client, "Anna")
    secret = client.cookies[PROFILE_COOKIE]
    response = client.post("/api/profile/signout")
    assert response.status_code == 200
    assert PROFILE_COOKIE not in client.cookies
    refused(client.get("/api/profile"), 404, "profile.none")
    client.cookies.set(PROFILE_COOKIE, secret)
    refused(client.get("/api/profile"), 404, "profile.none")
    # Playing again makes a new profile: the old one is not taken over.
    client.cookies.clear()
    first_play(client)
    assert me(client)["profile"]["name"] is None


# -- seats ------------------------------------------------------------------------------
def make_room(client: TestClient, name: str = "Anna") -> dict[str, Any]:
    response = client.post(
        "/api/rooms",
        json={"seats": [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}], "name": name},
    )
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def test_one_profile_sits_at_most_once_in_a_room(client: TestClient) -> None:
    made = make_room(client)
    code, creator_token = made["room"]["code"], made["token"]
    anna = me(client)["profile"]["id"]
    secret = client.cookies[PROFILE_COOKIE]
    # Anna's second browser: signed in to her profile, no seat token of the room.
    client.cookies.clear()
    client.cookies.set(PROFILE_COOKIE, secret)
    before = rows(client)
    response = client.post(f"/api/rooms/{code}/join", json={"name": "Anna2"})
    refused(response, 409, "profile.already_seated")
    assert "seat 1" in response.json()["error"]["message"]
    assert rows(client) == before
    # Boris and Vera (their own browsers) sit; the started table knows who sat where.
    seated = {}
    for name in ("Boris", "Vera"):
        client.cookies.clear()
        joined = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        seated[joined.json()["seat"]] = me(client)["profile"]["id"]
    client.cookies.clear()
    started = client.post(f"/api/rooms/{code}/start", headers=headers(creator_token))
    assert started.status_code == 200, started.text
    table_id = started.json()["table_id"]
    profiles = client.app.state.services.profiles  # type: ignore[attr-defined]
    at_table = client.portal.call(profiles.seated_at, table_id)  # type: ignore[union-attr]
    assert at_table == {0: anna, **seated}
    live = client.app.state.services.tables.tables[table_id]  # type: ignore[attr-defined]
    assert [s.profile for s in live.spec.seats] == [anna, seated[1], seated[2]]


def test_the_store_refuses_a_profile_twice_at_one_table(client: TestClient) -> None:
    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import new_table_spec

    first_play(client)
    anna = me(client)["profile"]["id"]
    twice = [SeatSpec("human", None, "A", anna), SeatSpec("human", None, "B", anna)]
    spec = new_table_spec("knock", {}, twice, 0.0)
    before = rows(client)
    store = client.app.state.services.store  # type: ignore[attr-defined]
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        client.portal.call(store.create_table, spec, [None, None])  # type: ignore[union-attr]
    assert rows(client) == before


# -- finished matches and statistics -----------------------------------------------------------
def test_finished_matches_and_statistics_are_kept_per_game(client: TestClient) -> None:
    tokens = []
    for preset in ("knock", "knock", "gin"):
        created = client.post("/api/tables", json={"preset": preset, "bots": ["easy"]}).json()
        tokens.append((created["table"]["id"], created["token"]))
    for table_id, token in tokens[:2]:
        assert (
            client.post(f"/api/tables/{table_id}/resign", headers=headers(token)).status_code == 200
        )
    profile = me(client)
    assert profile["statistics"] == [
        {"preset": "knock", "played": 2, "won": 0, "points": profile["statistics"][0]["points"]}
    ]
    assert [m["table"] for m in profile["matches"]] == [t for t, _ in reversed(tokens[:2])]
    assert all(m["resigned"] and not m["won"] and m["seat"] == 0 for m in profile["matches"])
    # Another browser's matches are not this profile's.
    client.cookies.clear()
    first_play(client)
    assert me(client)["statistics"] == [] and me(client)["matches"] == []


# -- passkeys ---------------------------------------------------------------------------------
def test_a_passkey_signs_another_browser_in_to_the_same_profile(client: TestClient) -> None:
    first_play(client, "Anna")
    anna = me(client)["profile"]
    passkey = register(client)
    listed = client.get("/api/profile/passkeys").json()
    assert listed["available"] and listed["rp_id"] == "testserver"
    assert [(p["id"], p["label"]) for p in listed["passkeys"]] == [
        (b64url(passkey.credential_id), "Phone")
    ]
    # Another browser that has played as someone else.
    client.cookies.clear()
    first_play(client, "Other")
    other_secret = client.cookies[PROFILE_COOKIE]
    response = client.post(
        "/api/profile/signin", json={"credential": sign_in_answer(client, passkey)}
    )
    assert response.status_code == 200, response.text
    assert response.json()["profile"]["id"] == anna["id"]
    assert client.cookies[PROFILE_COOKIE] != other_secret
    assert me(client)["profile"] == anna
    # The replaced cookie no longer signs in the other profile here.
    client.cookies.set(PROFILE_COOKIE, other_secret)
    refused(client.get("/api/profile"), 404, "profile.none")


def test_a_passkey_is_removed_and_another_profiles_is_not(client: TestClient) -> None:
    first_play(client, "Anna")
    anna_key = register(client)
    anna_secret = client.cookies[PROFILE_COOKIE]
    client.cookies.clear()
    first_play(client, "Boris")
    before = rows(client)
    refused(
        client.delete(f"/api/profile/passkeys/{b64url(anna_key.credential_id)}"),
        404,
        "passkey.not_found",
    )
    refused(client.delete("/api/profile/passkeys/nothing"), 404, "passkey.not_found")
    assert rows(client) == before
    client.cookies.clear()
    client.cookies.set(PROFILE_COOKIE, anna_secret)
    assert (
        client.delete(f"/api/profile/passkeys/{b64url(anna_key.credential_id)}").status_code == 200
    )
    assert client.get("/api/profile/passkeys").json()["passkeys"] == []
    client.cookies.clear()
    refused(
        client.post("/api/profile/signin", json={"credential": sign_in_answer(client, anna_key)}),
        404,
        "passkey.unknown",
    )


def test_a_registration_answer_is_used_once(client: TestClient) -> None:
    first_play(client)
    options = client.post("/api/profile/passkeys/options").json()["publicKey"]
    answer = SoftPasskey().create(options)
    assert client.post("/api/profile/passkeys", json={"credential": answer}).status_code == 201
    before = rows(client)
    refused(
        client.post("/api/profile/passkeys", json={"credential": answer}),
        400,
        "passkey.challenge_bad",
    )
    assert rows(client) == before


def test_an_expired_challenge_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_play(client)
    import pyrummy.server.passkeys as passkeys

    monkeypatch.setattr(passkeys, "CHALLENGE_TTL", 0.05)
    options = client.post("/api/profile/passkeys/options").json()["publicKey"]
    time.sleep(0.1)
    answer = SoftPasskey().create(options)
    refused(
        client.post("/api/profile/passkeys", json={"credential": answer}),
        400,
        "passkey.challenge_bad",
    )
    signin = client.post("/api/profile/signin/options").json()["publicKey"]
    time.sleep(0.1)
    assert rows(client)["passkeys"] == []
    refused(
        client.post(
            "/api/profile/signin",
            json={"credential": SoftPasskey().get(signin, rp_id="testserver")},
        ),
        400,
        "passkey.challenge_bad",
    )


def test_a_challenge_of_another_profile_or_purpose_is_refused(client: TestClient) -> None:
    first_play(client, "Anna")
    anna_options = client.post("/api/profile/passkeys/options").json()["publicKey"]
    client.cookies.clear()
    first_play(client, "Mallory")
    before = rows(client)
    answer = SoftPasskey().create(anna_options)
    refused(
        client.post("/api/profile/passkeys", json={"credential": answer}),
        400,
        "passkey.challenge_bad",
    )
    # A sign-in challenge does not register a passkey.
    signin = client.post("/api/profile/signin/options").json()["publicKey"]
    wrong = SoftPasskey().create({**anna_options, "challenge": signin["challenge"]})
    refused(
        client.post("/api/profile/passkeys", json={"credential": wrong}),
        400,
        "passkey.challenge_bad",
    )
    assert rows(client)["passkeys"] == before["passkeys"] == []


def test_an_answer_for_another_site_is_refused_and_its_challenge_spent(client: TestClient) -> None:
    first_play(client)
    options = client.post("/api/profile/passkeys/options").json()["publicKey"]
    passkey = SoftPasskey()
    phished = passkey.create(options, origin="https://evil.example")
    refused(
        client.post("/api/profile/passkeys", json={"credential": phished}),
        400,
        "passkey.bad_answer",
    )
    honest = passkey.create(options)
    refused(
        client.post("/api/profile/passkeys", json={"credential": honest}),
        400,
        "passkey.challenge_bad",
    )
    assert rows(client)["passkeys"] == []


@pytest.mark.parametrize(
    "credential",
    [{}, {"response": {}}, {"response": {"clientDataJSON": "!!"}}, {"id": 1, "response": "x"}],
)
def test_a_malformed_answer_is_refused(client: TestClient, credential: dict[str, Any]) -> None:
    first_play(client)
    before = rows(client)
    refused(
        client.post("/api/profile/passkeys", json={"credential": credential}),
        400,
        "passkey.bad_answer",
    )
    refused(
        client.post("/api/profile/signin", json={"credential": credential}),
        400,
        "passkey.bad_answer",
    )
    assert rows(client) == before


def test_signing_in_with_an_unknown_or_forged_passkey_is_refused(client: TestClient) -> None:
    first_play(client, "Anna")
    anna_key = register(client)
    anna = me(client)["profile"]
    client.cookies.clear()
    first_play(client, "Mallory")
    mallory_secret = client.cookies[PROFILE_COOKIE]
    before = rows(client)
    # A credential nobody registered here.
    refused(
        client.post(
            "/api/profile/signin", json={"credential": sign_in_answer(client, SoftPasskey())}
        ),
        404,
        "passkey.unknown",
    )
    # Anna's credential id, signed with Mallory's own key.
    forged = SoftPasskey(credential_id=anna_key.credential_id, user_handle=anna_key.user_handle)
    refused(
        client.post(
            "/api/profile/signin",
            json={"credential": sign_in_answer(client, forged, rp_id="testserver")},
        ),
        400,
        "passkey.bad_answer",
    )
    # Anna's real answer (in her own browser) replayed: its challenge is spent.
    client.cookies.clear()
    answer = sign_in_answer(client, anna_key)
    assert client.post("/api/profile/signin", json={"credential": answer}).status_code == 200
    client.cookies.clear()
    client.cookies.set(PROFILE_COOKIE, mallory_secret)
    refused(
        client.post("/api/profile/signin", json={"credential": answer}),
        400,
        "passkey.challenge_bad",
    )
    assert me(client)["profile"]["name"] == "Mallory"
    assert anna["id"] != me(client)["profile"]["id"]
    assert len(rows(client)["passkeys"]) == len(before["passkeys"]) == 1


def test_passkeys_need_a_domain_not_an_ip_address(tmp_path: Path) -> None:
    with app_client(tmp_path, bot_workers=0) as client:
        client.base_url = "http://127.0.0.1:8000"
        first_play(client)
        assert client.get("/api/profile/passkeys").json()["available"] is False
        before = rows(client)
        refused(client.post("/api/profile/passkeys/options"), 400, "passkey.not_here")
        refused(client.post("/api/profile/signin/options"), 400, "passkey.not_here")
        assert rows(client) == before


def test_the_relying_party_comes_from_the_settings(tmp_path: Path) -> None:
    with app_client(
        tmp_path,
        bot_workers=0,
        passkey_rp_id="example.org",
        passkey_origins=("https://example.org",),
    ) as client:
        first_play(client)
        options = client.post("/api/profile/passkeys/options").json()["publicKey"]
        assert options["rp"]["id"] == "example.org"
        # The page's own origin (testserver) is not an origin of the site.
        answer = SoftPasskey().create(options)
        refused(
            client.post("/api/profile/passkeys", json={"credential": answer}),
            400,
            "passkey.bad_answer",
        )
        options = client.post("/api/profile/passkeys/options").json()["publicKey"]
        answer = SoftPasskey().create(options, origin="https://example.org")
        assert client.post("/api/profile/passkeys", json={"credential": answer}).status_code == 201


# -- deletion ---------------------------------------------------------------------------------
def test_a_deleted_profile_is_anonymised_and_its_matches_stay(client: TestClient) -> None:
    created = first_play(client, "Anna")
    table_id, token = created["table"]["id"], created["token"]
    assert client.post(f"/api/tables/{table_id}/resign", headers=headers(token)).status_code == 200
    playing = first_play(client)
    live, live_token = playing["table"]["id"], playing["token"]
    passkey = register(client)
    secret = client.cookies[PROFILE_COOKIE]
    anna = me(client)["profile"]["id"]
    # A second browser signed in to Anna's profile.
    client.cookies.clear()
    assert (
        client.post(
            "/api/profile/signin", json={"credential": sign_in_answer(client, passkey)}
        ).status_code
        == 200
    )
    second = client.cookies[PROFILE_COOKIE]
    response = client.delete("/api/profile")
    assert response.status_code == 200 and PROFILE_COOKIE not in client.cookies
    stored = rows(client)
    assert stored["profile_sessions"] == stored["passkeys"] == stored["profile_seats"] == []
    assert [row[1] for row in stored["profiles"]] == ["None"]
    assert anna not in str(stored["tables"]) and "Anna" not in str(stored["tables"])
    for cookie in (secret, second):
        client.cookies.clear()
        client.cookies.set(PROFILE_COOKIE, cookie)
        refused(client.get("/api/profile"), 404, "profile.none")
        refused(client.delete("/api/profile"), 404, "profile.none")
    client.cookies.clear()
    refused(
        client.post("/api/profile/signin", json={"credential": sign_in_answer(client, passkey)}),
        404,
        "passkey.unknown",
    )
    # The finished match stays, as "Player 1"; the live table plays on without the name.
    listed = client.get("/api/matches").json()
    finished = next(m for m in listed["matches"] if m["id"] == table_id)
    assert finished["seats"][0]["name"] == "Player 1"
    assert client.get(f"/api/tables/{live}").json()["seats"][0]["name"] == "Player 1"
    seen = client.get(f"/api/tables/{live}/state", headers=headers(live_token))
    assert seen.status_code == 200, seen.text
