"""Standard gin's options (docs/rules/gin-standard.md) scored against worked examples.

Every option of the common rules has a hand-built deal here: the gin and
undercut bonuses, big gin, the tie rule, the first up-card offer (taken,
passed by one, passed by both), Oklahoma (the knock limit from the
up-card, an ace asking for gin, a spade doubling the deal) and the match's
game, line and shutout bonuses. The last test plays 2,000 random deals of
each new preset and checks the invariants every deal keeps.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from deal_helpers import legal, points, refused
from pyrummy.core.actions import ActionKind, action_space, parse_action
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.match import new_match
from pyrummy.core.record import parse_record
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.settlement import settle, settle_match_end

# Seat 1 (the non-dealer, dealer 0) knocks in these deals; seat 0 defends.
KNOCKER = "AS 2S 3S 4H 5H 6H 7D 7S 7C 9C"  # deadwood 9 (9C)
DEFENDER = "AD 2D 3D 4C 5C 6C 8S 9S TS 2C"  # deadwood 2 (2C)
GIN_HAND = "AS 2S 3S 4H 5H 6H 7D 7S 7C KD"  # KD out: gin
BIG_GIN_HAND = "AS 2S 3S 4S 4H 5H 6H 7D 7S 7C"  # with 7H: 11 cards, all melded


def standard_deal(
    knocker: str = KNOCKER,
    defender: str = DEFENDER,
    upcard: str = "QH",
    stock: str = "KD",
    rules: Rules | str = "gin-standard",
) -> Deal:
    """Dealer 0; seat 1 is offered the up-card first."""
    return new_deal(rules, hands=[defender, knocker], upcard=upcard, stock=stock, seed=1)


def phase_of(deal: Deal) -> Phase:
    """The deal's phase, read afresh (each step changes it)."""
    return deal.phase


def both_pass(deal: Deal) -> None:
    deal.apply("pass", 1)
    deal.apply("pass", 0)


# -- the first up-card offer ------------------------------------------------------------


def test_the_non_dealer_is_offered_the_up_card_first() -> None:
    deal = standard_deal()
    assert phase_of(deal) is Phase.OFFER and deal.current_seat == 1
    assert legal(deal) == {"draw discard", "decline"}
    refused(deal, "draw stock", "action.offer_pending")
    refused(deal, "discard 9C", "action.draw_first")


def test_offer_passed_by_the_non_dealer_goes_to_the_dealer() -> None:
    deal = standard_deal()
    deal.apply("pass")
    assert phase_of(deal) is Phase.OFFER and deal.current_seat == 0
    assert deal.observe(0).offer_passes == 1
    deal.apply("draw discard")  # the dealer takes QH and discards
    assert "QH" in str(deal.hands(0))
    assert phase_of(deal) is Phase.DISCARD
    refused(deal, "discard QH", "action.taken_discard_back")
    deal.apply("discard 2C")
    # Then the non-dealer plays a normal turn, from either pile.
    assert deal.current_seat == 1 and phase_of(deal) is Phase.DRAW
    assert legal(deal) == {"draw stock", "draw discard"}


def test_both_passing_makes_the_non_dealer_draw_from_the_stock() -> None:
    deal = standard_deal()
    both_pass(deal)
    assert deal.current_seat == 1 and phase_of(deal) is Phase.DRAW
    assert legal(deal) == {"draw stock"}
    refused(deal, "draw discard", "action.offer_passed")
    refused(deal, "pass", "action.decline_not_allowed")
    deal.apply("draw stock")  # KD
    deal.apply("discard KD")
    # From then on, the up-card (now under KD) is out of reach as usual.
    assert legal(deal) == {"draw stock", "draw discard"}
    assert [str(c) for c in deal.discard_pile] == ["QH", "KD"]


def test_taking_the_offered_up_card_is_the_non_dealers_draw() -> None:
    deal = standard_deal()
    deal.apply("draw discard")
    assert deal.current_seat == 1 and phase_of(deal) is Phase.DISCARD
    deal.apply("discard 9C")
    assert deal.current_seat == 0 and legal(deal) == {"draw stock", "draw discard"}


