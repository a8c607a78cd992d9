"""Cards, card sets and the one text notation for them.

A card is a number 0-54: ``13 * suit + rank`` for the 52 ordinary cards
(suits S H D C, ranks A 2 ... K with the ace lowest), and 52-54 for the three
jokers of Rotham Rummy. A set of cards is one Python int with one bit per
card, wrapped in :class:`CardSet`, which speaks the whole ``set`` protocol.

Notation: rank ``A23456789TJQK`` (``10`` accepted for ``T``), suit ``SHDC``
(``♠♥♦♣`` accepted), either case; jokers are ``X1 X2 X3``. Text output uses
the letters (``7H TD AS``); :meth:`CardSet.pretty` and :meth:`Card.pretty`
use the suit symbols for display (``7♥ 10♦ A♠``).

>>> hand = parse_cards("7h 8H 9♥ 10d")
>>> hand
CardSet('7H 8H 9H TD')
>>> hand.pretty()
'7♥ 8♥ 9♥ 10♦'
>>> Card("7H") in hand, len(hand)
(True, 4)
>>> parse_cards("7H 1X")
Traceback (most recent call last):
...
pyrummy.core.errors.CardNotationError: '1X' is not a card: unknown rank '1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Set
from enum import IntEnum
from typing import Final, Union, overload

from pyrummy.core.errors import CardNotationError, DuplicateCardError


class Suit(IntEnum):
    """The four suits, in notation order S H D C."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]


class Rank(IntEnum):
    """The thirteen ranks, ace lowest."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7
    NINE = 8
    TEN = 9
    JACK = 10
    QUEEN = 11
    KING = 12

    @property
    def letter(self) -> str:
        return "A23456789TJQK"[self]

    @property
    def display(self) -> str:
        return "10" if self is Rank.TEN else self.letter

    @property
    def points(self) -> int:
        """Deadwood value with the ace low: A = 1, 2-10 face value, J Q K = 10."""
        return min(int(self) + 1, 10)


SUITS: Final = tuple(Suit)
RANKS: Final = tuple(Rank)
#: Ranks in a suit: card number ``RANKS_IN_SUIT * suit + rank`` (see :func:`card_number`).
RANKS_IN_SUIT: Final = 13
#: The bits of one suit of a hand mask (its 13-bit rank pattern).
SUIT_BITS: Final = (1 << RANKS_IN_SUIT) - 1
N_STANDARD: Final = 52
N_JOKERS: Final = 3
N_CARDS: Final = N_STANDARD + N_JOKERS
JOKER_POINTS: Final = 15

_RANK_BY_TEXT: Final = {r.letter: r for r in Rank} | {"10": Rank.TEN}
# ♤♡♢♧ (white suits) are read too: people paste them.
_SUIT_BY_TEXT: Final = (
    {s.letter: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)


def card_number(rank: int, suit: int) -> int:
    """The number of the card of ``rank`` (0 = ace) in ``suit`` (0-3: S H D C).

    >>> card_number(6, 1)  # 7H
    19
    """
    return RANKS_IN_SUIT * suit + rank


class Card:
    """One playing card, interned: ``Card("7H") is Card("7H")``.

    >>> Card("10h"), Card(Rank.SEVEN, Suit.HEARTS), Card("X2")
    (Card('TH'), Card('7H'), Card('X2'))
    >>> Card("QS").points, Card("X1").points
    (10, 15)
    """

    __slots__ = ("index", "rank", "suit")
    index: int
    rank: Rank | None
    suit: Suit | None

    _interned: list[Card] = []  # noqa: RUF012 - filled once at import, below

    @overload
    def __new__(cls, text: str, /) -> Card: ...
    @overload
    def __new__(cls, rank: Rank, suit: Suit, /) -> Card: ...

    def __new__(cls, first: str | Rank, second: Suit | None = None, /) -> Card:
        if isinstance(first, str):
            return parse_card(first)
        if second is None:
            raise CardNotationError("a card needs a rank and a suit")
        return cls._interned[card_number(int(first), int(second))]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        card.index = index
        if index < N_STANDARD:
            card.rank, card.suit = Rank(index % 13), Suit(index // 13)
        else:
            card.rank = card.suit = None
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this number (0-54)."""
        if not 0 <= index < N_CARDS:
            raise CardNotationError(f"{index} is not a card number (0-{N_CARDS - 1})")
        return Card._interned[index]

    @property
    def is_joker(self) -> bool:
        return self.index >= N_STANDARD

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def points(self) -> int:
        """Value in hand with the standard (ace low) count; a joker counts 15."""
        return JOKER_POINTS if self.rank is None else self.rank.points

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return f"X{self.index - N_STANDARD + 1}"
        return self.rank.letter + self.suit.letter

    def pretty(self) -> str:
        """Display form with a suit symbol: ``10♥``; jokers as ``🃏1``."""
        if self.rank is None or self.suit is None:
            return f"🃏{self.index - N_STANDARD + 1}"
        return self.rank.display + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


