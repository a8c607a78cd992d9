"""Fair deals on the server: each deal's commitment before its first card,
its seed and salt revealed with the deck once it ends (and not before), and
the stored record verifying deal by deal."""

from __future__ import annotations

import hashlib
import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from pyrummy.cli.cmd_verify import problems
from pyrummy.core.shuffle import portable_order
from server_helpers import act, app_client, create, headers, state


def docs_commitment(fair: dict[str, Any]) -> str:
    text = f"pyrummy-deal:{fair['shuffle']}:{fair['seed']}:{fair['salt']}"
    return hashlib.sha256(text.encode()).hexdigest()


def card_name(number: int) -> str:
    return "A23456789TJQK"[number % 13] + "SHDC"[number // 13] if number < 52 else f"X{number - 51}"


def wait_over(client: TestClient, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        now = state(client, table_id, None)
        if now["over"]:
            return now
        time.sleep(0.02)
    raise AssertionError("the bots did not finish the match")


def test_a_bots_match_reveals_every_deal_and_its_record_verifies(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        created = create(
            client,
            preset="knock",
            bots=["easy", "random", "easy"],
            humans=0,
            bot_delay=0,
            options={"match_end": "deals", "deals": 3},
        )
        table_id = created["table"]["id"]
        first = created["state"]["fair"]
        assert set(first) == {"shuffle", "commitment"}
        assert first["shuffle"] == "sha256-fy-1" and len(first["commitment"]) == 64
        final = wait_over(client, table_id)
        record = client.get(f"/api/matches/{table_id}/record").text
    assert problems(record) == []
    assert record.count("Reveal:") == 3
    # The commitment shown before deal 1's first card is the one the record reveals.
    assert f"Commitment: {first['commitment']}" in record.split("Deal 2")[0]
    reveal = final["last_deal"]["fair"]
    assert reveal["commitment"] == docs_commitment(reveal)
    assert reveal["deck"] == [card_name(c) for c in portable_order(int(reveal["seed"]), 52)]
    assert final["fair"] is None  # the match is over: no deal under way


def test_a_person_sees_the_commitment_then_the_reveal(tmp_path: Path) -> None:
    rng = random.Random(3)
    with app_client(tmp_path) as client:
        created = create(client, preset="gin", bots=["easy"], bot_delay=0, options={"target": 40})
        table_id, token = created["table"]["id"], created["token"]
        committed = created["state"]["fair"]["commitment"]
        assert created["state"]["last_deal"] is None
        hand = list(created["state"]["observation"]["hand"])
        while True:
            now = state(client, table_id, token)
            if now["last_deal"] is not None:
                break
            if now["legal_actions"]:
                assert now["fair"]["commitment"] == committed
                assert act(client, table_id, token, rng.choice(now["legal_actions"])).is_success
            else:
                time.sleep(0.01)
        reveal = now["last_deal"]["fair"]
        assert reveal["commitment"] == committed == docs_commitment(reveal)
        deck = [card_name(c) for c in portable_order(int(reveal["seed"]), 52)]
        assert reveal["deck"] == deck
        # Dealt one at a time from the dealer's left: seat 0's first hand is in the deck.
        starter = (reveal["dealer"] + 1) % 2
        dealt = [deck[p] for p in range(20) if (starter + p) % 2 == 0]
        assert sorted(dealt) == sorted(hand)
        if not now["over"]:
            assert now["fair"]["commitment"] != committed  # the next deal's own
        spectator = client.get(f"/api/tables/{table_id}/state", headers=headers(None)).json()
        assert spectator["last_deal"]["fair"] == reveal
