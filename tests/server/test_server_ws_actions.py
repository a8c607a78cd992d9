"""A person's moves over the table's WebSocket (server/ws_actions.py).

The socket plays a move exactly as ``POST /api/tables/{id}/actions`` does:
the same answer (status, code, message) for the same bad input, nothing
changed after a refusal, the same rate limit bucket; a spectator's socket
never acts; junk is refused and, repeated, closes the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pyrummy.server.settings import RateLimits
from pyrummy.server.ws_actions import MAX_MESSAGE, MAX_REFUSALS, POLICY_CLOSE
from server_helpers import app_client, create, headers, state

_ids = itertools.count(1)


def two_people(client: TestClient) -> tuple[str, list[str]]:
    """A table of two people (nothing moves by itself): its id and tokens."""
    created = create(client, preset="knock", bots=[], humans=2, seed=3)
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    return created["table"]["id"], tokens


def to_move(client: TestClient, table_id: str, tokens: list[str]) -> int:
    """The seat whose turn it is."""
    return next(seat for seat in (0, 1) if state(client, table_id, tokens[seat])["legal_actions"])


@contextlib.contextmanager
def socket(client: TestClient, table_id: str, token: str | None, lang: str = "en") -> Iterator[Any]:
    """The table's socket, read up to its first snapshot."""
    with client.websocket_connect(
        f"/api/tables/{table_id}/ws?since=0&lang={lang}", headers=headers(token, lang)
    ) as ws:
        while ws.receive_json()["type"] != "state":
            pass
        yield ws


