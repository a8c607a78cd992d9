"""The rulings of issue 13, each tested from the source document's own words.

Four places where the engine differed from the seeds (``shared/seeds``), and
the public way to set up a position that these tests use throughout.
"""

from __future__ import annotations

import io
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import pyrummy
from deal_helpers import draw_and_throw_back, legal, points, refused
from pyrummy.cli.play import PlaySession
from pyrummy.core.actions import ActionKind, action_space, parse_action
from pyrummy.core.cards import ALL_CARDS, JOKERS, N_STANDARD, Card, CardSet
from pyrummy.core.deal import new_deal
from pyrummy.core.errors import (
    CardGivenTwiceError,
    CardNotInDeckError,
    DuplicateCardError,
    HandSizeError,
    RecordError,
    SetupError,
)
from pyrummy.core.match import new_match
from pyrummy.core.melds import MeldKind, check_meld, extend_meld, swap_joker
from pyrummy.core.oracle import all_melds, exhaustive_solve, is_meld
from pyrummy.core.record import emit_record, parse_record
from pyrummy.core.rules import find_rules
from pyrummy.core.settlement import settle_no_winner
from pyrummy.core.solver import best_arrangement, deadwood

# -- 1. Basic Rummy: nobody out ---------------------------------------------------


@pytest.mark.parametrize("preset", ["basic", "block", "rotham"])
def test_nobody_out_the_lowest_hand_scores_the_differences(preset: str) -> None:
    """Seed 004: «Если игра заканчивается без выхода, все игроки считают ценность
    карт, оставшихся в их руках. Победителем становится игрок с наименьшим
    количеством очков, который получает сумму разниц между этим и очками в руке
    каждого другого игрока. Пример: А имеет 6; B имеет 15; С имеет 7; D имеет 21.
    A является победителем и набирает 25 = (9 + 1 + 15).»"""
    result = settle_no_winner(["6S", "5H KS", "7C", "AS KH QD"], preset)
    assert result.outcome == "block" and result.winners == (0,)
    assert result.net == points(25, 0, 0, 0)


def test_nobody_out_hands_50_51_51_the_lowest_scores_2() -> None:
    """The issue's reading of the same paragraph: hands 50/51/51 → the lowest scores 2."""
    hands = ["KS QS JS TS TH", "KH QH JH TD TC AS", "KD QD JD 9C 9D 3C"]
    result = settle_no_winner(hands, "basic")
    assert result.counts == (50, 51, 51)
    assert result.net == points(2, 0, 0)


def test_nobody_out_tied_lowest_share() -> None:
    """Seed 004: «Если два или более игроков сыграют вничью за самое низкое, они
    делят выигрыш одинаково.»"""
    result = settle_no_winner(["6S", "6H", "9C"], "basic")
    assert result.net == points(Fraction(3, 2), Fraction(3, 2), 0)


def test_rummy_keeps_its_draw() -> None:
    """Seed 001 (the rummy preset): «Если колода кончилась во второй раз или за
    столом сыграно 120 ходов, а никто не вышел, сдача заканчивается ничьей: все
    получают 0»."""
    result = settle_no_winner(["6S", "5H KS", "7C"], "rummy")
    assert result.outcome == "draw" and result.net == points(0, 0, 0)


NO_MELDS = ["AS 3S 5S 7S 9S JS KH 2H 4H 6H", "2D 4D 6D 8D TD QD AC 3C 5C 7C"]


def test_basic_reuse_limit_end_is_scored_not_drawn() -> None:
    """Seed 004 again: the stock used up for the last time is a deal «без выхода»."""
    deal = new_deal(
        "basic", hands=NO_MELDS, upcard="KD", seed=1, stock_end="reuse_limit", reuse_limit=1
    )
    draw_and_throw_back(deal, len(deal.stock))
    deal.apply("decline")
    assert deal.is_over and deal.end_reason == "exhausted"
    settlement = deal.settlement
    assert settlement is not None and settlement.outcome == "block"
    low, high = sorted(settlement.counts)
    assert max(settlement.net) == high - low > 0 and min(settlement.net) == 0


