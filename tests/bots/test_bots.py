"""Bots: the interface, make_bot, and each bot's specific choices in notation."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.bots import (
    BOT_NAMES,
    Bot,
    BotError,
    HardBot,
    MediumBot,
    RandomBot,
    SimpleBot,
    UnknownBotError,
    make_bot,
)
from pyrummy.bots.lookahead import draw_outlook, expected_after_draw
from pyrummy.bots.opponents import feeding_risk, shunned_cards
from pyrummy.bots.simple import default_knock_threshold
from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet, parse_card_list
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import RummyError
from pyrummy.core.melds import check_meld
from pyrummy.core.observation import Observation, TableMeld
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask


def actions(*texts: str) -> list[Action]:
    return sorted(parse_action(t) for t in texts)


def scenario(
    preset: str,
    hand: str,
    pile: str,
    *,
    players: int = 2,
    seat: int = 0,
    taken: dict[int, str] | None = None,
) -> Observation:
    """A real observation of a fresh deal with the visible cards replaced.

    The bots read only the seat's view: hand, discard pile, cards taken by
    each seat, table, seat and rules. Hidden parts are not consulted.
    """
    base = new_deal(preset, players=players, seed=1, dealer=(seat - 1) % players).observe(seat)
    taken_by_seat = [tuple(parse_card_list((taken or {}).get(s, ""))) for s in range(players)]
    return dataclasses.replace(
        base,
        hand=CardSet(hand),
        discard_pile=tuple(parse_card_list(pile)),
        taken_discards=tuple(taken_by_seat),
        known_cards=tuple(CardSet(cards) for cards in taken_by_seat),
    )


def discards(hand: str, banned: str = "") -> list[Action]:
    """Every face-up discard of ``hand`` except the banned (just taken) card."""
    return sorted(
        parse_action(f"discard {c}") for c in CardSet(hand) if str(c) not in banned.split()
    )


def with_knocks(hand: str, *knock_cards: str) -> list[Action]:
    return sorted(discards(hand) + [parse_action(f"knock {c}") for c in knock_cards])


# -- make_bot -------------------------------------------------------------------------


def test_every_name_makes_a_bot_that_follows_the_interface() -> None:
    for name in BOT_NAMES:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, Bot)
        assert list(inspect.signature(bot.choose).parameters) == ["observation", "legal_actions"]
    assert {make_bot(n).name for n in BOT_NAMES} == {
        "random",
        "simple",
        "medium",
        "hard",
        "learned",
    }


def test_difficulty_names_for_people() -> None:
    assert type(make_bot("easy")) is SimpleBot
    assert type(make_bot("Medium")) is MediumBot
    assert type(make_bot("hard")) is HardBot
    assert type(make_bot("random")) is RandomBot


def test_unknown_name_lists_the_names() -> None:
    with pytest.raises(UnknownBotError) as caught:
        make_bot("grandmaster")
    assert isinstance(caught.value, RummyError)
    for name in ("random", "simple", "medium", "hard", "easy"):
        assert name in str(caught.value)


def test_options_go_to_the_bot_and_unknown_options_are_refused() -> None:
    simple = make_bot("simple", knock_threshold=3)
    assert isinstance(simple, SimpleBot) and simple.config.knock_threshold == 3
    hard = make_bot("hard", rollouts=5)
    assert isinstance(hard, HardBot) and hard.config.rollouts == 5
    assert hard.config.budget is None
    with pytest.raises(BotError, match="depth"):
        make_bot("medium", depth=2)
    with pytest.raises(BotError):
        make_bot("hard", rollouts=0)


def test_a_bot_asked_with_no_actions_says_so() -> None:
    observation = scenario("knock", "7H 8H 9H KS 2C 3D 4S 5S 6S 9C", "QD")
    for name in ("random", "simple", "medium", "hard"):
        with pytest.raises(BotError):
            make_bot(name).choose(observation, [])


# -- simple -------------------------------------------------------------------------------


def test_simple_takes_a_discard_that_completes_a_meld() -> None:
    observation = scenario("knock", "7H 8H KS KD 2C 4S 9S JD 3C 5D", "9H")
    choice = SimpleBot().choose(observation, actions("draw stock", "draw discard"))
    assert str(choice) == "draw discard"


def test_simple_takes_a_discard_that_makes_a_set() -> None:
    observation = scenario("gin", "7H 8H KS KD 2C 4S 9S JD 3C 5D", "KC")
    choice = SimpleBot().choose(observation, actions("draw stock", "draw discard"))
    assert str(choice) == "draw discard"


def test_simple_draws_from_the_stock_when_the_discard_completes_nothing() -> None:
    observation = scenario("knock", "7H 8H KS KD 2C 4S 9S JD 3C 5D", "QC")
    choice = SimpleBot().choose(observation, actions("draw stock", "draw discard"))
    assert str(choice) == "draw stock"


def test_simple_gives_back_the_highest_of_the_tied_least_deadwood_cards() -> None:
    # Three melds; QD and KS leave the same deadwood: the king (higher rank) goes.
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S QD KS"
    observation = scenario("knock", hand, "4D")
    choice = SimpleBot(knock_threshold=0).choose(observation, discards(hand))
    assert str(choice) == "discard KS"


def test_simple_never_gives_back_the_discard_it_just_took() -> None:
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S QD KS"
    observation = scenario("knock", hand, "4D")
    choice = SimpleBot(knock_threshold=0).choose(observation, discards(hand, banned="KS"))
    assert str(choice) == "discard QD"


def test_simple_knocks_in_gin_at_ten_or_less() -> None:
    # Giving back QS (or TD) leaves deadwood 10: the knock is allowed, so take it.
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S TD QS"
    observation = scenario("gin", hand, "4D")
    choice = SimpleBot().choose(observation, with_knocks(hand, "TD", "QS"))
    assert str(choice) == "knock QS"


def test_simple_knock_threshold_in_knock_rummy() -> None:
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S 4D KS"  # give back KS: deadwood 4
    legal = with_knocks(hand, *hand.split())
    observation = scenario("knock", hand, "QD")
    assert str(SimpleBot(knock_threshold=4).choose(observation, legal)) == "knock KS"
    assert str(SimpleBot(knock_threshold=3).choose(observation, legal)) == "discard KS"
    assert default_knock_threshold(7) <= default_knock_threshold(10)


# -- medium -------------------------------------------------------------------------------


def test_medium_avoids_feeding_a_known_meld_of_the_next_seat() -> None:
    # KH and QC leave the same deadwood; simple gives back KH (the higher rank),
    # but the next seat took KS from the pile: KH feeds their kings.
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S QC KH"
    legal = discards(hand)
    observation = scenario("knock", hand, "4D", taken={1: "KS"})
    assert str(SimpleBot(knock_threshold=0).choose(observation, legal)) == "discard KH"
    assert str(MediumBot(samples=0).choose(observation, legal)) == "discard QC"
    # With nobody collecting kings, medium gives back the king like simple.
    plain = scenario("knock", hand, "4D")
    assert str(MediumBot(samples=0).choose(plain, legal)) == "discard KH"


def test_feeding_risk_falls_when_the_opponent_shuns_the_rank() -> None:
    held = parse_card_list("QS")
    assert feeding_risk(Card("QC"), held, 0) > feeding_risk(Card("QC"), held, Card("QD").bit) > 0
    assert feeding_risk(Card("JS"), held, 0) > 0
    assert feeding_risk(Card("3D"), held, 0) == 0


def test_shunned_cards_read_discards_and_passes_from_the_history() -> None:
    deal = new_deal("knock", players=2, seed=3, dealer=1)
    deal.apply("draw stock")
    given = min(deal.hands(0))
    deal.apply(f"discard {given}")
    deal.apply("draw discard")  # seat 1 takes it: no pass, and it is now known
    taken_back = deal.observe(0)
    assert given in taken_back.known_cards[1]
    assert shunned_cards(taken_back) == {0: given.bit}


def test_medium_keeps_connected_cards_where_simple_breaks_them() -> None:
    # QD, KD and JH all leave 21 deadwood; simple gives back the king (highest
    # rank), medium the jack: QD KD wait on JD, JH alone completes nothing.
    hand = "7H 8H 9H 2C 3C 4C 5S 6S QD KD JH"
    observation = scenario("knock", hand, "4D")
    assert str(SimpleBot(knock_threshold=0).choose(observation, discards(hand))) == "discard KD"
    assert str(MediumBot(samples=0).choose(observation, discards(hand))) == "discard JH"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS[:52]), min_size=12, max_size=30, unique=True),
    st.integers(min_value=3, max_value=10),
)
def test_the_next_draw_never_makes_a_hand_worse(cards: list[Card], size: int) -> None:
    hand = CardSet(cards[:size]).mask
    unseen = CardSet(cards[size:]).mask
    now = deadwood_of_mask(hand)
    expected = expected_after_draw(hand, unseen, "low")
    assert 0 <= expected <= now
    assert expected_after_draw(hand, 0, "low") == now
    mean, reach = draw_outlook(hand, unseen, "low", 10)
    assert mean == pytest.approx(expected)
    assert 0 <= reach <= 1
    assert (reach == 1) == all(
        min(now, best_discards_of_mask(hand | card.bit)[0]) <= 10 for card in CardSet(unseen)
    )


# -- simple: stock exhausted and the melding games ---------------------------------------


def test_simple_at_an_empty_stock_takes_only_an_improvement() -> None:
    hand = "7H 8H KS KD 2C 4S 9S JD 3C 5D"
    legal = actions("draw discard", "decline")
    useful = scenario("knock", hand, "9H")
    useless = scenario("knock", hand, "QC")
    assert str(SimpleBot().choose(useful, legal)) == "draw discard"
    assert str(SimpleBot().choose(useless, legal)) == "decline"


def melding_scenario(hand: str, table: list[tuple[int, str]], pile: str = "4D") -> Observation:
    base = scenario("rummy", hand, pile)
    melds = tuple(
        TableMeld(owner, check_meld(cards, "rummy"), (owner,) * len(cards.split()))
        for owner, cards in table
    )
    return dataclasses.replace(base, table=melds)


def test_simple_melds_then_lays_off_then_discards() -> None:
    bot = SimpleBot()
    first = melding_scenario("7H 8H 9H 2C 6D KD", [(1, "3C 4C 5C")])
    legal = actions(
        "meld 7H 8H 9H",
        "layoff 2C 0",
        *(f"discard {c}" for c in ["7H", "8H", "9H", "2C", "6D", "KD"]),
    )
    assert str(bot.choose(first, legal)) == "meld 7H 8H 9H"
    second = melding_scenario("2C 6D KD", [(1, "3C 4C 5C"), (0, "7H 8H 9H")])
    legal = actions("layoff 2C 0", "discard 2C", "discard 6D", "discard KD")
    assert str(bot.choose(second, legal)) == "layoff 2C 0"
    third = melding_scenario("6D KD", [(1, "2C 3C 4C 5C"), (0, "7H 8H 9H")])
    assert str(bot.choose(third, actions("discard 6D", "discard KD"))) == "discard KD"


def test_simple_keeps_a_card_its_own_meld_needs() -> None:
    observation = melding_scenario("7H 8H 9H KD 2S", [(1, "4H 5H 6H")])
    legal = actions("layoff 7H 0", *(f"discard {c}" for c in ["7H", "8H", "9H", "KD", "2S"]))
    assert str(SimpleBot().choose(observation, legal)) == "discard KD"


def test_simple_takes_a_discard_it_can_lay_off_in_a_melding_game() -> None:
    observation = melding_scenario("2S 9D KD JC 5H 6C 8S", [(1, "4H 5H 6H")], pile="7H")
    legal = actions("draw stock", "draw discard")
    assert str(SimpleBot().choose(observation, legal)) == "draw discard"


def test_medium_holds_its_melds_to_go_out_at_once_in_rummy() -> None:
    # Going out at once doubles the score: with loose cards left and the
    # opponent far from out, medium keeps 7H 8H 9H in hand; simple melds it.
    observation = melding_scenario("7H 8H 9H 2C 6D KD", [])
    legal = actions(
        "meld 7H 8H 9H", *(f"discard {c}" for c in ["7H", "8H", "9H", "2C", "6D", "KD"])
    )
    assert str(SimpleBot().choose(observation, legal)) == "meld 7H 8H 9H"
    assert str(MediumBot().choose(observation, legal)) == "discard KD"
    # An opponent close to out would catch the held meld: medium melds.
    short = dataclasses.replace(observation, hand_sizes=(6, 3))
    assert str(MediumBot().choose(short, legal)) == "meld 7H 8H 9H"
    # No bonus to wait for in basic rummy: medium melds like simple.
    basic = dataclasses.replace(observation, rules=find_rules("basic"))
    assert str(MediumBot().choose(basic, legal)) == "meld 7H 8H 9H"


def test_medium_goes_out_at_once_when_its_hand_is_complete() -> None:
    hand = "7H 8H 9H 2C 3C 4C KD"
    observation = melding_scenario(hand, [])
    legal = actions("meld 7H 8H 9H", "meld 2C 3C 4C", *(f"discard {c}" for c in hand.split()))
    assert MediumBot().choose(observation, legal).kind is ActionKind.MELD


def test_hard_searches_exactly_its_rollouts_in_knock_rummy() -> None:
    hand = "7H 8H 9H 2C 3C 4C 5S 6S QD KD JH"
    observation = scenario("knock", hand, "4D")
    bot = HardBot(seed=3, rollouts=5, knock_samples=4)
    choice = bot.choose(observation, discards(hand))
    assert choice in discards(hand)
    assert bot.last_rollouts == 5


# -- hidden information ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["simple", "medium", "hard"])
def test_decisions_depend_only_on_what_the_seat_sees(name: str) -> None:
    """A re-deal of every hidden card (same view) gets the same decision."""
    # Fixed work: a time budget on a loaded machine could cut one of the two searches short.
    options: dict[str, object] = {}
    if name == "hard":
        options = {"rollouts": 2, "knock_samples": 4}
    elif name == "medium":
        options = {"time_budget": None}
    rng = random.Random(5)
    checked = hidden_differs = 0
    for seed in range(20):
        deal = new_deal("knock", players=3, seed=seed, dealer=seed % 3)
        while not deal.is_over and checked < 12:
            seat = deal.current_seat
            assert seat is not None
            seen = deal.observe(seat)
            other = sample_deal(seen, rng)
            assert other.observe(seat).hand == seen.hand
            assert other.hands(seat) == deal.hands(seat)
            neighbour = (seat + 1) % 3
            hidden_differs += other.hands(neighbour) != deal.hands(neighbour)
            first = make_bot(name, seed=1, **options).choose(seen, deal.legal_actions())
            again = make_bot(name, seed=1, **options).choose(
                other.observe(seat), other.legal_actions()
            )
            assert first == again
            deal.apply(first)
            checked += 1
    assert checked == 12 and hidden_differs >= 6


def dealt_after_draw(preset: str, hand: str, drawn: str, up: str = "QD") -> Deal:
    """A real 2-player deal where seat 0 holds ``hand`` and has just drawn ``drawn``.

    Seat 0 is dealt first (dealer 1) and plays first; the other cards go to
    seat 1 and the stock in card order, after the up-card and the drawn card.
    """
    mine = parse_card_list(hand)
    placed = {*mine, Card(drawn), Card(up)}
    rest = [c for c in ALL_CARDS[:52] if c not in placed]
    theirs, stock = rest[: len(mine)], rest[len(mine) :]
    deck = [card for pair in zip(mine, theirs, strict=True) for card in pair]
    deck += [Card(up), Card(drawn), *stock]
    deal = Deal.from_deck(preset, 2, 1, deck)
    deal.apply("draw stock")
    assert deal.hands(0) == CardSet(mine) | CardSet([Card(drawn)])
    return deal


def test_medium_knocks_a_strong_hand_and_keeps_a_hopeless_one() -> None:
    strong = dealt_after_draw("knock", "7H 8H 9H 2C 3C 4C 5S 6S 7S AD", "KS")
    choice = MediumBot(seed=1, samples=16).choose(strong.observe(0), strong.legal_actions())
    assert str(choice) == "knock KS"  # deadwood 1 against a hand nobody has improved
    hopeless = dealt_after_draw("knock", "KH QH 9D 8C 7S JD TC 5H 3S KC", "QS")
    choice = MediumBot(seed=1, samples=16).choose(hopeless.observe(0), hopeless.legal_actions())
    assert choice.kind is ActionKind.DISCARD


def test_medium_goes_gin_at_once() -> None:
    deal = dealt_after_draw("gin", "7H 8H 9H 2C 3C 4C 5S 6S 7S 8S", "KD")
    choice = MediumBot(seed=1, samples=4).choose(deal.observe(0), deal.legal_actions())
    assert str(choice) == "knock KD"


def test_hard_weighs_a_tiny_gin_knock_against_holding_for_gin() -> None:
    deal = dealt_after_draw("gin", "7H 8H 9H 2C 3C 4C 5S 6S 7S AD", "KS")
    observation, legal = deal.observe(0), deal.legal_actions()
    assert observation.stock_count >= 14
    # 1 deadwood with a long stock: the knock-or-hold play-outs weigh it (and knock).
    bot = HardBot(seed=1, rollouts=2, knock_samples=4)
    assert str(bot.choose(observation, legal)) == "knock KS"
    assert bot.last_knock_samples == 200
    assert bot.guide.last_knock_samples == 0


def test_search_bots_fall_back_when_the_view_allows_no_re_deal() -> None:
    # The hand was swapped into a fresh deal's view, so the card counts no
    # longer add up and no consistent re-deal exists: the bots still answer.
    hand = "7H 8H 9H 2C 3C 4C 5S 6S 7S 4D KS"
    observation = scenario("knock", hand, "QD")
    legal = with_knocks(hand, *hand.split())
    with pytest.raises((IndexError, RummyError)):
        sample_deal(observation, random.Random(1))
    assert str(MediumBot(seed=1, samples=8).choose(observation, legal)) == "discard KS"
    assert HardBot(seed=1, rollouts=4).choose(observation, legal) in legal
