"""The cached seat states are exactly the states built afresh, at every step.

Runs on SQLite and on PostgreSQL (tests/db_fixtures.py sets ``DATABASE_URL``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.server import views
from pyrummy.server.storage import SeatSpec, Store
from pyrummy.server.tables import LiveTable, TableManager, new_table_spec


def fresh_state(table: LiveTable, seat: int | None) -> dict[str, object]:
    views._VIEWS.pop(table, None)
    state = views.seat_state(table, seat)
    views._VIEWS.pop(table, None)
    return state


def with_table(seed: int, preset: str, body: Callable[[LiveTable], Awaitable[None]]) -> None:
    """Run ``body`` on a new table (two people and a bot; gin: one and a bot)."""

    async def run() -> None:
        folder = tempfile.mkdtemp(prefix="pyrummy-cache-")
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/t.sqlite3"
        store = await Store.open(url)
        manager = TableManager(store)
        try:
            seats = [SeatSpec("human"), SeatSpec("human"), SeatSpec("bot", "random")]
            if preset == "gin":
                seats = seats[1:]
            table, _tokens = await manager.create(new_table_spec(preset, {}, seats, 0.0, seed))
            await body(table)
        finally:
            await manager.stop()
            await store.close()

    asyncio.run(run())


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["knock", "rummy", "gin"]))
def test_cached_states_equal_fresh_ones_through_a_match(seed: int, preset: str) -> None:
    async def body(table: LiveTable) -> None:
        seats: list[int | None] = [None, *range(len(table.spec.seats))]
        rng = random.Random(seed)
        previous: dict[int | None, dict[str, object]] = {}
        for _ in range(80):
            for seat in seats:
                cached = views.seat_state(table, seat)
                assert views.seat_state(table, seat) is cached  # served from the cache
                assert cached == fresh_state(table, seat)
                encoded = json.loads(views.seat_state_json(table, seat))
                assert encoded == json.loads(json.dumps(cached))
                previous[seat] = cached
            if table.is_over:
                break
            for seat in list(table.awaiting):
                await table.acknowledge(seat)
                assert views.seat_state(table, seat)["awaiting_continue"] is False
            seat = table.match.current_seat
            assert seat is not None
            legal = [str(a) for a in table.match.legal_actions() if str(a) != "undo"]
            stored = await table.apply(seat, rng.choice(legal))
            for viewer in seats:
                event = json.loads(views.event_with_state_json(table, stored, viewer))
                expected = json.dumps(views.event_with_state(table, stored, viewer))
                assert event == json.loads(expected)
                assert event["seq"] == stored.seq == event["state"]["seq"]
                assert views.seat_state(table, viewer) is not previous[viewer]

    with_table(seed, preset, body)


def test_a_showdown_seen_and_a_new_bot_delay_show_at_once() -> None:
    async def body(table: LiveTable) -> None:
        rng = random.Random(3)
        while not table.awaiting:
            seat = table.match.current_seat
            assert seat is not None
            legal = [str(a) for a in table.match.legal_actions() if str(a) != "undo"]
            await table.apply(seat, rng.choice(legal))
        waiting = sorted(table.awaiting)[0]
        assert views.seat_state(table, waiting)["awaiting_continue"] is True
        await table.acknowledge(waiting)
        assert views.seat_state(table, waiting)["awaiting_continue"] is False
        assert json.loads(views.seat_state_json(table, waiting))["awaiting_continue"] is False
        await table.set_bot_delay(2.5)
        assert views.seat_state(table, None)["table"]["bot_delay"] == 2.5
        assert json.loads(views.seat_state_json(table, 0))["table"]["bot_delay"] == 2.5

    with_table(11, "knock", body)


def test_a_table_rebuilt_from_storage_is_not_served_stale_states() -> None:
    async def body(table: LiveTable) -> None:
        seat = table.match.current_seat
        assert seat is not None
        before = views.seat_state(table, seat)
        # Applied in memory but never stored: the table rebuilt from storage
        # shows the stored state again.
        table.match.apply(str(table.match.legal_actions()[0]))
        assert views.seat_state(table, seat) != before
        await table._reload()
        assert views.seat_state(table, seat) == before == fresh_state(table, seat)

    with_table(5, "knock", body)


def test_state_dicts_are_dropped_at_the_next_loop_turn_and_the_json_is_kept() -> None:
    # Kept until the table's next action, the dicts of every busy table were
    # most of what each young garbage collection walked (see views' docstring).
    async def body(table: LiveTable) -> None:
        seat = table.match.current_seat
        state = views.seat_state(table, seat)
        encoded = views.seat_state_json(table, seat)
        live = views.live_state_json(table, seat)
        assert views.seat_state(table, seat) is state  # the same turn: shared
        assert views._VIEWS[table].states
        await asyncio.sleep(0)
        assert views._VIEWS[table].states == {}
        assert views.seat_state_json(table, seat) is encoded
        assert views.live_state_json(table, seat) is live
        rebuilt = views.seat_state(table, seat)
        assert rebuilt is not state
        assert rebuilt == state

    with_table(7, "rummy", body)


@pytest.mark.parametrize("preset", ["knock", "rummy", "gin", "rotham", "block"])
def test_the_kept_deal_history_gives_byte_for_byte_the_json_of_a_fresh_one(preset: str) -> None:
    # Each deal's moves are kept as sent and only new ones added (views'
    # _current_observation_dict); over whole deals, undos included, the JSON
    # must be the bytes of the observation printed afresh at every step.
    async def body(table: LiveTable) -> None:
        seats: list[int | None] = [None, *range(len(table.spec.seats))]
        rng = random.Random(preset)
        deals_seen = set()
        for _ in range(600):
            for seat in seats:
                reference = dict(views.seat_state(table, seat))
                reference["observation"] = views.observation_dict(table.match.observe(seat))
                assert views.seat_state_json(table, seat) == views.encode(reference)
            deals_seen.add(table.match.deal_number)
            if table.is_over or len(deals_seen) > 3:
                break
            for seat in list(table.awaiting):
                await table.acknowledge(seat)
            seat = table.match.current_seat
            assert seat is not None
            await table.apply(seat, str(rng.choice(table.match.legal_actions())))
        assert len(deals_seen) > 1 or table.is_over

    with_table(len(preset), preset, body)
