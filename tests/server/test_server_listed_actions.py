"""A table applies the core's own listed action for a move, found by its text:
the same move as the text read back, stored as the same text, whoever sent it
(a person's text, a bot's action object, an action from another process)."""

from __future__ import annotations

import asyncio
import random
import tempfile

import pytest

from pyrummy.core.actions import ActionKind, parse_action
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.match import new_match
from pyrummy.server.storage import SeatSpec, Store
from pyrummy.server.tables import LiveTable, TableManager, _listed, new_table_spec


def test_a_read_action_becomes_the_listed_one_and_an_unlisted_one_stays_itself() -> None:
    match = new_match("knock", players=3, seed=3, dealer=0)
    match.apply(match.legal_actions()[0])  # drawn: now the discards
    legal = match.legal_actions()
    discard = legal[1]
    read = parse_action(str(discard).lower())
    assert read == discard and read is not discard
    assert _listed(match, read) is discard
    held = {str(a) for a in legal}
    unlisted = next(
        parse_action(f"discard {r}{s}")
        for r in "A23456789TJQK"
        for s in "SHDC"
        if f"discard {r}{s}" not in held
    )
    assert _listed(match, unlisted) is unlisted


def test_moves_by_text_and_by_action_are_stored_as_their_texts() -> None:
    async def run() -> None:
        folder = tempfile.mkdtemp(prefix="pyrummy-listed-")
        store = await Store.open(f"sqlite:///{folder}/t.sqlite3")
        manager = TableManager(store)
        try:
            seats = [SeatSpec("human"), SeatSpec("human")]
            table, _tokens = await manager.create(new_table_spec("knock", {}, seats, 0.0, 11))
            first = table.match.current_seat
            assert first is not None
            async with table.lock:  # a discard before drawing: refused, nothing stored
                with pytest.raises(IllegalActionError):
                    await table.apply(first, str(table.match.legal_actions()[0]) + "x")
                with pytest.raises(IllegalActionError):
                    await table.apply(first, "discard 7H")
            assert table.seq == 0
            rng = random.Random(5)
            played: list[str] = []
            for step in range(40):
                seat = table.match.current_seat
                if seat is None:  # the deal is over
                    break
                legal = table.match.legal_actions()
                # Not knocking (a long deal): draws and discards.
                choice = rng.choice([a for a in legal if a.kind is not ActionKind.KNOCK] or legal)
                # Alternately the action object (as a bot's) and its text in lower case (a person's).
                move = choice if step % 2 else str(choice).lower()
                async with table.lock:
                    stored = await table.apply(seat, move)
                assert stored.text == str(choice)
                played.append(str(choice))
            assert len(played) >= 10
            reloaded = await store.load_table(table.table_id)
            assert reloaded is not None
            assert [a.text for a in reloaded.actions] == played
            # The table in memory is the match the stored texts replay to.
            assert LiveTable(reloaded, store).match.observe(None) == table.match.observe(None)
        finally:
            await manager.stop()
            await store.close()

    asyncio.run(run())
