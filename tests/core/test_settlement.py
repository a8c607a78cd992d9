"""Settlement of a deal: RULES.md §2-§8 and the worked examples of §9."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deal_helpers import points
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.errors import CardNotationError, DuplicateCardError, RulesError
from pyrummy.core.ledger import Transfer
from pyrummy.core.oracle import is_meld
from pyrummy.core.rules import find_rules
from pyrummy.core.settlement import (
    Settlement,
    SettlementError,
    knock_transfers,
    settle,
    settle_draw,
    settle_going_out,
    settle_no_winner,
)
from pyrummy.core.solver import best_arrangement

F = Fraction


def paid(transfers: tuple[Transfer, ...] | list[Transfer]) -> dict[tuple[int | None, int], F]:
    """Total moved per (payer, payee) pair."""
    totals: dict[tuple[int | None, int], F] = defaultdict(F)
    for transfer in transfers:
        totals[transfer.payer, transfer.payee] += transfer.amount
    return dict(totals)


def by_reason(result: Settlement) -> dict[tuple[int | None, int, str], F]:
    totals: dict[tuple[int | None, int, str], F] = defaultdict(F)
    for transfer in result.transfers:
        totals[transfer.payer, transfer.payee, transfer.reason] += transfer.amount
    return dict(totals)


# ---------------------------------------------------------------------------
# RULES.md §9 worked examples

A_HAND = "4H 5H 6H QC QD QS 8D"  # deadwood 8
B_HAND = "AS AH AD 7C 8C 9C 3H"  # deadwood 3
C_HAND = "2S 3S 4S 5S 6S JH KD"  # deadwood 20


def test_example_1_knocker_beaten_pays_difference_and_penalty() -> None:
    result = settle([A_HAND, B_HAND], knocker=0)
    assert result.counts == (8, 3)
    assert result.outcome == "knocker-beaten"
    assert result.winners == (1,)
    assert paid(result.transfers) == {(0, 1): 15}
    assert by_reason(result) == {(0, 1, "difference"): 5, (0, 1, "knock penalty"): 10}
    assert result.net == points(-15, 15)


def test_example_1_with_a_third_player_at_20() -> None:
    result = settle([A_HAND, B_HAND, C_HAND], knocker=0)
    assert result.counts == (8, 3, 20)
    assert paid(result.transfers) == {(0, 1): 15, (2, 1): 17}
    assert result.net == points(-15, 32, -17)


def test_example_2_going_rum_beats_another_zero() -> None:
    result = settle(["2S 3S 4S 5C 5D 5H 5S", "7D 8D 9D JS JH JC JD", "KH 2H"], knocker=0)
    assert result.counts == (0, 0, 12)
    assert result.outcome == "rum"
    assert result.winners == (0,)
    assert paid(result.transfers) == {(1, 0): 25, (2, 0): 37}
    assert by_reason(result) == {
        (1, 0, "rum bonus"): 25,
        (2, 0, "difference"): 12,
        (2, 0, "rum bonus"): 25,
    }


def test_example_3_knocker_tied_neither_pays_nor_receives() -> None:
    result = settle(["4S", "4H", "4D", "9C"], knocker=0)
    assert result.outcome == "knocker-tied"
    assert result.winners == (1, 2)
    assert paid(result.transfers) == {(3, 1): F(5, 2), (3, 2): F(5, 2)}
    assert result.net == points(0, F(5, 2), F(5, 2), -5)


def test_example_4_beaten_knocker_shares_difference_and_penalty() -> None:
    result = settle(["9S", "2H", "2D", "5C"], knocker=0)
    assert result.outcome == "knocker-beaten"
    assert result.winners == (1, 2)
    assert paid(result.transfers) == {
        (0, 1): F(17, 2),
        (0, 2): F(17, 2),
        (3, 1): F(3, 2),
        (3, 2): F(3, 2),
    }
    assert result.net == points(-17, 10, 10, -3)


def test_example_5_knock_target_penalty_to_every_lower_opponent() -> None:
    result = settle(["9S", "2H", "5C"], knocker=0, rules="knock-target")
    assert result.winners == (1,)
    assert by_reason(result) == {
        (0, 1, "difference"): 7,
        (0, 1, "knock penalty"): 10,
        (2, 1, "difference"): 3,
        (0, 2, "knock penalty"): 10,
    }
    assert result.net == points(-27, 20, 7)


def test_example_6_block_lowest_scores_sum_of_differences() -> None:
    # 6, 15, 7, 21 (004)
    result = settle(["6S", "5H KS", "7C", "AS KH QD"], knocker=None, rules="block")
    assert result.outcome == "block"
    assert result.counts == (6, 15, 7, 21)
    assert result.winners == (0,)
    assert result.net == points(25, 0, 0, 0)
    assert all(transfer.payer is None for transfer in result.transfers)


GIN_KNOCKER = "AS 2S 3S 7H 7D 7C KS KH KD TC"  # deadwood 10


def test_example_7_gin_knocker_lower_scores_the_difference() -> None:
    result = settle([GIN_KNOCKER, "2H 3H 4H 8S 8H 8D 4D 6C 9H AC"], knocker=0, rules="gin")
    assert result.counts == (10, 20)
    assert result.outcome == "knock"
    assert result.winners == (0,)
    assert result.net == points(10, 0)
    assert result.layoffs == ()


def test_example_7_gin_equal_deadwood_is_an_undercut() -> None:
    result = settle([GIN_KNOCKER, "2H 3H 4H 8S 8H 8D 9S 9H 9D TD"], knocker=0, rules="gin")
    assert result.counts == (10, 10)
    assert result.outcome == "undercut"
    assert result.winners == (1,)
    assert result.net == points(0, 10)
    assert by_reason(result) == {(None, 1, "undercut bonus"): 10}


# ---------------------------------------------------------------------------
# every knock branch, 2 to 5 players (hands of single unmatched cards)


def hands_of(*values: int) -> list[str]:
    """Disjoint hands without melds, each worth exactly the value given.

    Tens are K Q J T of distinct ranks and suits; the rest is one card of
    another rank, so no hand holds a set or a run.
    """
    used: set[str] = set()
    hands = []
    for value in values:
        tens, rest = divmod(value, 10)
        ranks = ["A23456789"[rest - 1]] if rest else []
        suits_in_hand: set[str] = set()
        cards = []
        for rank in ranks + ["KQJT"[i] for i in range(tens)]:
            card = next(
                rank + suit
                for suit in "SHDC"
                if rank + suit not in used and (suit not in suits_in_hand or rank in ranks)
            )
            used.add(card)
            if rank not in ranks:
                suits_in_hand.add(card[-1])
            cards.append(card)
        hands.append(" ".join(cards))
    return hands


def test_hands_of_builds_hands_of_the_given_values() -> None:
    values = (0, 7, 14, 23, 40, 31)
    hands = hands_of(*values)
    assert [best_arrangement(hand).deadwood for hand in hands] == list(values)
    assert len(CardSet(" ".join(hands))) == sum(len(hand.split()) for hand in hands)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rum_every_other_pays_deadwood_plus_25(players: int) -> None:
    values = [0] + [3 * seat for seat in range(1, players)]
    result = settle(["", *hands_of(*values[1:])], knocker=0)
    assert result.outcome == "rum"
    assert result.net[0] == sum(value + 25 for value in values[1:])
    for seat in range(1, players):
        assert result.net[seat] == -(values[seat] + 25)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_knocker_alone_lowest_collects_the_differences(players: int) -> None:
    values = [2 + seat for seat in range(players)]  # knocker is the last seat, value 2
    values = values[1:] + values[:1]
    knocker = players - 1
    result = settle(hands_of(*values), knocker=knocker)
    assert result.outcome == "knocker-lowest"
    assert result.winners == (knocker,)
    for seat in range(players - 1):
        assert paid(result.transfers)[seat, knocker] == values[seat] - 2
    assert not any(transfer.reason == "knock penalty" for transfer in result.transfers)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_knocker_tied_for_lowest(players: int) -> None:
    values = [4, 4] + [4 + 3 * seat for seat in range(1, players - 1)]
    result = settle(hands_of(*values), knocker=0)
    assert result.outcome == "knocker-tied"
    assert result.winners == (1,)
    assert result.net[0] == 0
    assert all(0 not in (t.payer, t.payee) for t in result.transfers)
    assert result.net[1] == sum(value - 4 for value in values[2:])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_knocker_beaten_pays_penalty_shared(players: int) -> None:
    # knocker 9; seats 1 and (if present) 2 hold 3; others 6
    values = [9] + [3 if seat <= 2 else 6 for seat in range(1, players)]
    winners = tuple(seat for seat in range(1, players) if values[seat] == 3)
    result = settle(hands_of(*values), knocker=0)
    assert result.outcome == "knocker-beaten"
    assert result.winners == winners
    share = F(1, len(winners))
    for winner in winners:
        assert paid(result.transfers)[0, winner] == (9 - 3 + 10) * share
        for loser in range(1, players):
            if loser not in winners:
                assert paid(result.transfers)[loser, winner] == 3 * share
    assert sum(result.net) == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_knocker_lowest_collect_without_penalty_or_bonus(players: int) -> None:
    values = [7, 2] + [2 + seat for seat in range(2, players)]
    result = settle(hands_of(*values), knocker=None)
    assert result.outcome == "no-knocker"
    assert result.winners == (1,)
    assert result.net[1] == sum(value - 2 for value in values)
    assert {t.reason for t in result.transfers} == {"difference"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_knock_target_penalty_goes_to_each_lower_opponent(players: int) -> None:
    values = [8] + [1 + 2 * seat for seat in range(1, players)]  # 3, 5, 7, 9, 11
    result = settle(hands_of(*values), knocker=0, rules="knock-target")
    lower = [seat for seat in range(1, players) if values[seat] < 8]
    penalties = [t for t in result.transfers if t.reason == "knock penalty"]
    assert sorted(t.payee for t in penalties) == lower
    assert all(t.payer == 0 and t.amount == 10 for t in penalties)
    assert result.winners == (1,)


def test_no_knocker_tie_shares_equally_in_thirds() -> None:
    result = settle(["2S", "2H", "2D", "4C"], knocker=None)
    assert result.net == points(F(2, 3), F(2, 3), F(2, 3), -2)


# ---------------------------------------------------------------------------
# properties of knock settlements (from deadwoods: the solver is tested elsewhere)

knock_cases = st.integers(2, 6).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 40), min_size=n, max_size=n),
        st.one_of(st.none(), st.integers(0, n - 1)),
        st.sampled_from(["knock", "knock-target"]),
    )
)


@given(knock_cases)
def test_knock_properties(case: tuple[list[int], int | None, str]) -> None:
    deadwoods, knocker, preset = case
    transfers, winners, outcome = knock_transfers(deadwoods, knocker, preset)
    net = [F(0)] * len(deadwoods)
    for transfer in transfers:
        assert transfer.payer is not None and transfer.amount > 0
        net[transfer.payer] -= transfer.amount
        net[transfer.payee] += transfer.amount
    # transfers sum to zero; winners never pay; all winners gain the same
    assert sum(net) == 0
    assert winners
    assert not any(transfer.payer in winners for transfer in transfers)
    assert len({net[winner] for winner in winners}) == 1
    low = min(deadwoods)
    assert all(deadwoods[winner] == low for winner in winners) or outcome == "rum"
    if knocker is not None and outcome == "knocker-tied":
        assert net[knocker] == 0
        assert all(knocker not in (t.payer, t.payee) for t in transfers)
        assert deadwoods[knocker] == low > 0
    penalties = [t for t in transfers if t.reason == "knock penalty"]
    if outcome == "knocker-beaten":
        assert knocker is not None and deadwoods[knocker] > low
        assert sum(t.amount for t in penalties) == (
            10 * sum(d < deadwoods[knocker] for d in deadwoods) if preset == "knock-target" else 10
        )
    else:
        assert penalties == []
    # every loser other than a beaten knocker pays exactly its difference
    for seat, deadwood in enumerate(deadwoods):
        if seat not in winners and outcome != "rum":
            out = sum(t.amount for t in transfers if t.payer == seat and t.reason == "difference")
            assert out == deadwood - low


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.randoms(use_true_random=False), st.booleans())
def test_settle_real_deals_sum_to_zero_and_count_best_deadwood(
    players: int, rng: random.Random, knocked: bool
) -> None:
    deck = [Card.from_index(i) for i in range(52)]
    rng.shuffle(deck)
    size = 10 if players == 2 else 7
    hands = [CardSet(deck[seat * size : (seat + 1) * size]) for seat in range(players)]
    knocker = rng.randrange(players) if knocked else None
    result = settle(hands, knocker)
    assert sum(result.net) == 0
    assert result.counts == tuple(best_arrangement(hand).deadwood for hand in hands)
    assert all(hand.cards == cards for hand, cards in zip(result.hands, hands, strict=True))


# ---------------------------------------------------------------------------
# gin lay-offs

RUN_KNOCKER = "4H 5H 6H 9S 9D 9C KS KD KC 2C"  # melds 4-6H, 9s, Ks; deadwood 2


def run_meld_index(result: Settlement, card: str) -> int:
    melds = result.hands[0].melds
    return next(i for i, meld in enumerate(melds) if Card(card) in meld)


def test_gin_several_cards_on_one_run_both_ends_and_chains() -> None:
    defender = "2H 3H 7H 8H QS QH JD 5C 5S AC"  # 61 before lay-offs
    result = settle([RUN_KNOCKER, defender], knocker=0, rules="gin")
    run = run_meld_index(result, "4H")
    laid = [str(card) for card, _ in result.layoffs]
    assert sorted(laid) == ["2H", "3H", "7H", "8H"]
    assert {meld for _, meld in result.layoffs} == {run}
    assert laid.index("3H") < laid.index("2H")
    assert laid.index("7H") < laid.index("8H")
    assert result.defender_deadwood == 61 - (2 + 3 + 7 + 8)
    assert result.outcome == "knock"
    assert result.net == points(41 - 2, 0)


def test_gin_fourth_card_of_a_set() -> None:
    result = settle([RUN_KNOCKER, "9H QS JD 5C"], knocker=0, rules="gin")
    nines = run_meld_index(result, "9S")
    assert [(str(card), meld) for card, meld in result.layoffs] == [("9H", nines)]
    assert result.defender_deadwood == 10 + 10 + 5


def test_gin_defender_chooses_own_melds_and_layoffs_together() -> None:
    # Laying off 7H 8H (chain) leaves 8S 8D; keeping 8H 8S 8D and laying off 7H leaves 0.
    result = settle([RUN_KNOCKER, "7H 8H 8S 8D QS"], knocker=0, rules="gin")
    assert [str(card) for card, _ in result.layoffs] == ["7H"]
    assert result.defender_deadwood == 10
    assert CardSet("8S 8H 8D") in result.hands[1].melds


def test_gin_a_card_goes_to_one_meld_only() -> None:
    # 7H fits the 7-set and the run; the run also takes 8H after it.
    result = settle(["4H 5H 6H 7S 7D 7C KS KD KC 2C", "7H 8H QS QD"], knocker=0, rules="gin")
    run = run_meld_index(result, "4H")
    assert [(str(card), meld) for card, meld in result.layoffs] == [("7H", run), ("8H", run)]
    assert result.defender_deadwood == 20


def test_gin_undercut_through_layoffs() -> None:
    result = settle([RUN_KNOCKER, "7H 3H 2D"], knocker=0, rules="gin")
    assert result.defender_deadwood == 2
    assert result.outcome == "undercut"
    assert result.winners == (1,)
    assert result.net == points(0, 10)


def test_gin_undercut_scores_difference_plus_bonus() -> None:
    result = settle(["4H 5H 6H 9S 9D 9C KS KD KC 8C", "AD 2D"], knocker=0, rules="gin")
    assert by_reason(result) == {(None, 1, "difference"): 5, (None, 1, "undercut bonus"): 10}


GIN_HAND = "4H 5H 6H 7H 9S 9D 9C KS KD KC"


def test_gin_with_layoffs_scores_bonus_plus_deadwood_after_layoffs() -> None:
    result = settle([GIN_HAND, "8H 3H QD JD 2C"], knocker=0, rules="gin")
    assert result.outcome == "gin"
    assert result.defender_deadwood == 10 + 10 + 2
    assert by_reason(result) == {(None, 0, "gin bonus"): 20, (None, 0, "difference"): 22}
    assert result.net == points(42, 0)


def test_gin_without_layoffs_when_the_option_is_off() -> None:
    rules = find_rules("gin", layoff_on_gin=False)
    result = settle([GIN_HAND, "8H 3H QD JD 2C"], knocker=0, rules=rules)
    assert result.layoffs == ()
    assert result.defender_deadwood == 8 + 3 + 10 + 10 + 2
    assert result.net == points(20 + 33, 0)


def test_gin_is_never_undercut() -> None:
    result = settle([GIN_HAND, "8H 3H 2H AD 2D 3D"], knocker=0, rules="gin")
    assert result.defender_deadwood == 0
    assert result.outcome == "gin"
    assert result.winners == (0,)
    assert result.net == points(20, 0)


def test_gin_knocker_seat_one() -> None:
    result = settle(["8H QD", GIN_HAND], knocker=1, rules="gin")
    assert result.knocker == 1
    assert result.counts == (10, 0)
    assert result.net == points(0, 30)


TIE_KNOCKER = "3S 4S 5S 4H 4D 9C 9H 9D 9S AC"  # run+4H 4D or set+3S 5S: deadwood 9 either way


def test_gin_tie_break_knocker_shows_the_arrangement_with_fewest_layoffs() -> None:
    # The run 3-4-5S would take 6S 7S; the set of 4s takes nothing of these.
    result = settle([TIE_KNOCKER, "6S 7S KH QD JD 2H 7C 8D TH 2D"], knocker=0, rules="gin")
    assert CardSet("4S 4H 4D") in result.hands[0].melds
    assert result.layoffs == ()
    assert result.counts == (9, 72)
    # The set of 4s would take 4C; the run takes nothing here.
    result = settle([TIE_KNOCKER, "4C KH QD JD"], knocker=0, rules="gin")
    assert CardSet("3S 4S 5S") in result.hands[0].melds
    assert result.counts == (9, 34)


def test_gin_knocker_over_the_limit_is_still_settled() -> None:
    result = settle(["KS QS JD", "2C"], knocker=0, rules="gin")
    assert result.outcome == "undercut"
    assert result.net == points(0, 28 + 10)


def test_gin_draw() -> None:
    result = settle_draw([RUN_KNOCKER, "7H 8H"], "gin")
    assert result.outcome == "draw"
    assert result.net == points(0, 0)
    assert result.transfers == ()
    assert settle([RUN_KNOCKER, "7H 8H"], None, "gin").outcome == "draw"


def test_gin_to_dict_has_layoffs_and_fraction_strings() -> None:
    result = settle([RUN_KNOCKER, "9H QS JD 5C"], knocker=0, rules="gin")
    data = result.to_dict()
    assert data["defender_deadwood"] == 25
    assert data["layoffs"] == [{"card": "9H", "meld": run_meld_index(result, "9S")}]
    assert data["net"] == ["23", "0"]
    assert data["outcome"] == "knock"


# ---------------------------------------------------------------------------
# block and the melding games


def test_block_tied_lowest_share() -> None:
    result = settle(["6S", "6H", "TD"], knocker=None, rules="block")
    assert result.winners == (0, 1)
    assert result.net == points(2, 2, 0)


def test_block_counts_the_whole_hand_not_deadwood() -> None:
    result = settle(["7S 8S 9S", "KH"], knocker=None, rules="block")
    assert result.counts == (24, 10)
    assert result.net == points(0, 14)
    assert result.hands[0].melds == ()


@pytest.mark.parametrize(
    ("preset", "options", "went_rummy", "net"),
    [
        ("basic", {}, False, (0, 18, 0)),
        ("basic", {}, True, (0, 18, 0)),
        ("basic", {"going_rummy": "double"}, True, (0, 36, 0)),
        ("basic", {"going_rummy": "double"}, False, (0, 18, 0)),
        ("basic", {"going_rummy": "plus10"}, True, (0, 28, 0)),
        ("rummy", {}, True, (0, 36, 0)),
        ("basic", {"scoring": "penalty"}, False, (-15, 0, -3)),
        ("basic", {"scoring": "penalty", "going_rummy": "double"}, True, (-30, 0, -6)),
        ("basic", {"scoring": "penalty", "going_rummy": "plus10"}, True, (-15, 10, -3)),
        ("basic", {"scoring": "pay_per_point"}, False, (-15, 18, -3)),
        ("basic", {"scoring": "pay_per_point", "going_rummy": "double"}, True, (-30, 36, -6)),
        ("basic", {"scoring": "pay_per_point", "going_rummy": "plus10"}, True, (-20, 28, -8)),
    ],
)
def test_going_out(
    preset: str, options: dict[str, object], went_rummy: bool, net: tuple[int, ...]
) -> None:
    rules = find_rules(preset, **options)
    result = settle_going_out(1, ["5H KS", "", "AS 2C"], rules, went_rummy=went_rummy)
    assert result.net == net
    assert result.winners == (1,)
    bonus = went_rummy and rules.going_rummy != "none"
    assert result.outcome == ("rummy" if bonus else "out")
    assert result.counts == (15, 0, 3)


def test_going_out_with_ace_high_counts_the_ace_15() -> None:
    rules = find_rules("basic", ace="high_or_low")
    assert settle_going_out(0, ["", "AS 2C"], rules).net == points(17, 0)


def test_going_out_pay_per_point_moves_real_points() -> None:
    result = settle_going_out(
        0, ["", "5H KS", "AS 2C"], find_rules("basic", scoring="pay_per_point")
    )
    assert paid(result.transfers) == {(1, 0): 15, (2, 0): 3}
    assert sum(result.net) == 0


def test_going_out_winner_must_have_an_empty_hand() -> None:
    with pytest.raises(SettlementError, match="seat 1 went out but still holds 7H"):
        settle_going_out(1, ["5H", "7H"], "basic")
    with pytest.raises(SettlementError, match="winner 2 is not a seat"):
        settle_going_out(2, ["5H", ""], "basic")


@pytest.mark.parametrize(
    ("preset", "options", "outcome", "net"),
    [
        ("basic", {}, "block", (0, 0, 17)),
        ("rotham", {}, "block", (0, 0, 17)),
        ("rummy", {}, "draw", (0, 0, 0)),
        ("basic", {"nobody_out": "draw"}, "draw", (0, 0, 0)),
        ("block", {}, "block", (0, 0, 17)),
        ("basic", {"stock_end": "block"}, "block", (0, 0, 17)),
        ("basic", {"scoring": "penalty"}, "penalty", (-6, -15, -2)),
        ("basic", {"scoring": "pay_per_point"}, "block", (-4, -13, 17)),
    ],
)
def test_no_winner(
    preset: str, options: dict[str, object], outcome: str, net: tuple[int, ...]
) -> None:
    rules = find_rules(preset, **options)
    result = settle_no_winner(["6S", "5H KS", "2C"], rules)
    assert result.outcome == outcome
    assert result.counts == (6, 15, 2)
    assert result.net == net


def test_no_winner_pay_per_point_ties_share() -> None:
    result = settle_no_winner(["2S", "2H", "9C"], find_rules("basic", scoring="pay_per_point"))
    assert paid(result.transfers) == {(2, 0): F(7, 2), (2, 1): F(7, 2)}
    assert result.winners == (0, 1)


# ---------------------------------------------------------------------------
# bad input


def test_duplicate_card_across_hands_is_named() -> None:
    with pytest.raises(DuplicateCardError, match="QS is in the hands of seat 0 and seat 2"):
        settle([A_HAND, B_HAND, "QS 2D"], knocker=0)


def test_duplicate_card_inside_a_hand_names_the_seat() -> None:
    with pytest.raises(DuplicateCardError, match="seat 1: 7H appears twice"):
        settle(["2S", "7H 7h"], knocker=0)


def test_bad_card_names_the_seat() -> None:
    with pytest.raises(CardNotationError, match="seat 1: '1X' is not a card"):
        settle(["2S", "7H 1X"], knocker=0)


def test_jokers_only_where_the_deck_has_them() -> None:
    with pytest.raises(CardNotationError, match="X1 is not in the knock deck"):
        settle(["2S", "7H X1"], knocker=0)
    assert settle_no_winner(["X1", "7H"], "rotham").counts == (15, 7)


@pytest.mark.parametrize("knocker", [2, -1])
def test_knocker_out_of_range(knocker: int) -> None:
    with pytest.raises(SettlementError, match=f"knocker {knocker} is not a seat"):
        settle(["2S", "3S"], knocker=knocker)


def test_player_counts() -> None:
    with pytest.raises(RulesError, match="not 1"):
        settle(["2S"], knocker=0)
    with pytest.raises(RulesError, match="gin is for 2-2 players, not 3"):
        settle(["2S", "3S", "4S"], knocker=0, rules="gin")


def test_a_single_string_is_not_a_list_of_hands() -> None:
    with pytest.raises(SettlementError, match="one hand per seat"):
        settle("2S 3S", knocker=0)


def test_block_has_no_knocker() -> None:
    with pytest.raises(SettlementError, match="no knocker"):
        settle(["2S", "3S"], knocker=0, rules="block")


def test_settlement_to_dict_knock() -> None:
    data = settle(["9S", "2H", "2D", "5C"], knocker=0).to_dict()
    assert data["net"] == ["-17", "10", "10", "-3"]
    transfers, hands = data["transfers"], data["hands"]
    assert isinstance(transfers, list) and isinstance(hands, list)
    assert {"from": 0, "to": 1, "amount": "7/2", "reason": "difference"} in transfers
    assert hands[0] == {
        "seat": 0,
        "melds": [],
        "deadwood_cards": ["9S"],
        "deadwood": 9,
        "count": 9,
    }
    assert "layoffs" not in data


def brute_force_defence(defender: CardSet, knocker_melds: tuple[CardSet, ...]) -> int:
    """Least deadwood over every assignment of cards to knocker melds whose
    union with the meld is still a meld (lay-offs in one go, checked whole)."""
    candidates = [
        card
        for card in defender
        if any(
            card.suit == next(iter(meld)).suit or card.rank == next(iter(meld)).rank
            for meld in knocker_melds
        )
    ]
    best = best_arrangement(defender, "gin").deadwood
    for targets in itertools.product(range(-1, len(knocker_melds)), repeat=len(candidates)):
        laid = [CardSet() for _ in knocker_melds]
        for card, target in zip(candidates, targets, strict=True):
            if target >= 0:
                laid[target] = laid[target].add(card)
        if all(
            not extra or is_meld(meld | extra, find_rules("gin"))
            for meld, extra in zip(knocker_melds, laid, strict=True)
        ):
            rest = CardSet(defender.mask & ~sum(extra.mask for extra in laid))
            best = min(best, best_arrangement(rest, "gin").deadwood)
    return best


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_gin_defence_matches_brute_force(rng: random.Random) -> None:
    # Deal until the knocker has melds to lay off on.
    while True:
        deck = [Card.from_index(i) for i in range(52)]
        rng.shuffle(deck)
        knocker, defender = CardSet(deck[:10]), CardSet(deck[10:20])
        if best_arrangement(knocker, "gin").melds:
            break
    result = settle([knocker, defender], knocker=0, rules="gin")
    shown = result.hands[0].melds
    assert result.defender_deadwood == brute_force_defence(defender, shown)
    laid = CardSet(card for card, _ in result.layoffs)
    assert laid | result.hands[1].cards == defender
    assert laid.isdisjoint(result.hands[1].cards)


def test_hands_may_be_card_sets_strings_or_lists_of_cards_or_names() -> None:
    as_strings = settle([A_HAND, B_HAND], knocker=0)
    assert settle([CardSet(A_HAND), list(CardSet(B_HAND))], knocker=0) == as_strings
    assert settle([A_HAND.split(), B_HAND.split()], knocker=0) == as_strings
