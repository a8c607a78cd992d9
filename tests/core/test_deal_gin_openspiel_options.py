"""OpenSpiel's gin options (docs/rules/gin-standard.md §8) on hand-built deals.

``discard_taken`` (the card just taken may go back, or be the knock card;
twice running ends the deal drawn), ``pile_draw_limit`` (the deal ends drawn
at that many draws from the pile, the offer not counted) and ``wall_knock``
(at the wall the next player may take the discard to knock). The
differential test (tests/research/test_openspiel_gin_differential.py) holds
them to OpenSpiel itself; here each is pinned to a worked example, with its
refusals, undo, copies and re-dealt samples.
"""

from __future__ import annotations

import random

from deal_helpers import draw_and_throw_back, legal, refused
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.deal.draw import wall_knock_possible
from pyrummy.core.phases import EndReason
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.sampling import sample_deal

# Dealer 0: seat 1 is offered the up-card first.
SEAT_1 = "AS 2S 3S 4H 5H 6H 7D 7S 7C 9C"  # deadwood 9 (9C): may knock
SEAT_0 = "AD 2D 3D 4C 5C 6C 8S 9S TS 2C"  # deadwood 2 (2C)
OPENSPIEL = find_rules("gin-openspiel")
PLAIN = OPENSPIEL.with_options(discard_taken=False, pile_draw_limit=0, wall_knock=False)


def openspiel_deal(rules: Rules = OPENSPIEL, upcard: str = "QH", stock: str = "KD") -> Deal:
    return new_deal(rules, hands=[SEAT_0, SEAT_1], upcard=upcard, stock=stock, seed=1)


def phase_of(deal: Deal) -> Phase:
    return deal.phase


def test_the_preset_plays_openspiels_options() -> None:
    assert (OPENSPIEL.discard_taken, OPENSPIEL.pile_draw_limit, OPENSPIEL.wall_knock) == (
        True,
        50,
        True,
    )
    for name in ("gin", "gin-standard"):
        rules = find_rules(name)
        assert (rules.discard_taken, rules.pile_draw_limit, rules.wall_knock) == (False, 0, False)


# -- discard_taken ------------------------------------------------------------------------


def test_the_card_just_taken_may_be_discarded_or_be_the_knock_card() -> None:
    deal = openspiel_deal(upcard="8C")  # 8C: 7C 8C 9C is not a run of seat 1's (7C is in a set)
    deal.apply("draw discard")
    assert {"discard 8C", "knock 8C", "knock 9C"} <= legal(deal)
    plain = openspiel_deal(PLAIN, upcard="8C")
    plain.apply("draw discard")
    assert "discard 8C" not in legal(plain) and "knock 8C" not in legal(plain)
    refused(plain, "discard 8C", "action.taken_discard_back")
    refused(plain, "knock 8C", "action.taken_discard_knock")
    deal.apply("knock 8C")
    assert deal.is_over and deal.knock_card is not None and str(deal.knock_card) == "8C"


def test_a_card_thrown_back_twice_running_ends_the_deal_drawn() -> None:
    deal = openspiel_deal()
    deal.apply("draw discard")  # seat 1 takes the offered QH...
    deal.apply("discard QH")  # ...and throws it back
    deal.apply("draw discard")  # seat 0 does the same
    assert not deal.is_over
    deal.apply("discard QH")
    assert deal.is_over and deal.end_reason is EndReason.THROWN_BACK
    settlement = deal.settlement
    assert settlement is not None and str(settlement.outcome) == "draw"
    assert all(net == 0 for net in settlement.net)


def test_a_throw_back_between_other_discards_does_not_end_the_deal() -> None:
    deal = openspiel_deal()
    deal.apply("draw discard")
    deal.apply("discard QH")  # thrown back
    deal.apply("draw discard")
    deal.apply("discard 2C")  # not thrown back: the count starts again
    deal.apply("draw discard")
    deal.apply("discard 2C")  # thrown back once
    assert not deal.is_over and phase_of(deal) is Phase.DRAW


# -- pile_draw_limit ----------------------------------------------------------------------