def answer(ws: Any, message: Any, raw: bool = False) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Send ``message``; the ack or error, and what came before it."""
    if raw:
        ws.send_text(message) if isinstance(message, str) else ws.send_bytes(message)
    else:
        ws.send_json(message)
    before: list[dict[str, Any]] = []
    while True:
        received = ws.receive_json()
        if received["type"] in ("ack", "error"):
            return received, before
        before.append(received)


def post(client: TestClient, table_id: str, token: str | None, body: Any, lang: str = "en") -> Any:
    return client.post(f"/api/tables/{table_id}/actions", json=body, headers=headers(token, lang))


def test_a_move_over_the_socket_is_played_and_acknowledged_after_its_event(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        table_id, tokens = two_people(client)
        mover = to_move(client, table_id, tokens)
        before = state(client, table_id, tokens[mover])
        with (
            socket(client, table_id, tokens[1 - mover]) as other,
            socket(client, table_id, tokens[mover]) as ws,
        ):
            action = next(a for a in before["legal_actions"] if a != "undo")
            request_id = next(_ids)
            reply, events = answer(
                ws, {"type": "act", "id": request_id, "action": action, "seq": 0}
            )
            assert reply == {"type": "ack", "id": request_id, "seq": 1}
            # The event (with the new state) came first, on the same socket.
            assert [e["seq"] for e in events if e["type"] == "event"] == [1]
            assert events[-1]["state"]["seq"] == 1
            # Every other socket got the event as usual.
            event = other.receive_json()
            assert event["type"] == "event" and event["seq"] == 1
        after = state(client, table_id, tokens[mover])
        assert after["seq"] == 1 and after != before


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_bad_move_gets_the_posts_answer_and_changes_nothing(tmp_path: Path, lang: str) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        table_id, tokens = two_people(client)
        mover = to_move(client, table_id, tokens)
        before = state(client, table_id, tokens[mover])
        legal = next(a for a in before["legal_actions"] if a != "undo")
        not_held = next(c for c in ("AS", "2C", "3D") if c not in before["observation"]["hand"])
        bad_moves: list[tuple[int, dict[str, Any]]] = [
            (mover, {"action": "discard 1X"}),  # not a card
            (mover, {"action": "fly away"}),  # no such action
            (mover, {"action": "discard " + not_held}),  # not in the hand
            (mover, {"action": "meld 2C 9H KD"}),  # not a meld (explained)
            (mover, {"action": legal, "seq": 5}),  # a stale number
            (1 - mover, {"action": legal}),  # not this seat's turn
            (mover, {"action": ""}),  # empty
            (mover, {"action": legal, "seq": -1}),
            (mover, {"action": legal, "seq": "0"}),
            (mover, {"action": legal, "extra": 1}),
            (mover, {"action": "x" * 201}),
        ]
        with contextlib.ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(socket(client, table_id, tokens[seat], lang))
                for seat in (0, 1)
            }
            refuse_alike(client, table_id, tokens, sockets, bad_moves, lang, before)


def refuse_alike(
    client: TestClient,
    table_id: str,
    tokens: list[str],
    sockets: dict[int, Any],
    bad_moves: list[tuple[int, dict[str, Any]]],
    lang: str,
    before: dict[str, Any],
) -> None:
    """Each bad move gets the same answer over the socket as by POST."""
    for seat, body in bad_moves:
        http = post(client, table_id, tokens[seat], body, lang)
        assert 400 <= http.status_code < 500, (body, http.text)
        expected = http.json()["error"]
        request_id = next(_ids)
        reply, _ = answer(sockets[seat], {"type": "act", "id": request_id} | body)
        assert reply == {
            "type": "error",
            "id": request_id,
            "status": http.status_code,
            "code": expected["code"],
            "message": expected["message"],
        }, body
        assert state(client, table_id, tokens[before["seat"]]) == before, body


def test_a_spectators_socket_never_acts(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        table_id, tokens = two_people(client)
        mover = to_move(client, table_id, tokens)
        before = state(client, table_id, tokens[mover])
        legal = next(a for a in before["legal_actions"] if a != "undo")
        client.cookies.clear()  # the creator's cookie would name seat 1
        with socket(client, table_id, None) as ws:
            for message in (
                {"type": "act", "id": 1, "action": legal, "seq": 0},
                {"type": "continue", "id": 2},
            ):
                reply, _ = answer(ws, message)
                assert reply["type"] == "error" and reply["id"] == message["id"]
                assert (reply["status"], reply["code"]) == (401, "seat.token_missing")
        assert state(client, table_id, tokens[mover]) == before


def test_junk_is_refused_and_repeated_junk_closes_the_socket(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        table_id, tokens = two_people(client)
        mover = to_move(client, table_id, tokens)
        before = state(client, table_id, tokens[mover])
        legal = next(a for a in before["legal_actions"] if a != "undo")
        junk: list[tuple[Any, int, str]] = [
            ("not json", 400, "request.bad_json"),
            ("[1, 2]", 422, "request.invalid"),
            ('{"type": "act", "action": "draw stock"}', 422, "request.invalid"),  # no id
            ('{"type": "act", "id": true, "action": "draw stock"}', 422, "request.invalid"),
            ('{"type": "shout", "id": 1}', 422, "request.invalid"),
            ('{"type": "continue", "id": 1, "seq": 0}', 422, "request.invalid"),
            (b'{"type": "continue", "id": 1}', 400, "request.bad_json"),  # binary
            (
                '{"type": "act", "id": 1, "action": "' + "x" * MAX_MESSAGE + '"}',
                413,
                "request.too_large",
            ),
        ]
        assert len(junk) < MAX_REFUSALS
        with socket(client, table_id, tokens[mover]) as ws:
            for message, status, code in junk:
                reply, _ = answer(ws, message, raw=True)
                assert (reply["type"], reply["status"], reply["code"]) == ("error", status, code)
                assert state(client, table_id, tokens[mover]) == before
            # A good move on the same socket still plays.
            reply, _ = answer(ws, {"type": "act", "id": 99, "action": legal, "seq": 0})
            assert reply["type"] == "ack"
            played = state(client, table_id, tokens[mover])
            for _ in range(MAX_REFUSALS - len(junk) - 1):
                reply, _ = answer(ws, "not json", raw=True)
                assert reply["code"] == "request.bad_json"
            ws.send_text("not json")
            assert ws.receive_json()["code"] == "request.bad_json"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == POLICY_CLOSE
        assert state(client, table_id, tokens[mover]) == played


def test_moves_over_the_socket_count_in_the_clients_action_limit(tmp_path: Path) -> None:
    limits = RateLimits(create=None, act="4/minute", connect=None)
    with app_client(tmp_path, allow_seed=True, rate_limits=limits) as client:
        table_id, tokens = two_people(client)
        mover = to_move(client, table_id, tokens)
        before = state(client, table_id, tokens[mover])
        with socket(client, table_id, tokens[1 - mover]) as ws:
            for _ in range(3):  # out of turn: refused by the game, but counted
                reply, _ = answer(ws, {"type": "act", "id": next(_ids), "action": "draw stock"})
                assert reply["code"] == "seat.not_your_turn"
            # The POSTs share the bucket: one more allowed, then 429 either way.
            assert post(client, table_id, tokens[mover], {"action": "fly"}).status_code == 400
            assert post(client, table_id, tokens[mover], {"action": "fly"}).status_code == 429
            reply, _ = answer(ws, {"type": "act", "id": 7, "action": "draw stock"})
            assert (reply["status"], reply["code"]) == (429, "request.rate_limited")
            assert reply["retry_after"] >= 1
        assert state(client, table_id, tokens[mover]) == before


def test_a_whole_match_over_the_socket_with_next_deal(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(
            client,
            preset="knock",
            bots=["random"],
            seed=11,
            options={"match_end": "deals", "deals": 2},
        )
        table_id, token = created["table"]["id"], created["token"]
        rng = random.Random(11)
        continued = 0
        now = created["state"]
        with socket(client, table_id, token) as ws:
            deadline = time.monotonic() + 60
            while not now["match"]["over"] and time.monotonic() < deadline:
                if now["awaiting_continue"]:
                    reply, _ = answer(ws, {"type": "continue", "id": next(_ids)})
                    assert reply["type"] == "ack", reply
                    continued += 1
                elif [a for a in now["legal_actions"] if a != "undo"]:
                    legal = [a for a in now["legal_actions"] if a != "undo"]
                    move = {"action": rng.choice(legal), "seq": now["seq"]}
                    reply, _ = answer(ws, {"type": "act", "id": next(_ids)} | move)
                    assert reply["type"] == "ack", reply
                else:
                    time.sleep(0.01)  # the bot is thinking
                now = state(client, table_id, token)
        assert now["match"]["over"] and continued >= 1


def test_a_huge_frame_closes_the_socket_before_it_is_read(tmp_path: Path) -> None:
    """``pyrummy serve`` reads at most WS_MAX_FRAME bytes of a client's frame."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from pyrummy.cli.cmd_serve import WS_MAX_FRAME
    from server_process import server_and_client

    arguments = ["--data-dir", str(tmp_path), "--rate-limit", "off", "--allow-bot-only"]
    with server_and_client(arguments, env={"DATABASE_URL": ""}) as (client, _server):
        created = client.post("/api/tables", json={"bots": ["random", "random"], "humans": 0})
        assert created.status_code == 201, created.text
        table_id = created.json()["table"]["id"]
        base = str(client.base_url).replace("http://", "ws://")
        with connect(
            f"{base}/api/tables/{table_id}/ws",
            additional_headers={"Origin": str(client.base_url)},
        ) as ws:
            ws.send(json.dumps({"type": "continue", "id": 1}))  # small: answered
            while json.loads(ws.recv(timeout=10))["type"] != "error":
                pass
            ws.send("x" * (WS_MAX_FRAME + 1))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_the_ack_goes_out_when_the_move_is_played_not_when_its_task_ends() -> None:
    """The ack is delivered by the play itself, right behind the move's event in
    the same turn of the loop; the task that read the message may finish later
    (after a shielded task it used to come two turns later, 15 ms at p99 under
    load)."""
    from types import SimpleNamespace

    from pyrummy.server.ws_actions import SocketActions

    delivered: list[tuple[str, object]] = []
    table = SimpleNamespace(
        table_id="t1", seq=4, deliver=lambda _subscriber, message: delivered.append(("ws", message))
    )

    async def play(
        table_id: str, token: str | None, action: str, seq: int | None, played: Any
    ) -> Any:
        delivered.append(("event", action))
        table.seq = 5
        played(table)
        # Work the move's task still does after playing (waking bots, ...).
        for _ in range(3):
            await asyncio.sleep(0)
        delivered.append(("task done", action))
        return table

    async def continue_deal(table_id: str, token: str | None) -> Any:
        raise AssertionError("not asked")

    moves = SocketActions(
        websocket=None,  # type: ignore[arg-type]
        table=table,  # type: ignore[arg-type]
        subscriber=SimpleNamespace(seat=0),  # type: ignore[arg-type]
        token="secret",
        lang="en",
        client="127.0.0.1",
        counter=SimpleNamespace(over_limit=lambda kind, key: None),  # type: ignore[arg-type]
        play=play,
        continue_deal=continue_deal,
    )
    text = json.dumps({"type": "act", "id": 7, "action": "draw stock", "seq": 4})
    answer = asyncio.run(moves.answer(text, len(text)))
    assert answer is None  # nothing left for the reader to send
    assert delivered == [
        ("event", "draw stock"),
        ("ws", json.dumps({"type": "ack", "id": 7, "seq": 5})),
        ("task done", "draw stock"),
    ]
