"""Hidden-information audit of everything the server sends.

Whole matches are played through the API — bots at every seat, or bots and a
scripted person playing random legal moves — while every HTTP response and
every WebSocket message for a seat (or a spectator) is recorded. Afterwards
each match is replayed from storage with the rules core, and every message
numbered ``seq`` is checked against the deal as it stood after ``seq``
actions: it may name no card the receiver may not see — not another hand's
hidden cards, not a stock card, not the knock card before the showdown.

A card a seat may see is: in its own hand, or public at some point of the
current deal (the discard pile, the table), or anything once the deal is
over. The audit computes that from the full deal state, independently of
:class:`~pyrummy.core.observation.Observation`, which the server uses.

Fair deals: no message may hold the seed or the salt of a deal that is not
over (nor the table's own seed and salt), and every state of a deal under
way shows that deal's commitment.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from db_fixtures import load_stored, stored_url
from pyrummy.cli.cmd_verify import problems as verify_problems
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.match import Match
from pyrummy.server.tables import build_match
from server_helpers import app_client, cards_in, create, headers

Viewer = int | None
# (viewer, seq, message) for every message a viewer received
Received = list[tuple[Viewer, int, Any]]


def deck_of(deal: Deal) -> set[str]:
    return {str(card) for card in ALL_CARDS[: deal.rules.deck_size]}


def visible_now(deal: Deal) -> set[str]:
    public = {str(card) for card in deal.discard_pile}
    for table_meld in deal.table:
        public |= {str(card) for card in table_meld.meld.cards}
    return public


class Forbidden:
    """For each viewer, the cards it may not see after 0, 1, 2, ... actions:
    ``state[viewer][seq]`` in the deal being played then (a state), and
    ``action[viewer][seq]`` in the deal action ``seq`` belonged to (an event)."""

    def __init__(self, url: str, table_id: str, viewers: list[Viewer]) -> None:
        stored = load_stored(url, table_id)
        assert stored is not None
        match = build_match(stored.spec)
        assert stored.spec.salt is not None, "new tables commit to their deals"
        #: The table's secrets, and each deal's (by deal number), as text.
        self.table_secrets = {str(stored.spec.seed), stored.spec.salt}
        self.deal_secrets: dict[int, set[str]] = {}
        self.commitments: dict[int, str] = {}
        #: Deals finished after 0, 1, 2, ... actions.
        self.finished = [0]
        self._note_secrets(match)
        self.state: dict[Viewer, list[set[str]]] = {viewer: [] for viewer in viewers}
        self.action: dict[Viewer, list[set[str]]] = {viewer: [set()] for viewer in viewers}
        deal = match.deal
        public = visible_now(deal)
        self._note(self.state, deal, public)
        for stored_action in stored.actions:
            match.apply(stored_action.text)
            public |= visible_now(deal)
            self._note(self.action, deal, public)
            if match.deal is not deal:
                deal = match.deal
                public = visible_now(deal)
            self._note(self.state, deal, public)
            self.finished.append(len(match.finished_deals))
            self._note_secrets(match)

    def _note_secrets(self, match: Match) -> None:
        for number in range(1, len(match.finished_deals) + 2):
            fairness = match.fairness_of(number)
            if fairness is not None and number not in self.deal_secrets:
                assert fairness.salt is not None
                self.deal_secrets[number] = {str(fairness.seed), fairness.salt}
                self.commitments[number] = fairness.commitment

    def secrets(self, seq: int) -> set[str]:
        """What no message numbered ``seq`` may hold: the table's seed and
        salt, and those of every deal not over after ``seq`` actions."""
        done = self.finished[seq]
        hidden = set(self.table_secrets)
        for number, secrets in self.deal_secrets.items():
            if number > done:
                hidden |= secrets
        return hidden

    @staticmethod
    def _note(into: dict[Viewer, list[set[str]]], deal: Deal, public: set[str]) -> None:
        for viewer, table in into.items():
            if deal.is_over:
                table.append(set())
                continue
            own = set() if viewer is None else {str(c) for c in deal.hands(viewer)}
            table.append(deck_of(deal) - public - own)


def without_represents(value: Any) -> Any:
    """Drop ``represents`` (the card a melded joker stands for): it names a
    card without telling where that card is."""
    if isinstance(value, dict):
        return {k: without_represents(v) for k, v in value.items() if k != "represents"}
    if isinstance(value, list):
        return [without_represents(v) for v in value]
    return value


def check(messages: Received, forbidden: Forbidden) -> int:
    checked = 0
    for viewer, seq, message in messages:
        current = dict(message)
        # The cards taken from the pile, per deal: the finished deals' lists are
        # of those deals; the current deal's (face up when taken) stay checked.
        taken = current.pop("taken_cards", None)
        if taken:
            current["taken_now"] = taken[-1]
        if current.get("type") == "event":
            hidden = forbidden.action[viewer][seq]
        else:
            hidden = forbidden.state[viewer][seq]
            last_deal = current.pop("last_deal", None)
            if last_deal is not None:
                assert last_deal["observation"]["is_over"], "a previous deal is shown once over"
            # The moves of finished deals (the page's Moves list): those deals are over.
            finished = current.pop("deal_histories", [])
            assert len(finished) == len(current.get("match", {}).get("deals", finished))
            if current.get("match", {}).get("over"):
                continue  # the match is over: every card of the last deal is revealed
            current.pop("record", None)
            current.pop("match", None)  # totals and transfers only
        leaked = cards_in(without_represents(current)) & hidden
        assert not leaked, f"viewer {viewer} saw {sorted(leaked)} at event {seq}: {message}"
        text = json.dumps(message)
        # (A short secret, the small seed a test gives its table, turns up by chance.)
        told = {s for s in forbidden.secrets(seq) if len(s) >= 12 and s in text}
        assert not told, f"viewer {viewer} was told the secret {told} at {seq}: {message}"
        if current.get("type") != "event":
            deal_number = forbidden.finished[seq] + 1
            assert current["fair"]["commitment"] == forbidden.commitments[deal_number]
            assert set(current["fair"]) == {"shuffle", "commitment"}
        checked += 1
    return checked


def unwrap(message: dict[str, Any]) -> list[tuple[int, Any]]:
    """(seq, payload) parts of one WebSocket message."""
    if message.get("type") == "event":
        parts: list[tuple[int, Any]] = [
            (message["seq"], {k: v for k, v in message.items() if k != "state"})
        ]
        if "state" in message:
            parts.append((message["state"]["seq"], message["state"]))
        return parts
    if message.get("type") == "state":
        return [(message["state"]["seq"], message["state"])]
    return []


class Listener(threading.Thread):
    """Reads one seat's WebSocket until the match is over."""

    def __init__(self, client: TestClient, table_id: str, viewer: Viewer, token: str | None):
        super().__init__(daemon=True)
        self.session = client.websocket_connect(
            f"/api/tables/{table_id}/ws?since=0", headers=headers(token)
        )
        self.viewer = viewer
        self.received: Received = []
        self.over = False

    def run(self) -> None:
        with self.session as ws:
            while not self.over:
                message = ws.receive_json()
                for seq, payload in unwrap(message):
                    self.received.append((self.viewer, seq, payload))
                    if isinstance(payload, dict) and payload.get("match", {}).get("over"):
                        self.over = True


