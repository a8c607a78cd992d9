"""The JSON API of the web game: every endpoint, and every kind of bad input.

Bad input always gets a 4xx with a message and changes nothing: after each
refused request the table's state (as its seats see it) is exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from pyrummy.core.cards import parse_card
from pyrummy.core.melds import explain_meld
from pyrummy.core.rules import find_rules
from pyrummy.server import Settings, create_app
from pyrummy.server.storage import Store
from server_helpers import act, app_client, create, headers, state, wait_for


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def two_people(client: TestClient, preset: str = "knock", **options: Any) -> dict[str, Any]:
    """A table of two people (no bots), so every step is the test's to take."""
    return create(client, preset=preset, bots=[], humans=2, options=options)


def seat_tokens(created: dict[str, Any]) -> dict[int, str]:
    return {entry["seat"]: entry["token"] for entry in created["tokens"]}


def to_play(client: TestClient, table_id: str, tokens: dict[int, str]) -> tuple[int, str]:
    current = state(client, table_id, tokens[0])["observation"]["current_seat"]
    return current, tokens[current]


def snapshot(client: TestClient, table_id: str, tokens: dict[int, str]) -> list[dict[str, Any]]:
    return [state(client, table_id, token) for token in tokens.values()]


# -- meta and the page --------------------------------------------------------------------