@pytest.mark.parametrize(("preset", "outcome"), [("basic", "block"), ("rummy", "draw")])
def test_turn_cap_end_is_scored_by_the_preset(preset: str, outcome: str) -> None:
    hands = [NO_MELDS[0][:20], NO_MELDS[1][:20], "8H TH QH 8C TC QC KC"]
    deal = new_deal(preset, hands=hands, upcard="KD", seed=1, turn_cap=6)
    draw_and_throw_back(deal, 10)
    assert deal.is_over and deal.end_reason == "cap"
    assert deal.settlement is not None and deal.settlement.outcome == outcome


# -- 2. Rotham: one real card and two jokers ---------------------------------------


def test_one_card_and_two_jokers_is_a_meld() -> None:
    """Seed 004 (Rotham): «Джокер может быть использован в качестве замены любой
    карты, необходимой для слияния набора или бега.» Two jokers can replace the
    two cards a set or a run needs besides the 5♥."""
    assert check_meld("5H X1 X2", "rotham").kind is MeldKind.SET
    run = check_meld("5H X1 X2", "rotham", run=True)
    assert run.kind is MeldKind.RUN
    assert [str(c) for c in run.represents] == ["5H", "6H", "7H"]
    assert [str(c) for c in check_meld("X1 X2 5H", "rotham", run=True).represents] == [
        "3H",
        "4H",
        "5H",
    ]
    # K-A-2 needs the corner; ace low puts the jokers below the king.
    assert [str(c) for c in check_meld("KC X1 X2", "rotham", run=True).represents] == [
        "JC",
        "QC",
        "KC",
    ]
    assert check_meld("5H X1 X2 X3", "rotham").kind is MeldKind.SET
    with pytest.raises(ValueError, match="only jokers"):
        check_meld("X1 X2 X3", "rotham")
    with pytest.raises(ValueError, match="suits differ"):
        check_meld("5H 5S X1", "rotham", run=True)
    assert deadwood("5H X1 X2", "rotham") == 0
    # The jokers go with the king, the cheaper 5H is left over.
    assert str(best_arrangement("5H X1 X2 KC", "rotham")) == "[KC X1 X2] 5H = 5"


def test_the_oracle_knows_the_rule_by_itself() -> None:
    rotham = find_rules("rotham")
    assert is_meld(CardSet("5H X1 X2"), rotham)
    assert is_meld(CardSet("5H X1 X2 X3"), rotham)
    assert not is_meld(CardSet("X1 X2 X3"), rotham)
    assert not is_meld(CardSet("5H 6S X1"), rotham)
    assert exhaustive_solve("5H X1 X2", rotham).deadwood == 0


def rotham_position(seat1: str, deal_number: int = 1) -> pyrummy.Deal:
    """Seat 1 plays first with 8 cards and no draw."""
    return new_deal(
        "rotham",
        hands=["8S 3C 5C 7C 9C JC QC", seat1, "AS 3S 5S 7S 9S JS KH"],
        upcard="4D",
        stock="TD 6D 4H",
        dealer=0,
        seed=2,
        deal_number=deal_number,
    )


def test_a_deal_offers_the_set_and_every_named_run() -> None:
    deal = rotham_position("5H X1 X2 2C 2D KS QD JD")
    melds = {a for a in legal(deal) if a.startswith("meld") and "5H" in a}
    assert melds == {
        "meld 5H X1 X2",
        "meld run 5H X1 X2",
        "meld run X1 5H X2",
        "meld run X1 X2 5H",
    }
    # Every legal action reads back from its text and its number.
    space = deal.action_space
    for action in deal.legal_actions():
        assert parse_action(str(action)) == action
        assert space.decode(space.encode(action)) == action
    deal.apply("meld run X1 5H X2")
    (table_meld,) = deal.table
    assert table_meld.meld.kind is MeldKind.RUN
    assert [str(c) for c in table_meld.meld.represents] == ["4H", "5H", "6H"]