Card._interned = [Card._make(i) for i in range(N_CARDS)]
ALL_CARDS: Final = tuple(Card._interned)
JOKERS: Final = ALL_CARDS[N_STANDARD:]

_TOKEN_SPLIT: Final = re.compile(r"[\s,;]+")


def parse_card(text: str) -> Card:
    """Read one card: ``7H``, ``10d``, ``T♦``, ``as``, ``X1``.

    >>> parse_card("10♣")
    Card('TC')
    >>> parse_card("7Z")
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.CardNotationError: '7Z' is not a card: unknown suit 'Z'
    """
    token = text.strip()
    upper = token.upper()
    if upper in ("X1", "X2", "X3"):
        return ALL_CARDS[N_STANDARD + int(upper[1]) - 1]
    if len(upper) < 2:
        raise CardNotationError(f"{token!r} is not a card: a card is a rank and a suit, like 7H")
    rank_text, suit_text = upper[:-1], upper[-1]
    rank = _RANK_BY_TEXT.get(rank_text)
    if rank is None:
        raise CardNotationError(f"{token!r} is not a card: unknown rank {rank_text!r}")
    suit = _SUIT_BY_TEXT.get(suit_text)
    if suit is None:
        raise CardNotationError(f"{token!r} is not a card: unknown suit {token[-1]!r}")
    return ALL_CARDS[RANKS_IN_SUIT * suit + rank]


def parse_card_list(text: str) -> list[Card]:
    """Read cards in the given order (decks, runs), refusing duplicates.

    >>> parse_card_list("9H 7H 8H")
    [Card('9H'), Card('7H'), Card('8H')]
    """
    tokens = [t for t in _TOKEN_SPLIT.split(text.strip()) if t]
    cards = [parse_card(t) for t in tokens]
    seen = 0
    for card in cards:
        if seen & card.bit:
            raise DuplicateCardError(f"{card} appears twice")
        seen |= card.bit
    return cards


CardsLike = Union["CardSet", Iterable[Card], str, int]


def parse_cards(text: str) -> CardSet:
    """Read a hand: cards separated by spaces or commas; duplicates are an error."""
    return CardSet(parse_card_list(text))