@pytest.mark.parametrize("passes", [0, 1])
def test_taking_the_offered_up_card_back_offers_it_again(passes: int) -> None:
    """Undo after taking the offered up-card returns to the offer: the
    player may pass it, not skip the offer by drawing from the stock."""
    deal = standard_deal()
    for _ in range(passes):
        deal.apply("pass")
    seat = deal.current_seat
    deal.apply("draw discard")
    deal.apply("undo")
    assert deal.current_seat == seat and phase_of(deal) is Phase.OFFER
    assert legal(deal) == {"draw discard", "decline"}
    refused(deal, "draw stock", "action.offer_pending")
    deal.apply("pass")
    assert deal.observe(0).offer_passes == passes + 1
    if passes:  # both passed, one after an undo: a sample keeps the stock-only draw
        sample = sample_deal(deal.observe(1), random.Random(0))
        assert {str(a) for a in sample.legal_actions()} == {"draw stock"}


def test_a_later_pile_draw_taken_back_is_a_normal_draw_again() -> None:
    deal = standard_deal()
    deal.apply("draw discard")
    deal.apply("discard 9C")
    deal.apply("draw discard")  # the dealer takes 9C back from the pile
    deal.apply("undo")
    assert deal.current_seat == 0 and phase_of(deal) is Phase.DRAW
    assert legal(deal) == {"draw stock", "draw discard"}


def test_the_offer_survives_copies_records_and_samples() -> None:
    deal = standard_deal()
    deal.apply("pass")
    copy = deal.clone()
    assert phase_of(copy) is Phase.OFFER and copy.observe(0).offer_passes == 1
    deal.apply("pass")
    again = sample_deal(deal.observe(1), random.Random(0))
    assert again.legal_actions() == deal.legal_actions() == [parse_action("draw stock")]
    deal.apply("draw stock")
    replayed = parse_record(deal.record())
    assert isinstance(replayed, Deal)
    assert replayed.observe(0) == deal.observe(0)


def test_the_offer_is_an_action_of_the_research_space() -> None:
    space = action_space("gin-standard")
    assert space.encode(parse_action("pass")) == space.encode(parse_action("decline")) == 2
    assert str(space.decode(space.big_gin_number)) == "big gin"
    assert action_space("gin").big_gin_number == -1
    assert action_space("gin").size == 108 and space.size == 109


# -- the bonuses --------------------------------------------------------------------------


def test_gin_scores_25_and_the_defenders_deadwood_without_lay_offs() -> None:
    defender = "AD 2D 3D 4C 5C 6C 8S 4S 8H QC"  # deadwood 8 + 4 + 8 + 10 = 30
    deal = standard_deal(knocker=GIN_HAND, defender=defender, stock="7H")
    both_pass(deal)
    deal.apply("draw stock")
    deal.apply("knock KD")
    result = deal.settlement
    assert result is not None and result.outcome == "gin"
    # 4S would go on AS-2S-3S: not on a gin hand.
    assert result.layoffs == () and result.counts[0] == 30
    assert result.net == points(0, 25 + 30)
    source = settle([defender, deal.hands(1)], 1, "gin")
    # The source's gin: 20, and 4S laid off (the knocker shows 7H with the
    # sevens, not on 4H-6H, so that 8H finds no run).
    assert source.net == points(0, 20 + 30 - 4)


def test_undercut_scores_the_difference_and_25() -> None:
    deal = standard_deal()
    both_pass(deal)
    deal.apply("draw stock")
    deal.apply("knock KD")
    result = deal.settlement
    assert result is not None and result.outcome == "undercut" and result.winners == (0,)
    assert result.net == points(9 - 2 + 25, 0)


def test_a_tie_is_an_undercut_in_the_common_rules_and_nothing_in_openspiels() -> None:
    defender = "AD 2D 3D 4C 5C 6C 8S 9S TS 9D"  # deadwood 9, as the knocker
    hands = [defender, KNOCKER]
    common = settle(hands, 1, "gin-standard")
    assert common.outcome == "undercut" and common.net == points(25, 0)
    openspiel = settle(hands, 1, "gin-openspiel")
    assert openspiel.outcome == "tie" and openspiel.winners == ()
    assert openspiel.net == points(0, 0)


def test_big_gin_goes_out_without_a_discard_for_31() -> None:
    deal = standard_deal(knocker=BIG_GIN_HAND, stock="7H")
    both_pass(deal)
    deal.apply("draw stock")  # 7H: AS-4S, 4H-7H, 7D 7S 7C
    assert "big gin" in legal(deal)
    deal.apply("big gin")
    assert deal.is_over and deal.end_reason == "knock" and deal.knock_card is None
    assert len(deal.hands(1)) == 11
    result = deal.settlement
    assert result is not None and result.outcome == "big-gin"
    assert result.net == points(0, 31 + 2)
    assert [str(t.reason) for t in result.transfers] == ["big gin bonus", "difference"]
    replayed = parse_record(deal.record())
    assert isinstance(replayed, Deal)
    assert replayed.settlement == result