def test_presets_lists_every_game_and_the_bots(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    names = [p["name"] for p in data["presets"]]
    assert names == [
        "knock",
        "knock-target",
        "rummy",
        "basic",
        "block",
        "rotham",
        "gin",
        "gin-standard",
        "gin-openspiel",
    ]
    gin = next(p for p in data["presets"] if p["name"] == "gin")
    assert (gin["min_players"], gin["max_players"]) == (2, 2)
    assert set(data["bots"]) == {"easy", "medium", "hard", "random", "learned"}
    # Every bot plays every game but the learned one, which plays where its weights ship.
    assert {name for name, games in data["bot_games"].items() if games is not None} == {"learned"}


def test_page_static_files_and_openapi_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert (
        page.status_code == 200 and '<script type="module" src="/static/js/main.js">' in page.text
    )
    for name in ("js/main.js", "js/table.js", "js/cards.js", "js/i18n.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200, name
    spec = client.get("/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/actions", "/api/matches/{table_id}/replay"):
        assert path in spec["paths"]
    # /docs would load Swagger's script from a CDN: /api is the reference.
    assert client.get("/docs").status_code == 404
    reference = client.get("/api")
    assert reference.status_code == 200 and "<script" not in reference.text
    assert "POST /api/tables/{table_id}/actions" in reference.text
    assert "X-Seat-Token" in reference.text


def test_unknown_paths_are_json_404(client: TestClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404
    assert "/api/nothing-here" in response.json()["error"]["message"]


# -- creating tables ---------------------------------------------------------------------------


def test_create_returns_token_cookie_and_own_state_only(client: TestClient) -> None:
    response = client.post("/api/tables", json={"preset": "knock", "bots": ["easy", "medium"]})
    assert response.status_code == 201
    data = response.json()
    table_id = data["table"]["id"]
    cookie = response.headers["set-cookie"]
    assert f"pyrummy_seat_{table_id}=" in cookie and "httponly" in cookie.lower()
    assert data["seat"] == 0 and data["token"]
    observation = data["state"]["observation"]
    assert observation["seat"] == 0 and len(observation["hand"]) == 7
    assert "seed" not in str(data).lower()
    assert [s["kind"] for s in data["table"]["seats"]] == ["human", "bot", "bot"]


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"preset": "canasta"}, 400, "canasta"),
        ({"preset": "gin", "bots": ["easy", "easy"]}, 400, "gin is for 2-2 players"),
        ({"preset": "knock", "bots": ["genius"]}, 422, "bots.0"),
        ({"preset": "knock", "options": {"colour": "red"}}, 400, "colour"),
        ({"preset": "knock", "options": {"target": -5}}, 400, "target"),
        ({"preset": "knock", "bots": [], "humans": 1}, 400, "not 1"),
        ({"preset": "knock", "seats": 3}, 422, "seats"),
        ({"preset": "knock", "humans": "one"}, 422, "humans"),
        ({"preset": "knock", "bot_delay": 99}, 422, "bot_delay"),
    ],
)
def test_create_refuses_bad_tables(
    client: TestClient, body: dict[str, Any], status: int, fragment: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status, response.text
    assert fragment in response.json()["error"]["message"]
    assert client.get("/api/matches?status=all").json()["total"] == 0


# -- seats, tokens and turns -------------------------------------------------------------------


def test_token_by_header_bearer_and_cookie(client: TestClient) -> None:
    created = client.post("/api/tables", json={"bots": [], "humans": 2}).json()
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    by_header = client.get(f"/api/tables/{table_id}/state", headers={"X-Seat-Token": tokens[1]})
    assert by_header.json()["seat"] == 1
    bearer = {"Authorization": f"Bearer {tokens[1]}"}
    assert client.get(f"/api/tables/{table_id}/state", headers=bearer).json()["seat"] == 1
    # The cookie set by the create call names seat 0 (the first person).
    assert client.get(f"/api/tables/{table_id}/state").json()["seat"] == 0
    client.cookies.clear()
    spectator = client.get(f"/api/tables/{table_id}/state").json()
    assert spectator["seat"] is None and spectator["observation"]["hand"] == []
    assert spectator["legal_actions"] == [] and spectator["arrangement"] is None


def test_wrong_missing_token_and_out_of_turn_change_nothing(client: TestClient) -> None:
    created = two_people(client)
    client.cookies.clear()
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    seat, token = to_play(client, table_id, tokens)
    other = tokens[1 - seat]
    before = snapshot(client, table_id, tokens)

    missing = act(client, table_id, None, "draw stock")
    assert missing.status_code == 401 and "token" in missing.json()["error"]["message"]
    wrong = act(client, table_id, "not-a-real-token", "draw stock")
    assert wrong.status_code == 403
    out_of_turn = act(client, table_id, other, "draw stock")
    assert out_of_turn.status_code == 409
    assert f"player {seat + 1} is to play" in out_of_turn.json()["error"]["message"]
    assert snapshot(client, table_id, tokens) == before
    # The token of one table does not open another.
    elsewhere = two_people(client)["table"]["id"]
    assert act(client, elsewhere, token, "draw stock").status_code == 403


def test_bad_actions_of_every_kind_change_nothing(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    _, token = to_play(client, table_id, tokens)
    before = snapshot(client, table_id, tokens)
    url = f"/api/tables/{table_id}/actions"
    auth = headers(token)

    cases = [
        (
            client.post(
                url, content=b"{not json", headers=auth | {"Content-Type": "application/json"}
            ),
            400,
        ),
        (client.post(url, json={"action": "draw stock", "extra": 1}, headers=auth), 422),
        (client.post(url, json={"action": 5}, headers=auth), 422),
        (client.post(url, json={}, headers=auth), 422),
        (client.post(url, json={"action": "x" * 201}, headers=auth), 422),
        (client.post(url, json=["draw stock"], headers=auth), 422),
        (act(client, table_id, token, "discard 1X"), 400),
        (act(client, table_id, token, "fly to the moon"), 400),
        (act(client, table_id, token, "discard 7H"), 409),
        (act(client, table_id, token, "knock"), 400),
        (act(client, table_id, token, "undo"), 409),
        (client.post(url, json={"action": "draw stock", "seq": 7}, headers=auth), 409),
        (client.post(url, content=b"{" + b" " * 20000 + b"}", headers=auth), 413),
    ]
    for response, status in cases:
        assert response.status_code == status, (response.status_code, response.text)
        message = response.json()["error"]["message"]
        assert message and len(message) < 500
    assert snapshot(client, table_id, tokens) == before
    unknown_card = act(client, table_id, token, "discard 1X").json()["error"]["message"]
    assert "1X" in unknown_card


def test_illegal_action_message_comes_in_the_request_language(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    _, token = to_play(client, table_id, tokens)
    english = act(client, table_id, token, "discard 7H").json()["error"]["message"]
    russian = act(client, table_id, token, "discard 7H", lang="ru").json()["error"]["message"]
    assert english != russian
    assert any("а" <= ch <= "я" for ch in russian)
    query = client.post(
        f"/api/tables/{table_id}/actions?lang=ru",
        json={"action": "discard 7H"},
        headers={"X-Seat-Token": token},
    )
    assert query.json()["error"]["message"] == russian


def test_legal_action_advances_and_is_numbered(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    seat, token = to_play(client, table_id, tokens)
    response = act(client, table_id, token, "draw stock")
    assert response.status_code == 200
    after = response.json()
    assert after["seq"] == 1 and after["observation"]["drawn_card"] in after["observation"]["hand"]
    assert any(a.startswith("knock ") for a in after["legal_actions"])
    assert set(after["knock_deadwood"]) == {
        a.split()[1] for a in after["legal_actions"] if a.startswith("knock")
    }
    # The other seat sees the count, not the card.
    other = state(client, table_id, tokens[1 - seat])
    assert other["observation"]["drawn_card"] is None
    assert after["observation"]["drawn_card"] not in other["observation"]["hand"]


def test_arrangement_is_the_solvers_for_the_own_hand(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    data = state(client, table_id, seat_tokens(created)[0])
    arrangement = data["arrangement"]
    hand = set(data["observation"]["hand"])
    in_melds = {card for meld in arrangement["melds"] for card in meld}
    assert in_melds | set(arrangement["deadwood_cards"]) == hand
    rules = find_rules("knock")
    values = sum(min(parse_card(c).index % 13 + 1, 10) for c in arrangement["deadwood_cards"])
    assert arrangement["deadwood"] == values
    for meld in arrangement["melds"]:
        assert explain_meld(" ".join(meld), rules) is None


# -- a whole deal, the showdown and the match end ------------------------------------------------


def play_knock_deal(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    _, token = to_play(client, table_id, tokens)
    drawn = act(client, table_id, token, "draw stock").json()
    knock = next(a for a in drawn["legal_actions"] if a.startswith("knock"))
    response = act(client, table_id, token, knock)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_deal_end_reveals_hands_and_waits_for_people(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    after = play_knock_deal(client, table_id, tokens)
    assert after["match"]["deals_played"] == 1 and not after["match"]["over"]
    last = after["last_deal"]["observation"]
    assert last["is_over"] and last["knock_card"] and len(last["revealed_hands"]) == 2
    assert last["settlement"]["outcome"] in {
        "rum",
        "knocker-lowest",
        "knocker-tied",
        "knocker-beaten",
    }
    assert after["awaiting_continue"] is True
    continued = client.post(f"/api/tables/{table_id}/continue", headers=headers(tokens[0]))
    assert continued.status_code == 200 and continued.json()["awaiting_continue"] is False
    client.cookies.clear()
    assert client.post(f"/api/tables/{table_id}/continue").status_code == 401


def test_finished_match_is_listed_replayed_and_recorded(client: TestClient) -> None:
    created = two_people(client, match_end="deals", deals=1)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    assert client.get(f"/api/matches/{table_id}/replay").status_code == 409
    final = play_knock_deal(client, table_id, tokens)
    assert final["match"]["over"] and final["table"]["status"] == "over"
    assert "Seed" in final["record"] or "seed" in final["record"].lower()
    assert act(client, table_id, tokens[0], "draw stock").status_code == 409

    listed = client.get("/api/matches").json()
    assert listed["total"] == 1 and listed["matches"][0]["id"] == table_id
    assert listed["matches"][0]["result"]["totals"] == final["match"]["totals"]

    start = client.get(f"/api/matches/{table_id}/replay?step=0").json()
    assert start["steps"] == 2 and start["action"] is None
    assert all(len(hand) == 10 for hand in start["hands"])
    end = client.get(f"/api/matches/{table_id}/replay").json()
    assert end["step"] == 2 and end["observation"]["settlement"] is not None
    assert end["action"]["text"].startswith("knock ")
    assert client.get(f"/api/matches/{table_id}/replay?step=3").status_code == 400
    assert client.get(f"/api/matches/{table_id}/replay?step=-1").status_code == 422
    record = client.get(f"/api/matches/{table_id}/record")
    assert record.status_code == 200 and end["action"]["text"] in record.text
    assert client.get("/api/matches/nope/replay").status_code == 404


def test_list_pages_and_filters(client: TestClient) -> None:
    for _ in range(3):
        two_people(client)
    assert client.get("/api/matches").json()["total"] == 0
    live = client.get("/api/matches?status=live&limit=2").json()
    assert live["total"] == 3 and len(live["matches"]) == 2
    assert client.get("/api/matches?status=bogus").status_code == 422
    assert client.get("/api/matches?limit=0").status_code == 422


def test_the_matches_total_counts_a_bounded_window(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The total counts at most COUNT_WINDOW rows past the page: a request's
    cost does not grow with the whole history, and the page knows there is more."""
    import pyrummy.server.api.matches as app_module

    for _ in range(4):
        two_people(client)
    monkeypatch.setattr(app_module, "COUNT_WINDOW", 1)
    first = client.get("/api/matches?status=live&limit=1").json()
    assert first["total"] == 2 and first["total_exact"] is False
    assert len(first["matches"]) == 1
    last = client.get("/api/matches?status=live&limit=2&offset=2").json()
    assert last["total"] == 4 and last["total_exact"] is True


# -- events -------------------------------------------------------------------------------------------


def test_missed_events_hide_the_knock_card_from_others(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    seat, _ = to_play(client, table_id, tokens)
    play_knock_deal(client, table_id, tokens)
    mine = client.get(
        f"/api/tables/{table_id}/events?since=0", headers=headers(tokens[seat])
    ).json()
    theirs = client.get(
        f"/api/tables/{table_id}/events?since=0", headers=headers(tokens[1 - seat])
    ).json()
    assert [e["seq"] for e in mine["events"]] == [1, 2]
    assert mine["events"][1]["action"].startswith("knock ")
    assert theirs["events"][1]["action"] == "knock"
    later = client.get(f"/api/tables/{table_id}/events?since=1", headers=headers(tokens[0])).json()
    assert [e["seq"] for e in later["events"]] == [2]
    future = client.get(f"/api/tables/{table_id}/events?since=99", headers=headers(tokens[0]))
    assert future.json()["events"] is None and future.json()["seq"] == 2


def test_websocket_streams_numbered_events_and_catches_up(client: TestClient) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    seat, token = to_play(client, table_id, tokens)
    with client.websocket_connect(
        f"/api/tables/{table_id}/ws?since=0", headers=headers(token)
    ) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seq"] == 0 and first["state"]["seat"] == seat
        act(client, table_id, token, "draw stock")
        event = ws.receive_json()
        assert event["type"] == "event" and event["seq"] == 1 and event["action"] == "draw stock"
        assert event["state"]["seq"] == 1 and event["state"]["seat"] == seat
    other = tokens[1 - seat]
    with client.websocket_connect(
        f"/api/tables/{table_id}/ws?since=0", subprotocols=["pyrummy", f"pyrummy.token.{other}"]
    ) as ws:
        assert ws.accepted_subprotocol == "pyrummy"
        missed = ws.receive_json()
        assert missed == {
            "type": "event",
            "seq": 1,
            "seat": seat,
            "action": "draw stock",
            "kind": "draw_stock",
        }
        resync = ws.receive_json()
        assert resync["type"] == "state" and resync["seq"] == 1 and resync["resync"] is False
        assert resync["state"]["observation"]["drawn_card"] is None
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/api/tables/{table_id}/ws", headers=headers("bad")),
    ):
        pass
    assert refused.value.code == 4403


# -- settings, meld explanations, bots ------------------------------------------------------------


def test_settings_need_a_seat_and_are_stored(client: TestClient) -> None:
    created = create(client, preset="knock", bots=["easy"], bot_delay=0)
    table_id = created["table"]["id"]
    url = f"/api/tables/{table_id}/settings"
    assert (
        client.put(url, json={"bot_delay": 1.5}, headers=headers(created["token"])).status_code
        == 200
    )
    assert client.get(f"/api/tables/{table_id}").json()["bot_delay"] == 1.5
    client.cookies.clear()
    assert client.put(url, json={"bot_delay": 1}).status_code == 401
    assert (
        client.put(url, json={"bot_delay": -1}, headers=headers(created["token"])).status_code
        == 422
    )


def test_explain_meld_in_both_languages(client: TestClient) -> None:
    table_id = two_people(client, preset="rummy")["table"]["id"]
    url = f"/api/tables/{table_id}/explain-meld"
    assert client.post(url, json={"cards": "7H 8H 9H"}).json() == {
        "valid": True,
        "explanation": None,
    }
    english = client.post(url, json={"cards": "5H 7H 8H"}).json()
    assert english["valid"] is False and "6♥" in english["explanation"]
    russian = client.post(url + "?lang=ru", json={"cards": "QH KH AH"}).json()["explanation"]
    assert russian == explain_meld("QH KH AH", find_rules("rummy"), "ru")
    assert client.post(url, json={"cards": "7H 8Z 9H"}).status_code == 400


def test_invalid_meld_attempt_is_explained_and_changes_nothing(client: TestClient) -> None:
    created = two_people(client, preset="rummy")
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    _, token = to_play(client, table_id, tokens)
    drawn = act(client, table_id, token, "draw stock").json()
    hand = drawn["observation"]["hand"]
    rules = find_rules("rummy")
    trio = next(
        f"{a} {b} {c}"
        for i, a in enumerate(hand)
        for j, b in enumerate(hand[i + 1 :], i + 1)
        for c in hand[j + 1 :]
        if explain_meld(f"{a} {b} {c}", rules) is not None
    )
    before = snapshot(client, table_id, tokens)
    for lang in ("en", "ru"):
        refused = act(client, table_id, token, f"meld {trio}", lang=lang)
        assert refused.status_code == 409
        assert refused.json()["error"]["message"] == explain_meld(trio, rules, lang)
    assert snapshot(client, table_id, tokens) == before


def test_bots_play_until_the_person_is_to_act(client: TestClient) -> None:
    created = create(client, preset="knock", bots=["random", "easy", "medium"], bot_delay=0)
    table_id = created["table"]["id"]
    token = created["token"]

    def my_turn_or_over() -> bool:
        data = state(client, table_id, token)
        if data["awaiting_continue"]:
            client.post(f"/api/tables/{table_id}/continue", headers=headers(token))
            return False
        return bool(data["legal_actions"]) or data["match"]["over"]

    for _ in range(6):
        wait_for(my_turn_or_over)
        data = state(client, table_id, token)
        if data["match"]["over"]:
            break
        act(client, table_id, token, data["legal_actions"][0])
    final = state(client, table_id, token)
    assert final["seq"] >= 6
    seats_that_acted = {seat for seat, _ in final["observation"]["history"]}
    assert seats_that_acted - {0} or final["match"]["deals_played"] > 0


# -- failures inside the server ------------------------------------------------------------------


def test_a_refused_write_changes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = two_people(client)
    table_id = created["table"]["id"]
    tokens = seat_tokens(created)
    _, token = to_play(client, table_id, tokens)
    before = snapshot(client, table_id, tokens)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Store, "append_action", disk_full)
    refused = act(client, table_id, token, "draw stock")
    assert refused.status_code == 503
    assert "nothing changed" in refused.json()["error"]["message"]
    assert snapshot(client, table_id, tokens) == before
    monkeypatch.undo()
    assert act(client, table_id, token, "draw stock").status_code == 200


class BrokenBot:
    name = "broken"

    def choose(self, observation: object, legal_actions: list[object]) -> object:
        raise RuntimeError("this bot always fails")


def test_a_failing_bot_does_not_freeze_the_table(tmp_path: Path) -> None:
    app = create_app(
        Settings(data_dir=tmp_path, bot_delay=0, allow_bot_only=True),
        bot_factory=lambda n, s: BrokenBot(),
    )
    with TestClient(app) as test_client:
        created = create(
            test_client,
            preset="knock",
            bots=["easy", "easy"],
            humans=0,
            bot_delay=0,
            options={"match_end": "deals", "deals": 1},
        )
        table_id = created["table"]["id"]
        wait_for(lambda: test_client.get(f"/api/tables/{table_id}").json()["status"] == "over")


# -- fuzzing: whatever arrives, a 4xx or a legal move, never a 500 -------------------------------

ACTION_WORDS = st.sampled_from(
    ["draw", "stock", "discard", "knock", "meld", "layoff", "undo", "decline", "swap-joker"]
)
CARD_WORDS = st.sampled_from(["7H", "10d", "X1", "1X", "ZZ", "♠7", "QS", "AS", "-1", "99"])


def test_fuzzed_actions_never_fail_the_server(tmp_path: Path) -> None:
    with app_client(tmp_path) as fuzz_client:

        @settings(max_examples=80, deadline=None)
        @given(
            text=st.one_of(
                st.text(max_size=40),
                st.lists(st.one_of(ACTION_WORDS, CARD_WORDS), min_size=1, max_size=5).map(" ".join),
            ),
            seq=st.one_of(st.none(), st.integers(min_value=-3, max_value=3)),
        )
        def one_request(text: str, seq: int | None) -> None:
            created = two_people(fuzz_client)
            table_id = created["table"]["id"]
            tokens = seat_tokens(created)
            _, token = to_play(fuzz_client, table_id, tokens)
            before = snapshot(fuzz_client, table_id, tokens)
            body: dict[str, Any] = {"action": text}
            if seq is not None:
                body["seq"] = seq
            response = fuzz_client.post(
                f"/api/tables/{table_id}/actions", json=body, headers=headers(token)
            )
            assert response.status_code in (200, 400, 409, 422), response.text
            if response.status_code != 200:
                assert response.json()["error"]["message"]
                assert snapshot(fuzz_client, table_id, tokens) == before
            else:
                assert response.json()["seq"] == 1

        one_request()