def test_a_named_run_must_be_a_run_and_the_meld_says_why() -> None:
    deal = rotham_position("5H X1 X2 2C 2D KS QD JD")
    refused(deal, "meld run 2C 2D X1", "action.invalid_meld")
    refused(deal, "meld run 2C 2D 5H", "action.invalid_meld")
    deal.apply("meld run 2D X1 X2")  # one real card: named, so a run
    assert deal.table[0].meld.kind is MeldKind.RUN


def test_lay_offs_and_swaps_on_a_one_card_meld() -> None:
    """The other half of seed 004's joker rule: «Игрок, который держит карту,
    которую представляет смешанный джокер, может в течение своего хода обменять
    настоящую карту на джокера.» On ``5♥ 🃏 🃏`` read as a set, the jokers stand
    for any missing five."""
    deal = rotham_position("5H X1 X2 2C 2D KS QD JD")
    deal.apply("meld 5H X1 X2")
    deal.apply("discard KS")
    deal.apply("draw stock")  # seat 2, who holds 5S
    assert "layoff 5S 0" in legal(deal) and "swap-joker 5S 0" in legal(deal)
    deal.apply("swap-joker 5S 0")
    assert str(deal.table[0].meld) == "5S 5H X2"
    assert "X1" in str(deal.hands(2))
    set_meld = check_meld("5H X1 X2", "rotham")
    assert extend_meld(set_meld, Card("5C"), "rotham") is not None
    assert extend_meld(set_meld, Card("6H"), "rotham") is None
    run = check_meld("X1 5H X2", "rotham", run=True)
    assert str(extend_meld(run, Card("7H"), "rotham")) == "X1 5H X2 7H"
    assert str(extend_meld(run, Card("3H"), "rotham")) == "3H X1 5H X2"
    swapped = swap_joker(run, Card("6H"))
    assert swapped is not None and str(swapped[0]) == "X1 5H 6H"
    assert swap_joker(run, Card("5S")) is None


def test_all_seven_deal_may_go_down_with_a_one_card_meld() -> None:
    # 5H X1 X2 + 2S 2H 2D: JD 6C are two cards over, not all seven.
    deal = rotham_position("5H X1 X2 2S 2H 2D JD 6C", deal_number=4)
    assert not any(a.startswith("meld") for a in legal(deal))
    # 5H X1 X2 + 2S 2H 2D 2C, JD to discard: all seven go down.
    deal = rotham_position("5H X1 X2 2S 2H 2D 2C JD", deal_number=4)
    assert {"meld 5H X1 X2", "meld 2S 2H 2D 2C"} <= legal(deal)
    deal.apply("meld 5H X1 X2")
    deal.apply("meld 2S 2H 2D 2C")
    deal.apply("discard JD")
    assert deal.is_over and deal.settlement is not None and deal.settlement.winners == (1,)


HANDS_WITH_JOKERS = st.builds(
    lambda reals, jokers: CardSet([*reals, *jokers]),
    st.lists(st.sampled_from(ALL_CARDS[:N_STANDARD]), min_size=1, max_size=8, unique=True),
    st.lists(st.sampled_from(JOKERS), min_size=1, max_size=3, unique=True),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HANDS_WITH_JOKERS, st.sampled_from(["low", "high_or_low", "around_the_corner"]))
def test_solver_equals_the_oracle_with_jokers(hand: CardSet, ace: str) -> None:
    rules = find_rules("basic", jokers=3, ace=ace)
    assert deadwood(hand, rules) == exhaustive_solve(hand, rules).deadwood
    found = best_arrangement(hand, rules)
    assert found.deadwood == exhaustive_solve(hand, rules).deadwood
    assert all(is_meld(meld, rules) for meld in found.melds)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(ALL_CARDS[:N_STANDARD]), min_size=5, max_size=7, unique=True),
    st.integers(1, 3),
)
def test_the_legal_melds_are_exactly_the_oracles_melds(reals: list[Card], jokers: int) -> None:
    """The deal's meld enumeration (fast, by masks) against the oracle's brute force."""
    starter = [*reals, *JOKERS[:jokers]][:8]
    if len(starter) < 8:
        starter += [c for c in ALL_CARDS[:N_STANDARD] if c not in starter][: 8 - len(starter)]
    rest = [c for c in ALL_CARDS[:N_STANDARD] if c not in starter]
    others = [rest[:7], rest[7:14]]
    deal = new_deal("rotham", hands=[others[0], starter, others[1]], dealer=0, seed=1)
    listed = {
        CardSet(action.cards) for action in deal.legal_actions() if action.kind is ActionKind.MELD
    }
    assert listed == set(all_melds(CardSet(starter), "rotham"))