def test_big_gin_needs_every_card_melded_and_the_option() -> None:
    deal = standard_deal()
    both_pass(deal)
    deal.apply("draw stock")  # KD: 9C and KD unmelded
    assert "big gin" not in legal(deal)
    refused(deal, "big gin", "action.big_gin_unmelded")
    source = new_deal("gin", hands=[DEFENDER, BIG_GIN_HAND], upcard="QH", stock="7H", seed=1)
    source.apply("draw stock")
    assert "big gin" not in legal(source)
    refused(source, "big gin", "action.no_big_gin")


# -- Oklahoma -------------------------------------------------------------------------------


def oklahoma(upcard: str, knocker: str = KNOCKER, stock: str = "KD") -> Deal:
    return standard_deal(knocker=knocker, upcard=upcard, stock=stock, rules=OKLAHOMA)


OKLAHOMA = find_rules("gin-standard", oklahoma=True)


@pytest.mark.parametrize(("upcard", "limit"), [("7H", 7), ("9D", 9), ("KC", 10), ("AH", 0)])
def test_the_up_card_sets_the_knock_limit(upcard: str, limit: int) -> None:
    deal = oklahoma(upcard)
    assert deal.observe(0).rules.knock_limit == limit
    assert deal.observe(1).to_dict()["knock_limit"] == limit
    assert deal.rules.knock_limit == 10  # the preset itself is unchanged


def test_a_seven_up_card_refuses_a_knock_at_nine() -> None:
    deal = oklahoma("7H")
    both_pass(deal)
    deal.apply("draw stock")  # KD: knock KD leaves 9C, 9 > 7
    assert not any(str(a).startswith("knock") for a in deal.legal_actions())
    refused(deal, "knock KD", "action.knock_limit")
    nine = oklahoma("9D")
    both_pass(nine)
    nine.apply("draw stock")
    assert "knock KD" in legal(nine)


def test_an_ace_up_card_asks_for_gin() -> None:
    deal = oklahoma("AH", knocker="AS 2S 3S 4H 5H 6H 7D 7S 7C 2H", stock="KD")
    both_pass(deal)
    deal.apply("draw stock")  # KD: knock KD would leave 2H, 2 > 0
    assert not any(a.kind is ActionKind.KNOCK for a in deal.legal_actions())
    gin = oklahoma("AH", knocker=GIN_HAND, stock="7H")
    both_pass(gin)
    gin.apply("draw stock")  # 7H: knock KD leaves gin
    assert {str(a) for a in gin.legal_actions() if a.kind is ActionKind.KNOCK} == {"knock KD"}


def test_a_spade_up_card_doubles_the_deal() -> None:
    hearts = oklahoma("QH")
    spades = oklahoma("QS")
    for deal in (hearts, spades):
        both_pass(deal)
        deal.apply("draw stock")
        deal.apply("knock KD")
    assert hearts.settlement is not None and spades.settlement is not None
    assert hearts.settlement.net == points(9 - 2 + 25, 0)
    assert spades.settlement.net == points(2 * (9 - 2 + 25), 0)
    reasons = [str(t.reason) for t in spades.settlement.transfers]
    assert reasons.count("spade double") == 2
    assert settle([DEFENDER, KNOCKER], 1, OKLAHOMA, up_card="QS") == spades.settlement


def test_oklahoma_deals_replay_from_their_record() -> None:
    deal = oklahoma("7H", knocker=GIN_HAND, stock="5D")  # knock KD: 5 left
    both_pass(deal)
    deal.apply("draw stock")
    deal.apply("knock KD")
    text = deal.record()
    assert "oklahoma=true" in text
    replayed = parse_record(text)
    assert isinstance(replayed, Deal)
    assert replayed.settlement == deal.settlement
    assert replayed.observe(0).rules.knock_limit == 7


def test_the_options_refuse_other_families() -> None:
    for option in ("oklahoma", "up_card_offer"):
        with pytest.raises(Exception, match="applies to gin only"):
            find_rules("knock", **{option: True})
    with pytest.raises(Exception, match="applies to gin only"):
        find_rules("rummy", big_gin_bonus=31)


# -- the match's end -------------------------------------------------------------------------


