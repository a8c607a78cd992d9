"""The cached seat states are exactly the states built afresh, at every step."""

from __future__ import annotations

import json
import random

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


def table_of(seed: int, preset: str = "knock") -> LiveTable:
    """Two people and a bot (gin: one person and a bot)."""
    manager = TableManager(Store("sqlite://"))
    seats = [SeatSpec("human"), SeatSpec("human"), SeatSpec("bot", "random")]
    if preset == "gin":
        seats = seats[1:]
    table, _tokens = manager.create(new_table_spec(preset, {}, seats, 0.0, seed))
    return table


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(["knock", "rummy", "gin"]))
def test_cached_states_equal_fresh_ones_through_a_match(seed: int, preset: str) -> None:
    table = table_of(seed, preset)
    seats: list[int | None] = [None, *range(len(table.spec.seats))]
    rng = random.Random(seed)
    previous: dict[int | None, dict[str, object]] = {}
    for _ in range(120):
        for seat in seats:
            cached = views.seat_state(table, seat)
            assert views.seat_state(table, seat) is cached  # served from the cache
            assert cached == fresh_state(table, seat)
            assert json.loads(views.seat_state_json(table, seat)) == json.loads(json.dumps(cached))
            previous[seat] = cached
        if table.is_over:
            break
        for seat in list(table.awaiting):
            table.acknowledge(seat)
            assert views.seat_state(table, seat)["awaiting_continue"] is False
        seat = table.match.current_seat
        assert seat is not None
        legal = [str(a) for a in table.match.legal_actions() if str(a) != "undo"]
        stored = table.apply(seat, rng.choice(legal))
        for viewer in seats:
            event = json.loads(views.event_with_state_json(table, stored, viewer))
            assert event == json.loads(json.dumps(views.event_with_state(table, stored, viewer)))
            assert event["seq"] == stored.seq == event["state"]["seq"]
            assert views.seat_state(table, viewer) is not previous[viewer]


def test_a_showdown_seen_and_a_new_bot_delay_show_at_once() -> None:
    table = table_of(11)
    rng = random.Random(3)
    while not table.awaiting:
        seat = table.match.current_seat
        assert seat is not None
        legal = [str(a) for a in table.match.legal_actions() if str(a) != "undo"]
        table.apply(seat, rng.choice(legal))
    waiting = sorted(table.awaiting)[0]
    assert views.seat_state(table, waiting)["awaiting_continue"] is True
    table.acknowledge(waiting)
    assert views.seat_state(table, waiting)["awaiting_continue"] is False
    assert json.loads(views.seat_state_json(table, waiting))["awaiting_continue"] is False
    table.set_bot_delay(2.5)
    assert views.seat_state(table, None)["table"]["bot_delay"] == 2.5
    assert json.loads(views.seat_state_json(table, 0))["table"]["bot_delay"] == 2.5


def test_a_table_rebuilt_from_storage_is_not_served_stale_states() -> None:
    table = table_of(5)
    seat = table.match.current_seat
    assert seat is not None
    before = views.seat_state(table, seat)
    # Applied in memory but never stored (as when the store refuses): the
    # table is rebuilt from storage and shows the stored state again.
    table.match.apply(str(table.match.legal_actions()[0]))
    assert views.seat_state(table, seat) != before
    table._reload()
    assert views.seat_state(table, seat) == before == fresh_state(table, seat)