def test_the_action_space_keeps_the_older_meld_numbers() -> None:
    space = action_space("rotham")
    assert space.encode(parse_action("meld 7H X1 9H")) < space.encode(parse_action("meld 5H X1 X2"))
    named = space.encode(parse_action("meld run X1 5H X2"))
    assert str(space.decode(named)) == "meld run X1 5H X2"
    assert space.encode(parse_action("meld run 7H 8H 9H")) == space.encode(
        parse_action("meld 9H 7H 8H")
    )


# -- 3. Pay per point: a fixed number of deals --------------------------------------


def play_out(match: pyrummy.Match, seed: int) -> None:
    rng = random.Random(seed)
    while not match.is_over:
        actions = [a for a in match.legal_actions() if a.kind is not ActionKind.UNDO]
        match.apply(rng.choice(actions))


def test_pay_per_point_plays_a_fixed_number_of_deals() -> None:
    """Seed 004: «Некоторые играют, что каждый проигравший платит победителю в
    соответствии с количеством очков в их руке… Сеанс будет длиться определенное
    количество раздач, а не разыгрываться до целевого счета.»"""
    rules = find_rules("block", scoring="pay_per_point", target=1)
    assert rules.ending == "dealer_round" and rules.deals_in_match(3) == 3
    match = new_match(rules, players=3, seed=4)
    play_out(match, 4)
    # target=1 is reached in the first deal: a race would stop there.
    assert len(match.finished_deals) == 3
    assert sum(match.totals) == 0

    eight = find_rules("block", scoring="pay_per_point", deals=5)
    assert eight.ending == "deals" and eight.deals_in_match(2) == 5
    match = new_match(eight, players=2, seed=5)
    play_out(match, 5)
    assert len(match.finished_deals) == 5


def test_other_scorings_keep_their_ending() -> None:
    assert find_rules("basic").ending == "target"
    assert find_rules("basic", scoring="penalty").ending == "penalty_limit"
    assert find_rules("basic", scoring="pay_per_point", match_end="penalty_limit").ending == (
        "penalty_limit"
    )
    assert find_rules("knock").ending == "dealer_round"


# -- 4. Undo: no limit ------------------------------------------------------------


def test_any_step_before_the_discard_can_be_undone_however_often() -> None:
    """Seed 001: «До сброса любой шаг можно отменить.»"""
    deal = new_deal(
        "rummy",
        hands=["7H 8H 9H 2C 2D 2S KD", "AS 3S 5S 7S 9S JS KH", "AC 3C 5C 7C 9C JC QC"],
        upcard="4D",
        stock="TH",
        dealer=2,
        seed=1,
    )
    deal.apply("draw stock")
    for _ in range(30):
        deal.apply("meld 7H 8H 9H")
        deal.apply("meld 2C 2D 2S")
        deal.apply("layoff TH 0")
        for _ in range(3):
            deal.apply("undo")
    assert not deal.table and deal.observe(0).undos_this_turn == 90
    assert "undo" not in legal(deal)


def test_bots_never_undo() -> None:
    bot = pyrummy.make_bot("random", seed=1)
    deal = new_deal("knock", players=2, seed=3)
    deal.apply("draw discard")
    legal_actions = deal.legal_actions()
    assert any(a.kind is ActionKind.UNDO for a in legal_actions)
    assert all(
        bot.choose(deal.observe(1), legal_actions).kind is not ActionKind.UNDO for _ in range(200)
    )


# -- setting up a position ----------------------------------------------------------


