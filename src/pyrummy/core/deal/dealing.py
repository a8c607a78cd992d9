"""New deals: shuffled and dealt, or set up from given hands.

Dealing (docs/rules/common.md §5): ``deck[0]`` is dealt first, one card at a
time, clockwise, starting with the seat to the dealer's left
(``dealer + 1``); in Rotham the starting player's eighth card comes after
the round-robin. The next card is turned face up to start the discard pile;
the card after it is the top of the stock (drawn first), the last card of
``deck`` its bottom.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Final

from pyrummy.core.cards import ALL_CARDS, Card, parse_card
from pyrummy.core.deal.game import Deal, as_rules
from pyrummy.core.errors import (
    CardGivenTwiceError,
    CardNotInDeckError,
    HandSizeError,
    RulesError,
    SetupError,
)
from pyrummy.core.rules import Rules
from pyrummy.core.shuffle import LEGACY_SHUFFLE, check_shuffle, shuffle_cards

__all__ = ["HandsLike", "arrange_deck", "new_deal"]

_SETUP_SPLIT: Final = re.compile(r"[\s,;]+")


HandsLike = Sequence[str | Iterable[Card]] | str
"""Hands of a position: one per seat from seat 0, each cards in notation
(``"7H 8H 9H ..."``) or :class:`Card` objects; or all in one string with
the seats separated by ``/`` (``"7H 8H ... / 2C 3C ..."``)."""


def _read_place(cards: str | Card | Iterable[Card], what: str) -> list[Card]:
    """Cards given for one place of a position, as a list (notation checked)."""
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, str):
        return [parse_card(token) for token in _SETUP_SPLIT.split(cards.strip()) if token]
    result = list(cards)
    for card in result:
        if not isinstance(card, Card):
            raise SetupError(f"{what}: {card!r} is not a card")
    return result


def _position_order(
    rules: Rules,
    hands: HandsLike,
    upcard: str | Card | None,
    stock: str | Iterable[Card] | None,
    dealer: int,
    players: int | None,
) -> tuple[int, list[int]]:
    """The players and the card numbers dealt first for a position: the hands
    in dealing order, then the upcard (if given) and the top of the stock.

    Checks everything a position can get wrong, with a narrow error each.
    """
    if isinstance(hands, str):
        hands = hands.split("/")
    dealt = [_read_place(hand, f"seat {seat}'s hand") for seat, hand in enumerate(hands)]
    count = len(dealt)
    if players is not None and players != count:
        raise HandSizeError(f"players={players} but {count} hands are given")
    if not rules.min_players <= count <= rules.max_players:
        raise HandSizeError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players: "
            f"{count} hands given"
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < count:
        raise RulesError(f"dealer must be a seat 0-{count - 1}, not {dealer!r}")
    size = rules.hand_size(count)
    starter = (dealer + 1) % count
    for seat, cards in enumerate(dealt):
        extra = rules.starter_extra_card and seat == starter
        wanted = size + int(extra)
        if len(cards) != wanted:
            why = f" (seat {seat} plays first and gets one card more)" if extra else ""
            raise HandSizeError(
                f"seat {seat} must get {wanted} cards in {rules.name} with {count} players"
                f"{why}, not {len(cards)}"
            )
    places: dict[int, str] = {}

    def place(card: Card, where: str) -> int:
        index = card.index
        if index >= rules.deck_size:
            has = f"its jokers are X1-X{rules.jokers}" if rules.jokers else "it has no jokers"
            raise CardNotInDeckError(f"{card} ({where}) is not in the deck of {rules.name}: {has}")
        if index in places:
            raise CardGivenTwiceError(f"{card} is given twice: {places[index]} and {where}")
        places[index] = where
        return index

    numbered = [
        [place(card, f"seat {seat}'s hand") for card in cards] for seat, cards in enumerate(dealt)
    ]
    order: list[int] = []
    for round_ in range(size):
        for offset in range(count):
            order.append(numbered[(starter + offset) % count][round_])
    if rules.starter_extra_card:
        order.append(numbered[starter][size])
    if upcard is not None:
        up = _read_place(upcard, "the upcard")
        if len(up) != 1:
            raise HandSizeError(f"the upcard is one card, not {len(up)}")
        order.append(place(up[0], "the upcard"))
    if stock is not None:
        order += [place(card, "the stock") for card in _read_place(stock, "the stock")]
        if len(order) == rules.deck_size and upcard is None:
            raise HandSizeError("every card is placed: leave one for the upcard")
    return count, order


def arrange_deck(
    rules: Rules | str,
    hands: HandsLike,
    upcard: str | Card | None,
    stock: str | Sequence[Card] | None = "",
    dealer: int = 0,
    players: int | None = None,
) -> list[Card]:
    """The deck order that deals ``hands[s]`` to seat ``s`` (records, tests, puzzles).

    ``upcard`` starts the discard pile; ``stock`` lists the top of the stock,
    top card first; the other cards follow in card order (the first of them
    is the upcard when ``upcard`` is None). :func:`new_deal` with ``hands=``
    is the public way to set up a position; this is its order without chance.

    >>> deck = arrange_deck("gin", ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
    ...                             "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"], "KC", "QC JC")
    >>> deal = Deal.from_deck("gin", 2, 0, deck)
    >>> str(deal.hands(1)), deal.discard_pile, deal.stock[:3]
    ('AH 2H 3H 4H 5H 6H 7H 8H 9H TH', (Card('KC'),), (Card('QC'), Card('JC'), Card('JS')))
    """
    the_rules = as_rules(rules)
    count, order = _position_order(the_rules, hands, upcard, stock, dealer, players)
    used = set(order)
    rest = [index for index in range(the_rules.deck_size) if index not in used]
    if upcard is None:
        order.insert(_cards_in_hands(the_rules, count), rest.pop(0))
    return [ALL_CARDS[index] for index in order + rest]


def _cards_in_hands(rules: Rules, players: int) -> int:
    return rules.hand_size(players) * players + int(rules.starter_extra_card)


def new_deal(
    rules: Rules | str = "knock",
    players: int | None = None,
    seed: int | None = None,
    dealer: int = 0,
    deal_number: int = 1,
    *,
    hands: HandsLike | None = None,
    upcard: str | Card | None = None,
    stock: str | Iterable[Card] | None = None,
    shuffle: str = LEGACY_SHUFFLE,
    **options: object,
) -> Deal:
    """A freshly shuffled and dealt deal, or a deal set up from given hands.

    ``seed=None`` (a live deal) shuffles from :class:`random.SystemRandom`;
    a seed shuffles by the shuffle named ``shuffle``
    (:mod:`pyrummy.core.shuffle`: ``"python-mt"``, ``random.Random(seed)``, the
    default that simulations and stored games were dealt with, or the
    documented, portable ``"sha256-fy-1"`` that anyone can check), so the same
    seed always deals the same cards. ``options`` change the rules.
    ``players`` defaults to 4 (or the number of ``hands``).

    >>> a, b = new_deal("gin", 2, seed=9), new_deal("gin", 2, seed=9)
    >>> a.deck == b.deck, len(a.hands(0)), len(a.hands(1))
    (True, 10, 10)
    >>> rotham = new_deal("rotham", players=3, seed=2)
    >>> [len(rotham.hands(s)) for s in range(3)], rotham.phase
    ([7, 8, 7], <Phase.MELD: 'meld'>)

    **Setting up a position.** ``hands`` gives every seat's cards, seat 0
    first (a list of strings, or one string with ``/`` between seats);
    ``upcard`` the card that starts the discard pile; ``stock`` the top of
    the stock, top card first. Whatever is not given (the upcard, the rest
    of the stock) is shuffled by ``seed`` as above. The position is checked:
    the number of hands (:class:`~pyrummy.core.errors.HandSizeError`), each
    seat's number of cards (the seat after the dealer gets one more in
    Rotham), cards of this deck only
    (:class:`~pyrummy.core.errors.CardNotInDeckError`: jokers only in
    Rotham), no card twice (:class:`~pyrummy.core.errors.CardGivenTwiceError`);
    all are :class:`~pyrummy.core.errors.SetupError`. The deal's ``seed`` is
    then None: its record keeps the whole deck instead.

    >>> deal = new_deal("gin", hands=["AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
    ...                               "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"],
    ...                 upcard="KC", stock="QC JC", seed=1)
    >>> str(deal.hands(0)), deal.discard_pile, deal.stock[:2], deal.current_seat
    ('AS 2S 3S 4S 5S 6S 7S 8S 9S TS', (Card('KC'),), (Card('QC'), Card('JC')), 1)
    >>> new_deal("gin", hands=["AS 2S", "AH 2H"])
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.HandSizeError: seat 0 must get 10 cards in gin with 2 players, not 2
    """
    the_rules = as_rules(rules, dict(options))
    if shuffle != LEGACY_SHUFFLE:
        try:
            check_shuffle(shuffle)
        except ValueError as exc:
            raise RulesError(str(exc)) from None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise RulesError(f"seed: expected a whole number, got {seed!r}")
    if hands is None:
        if upcard is not None or stock is not None:
            raise SetupError("upcard and stock set up a position: give the hands too")
        players = 4 if players is None else players
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players: expected a whole number, got {players!r}")
        the_rules.check_players(players)
        placed: list[int] = []
    else:
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise RulesError(f"players: expected a whole number, got {players!r}")
        players, placed = _position_order(the_rules, hands, upcard, stock, dealer, players)
    # Card numbers are shuffled (the same swaps as shuffling the cards) and
    # dealt without from_deck's checks of a deck given from outside.
    if placed:
        used = set(placed)
        rest = [index for index in range(the_rules.deck_size) if index not in used]
    else:
        rest = list(range(the_rules.deck_size))
    if seed is None:
        # The operating system's randomness, as secrets.SystemRandom is (the
        # same class): importing secrets would cost a fresh process some ms.
        random.SystemRandom().shuffle(rest)
    else:
        shuffle_cards(rest, seed, shuffle)
    if placed and upcard is None:
        # The upcard comes from the shuffled rest: it goes before the stock given.
        placed.insert(_cards_in_hands(the_rules, players), rest.pop(0))
    order = placed + rest
    deal = Deal._blank(the_rules, players, dealer, deal_number)
    # One C call for the 52 look-ups (a map over __getitem__ costs ~8 us a deal).
    deal.deck = itemgetter(*order)(ALL_CARDS)
    deal.seed = seed if hands is None else None
    deal.shuffle = shuffle
    deal._deal_out(order)
    return deal