class CardSet(Set[Card]):
    """An immutable set of cards stored as one int (bit ``i`` = card ``i``).

    Speaks the ``set`` protocol (``in``, ``len``, iteration in card order,
    ``| & - ^``, ``<=``, ``isdisjoint``), is hashable, and its ``repr`` can be
    pasted back.

    >>> a = CardSet("7H 8H 9H")
    >>> b = CardSet("9H TH")
    >>> a | b, a & b, a - b
    (CardSet('7H 8H 9H TH'), CardSet('9H'), CardSet('7H 8H'))
    >>> CardSet("7H 8H") <= a, a.isdisjoint(CardSet("2C"))
    (True, True)
    >>> CardSet(a.mask) == a, sum(c.points for c in a)
    (True, 24)
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: CardsLike = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards >> N_CARDS:
                raise CardNotationError(f"{cards:#x} is not a card-set mask")
            self.mask = cards
        elif isinstance(cards, CardSet):
            self.mask = cards.mask
        elif isinstance(cards, str):
            self.mask = _mask_of_text(cards)
        else:
            mask = 0
            for card in cards:
                if not isinstance(card, Card):
                    raise CardNotationError(f"{card!r} is not a Card")
                if mask & card.bit:
                    raise DuplicateCardError(f"{card} appears twice")
                mask |= card.bit
            self.mask = mask

    @classmethod
    def _of(cls, mask: int) -> CardSet:
        result = object.__new__(cls)
        result.mask = mask
        return result

    @classmethod
    def full_deck(cls, jokers: int = 0) -> CardSet:
        """The 52 cards, plus ``jokers`` (0-3) jokers."""
        return cls._of((1 << (N_STANDARD + jokers)) - 1)

    # -- set protocol -------------------------------------------------------
    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield ALL_CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __hash__(self) -> int:
        return hash(self.mask)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        if isinstance(other, Set):
            return len(self) == len(other) and all(c in self for c in other)
        return NotImplemented

    def _mask_of(self, other: Iterable[Card]) -> int:
        return other.mask if isinstance(other, CardSet) else CardSet(other).mask

    def __or__(self, other: Iterable[Card]) -> CardSet:  # type: ignore[override]
        return CardSet._of(self.mask | self._mask_of(other))

    def __and__(self, other: Iterable[Card]) -> CardSet:
        return CardSet._of(self.mask & self._mask_of(other))

    def __sub__(self, other: Iterable[Card]) -> CardSet:
        return CardSet._of(self.mask & ~self._mask_of(other))

    def __xor__(self, other: Iterable[Card]) -> CardSet:  # type: ignore[override]
        return CardSet._of(self.mask ^ self._mask_of(other))

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __le__(self, other: Set[object]) -> bool:
        if isinstance(other, CardSet):
            return self.mask & ~other.mask == 0
        return super().__le__(other)

    def __ge__(self, other: Set[object]) -> bool:
        if isinstance(other, CardSet):
            return other.mask & ~self.mask == 0
        return super().__ge__(other)

    def issubset(self, other: Iterable[Card]) -> bool:
        return self.mask & ~self._mask_of(other) == 0

    def issuperset(self, other: Iterable[Card]) -> bool:
        return self._mask_of(other) & ~self.mask == 0

    def isdisjoint(self, other: Iterable[Card]) -> bool:
        return self.mask & self._mask_of(other) == 0

    def union(self, *others: Iterable[Card]) -> CardSet:
        mask = self.mask
        for other in others:
            mask |= self._mask_of(other)
        return CardSet._of(mask)

    def add(self, card: Card) -> CardSet:
        """A new set with ``card`` added (the set itself is immutable)."""
        return CardSet._of(self.mask | card.bit)

    def remove(self, card: Card) -> CardSet:
        """A new set without ``card``; ``KeyError`` if it is not there."""
        if not self.mask >> card.index & 1:
            raise KeyError(card)
        return CardSet._of(self.mask ^ card.bit)

    # -- card-game helpers ----------------------------------------------------
    def suit_mask(self, suit: Suit) -> int:
        """The 13-bit rank pattern of one suit (bit r = rank r present)."""
        return self.mask >> (RANKS_IN_SUIT * suit) & SUIT_BITS

    @property
    def jokers(self) -> CardSet:
        return CardSet._of(self.mask & ~((1 << N_STANDARD) - 1))

    @property
    def points(self) -> int:
        """Sum of the standard card values (ace 1, joker 15)."""
        return sum(card.points for card in self)

    def sorted_by_rank(self) -> list[Card]:
        """Cards ordered by rank, then suit; jokers last."""
        return sorted(self, key=lambda c: (c.rank is None, c.rank or 0, c.suit or 0, c.index))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def pretty(self) -> str:
        return " ".join(c.pretty() for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet, (self.mask,))


# Every spelling parse_card reads, upper-cased, to its bit: a hand in plain
# notation is read with one look-up per card.
_BIT_BY_TOKEN: Final = {
    rank_text + suit_text: 1 << card_number(rank, suit)
    for rank_text, rank in _RANK_BY_TEXT.items()
    for suit_text, suit in _SUIT_BY_TEXT.items()
} | {f"X{number}": 1 << (N_STANDARD + number - 1) for number in (1, 2, 3)}


def _mask_of_text(text: str) -> int:
    """The mask of a hand in notation; anything unusual goes to :func:`parse_card_list`,
    which names the problem."""
    tokens = text.upper().split()
    try:
        mask = sum(map(_BIT_BY_TOKEN.__getitem__, tokens))
    except KeyError:
        mask = -1
    # Distinct cards add up without a carry: as many bits as tokens.
    if mask < 0 or mask.bit_count() != len(tokens):
        return CardSet(parse_card_list(text)).mask
    return mask


def to_cardset(cards: CardsLike) -> CardSet:
    """Accept a CardSet, an iterable of Card, a string in the notation or a mask."""
    return cards if isinstance(cards, CardSet) else CardSet(cards)


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    """Cards in the given order, in notation (or display form with ``pretty``)."""
    return " ".join(c.pretty() if pretty else str(c) for c in cards)
