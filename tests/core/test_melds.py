"""Melds: validity under every ace rule, explanations, jokers, lay-offs, enumeration."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.cards import ALL_CARDS, Card, CardSet, Rank, Suit
from pyrummy.core.errors import CardNotationError, RummyError
from pyrummy.core.melds import (
    InvalidMeldError,
    Meld,
    MeldKind,
    all_melds_in,
    check_meld,
    explain_meld,
    extend_meld,
    layoff_targets,
    swap_joker,
)
from pyrummy.core.messages import Message
from pyrummy.core.rules import AceRule, Rules, find_rules

LOW = find_rules("basic")
HIGH = find_rules("basic", ace="high_or_low")
AROUND = find_rules("basic", ace="around_the_corner")
ACE_RULES = {"low": LOW, "high_or_low": HIGH, "around_the_corner": AROUND}
STANDARD = ALL_CARDS[:52]


def cards(text: str) -> list[Card]:
    return [Card(token) for token in text.split()]


# -- an independent oracle: is a list of real cards a meld? ----------------------


def oracle_is_meld(hand: list[Card], ace: AceRule) -> bool:
    if len(hand) < 3:
        return False
    ranks = sorted(int(c.rank) for c in hand if c.rank is not None)
    suits = {c.suit for c in hand}
    if len(set(ranks)) == 1:
        return len(hand) <= 4
    if len(suits) != 1 or len(set(ranks)) != len(ranks) or len(hand) > 13:
        return False

    def consecutive(values: list[int]) -> bool:
        return values == list(range(values[0], values[0] + len(values)))

    if consecutive(ranks):
        return True
    if ace != "low" and consecutive(sorted(13 if r == 0 else r for r in ranks)):
        return True
    if ace == "around_the_corner":
        return any(consecutive(sorted((r - s) % 13 for r in ranks)) for s in range(13))
    return False


# -- valid melds -------------------------------------------------------------------


def test_sets_of_three_and_four() -> None:
    three = check_meld("7D 7S 7H", LOW)
    assert three.kind is MeldKind.SET
    assert three.cards == tuple(cards("7S 7H 7D"))
    assert three.represents == three.cards
    assert three.rank is Rank.SEVEN and three.suit is None
    assert check_meld("KC KD KH KS", LOW).cardset == CardSet("KS KH KD KC")


def test_runs_are_put_in_rank_order() -> None:
    run = check_meld("9H 7H 8H TH", LOW)
    assert run.kind is MeldKind.RUN
    assert str(run) == "7H 8H 9H TH"
    assert run.suit is Suit.HEARTS and run.rank is None
    assert run.pretty() == "7♥ 8♥ 9♥ 10♥"
    assert len(run) == 4


def test_input_forms_are_equivalent() -> None:
    expected = check_meld("5C 6C 7C", LOW)
    assert check_meld(cards("7C 5C 6C"), LOW) == expected
    assert check_meld(CardSet("5C 6C 7C"), LOW) == expected
    assert check_meld("5c, 6♣, 7C", "rummy") == expected
    with pytest.raises(CardNotationError):
        check_meld("5C 6C 7Z", LOW)


@pytest.mark.parametrize(
    ("text", "low", "high", "around"),
    [
        ("AS 2S 3S", True, True, True),
        ("QS KS AS", False, True, True),
        ("JS QS KS AS", False, True, True),
        ("KS AS 2S", False, False, True),
        ("QS KS AS 2S 3S", False, False, True),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", True, True, True),
        ("JS QS KS", True, True, True),
    ],
)
def test_ace_rules(text: str, low: bool, high: bool, around: bool) -> None:
    for rules, valid in ((LOW, low), (HIGH, high), (AROUND, around)):
        assert (explain_meld(text, rules) is None) is valid, rules.ace


def test_ace_high_run_keeps_the_ace_last() -> None:
    assert str(check_meld("AH QH KH", HIGH)) == "QH KH AH"
    assert str(check_meld("2H KH AH", AROUND)) == "KH AH 2H"
    assert str(check_meld("3H AH 2H", AROUND)) == "AH 2H 3H"


def test_rules_by_preset_name() -> None:
    assert check_meld("AS 2S 3S", "rummy") == check_meld("AS 2S 3S", LOW)
    assert explain_meld("QS KS AS", "gin") == "Q-K-A is not a run: the ace is low"


# -- explanations, both languages -------------------------------------------------

EXPLANATIONS = [
    ("", LOW, "a meld needs at least 3 cards", "в комбинации должно быть не меньше 3 карт"),
    ("7H", LOW, "a meld needs at least 3 cards", "в комбинации должно быть не меньше 3 карт"),
    ("7H 9S", LOW, "a meld needs at least 3 cards", "в комбинации должно быть не меньше 3 карт"),
    ("5H 7H", LOW, "a run needs at least 3 cards", "в стрите должно быть не меньше 3 карт"),
    ("7H 7C", LOW, "a set needs at least 3 cards", "в сете должно быть не меньше 3 карт"),
    ("5H 7H 8H", LOW, "5♥ 7♥ 8♥: 6♥ is missing", "5♥ 7♥ 8♥: не хватает 6♥"),
    ("9H 5H 4H", LOW, "4♥ 5♥ 9♥: 6♥ 7♥ 8♥ are missing", "4♥ 5♥ 9♥: не хватает 6♥ 7♥ 8♥"),
    (
        "QH KH AH",
        LOW,
        "Q-K-A is not a run: the ace is low",
        "Q-K-A — не стрит: туз здесь только младший",
    ),
    (
        "TD JD QD KD AD",
        LOW,
        "10-J-Q-K-A is not a run: the ace is low",
        "10-J-Q-K-A — не стрит: туз здесь только младший",
    ),
    (
        "KH AH 2H",
        LOW,
        "K-A-2 is not a run: the ace does not go around the corner",
        "K-A-2 — не стрит: через туза стрит не продолжается",
    ),
    (
        "KH AH 2H",
        HIGH,
        "K-A-2 is not a run: the ace does not go around the corner",
        "K-A-2 — не стрит: через туза стрит не продолжается",
    ),
    (
        "JH AH 3H",
        HIGH,
        "A♥ 3♥ J♥: 2♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ are missing",
        "A♥ 3♥ J♥: не хватает 2♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥",
    ),
    (
        "QH AH 3H",
        AROUND,
        "Q♥ A♥ 3♥: K♥ 2♥ are missing",
        "Q♥ A♥ 3♥: не хватает K♥ 2♥",
    ),
    (
        "7H 7S 7D 8C",
        LOW,
        "ranks differ: a set is one rank",
        "достоинства разные: в сете все карты одного достоинства",
    ),
    (
        "7H 8H 9S",
        LOW,
        "suits differ: a run is one suit",
        "масти разные: в стрите все карты одной масти",
    ),
    (
        "7H 8S 9D",
        LOW,
        "suits differ: a run is one suit",
        "масти разные: в стрите все карты одной масти",
    ),
    (
        "7H 7S 8H",
        LOW,
        "7♥ 7♠ 8♥: neither a set (ranks differ) nor a run (suits differ)",
        "7♥ 7♠ 8♥: ни сет (достоинства разные), ни стрит (масти разные)",
    ),
    (
        "2C 9H KD",
        LOW,
        "2♣ 9♥ K♦: neither a set (ranks differ) nor a run (not in sequence, suits differ)",
        "2♣ 9♥ K♦: ни сет (достоинства разные), ни стрит (не по порядку, масти разные)",
    ),
    (
        "2S 6S AC",
        LOW,
        "2♠ 6♠ A♣: neither a set (ranks differ) nor a run (not in sequence, suits differ)",
        "2♠ 6♠ A♣: ни сет (достоинства разные), ни стрит (не по порядку, масти разные)",
    ),
    (
        "QH KS AH",
        LOW,
        "suits differ: a run is one suit",
        "масти разные: в стрите все карты одной масти",
    ),
    ("7H 7S 7D 7C X1", LOW, "a set has at most 4 cards", "в сете не больше 4 карт"),
    ("7H 8H 7H", LOW, "7♥ appears twice", "7♥ встречается дважды"),
    (
        "X1 X2 X3",
        LOW,
        "a meld cannot be only jokers",
        "комбинация не может состоять из одних джокеров",
    ),
    (
        "5H X1 9H",
        LOW,
        "5♥ 9♥ 🃏1: 6♥ 7♥ 8♥ are missing, more than the jokers can fill",
        "5♥ 9♥ 🃏1: не хватает 6♥ 7♥ 8♥, джокеров на все пропуски не хватит",
    ),
    (
        "QH X1 AH",
        LOW,
        "Q-K-A is not a run: the ace is low",
        "Q-K-A — не стрит: туз здесь только младший",
    ),
    (
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS X1",
        AROUND,
        "a run has at most 13 cards",
        "в стрите не больше 13 карт",
    ),
]


@pytest.mark.parametrize(("text", "rules", "english", "russian"), EXPLANATIONS)
def test_explanations(text: str, rules: Rules, english: str, russian: str) -> None:
    assert explain_meld(text, rules) == english
    assert explain_meld(text, rules, lang="en") == english
    assert explain_meld(text, rules, lang="ru") == russian
    with pytest.raises(InvalidMeldError) as caught:
        check_meld(text, rules)
    assert str(caught.value) == english
    assert isinstance(caught.value.reason, Message)
    assert caught.value.reason.render("ru") == russian
    assert isinstance(caught.value, RummyError)


def test_every_meld_message_is_reachable() -> None:
    reached = set()
    for text, rules, *_ in EXPLANATIONS:
        with pytest.raises(InvalidMeldError) as caught:
            check_meld(text, rules)
        reached.add(caught.value.reason.key)
    from pyrummy.core.messages import CATALOGUE

    assert reached == {key for key in CATALOGUE["en"] if key.startswith("meld.")}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(STANDARD), min_size=0, max_size=6, unique=True),
    st.sampled_from(sorted(ACE_RULES)),
)
def test_check_meld_agrees_with_oracle(hand: list[Card], ace: AceRule) -> None:
    reason = explain_meld(hand, ACE_RULES[ace])
    assert (reason is None) is oracle_is_meld(hand, ace), reason


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(Suit)),
    st.integers(0, 12),
    st.integers(3, 13),
    st.sampled_from(sorted(ACE_RULES)),
)
def test_every_wrapped_window_is_a_run_exactly_when_the_rule_allows(
    suit: Suit, start: int, length: int, ace: AceRule
) -> None:
    ranks = [(start + i) % 13 for i in range(length)]
    hand = [Card(Rank(r), suit) for r in ranks]
    assert (explain_meld(hand, ACE_RULES[ace]) is None) is oracle_is_meld(hand, ace)


# -- jokers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown", "stands_for"),
    [
        ("7H X1 9H", "7H X1 9H", "7H 8H 9H"),
        ("7H 8H X1", "7H 8H X1", "7H 8H 9H"),
        ("X1 7H 8H", "X1 7H 8H", "6H 7H 8H"),
        # no valid reading in the given order: gaps first, then upward
        ("9H X1 7H", "7H X1 9H", "7H 8H 9H"),
        ("7H X1 8H", "7H 8H X1", "7H 8H 9H"),
        ("2S X2 4S X1 6S", "2S X2 4S X1 6S", "2S 3S 4S 5S 6S"),
        ("6S 4S 2S X1 X2", "2S X1 4S X2 6S", "2S 3S 4S 5S 6S"),
        # upward is closed (the ace is low), so downward
        ("QH KH X1", "X1 QH KH", "JH QH KH"),
        ("JH QH KH X1 X2", "X1 X2 JH QH KH", "9H TH JH QH KH"),
    ],
)
def test_joker_runs_low(text: str, shown: str, stands_for: str) -> None:
    meld = check_meld(text, "rotham")
    assert meld.kind is MeldKind.RUN
    assert str(meld) == shown
    assert meld.represents == tuple(cards(stands_for))
    assert meld.real_cards == tuple(c for c in cards(shown) if not c.is_joker)
    assert check_meld(str(meld), "rotham") == meld


def test_joker_runs_with_other_ace_rules() -> None:
    assert check_meld("QH KH X1", HIGH).represents == tuple(cards("QH KH AH"))
    assert check_meld("X1 AH 2H", HIGH).represents == tuple(cards("AH 2H 3H"))
    assert check_meld("X1 AH 2H", AROUND).represents == tuple(cards("KH AH 2H"))
    assert check_meld("KH X1 2H", AROUND).represents == tuple(cards("KH AH 2H"))
    assert explain_meld("KH X1 2H", HIGH) == (
        "K-A-2 is not a run: the ace does not go around the corner"
    )


def test_joker_sets() -> None:
    meld = check_meld("X2 7D 7S", "rotham")
    assert meld.kind is MeldKind.SET
    assert str(meld) == "7S 7D X2"
    assert meld.represents == (Card("7S"), Card("7D"), None)
    assert meld.rank is Rank.SEVEN
    assert str(check_meld("X3 7D X1 7S", "rotham")) == "7S 7D X1 X3"
    assert explain_meld("7D 7S 7H X1 X2", "rotham") == "a set has at most 4 cards"


def test_meld_strings_round_trip() -> None:
    for text in ("7H 8H 9H", "7S 7H 7D 7C", "7H X1 9H", "X1 X2 TH JH", "7S 7D X2"):
        meld = check_meld(text, "rotham")
        assert str(meld) == text
        assert check_meld(str(meld), "rotham") == meld
        assert meld.cardset == CardSet(text)


# -- lay-offs -------------------------------------------------------------------------


def lays(meld_text: str, card: str, rules: Rules) -> str | None:
    extended = extend_meld(check_meld(meld_text, rules), Card(card), rules)
    return None if extended is None else str(extended)


def test_set_grows_to_four_only() -> None:
    assert lays("7S 7H 7D", "7C", LOW) == "7S 7H 7D 7C"
    assert lays("7S 7H 7D", "8C", LOW) is None
    assert lays("7S 7H 7D", "7S", LOW) is None
    assert lays("7S 7H 7D 7C", "X1", LOW) is None
    assert lays("7S 7H X1", "7C", LOW) == "7S 7H 7C X1"
    assert lays("7S 7H X1", "X2", LOW) == "7S 7H X1 X2"
    assert lays("7S 7H X1 X2", "7C", LOW) is None


def test_run_grows_at_both_ends() -> None:
    assert lays("5C 6C 7C", "4C", LOW) == "4C 5C 6C 7C"
    assert lays("5C 6C 7C", "8C", LOW) == "5C 6C 7C 8C"
    assert lays("5C 6C 7C", "9C", LOW) is None
    assert lays("5C 6C 7C", "8D", LOW) is None
    assert lays("5C 6C 7C", "6C", LOW) is None


def test_ace_low_goes_only_below_a_two_and_nothing_above_a_king() -> None:
    assert lays("2D 3D 4D", "AD", LOW) == "AD 2D 3D 4D"
    assert lays("JD QD KD", "AD", LOW) is None
    assert lays("AD 2D 3D", "KD", LOW) is None


def test_ace_high_or_low_goes_above_a_king_unless_already_low() -> None:
    assert lays("JD QD KD", "AD", HIGH) == "JD QD KD AD"
    assert lays("2D 3D 4D", "AD", HIGH) == "AD 2D 3D 4D"
    assert lays("AD 2D 3D", "KD", HIGH) is None
    assert lays("QD KD AD", "2D", HIGH) is None
    assert lays("QD KD AD", "JD", HIGH) == "JD QD KD AD"
    full_low = "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD"
    assert lays(full_low, "KD", HIGH) == full_low + " KD"


def test_around_the_corner_wraps_up_to_thirteen() -> None:
    assert lays("JD QD KD", "AD", AROUND) == "JD QD KD AD"
    assert lays("AD 2D 3D", "KD", AROUND) == "KD AD 2D 3D"
    assert lays("QD KD AD", "2D", AROUND) == "QD KD AD 2D"
    twelve = "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"
    assert lays(twelve, "AD", AROUND) is not None
    thirteen = twelve + " AD"
    assert lays(thirteen, "X1", AROUND) is None


def test_joker_lay_off_goes_high_then_low() -> None:
    extended = extend_meld(check_meld("5C 6C 7C", LOW), Card("X1"), LOW)
    assert extended is not None
    assert str(extended) == "5C 6C 7C X1"
    assert extended.represents[-1] == Card("8C")
    closed_high = extend_meld(check_meld("JC QC KC", LOW), Card("X1"), LOW)
    assert closed_high is not None
    assert str(closed_high) == "X1 JC QC KC"
    assert closed_high.represents[0] == Card("TC")
    assert lays("JC QC KC", "X1", HIGH) == "JC QC KC X1"


def test_layoff_keeps_joker_positions() -> None:
    assert lays("7H X1 9H", "TH", LOW) == "7H X1 9H TH"
    assert lays("7H X1 9H", "6H", LOW) == "6H 7H X1 9H"
    assert lays("7H X1 9H", "8H", LOW) is None


def test_layoff_targets() -> None:
    table = [
        check_meld("7S 7H 7D", LOW),
        check_meld("5C 6C 7C", LOW),
        check_meld("8C 9C TC", LOW),
        check_meld("QH KH JH", LOW),
    ]
    assert layoff_targets(Card("7C"), table, LOW) == [0, 2]
    assert layoff_targets(Card("4C"), table, LOW) == [1]
    assert layoff_targets(Card("AH"), table, LOW) == []
    assert layoff_targets(Card("AH"), table, HIGH) == [3]
    assert layoff_targets(Card("X1"), table, LOW) == [0, 1, 2, 3]
    assert layoff_targets(Card("2D"), table, "rummy") == []
    assert layoff_targets(Card("2D"), [], LOW) == []


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(Suit)),
    st.integers(0, 12),
    st.integers(3, 6),
    st.sampled_from(STANDARD),
    st.sampled_from(sorted(ACE_RULES)),
)
def test_run_layoff_matches_the_bigger_meld(
    suit: Suit, start: int, length: int, card: Card, ace: AceRule
) -> None:
    run = [Card(Rank((start + i) % 13), suit) for i in range(length)]
    if not oracle_is_meld(run, ace) or card in run:
        return
    rules = ACE_RULES[ace]
    extended = extend_meld(check_meld(run, rules), card, rules)
    assert (extended is not None) is oracle_is_meld([*run, card], ace)
    if extended is not None:
        assert extended == check_meld([*run, card], rules)
        assert extended.cardset == CardSet([*run, card])


@settings(max_examples=150, deadline=None)
@given(
    st.sets(st.sampled_from(list(Suit)), min_size=3, max_size=4),
    st.sampled_from(list(Rank)),
    st.sampled_from(STANDARD),
)
def test_set_layoff_matches_the_bigger_meld(suits: set[Suit], rank: Rank, card: Card) -> None:
    group = [Card(rank, suit) for suit in sorted(suits)]
    if card in group:
        return
    extended = extend_meld(check_meld(group, LOW), card, LOW)
    assert (extended is not None) is oracle_is_meld([*group, card], "low")


# -- joker exchange ----------------------------------------------------------------------


def test_swap_joker_in_a_run() -> None:
    meld = check_meld("7H X1 9H", "rotham")
    swapped = swap_joker(meld, Card("8H"))
    assert swapped is not None
    new_meld, joker = swapped
    assert joker == Card("X1")
    assert new_meld == check_meld("7H 8H 9H", "rotham")
    assert swap_joker(meld, Card("8D")) is None
    assert swap_joker(meld, Card("TH")) is None
    assert swap_joker(meld, Card("7H")) is None
    assert swap_joker(check_meld("7H 8H 9H", "rotham"), Card("TH")) is None


def test_swap_joker_in_a_set_takes_any_missing_suit() -> None:
    meld = check_meld("7S 7H X1 X2", "rotham")
    for suit in ("D", "C"):
        swapped = swap_joker(meld, Card("7" + suit))
        assert swapped is not None
        new_meld, joker = swapped
        assert joker == Card("X1")
        assert str(new_meld) == f"7S 7H 7{suit} X2"
        assert new_meld.jokers == (Card("X2"),)
        assert new_meld.represents[-1] is None
    assert swap_joker(meld, Card("7S")) is None
    assert swap_joker(meld, Card("8D")) is None
    assert swap_joker(check_meld("7S 7H 7D", "rotham"), Card("7C")) is None
    assert swap_joker(meld, Card("X3")) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10), st.integers(3, 6), st.data())
def test_swapping_every_joker_gives_the_real_run(
    start: int, length: int, data: st.DataObject
) -> None:
    length = min(length, 13 - start)
    if length < 3:
        return
    real = [Card(Rank(start + i), Suit.CLUBS) for i in range(length)]
    joker_spots = data.draw(
        st.lists(st.integers(0, length - 1), unique=True, max_size=min(3, length - 2))
    )
    given_cards = list(real)
    for joker_number, spot in enumerate(joker_spots):
        given_cards[spot] = ALL_CARDS[52 + joker_number]
    meld = check_meld(given_cards, "rotham")
    assert meld.represents == tuple(real)
    for spot in joker_spots:
        swapped = swap_joker(meld, real[spot])
        assert swapped is not None
        meld = swapped[0]
    assert meld == check_meld(real, "rotham")


# -- every meld in a hand ------------------------------------------------------------------


def brute_force_melds(hand: CardSet, ace: AceRule) -> set[CardSet]:
    listed = list(hand)
    return {
        CardSet(subset)
        for size in range(3, len(listed) + 1)
        for subset in combinations(listed, size)
        if oracle_is_meld(list(subset), ace)
    }


# Hands drawn from a few neighbouring ranks make many overlapping melds.
clustered_hands = st.tuples(st.integers(0, 12), st.integers(4, 13)).flatmap(
    lambda band: st.sets(
        st.sampled_from(
            [c for c in STANDARD if c.rank is not None and (c.rank - band[0]) % 13 < band[1]]
        ),
        min_size=0,
        max_size=11,
    )
)


@settings(max_examples=120, deadline=None)
@given(clustered_hands, st.sampled_from(sorted(ACE_RULES)))
def test_all_melds_in_matches_brute_force(hand: set[Card], ace: AceRule) -> None:
    cardset = CardSet(hand)
    found = all_melds_in(cardset, ACE_RULES[ace])
    assert len(found) == len(set(found)), "no meld listed twice"
    assert set(found) == brute_force_melds(cardset, ace)


def test_all_melds_in_counts() -> None:
    # 13 ranks x (4 sets of 3 + 1 of 4). Per suit: 66 runs with the ace low;
    # high or low adds the 10 that end in a high ace (3-12 cards: 13 would be
    # the whole suit again); around the corner, 13 starts x 10 lengths + the
    # whole suit.
    deck = CardSet.full_deck()
    assert len(all_melds_in(deck, LOW)) == 13 * 5 + 4 * 66
    assert len(all_melds_in(deck, HIGH)) == 13 * 5 + 4 * (66 + 10)
    assert len(all_melds_in(deck, AROUND)) == 13 * 5 + 4 * 131
    assert all_melds_in(CardSet(), LOW) == []


def test_all_melds_in_ignores_jokers_and_keeps_order() -> None:
    hand = CardSet("7S 7H 7D 8S 9S X1 X2")
    assert [str(m) for m in all_melds_in(hand, "rotham")] == ["7S 7H 7D", "7S 8S 9S"]
    assert all(isinstance(m, CardSet) for m in all_melds_in(hand, "rotham"))


def test_meld_is_hashable_and_frozen() -> None:
    meld = check_meld("7S 7H 7D", LOW)
    assert {meld, check_meld("7D 7H 7S", LOW)} == {meld}
    with pytest.raises(AttributeError):
        meld.kind = MeldKind.RUN  # type: ignore[misc]
    assert isinstance(meld, Meld)