def test_a_position_deals_the_hands_given() -> None:
    hands = ["7H 8H 9H 2C 2D 2S KD", "AS 3S 5S 7S 9S JS KH", "AC 3C 5C 7C 9C JC QC"]
    deal = pyrummy.new_deal("rummy", hands=hands, upcard="4D", stock="TH 6S", dealer=2, seed=9)
    assert [deal.hands(s) for s in range(3)] == [CardSet(h) for h in hands]
    assert deal.discard_pile == (Card("4D"),) and deal.stock[:2] == (Card("TH"), Card("6S"))
    assert deal.current_seat == 0 and deal.seed is None
    # The rest is shuffled by the seed: the same seed, the same deck.
    again = pyrummy.new_deal("rummy", hands=hands, upcard="4D", stock="TH 6S", dealer=2, seed=9)
    assert again.deck == deal.deck
    other = pyrummy.new_deal("rummy", hands=hands, upcard="4D", stock="TH 6S", dealer=2, seed=8)
    assert other.deck != deal.deck and other.deck[:24] == deal.deck[:24]
    # One string with / between seats works too; no upcard: it comes from the rest.
    joined = pyrummy.new_deal("rummy", hands=" / ".join(hands), dealer=2, seed=9)
    assert joined.hands(1) == CardSet(hands[1]) and len(joined.discard_pile) == 1


@pytest.mark.parametrize(
    ("setup", "error", "message"),
    [
        ({"hands": ["7H 8H"] * 2}, HandSizeError, "seat 0 must get 10 cards in rummy"),
        ({"hands": ["7H"]}, HandSizeError, "rummy is for 2-4 players: 1 hands given"),
        (
            {"hands": ["AS 2S 3S 4S 5S 6S 7S"] * 1 + ["AH 2H 3H 4H 5H 6H 7H"] * 2},
            CardGivenTwiceError,
            "AH is given twice: seat 1's hand and seat 2's hand",
        ),
        (
            {"hands": ["AS 2S 3S 4S 5S 6S X1", "AH 2H 3H 4H 5H 6H 7H", "AD 2D 3D 4D 5D 6D 7D"]},
            CardNotInDeckError,
            "X1 .seat 0's hand. is not in the deck of rummy: it has no jokers",
        ),
        (
            {
                "hands": ["AS 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H", "AD 2D 3D 4D 5D 6D 7D"],
                "upcard": "7S",
            },
            CardGivenTwiceError,
            "7S is given twice: seat 0's hand and the upcard",
        ),
        (
            {
                "hands": ["AS 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H", "AD 2D 3D 4D 5D 6D 7D"],
                "stock": "KC KC",
            },
            CardGivenTwiceError,
            "KC is given twice: the stock and the stock",
        ),
        (
            {"hands": ["AS 2S 3S 4S 5S 6S 7S", "AH 2H 3H 4H 5H 6H 7H"], "players": 3},
            HandSizeError,
            "players=3 but 2 hands are given",
        ),
        ({"upcard": "KS"}, SetupError, "give the hands too"),
    ],
)
def test_a_bad_position_is_refused_precisely(
    setup: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        pyrummy.new_deal("rummy", seed=1, **setup)  # type: ignore[arg-type]


def test_position_errors_are_rummy_errors_and_duplicates_are_duplicates() -> None:
    assert issubclass(CardGivenTwiceError, DuplicateCardError)
    assert issubclass(SetupError, pyrummy.RummyError)
    with pytest.raises(HandSizeError, match=r"seat 1 must get 8 cards .*plays first"):
        new_deal("rotham", hands=["AS 2S 3S 4S 5S 6S 7S"] * 1 + ["AH 2H 3H 4H 5H 6H 7H"], dealer=0)
    deal = new_deal("rotham", hands=["X1 2S 3S 4S 5S 6S 7S", "X2 X3 3H 4H 5H 6H 7H 8H"], dealer=0)
    assert len(deal.hands(1)) == 8


def test_a_record_sets_up_a_position_with_hands() -> None:
    text = """[Game "deal"]
[Rules "gin"]
[Players "2"]

Deal 1
Dealer: 0
Hands: 7S 8S 9S 7D 7C 2H 3H 4H 5C KD / AS 2S 3S 4C 5H 6H 7H 8C 9D TD
Upcard: QH
Stock: KS
1: draw stock
1: discard KS
0: draw discard
"""
    deal = parse_record(text)
    assert isinstance(deal, pyrummy.Deal)
    assert deal.hands(0) == CardSet("7S 8S 9S 7D 7C 2H 3H 4H 5C KD KS")
    # Written back, the record holds the whole deck and replays the same.
    again = parse_record(deal.record())
    assert isinstance(again, pyrummy.Deal) and again.deck == deal.deck
    with pytest.raises(RecordError, match="line 7: the position cannot be dealt: KD is given"):
        parse_record(text.replace("Upcard: QH", "Upcard: KD"))
    with pytest.raises(RecordError, match="drop the Seed header"):
        parse_record(text.replace('[Players "2"]', '[Players "2"]\n[Seed "3"]'))


def test_a_match_with_a_set_up_first_deal_records_and_replays() -> None:
    hands = ["7S 8S 9S 7D 7C 2H 3H 4H 5C KD", "AS 2S 3S 4C 5H 6H 7H 8C 9D TD"]
    match = new_match("gin", players=2, seed=3, dealer=0, hands=hands, upcard="QH")
    assert match.deal.hands(1) == CardSet(hands[1])
    play_out(match, 3)
    text = emit_record(match)
    assert "[Seed" not in text
    again = parse_record(text)
    assert isinstance(again, pyrummy.Match) and again.totals == match.totals


def test_play_command_sets_up_the_first_deal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120)
    answers = iter(["q"])
    hands = "7S 8S 9S 7D 7C 2H 3H 4H 5C KD / AS 2S 3S 4C 5H 6H 7H 8C 9D TD"
    session = PlaySession.new(
        "gin",
        ["simple"],
        console,
        lambda _: next(answers),
        seed=1,
        dealer=1,
        hands=hands,
        upcard="QH",
    )
    assert session.match.deal.hands(0) == CardSet(hands.split("/")[0])
    assert session.match.deal.discard_pile == (Card("QH"),)
    assert session.run() is False


