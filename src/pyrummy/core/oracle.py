"""A slow, obviously correct solver: the test oracle for :mod:`pyrummy.core.solver`.

It shares no code with the fast solver. Every subset of the hand with three
or more cards is checked against the plain definition of a meld; then every
partition of the hand into disjoint melds plus deadwood is searched (the
lowest remaining card is either deadwood or in one meld containing it, so
each partition is visited exactly once). Meant for hands of up to about
fifteen cards.

Meld definition (docs/rules/common.md §3, rotham.md §2): a *set* is 3 or 4 cards of one rank;
a *run* is 3 or more cards of one suit in consecutive ranks. The ace is low
(``A-2-3``); with ``ace="high_or_low"`` it may also end a run above the king
(``Q-K-A``), with ``ace="around_the_corner"`` runs may wrap (``K-A-2``). A
joker stands for any one card in a set or a run (seed 004: «Джокер может быть
использован в качестве замены любой карты, необходимой для слияния набора или
бега»): cards with jokers are a meld when *some* choice of a card for each
joker makes them a set or a run, tried here one card per joker, by brute
force. So one real card and two jokers are a meld; jokers alone are not
(ruling, shared with :mod:`pyrummy.core.melds`: a meld needs a real card).

>>> result = exhaustive_solve("7S 7H 7D 8S 9S")
>>> result.deadwood
14
>>> [(" ".join(map(str, melds)), str(dead)) for melds, dead in result.arrangements]
[('7S 8S 9S', '7H 7D')]
>>> exhaustive_solve("QS KS AS", find_rules("basic", ace="high_or_low")).deadwood
0
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from pyrummy.core.cards import N_STANDARD, Card, CardSet, CardsLike, to_cardset
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.values import card_value

Arrangements = tuple[tuple[tuple[CardSet, ...], CardSet], ...]


@dataclass(frozen=True)
class OracleResult:
    """Least deadwood and every arrangement achieving it.

    ``arrangements`` holds ``(melds, deadwood_cards)`` pairs, melds ordered
    by their lowest card, pairs sorted, no duplicates.
    """

    deadwood: int
    arrangements: Arrangements


def is_meld(cards: CardSet, rules: Rules) -> bool:
    """Whether these cards form one set or one run under the rules.

    >>> rules = find_rules("rotham")
    >>> is_meld(CardSet("5H X1 7H"), rules), is_meld(CardSet("5H X1 X2"), rules)
    (True, True)
    >>> is_meld(CardSet("X1 X2 X3"), rules), is_meld(CardSet("5H 6S X1"), rules)
    (False, False)
    """
    real = [(card.index % 13, card.index // 13) for card in cards if card.index < N_STANDARD]
    jokers = len(cards) - len(real)
    if len(real) + jokers < 3 or not real:
        return False
    return _meld_with_jokers(tuple(sorted(real)), jokers, rules.ace)


@lru_cache(maxsize=1 << 14)
def _meld_with_jokers(real: tuple[tuple[int, int], ...], jokers: int, ace: str) -> bool:
    """Whether the real cards and some distinct cards for the jokers are a meld.

    Only a card of the first real card's rank or suit can complete a set or
    a run with it, so the jokers' cards are chosen among those.
    """
    if not jokers:
        return _plain_meld(list(real), ace)
    rank, suit = real[0]
    candidates = {(rank, other) for other in range(4)} | {(other, suit) for other in range(13)}
    candidates -= set(real)
    return any(
        _plain_meld([*real, *chosen], ace) for chosen in combinations(sorted(candidates), jokers)
    )


def _plain_meld(cards: list[tuple[int, int]], ace: str) -> bool:
    """Whether (rank, suit) pairs, all distinct, are a set or a run."""
    if len(set(cards)) != len(cards):
        return False
    ranks = [rank for rank, _ in cards]
    suits = [suit for _, suit in cards]
    size = len(cards)
    is_set = len(set(ranks)) == 1 and size <= 4
    is_run = (
        len(set(suits)) == 1
        and len(set(ranks)) == size
        and size <= 13
        and any(set(ranks) == window for window in _rank_windows(size, ace))
    )
    return is_set or is_run


def _rank_windows(length: int, ace: str) -> list[set[int]]:
    """Every set of ``length`` consecutive ranks (ace = 0) a run may cover."""
    if ace == "around_the_corner":
        return [{(start + step) % 13 for step in range(length)} for start in range(13)]
    # Positions 0..12 are A..K; position 13 is the ace again, above the king.
    top = 13 if ace == "high_or_low" else 12
    return [{(start + step) % 13 for step in range(length)} for start in range(top - length + 2)]


def all_melds(cards: CardsLike, rules: Rules | str = "knock") -> list[CardSet]:
    """Every meld (jokers included) contained in the cards, by brute force.

    >>> [str(m) for m in all_melds("7S 7H 7D 8S 9S")]
    ['7S 8S 9S', '7S 7H 7D']
    """
    hand = list(to_cardset(cards))
    the_rules = find_rules(rules)
    melds = []
    for subset in range(1, 1 << len(hand)):
        if subset.bit_count() < 3:
            continue
        chosen = CardSet([hand[i] for i in range(len(hand)) if subset >> i & 1])
        if is_meld(chosen, the_rules):
            melds.append(chosen)
    return melds


def exhaustive_solve(cards: CardsLike, rules: Rules | str = "knock") -> OracleResult:
    """The least deadwood of the hand and all arrangements achieving it."""
    hand = to_cardset(cards)
    the_rules = find_rules(rules)
    values = {card: card_value(card, the_rules) for card in hand}
    melds = all_melds(hand, the_rules)
    found: list[tuple[int, list[CardSet], list[Card]]] = []

    def search(left: CardSet, chosen: list[CardSet], dead: list[Card]) -> None:
        if not left:
            found.append((sum(values[c] for c in dead), list(chosen), list(dead)))
            return
        lowest = min(left)
        search(left - CardSet([lowest]), chosen, [*dead, lowest])
        for meld in melds:
            if lowest in meld and meld <= left:
                search(left - meld, [*chosen, meld], dead)

    search(hand, [], [])
    best = min(total for total, _, _ in found)
    arrangements = {
        (tuple(sorted(melds_used, key=lambda m: min(m).index)), CardSet(dead))
        for total, melds_used, dead in found
        if total == best
    }
    ordered = sorted(
        arrangements,
        key=lambda pair: ([[c.index for c in m] for m in pair[0]], [c.index for c in pair[1]]),
    )
    return OracleResult(best, tuple(ordered))


def oracle_deadwood(cards: CardsLike, rules: Rules | str = "knock") -> int:
    """Least deadwood of the hand (brute force)."""
    return exhaustive_solve(cards, rules).deadwood