def play_scripted(client: TestClient, table_id: str, token: str, rng: random.Random) -> Received:
    """A person who plays random legal moves, recording every response."""
    received: Received = []
    seen = 0

    def record(response: Any) -> dict[str, Any]:
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        received.append((0, data["seq"], data))
        return data

    while True:
        data = record(client.get(f"/api/tables/{table_id}/state", headers=headers(token)))
        if data["match"]["over"]:
            return received
        if data["awaiting_continue"]:
            record(client.post(f"/api/tables/{table_id}/continue", headers=headers(token)))
        elif data["legal_actions"]:
            # Mostly play on (knocking at once ends the deal before much is seen).
            legal = data["legal_actions"]
            calm = [a for a in legal if not a.startswith("knock")]
            choice = rng.choice(calm if calm and rng.random() > 0.05 else legal)
            record(
                client.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": choice},
                    headers=headers(token),
                )
            )
        else:
            events = client.get(
                f"/api/tables/{table_id}/events?since={seen}", headers=headers(token)
            ).json()
            for event in events["events"] or []:
                received.append((0, event["seq"], event))
            seen = events["seq"]
            time.sleep(0.005)


TABLES = [
    ("knock", ["easy", "easy", "medium"], {"match_end": "deals", "deals": 3}),
    ("knock", ["easy", "random", "medium", "easy"], {"match_end": "deals", "deals": 2}),
    ("knock-target", ["easy", "medium"], {"target": 60}),
    ("rummy", ["easy", "random"], {"target": 60}),
    ("rummy", ["medium"], {"target": 60}),
    ("gin", ["easy"], {"target": 40}),
    ("basic", ["random", "easy"], {"target": 40}),
    ("block", ["easy"], {"target": 40}),
    ("rotham", ["random", "easy"], {"match_end": "deals", "deals": 1}),
]


