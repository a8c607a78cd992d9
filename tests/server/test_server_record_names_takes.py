"""The text record of a match names the card each "draw discard" took (it
lay face up, so naming it hides nothing) in a comment the reader skips:
standard gin's first up-card taken at the offer, as the Moves list names it.
Records written without the names (the engine's own, the pinned ones) stay
as they were."""

from __future__ import annotations

from pathlib import Path

from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.match import Match, new_match
from pyrummy.core.record import parse_record
from pyrummy.core.record_writer import deal_record
from pyrummy.core.rules import find_rules
from pyrummy.server.pile_takes import pile_takes
from pyrummy.server.tables import TABLE_SHUFFLE
from server_helpers import act, app_client, create, headers, state


def offered_first_seed() -> int:
    """A seed whose first standard gin deal offers the up-card to seat 0 (the person)."""
    rules = find_rules("gin-standard")
    return next(
        seed
        for seed in range(100)
        if new_match(rules, players=2, seed=seed, shuffle=TABLE_SHUFFLE).deal.dealer == 1
    )


def test_the_record_names_the_up_card_taken_at_the_offer(tmp_path: Path) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(
            client, preset="gin-standard", bots=["easy"], seed=offered_first_seed(), bot_delay=0
        )
        table_id, token = created["table"]["id"], created["token"]
        first = state(client, table_id, token)
        seen = first["observation"]
        assert (seen["phase"], seen["current_seat"], first["seat"]) == ("offer", 0, 0)
        up = seen["up_card"]
        assert up == seen["discard_pile"][-1]
        assert sorted(first["legal_actions"]) == ["decline", "draw discard"]
        assert act(client, table_id, token, "draw discard").status_code == 200
        after = state(client, table_id, token)
        assert after["taken_cards"][-1] == [up]
        discard = next(a for a in after["legal_actions"] if a.startswith("discard "))
        assert act(client, table_id, token, discard).status_code == 200
        resigned = client.post(f"/api/tables/{table_id}/resign", headers=headers(token))
        assert resigned.status_code == 200, resigned.text
        record = client.get(f"/api/matches/{table_id}/record").text
    assert f"0: draw discard  # took {up}\n" in record
    # Every line of a pile draw names its card, and the record still replays.
    draws = [line for line in record.splitlines() if ": draw discard" in line]
    assert draws and all("  # took " in line for line in draws)
    replayed = parse_record(record)
    assert isinstance(replayed, Match)
    assert [str(a) for _, a in replayed.deals[0].history][:2] == ["draw discard", discard]


def test_a_record_without_the_names_is_unchanged_and_both_replay() -> None:
    deal = new_deal("gin-standard", 2, seed=4)
    up = str(deal.discard_pile[-1])
    deal.apply("draw discard")
    deal.apply(next(a for a in deal.legal_actions() if str(a).startswith("discard ")))
    plain = deal_record(deal)
    named = deal_record(deal, taken=pile_takes(deal))
    assert ": draw discard\n" in plain and "#" not in plain
    assert named == plain.replace(": draw discard\n", f": draw discard  # took {up}\n")
    for text in (plain, named):
        again = parse_record(text)
        assert isinstance(again, Deal) and deal_record(again) == plain