def test_play_command_refuses_a_bad_position(capsys: pytest.CaptureFixture[str]) -> None:
    from pyrummy.cli.main import main

    status = main(["play", "--rules", "gin", "--bots", "simple", "--hands", "AS 2S / AH 2H"])
    assert status == 2
    assert "seat 0 must get 10 cards in gin" in capsys.readouterr().err


def test_replay_command_reads_a_position_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pyrummy.cli.main import main

    record = tmp_path / "position.txt"
    record.write_text(
        '[Game "deal"]\n[Rules "gin"]\n[Players "2"]\n\nDeal 1\nDealer: 0\n'
        "Hands: 7S 8S 9S 7D 7C 2H 3H 4H 5C KD / AS 2S 3S 4C 5H 6H 7H 8C 9D TD\n"
        "Upcard: QH\nStock: KS\n1: draw stock\n1: discard KS\n0: draw discard\n",
        encoding="utf-8",
    )
    assert main(["replay", str(record)]) == 0
    assert "3 actions): not over" in capsys.readouterr().out
    record.write_text(record.read_text(encoding="utf-8").replace("Upcard: QH", "Upcard: KD"))
    assert main(["replay", str(record)]) == 2
    assert "KD is given twice" in capsys.readouterr().err


def test_the_terminal_names_a_run_with_m_run() -> None:
    from pyrummy.cli.play.commands import interpret

    deal = rotham_position("5H X1 X2 2C 2D KS QD JD")
    hand = list(deal.hands(1))
    by_text = {
        text: interpret(text, deal.legal_actions(), hand, "rotham").action
        for text in ("m run x1 5h x2", "m 5h x1 x2", "meld run X1 X2 5H", "m 5h x2 x1")
    }
    assert {text: str(action) for text, action in by_text.items()} == {
        "m run x1 5h x2": "meld run X1 5H X2",
        "m 5h x1 x2": "meld 5H X1 X2",
        "meld run X1 X2 5H": "meld run X1 X2 5H",
        "m 5h x2 x1": "meld 5H X2 X1",
    }
    action = by_text["m run x1 5h x2"]
    assert action is not None
    deal.apply(action)
    assert deal.table[0].meld.kind is MeldKind.RUN