@pytest.mark.parametrize(("preset", "bots", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_a_person_and_bots_see_only_what_they_may(
    tmp_path: Path, preset: str, bots: list[str], options: dict[str, Any]
) -> None:
    rng = random.Random(f"{preset}-{len(bots)}")
    # Seeded tables (the test server allows it) make each audit the same every run.
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(
            client,
            preset=preset,
            bots=bots,
            options=options,
            bot_delay=0,
            seed=rng.randrange(10**9),
        )
        table_id, token = created["table"]["id"], created["token"]
        client.cookies.clear()  # the spectator must not carry seat 0's cookie
        first: Received = [(0, created["state"]["seq"], created["state"])]
        player = Listener(client, table_id, 0, token)
        watcher = Listener(client, table_id, None, None)
        player.start()
        watcher.start()
        received = first + play_scripted(client, table_id, token, rng)
        player.join(30)
        watcher.join(30)
        assert player.over and watcher.over
        forbidden = Forbidden(stored_url(tmp_path), table_id, [0, None])
        checked = check(received + player.received + watcher.received, forbidden)
        # Every deal of the stored match was committed to and verifies.
        assert verify_problems(client.get(f"/api/matches/{table_id}/record").text) == []
    assert checked > 20


def test_bots_only_tables_watched_by_a_spectator(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        tables = [
            create(
                client,
                preset="knock",
                bots=["easy", "medium", "random", "easy"],
                humans=0,
                bot_delay=0,
                seed=11,
                options={"match_end": "deals", "deals": 4},
            ),
            create(
                client,
                preset="rummy",
                bots=["easy", "random", "easy"],
                humans=0,
                bot_delay=0,
                seed=11,
                options={"target": 60},
            ),
            create(
                client,
                preset="gin",
                bots=["easy", "medium"],
                humans=0,
                bot_delay=0,
                seed=11,
                options={"target": 60},
            ),
        ]
        watchers = [Listener(client, t["table"]["id"], None, None) for t in tables]
        for watcher in watchers:
            watcher.start()
        for watcher in watchers:
            watcher.join(60)
            assert watcher.over
        for created, watcher in zip(tables, watchers, strict=True):
            assert created["token"] is None and created["seat"] is None
            forbidden = Forbidden(stored_url(tmp_path), created["table"]["id"], [None])
            assert check(watcher.received, forbidden) > 20
            record = client.get(f"/api/matches/{created['table']['id']}/record").text
            assert verify_problems(record) == []


def test_a_quick_match_seat_sees_only_what_it_may(tmp_path: Path) -> None:
    """A quick-match table (the queue seats the person, bots fill the rest):
    the seat the queue gave and a spectator see only what they may."""
    rng = random.Random("quick")
    with app_client(tmp_path) as client:
        joined = client.post(
            "/api/quick/join",
            json={"preset": "knock", "players": 3, "name": "Anna", "bot_wait": 0, "bot": "easy"},
        )
        assert joined.status_code == 201, joined.text
        view = joined.json()
        assert view["status"] == "seated"
        table_id, token, seat = view["table_id"], view["token"], view["seat"]
        client.cookies.clear()  # the spectator must not carry the seat's cookie
        player = Listener(client, table_id, seat, token)
        watcher = Listener(client, table_id, None, None)
        player.start()
        watcher.start()
        played = play_scripted(client, table_id, token, rng)
        received = [(seat, number, message) for _, number, message in played]
        player.join(30)
        watcher.join(30)
        assert player.over and watcher.over
        forbidden = Forbidden(stored_url(tmp_path), table_id, [seat, None])
        checked = check(received + player.received + watcher.received, forbidden)
    assert checked > 20