def test_the_draw_from_the_pile_that_reaches_the_limit_ends_the_deal_drawn() -> None:
    rules = OPENSPIEL.with_options(pile_draw_limit=3, discard_taken=False)
    deal = openspiel_deal(rules)
    deal.apply("draw discard")  # the offer: not counted
    deal.apply("discard 9C")
    deal.apply("draw discard")  # 1
    deal.apply("discard 2C")
    deal.apply("draw discard")  # 2
    deal.apply("undo")  # taken back: not counted
    deal.apply("draw discard")  # 2
    deal.apply("discard QH")
    assert not deal.is_over
    pile = deal.discard_pile
    deal.apply("draw discard")  # 3: the deal ends, the card stays on the pile
    assert deal.is_over and deal.end_reason is EndReason.PILE_LIMIT and deal.discard_pile == pile
    settlement = deal.settlement
    assert settlement is not None and str(settlement.outcome) == "draw"


# -- wall_knock ---------------------------------------------------------------------------


def _to_the_wall(rules: Rules, upcard: str) -> Deal:
    """Both pass the offer; then stock draws thrown back until the wall."""
    deal = openspiel_deal(rules, upcard=upcard)
    deal.apply("pass")
    deal.apply("pass")
    draw_and_throw_back(deal, 40)
    return deal


def test_at_the_wall_the_next_player_may_take_the_discard_only_to_knock() -> None:
    plain = _to_the_wall(PLAIN, "QH")
    assert plain.is_over and plain.end_reason is EndReason.WALL
    deal = _to_the_wall(OPENSPIEL, "QH")
    assert not deal.is_over and phase_of(deal) is Phase.DECLINE
    assert len(deal.stock) == 2
    top = deal.discard_pile[-1]
    # Seat 1 melds all but 9C; whatever came last, the offer is the knock's.
    taking = {"draw discard", "decline"} if wall_knock_possible(deal) else {"decline"}
    assert legal(deal) == taking
    refused(deal, "draw stock", "action.wall_knock_only")
    if taking == {"decline"}:
        refused(deal, "draw discard", "action.wall_knock_only")
    deal.apply("pass")
    assert deal.is_over and deal.end_reason is EndReason.WALL
    assert deal.discard_pile[-1] == top
    settlement = deal.settlement
    assert settlement is not None and str(settlement.outcome) == "draw"


def test_a_wall_knock_takes_the_discard_then_knocks_and_nothing_else() -> None:
    for seed in range(60):  # deals in which the player at the wall can knock
        rng = random.Random(seed)
        deal = new_deal(OPENSPIEL, 2, seed=seed)
        while not deal.is_over and not deal._at_wall:
            choices = [a for a in deal.legal_actions() if str(a) != "undo"]
            knocks = [a for a in choices if str(a).startswith("knock")]
            deal.apply(rng.choice([a for a in choices if a not in knocks] or choices))
        if deal.is_over or "draw discard" not in legal(deal):
            continue
        seen = deal.observe(deal.current_seat)
        again = sample_deal(seen, random.Random(seed))
        assert again.legal_actions() == deal.legal_actions()
        deal.apply("draw discard")
        assert phase_of(deal) is Phase.DISCARD
        assert all(str(a).startswith("knock") or str(a) == "undo" for a in deal.legal_actions())
        seat = deal.current_seat
        assert seat is not None
        card = next(iter(deal.hands(seat)))
        refused(deal, f"discard {card}", "action.wall_knock_only")
        again = sample_deal(deal.observe(seat), random.Random(seed))
        assert again.legal_actions() == deal.legal_actions()
        undone = deal.clone()
        undone.apply("undo")
        assert phase_of(undone) is Phase.DECLINE and "draw discard" in legal(undone)
        deal.apply(next(a for a in deal.legal_actions() if str(a).startswith("knock")))
        assert deal.is_over and deal.end_reason is EndReason.KNOCK
        return
    raise AssertionError("no deal of 60 reached a knock at the wall")


def test_samples_keep_openspiels_counts() -> None:
    deal = openspiel_deal()
    deal.apply("draw discard")
    deal.apply("discard QH")  # thrown back once
    again = sample_deal(deal.observe(0), random.Random(0))
    assert again._thrown_back and again._pile_draws == 0
    again.apply("draw discard")
    again.apply("discard QH")
    assert again.is_over and again.end_reason is EndReason.THROWN_BACK