def test_match_end_bonuses_worked_example() -> None:
    rules = find_rules("gin-standard")
    # Seat 0 won 3 deals for 104, seat 1 won 2 for 60: no shutout.
    bonuses = settle_match_end(rules, [104, 60], [3, 2])
    assert [(t.payee, t.amount, str(t.reason)) for t in bonuses] == [
        (0, Fraction(100), "game bonus"),
        (0, Fraction(75), "line bonus"),
        (1, Fraction(50), "line bonus"),
    ]
    # Shutout: seat 1 scored nothing; seat 0's 112 + 100 + 4 * 25 = 312, doubled.
    shutout = settle_match_end(rules, [112, 0], [4, 0])
    assert [(t.payee, t.amount) for t in shutout][-1] == (0, Fraction(312))
    assert sum(t.amount for t in shutout) == 100 + 100 + 312
    assert settle_match_end("gin", [112, 0], [4, 0]) == ()


def _big_gin_deal(rules: Rules, dealer: int, winner: int) -> Deal:
    """``winner`` draws 7H, the card that makes big gin: first from the stock
    as the non-dealer, second (after the non-dealer's KD) as the dealer."""
    hands = [DEFENDER, DEFENDER]
    hands[winner] = BIG_GIN_HAND
    stock = "KD 7H" if winner == dealer else "7H"
    return new_deal(rules, hands=hands, upcard="QH", stock=stock, dealer=dealer, seed=1)


def _play_big_gin(match_rules: Rules, winners: list[int]) -> tuple[Fraction, ...]:
    match = new_match(match_rules, players=2, seed=5, dealer=0)
    for winner in winners:
        deal = _big_gin_deal(match_rules, match.deal.dealer, winner)
        match.use_deal(deal)
        match.apply("pass")
        match.apply("pass")
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            if seat == winner and "big gin" in legal(deal):
                match.apply("big gin")
            elif phase_of(deal) is Phase.DRAW:
                match.apply("draw stock")
            else:
                match.apply(f"discard {deal.hands(seat).sorted_by_rank()[-1]}")
        assert deal.settlement is not None and deal.settlement.outcome == "big-gin"
    assert match.is_over
    return match.totals


def test_a_shutout_match_doubles_the_winners_whole_score() -> None:
    rules = find_rules("gin-standard")
    # Seat 0 goes big gin in every deal (31 + 2 each): 4 deals reach 132.
    totals = _play_big_gin(rules, [0, 0, 0, 0])
    assert totals == points((132 + 100 + 100) * 2, 0)


def test_a_match_without_shutout_adds_the_game_and_line_bonuses() -> None:
    rules = find_rules("gin-standard")
    totals = _play_big_gin(rules, [0, 1, 0, 0, 0])
    assert totals == points(132 + 100 + 4 * 25, 33 + 25)


# -- random play ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [find_rules("gin-standard"), find_rules("gin-openspiel"), OKLAHOMA],
    ids=["gin-standard", "gin-openspiel", "gin-standard-oklahoma"],
)
def test_two_thousand_random_deals_keep_the_invariants(rules: Rules) -> None:
    rng = random.Random(29)
    outcomes: dict[str, int] = {}
    for number in range(2000):
        deal = new_deal(rules, 2, seed=number, dealer=number % 2)
        while not deal.is_over:
            actions = deal.legal_actions()
            ids = deal.legal_action_ids()
            assert ids == sorted(set(ids)) and len(ids) == len(actions)
            deal.apply(rng.choice(actions))
        hands = [deal.hands(seat).mask for seat in range(2)]
        rest = CardSet(deal.stock).mask | CardSet(deal.discard_pile).mask
        knock = 0 if deal.knock_card is None else deal.knock_card.bit
        assert sum(m.bit_count() for m in hands) + rest.bit_count() + bool(knock) == 52
        assert hands[0] | hands[1] | rest | knock == (1 << 52) - 1
        assert deal.turn <= rules.turn_cap + 1
        result = deal.settlement
        assert result is not None and all(n >= 0 for n in result.net)
        outcomes[str(result.outcome)] = outcomes.get(str(result.outcome), 0) + 1
        if result.outcome != "draw":
            again = settle(
                [deal.hands(0), deal.hands(1)],
                result.knocker,
                rules,
                big_gin=result.outcome == "big-gin",
                up_card=deal.up_card,
            )
            assert again == result
        # The offer's passes: the declines before the first stock draw or
        # discard (a taken up-card may be put back by undo, then passed).
        passes = 0
        for _, action in deal.history:
            if action.kind in (ActionKind.DRAW_STOCK, ActionKind.DISCARD, ActionKind.KNOCK):
                break
            passes += action.kind is ActionKind.DECLINE
        assert deal.observe(None).offer_passes == passes
    assert outcomes.get("draw", 0) < 2000  # random play does knock now and then
