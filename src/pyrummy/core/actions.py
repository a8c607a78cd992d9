"""Actions of a deal: their text form and a fixed integer encoding.

An :class:`Action` is what one seat does in one step of a deal. People,
tests and records use the text form; learning code uses the integer
encoding of :class:`ActionSpace` (see ``docs/actions.md``).

Text forms: ``draw stock``, ``draw discard``, ``decline`` (also ``pass``:
passing the first up-card in gin), ``discard 7H``, ``knock 7H``, ``big gin``, ``meld 7H 8H 9H``, ``layoff 9H 2`` (the number of a table meld,
from 0, in the order the melds were laid), ``swap-joker 5H 1``, ``undo``.

Rotham, one real card and jokers (ruling, see :mod:`pyrummy.core.melds`):
``meld 5H X1 X2`` is a *set* of fives; the player names a run with the word
``run`` after ``meld``, the cards in run order, each joker where it stands:
``meld run 5H X1 X2`` is 5♥ 6♥ 7♥, ``meld run X1 5H X2`` is 4♥ 5♥ 6♥.

>>> action = parse_action("Meld 9♥ 7h 8H")
>>> str(action), action.kind.name
('meld 9H 7H 8H', 'MELD')
>>> space = action_space("rummy")
>>> n = space.encode(action)
>>> str(space.decode(n))
'meld 7H 8H 9H'
>>> parse_action("layoff 10D 2") == Action(ActionKind.LAYOFF, (Card("TD"),), 2)
True
>>> parse_action("discard 7H 8H")
Traceback (most recent call last):
...
pyrummy.core.errors.IllegalActionError: cannot read the action 'discard 7H 8H': discard takes exactly one card
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import combinations
from typing import Final

from pyrummy.core.cards import ALL_CARDS, JOKERS, N_STANDARD, Card, parse_card
from pyrummy.core.errors import CardNotationError, IllegalActionError, RummyError
from pyrummy.core.families import FAMILIES
from pyrummy.core.melds import InvalidMeldError, MeldKind, check_meld
from pyrummy.core.messages import Message, render
from pyrummy.core.patterns import (
    ACE_RULES,
    RANK_ACROSS_SUITS,
    RANKS,
    SUITS,
    card_number,
    card_numbers,
    joker_sets,
    plain_melds,
    run_windows,
    window_ranks,
)
from pyrummy.core.rules import AceRule, Family, Rules, find_rules

#: Upper bound of table melds (55 cards, at least 3 per meld): lay-off and
#: swap-joker targets are numbered below it.
MAX_TABLE_MELDS: Final = 18


class ActionKind(IntEnum):
    """The kinds of action, in the order of the integer encoding."""

    DRAW_STOCK = 0
    DRAW_DISCARD = 1
    DECLINE = 2
    UNDO = 3
    DISCARD = 4
    KNOCK = 5
    MELD = 6
    LAYOFF = 7
    SWAP_JOKER = 8
    BIG_GIN = 9

    @property
    def word(self) -> str:
        return _WORDS[self]


_WORDS: Final = {
    ActionKind.DRAW_STOCK: "draw stock",
    ActionKind.DRAW_DISCARD: "draw discard",
    ActionKind.DECLINE: "decline",
    ActionKind.UNDO: "undo",
    ActionKind.DISCARD: "discard",
    ActionKind.KNOCK: "knock",
    ActionKind.MELD: "meld",
    ActionKind.LAYOFF: "layoff",
    ActionKind.SWAP_JOKER: "swap-joker",
    ActionKind.BIG_GIN: "big gin",
}


@dataclass(frozen=True, order=True)
class Action:
    """One step of a deal. ``cards`` are in meld order for a meld.

    >>> str(Action(ActionKind.DISCARD, (Card("TH"),)))
    'discard TH'
    >>> str(Action(ActionKind.SWAP_JOKER, (Card("5H"),), 1))
    'swap-joker 5H 1'
    """

    kind: ActionKind
    cards: tuple[Card, ...] = ()
    target: int | None = None
    #: A meld the player names a run: needed only where the cards alone do
    #: not say it (one real card and jokers, which is otherwise a set).
    run: bool = False

    def __str__(self) -> str:
        # Remembered on the action: a web table's every event prints the
        # whole deal's history again (each action ~30 times in a long deal).
        # Kept in the instance's __dict__, beside the fields: equality, hash
        # and order use the fields only.
        text: str | None = self.__dict__.get("_text")
        if text is None:
            text = self.__dict__["_text"] = self._text_now()
        return text

    def _text_now(self) -> str:
        # Tables, not properties: records and views print every action.
        parts = [_WORD_OF_KIND[self.kind], *[_CARD_NAMES[card.index] for card in self.cards]]
        if self.run:
            parts.insert(1, "run")
        if self.target is not None:
            parts.append(str(self.target))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @property
    def card(self) -> Card:
        """The one card of a discard, knock, lay-off or swap."""
        return self.cards[0]

    def to_int(self, rules: Rules | str) -> int:
        """This action's number in the fixed action space of ``rules``."""
        return action_space(rules).encode(self)

    @staticmethod
    def from_int(number: int, rules: Rules | str) -> Action:
        """The action with this number in the action space of ``rules``."""
        return action_space(rules).decode(number)


_WORD_OF_KIND: Final = tuple(_WORDS[kind] for kind in ActionKind)
_CARD_NAMES: Final = tuple(str(card) for card in ALL_CARDS)

DRAW_STOCK: Final = Action(ActionKind.DRAW_STOCK)
DRAW_DISCARD: Final = Action(ActionKind.DRAW_DISCARD)
DECLINE: Final = Action(ActionKind.DECLINE)
UNDO: Final = Action(ActionKind.UNDO)
#: Gin with ``big_gin_bonus``: all 11 cards melded, out without a discard.
BIG_GIN: Final = Action(ActionKind.BIG_GIN)
#: One interned action per card: the deal's hot loops reuse these.
DISCARDS: Final = tuple(Action(ActionKind.DISCARD, (card,)) for card in ALL_CARDS)
KNOCKS: Final = tuple(Action(ActionKind.KNOCK, (card,)) for card in ALL_CARDS)

# Enum members are slow class-attribute look-ups on CPython 3.11: encode()
# compares with these.
_FIRST_CARD_KIND: Final = ActionKind.DISCARD
_DISCARD: Final = ActionKind.DISCARD
_KNOCK: Final = ActionKind.KNOCK
_MELD: Final = ActionKind.MELD
_LAYOFF: Final = ActionKind.LAYOFF

_SIMPLE: Final = {
    "draw stock": DRAW_STOCK,
    "draw discard": DRAW_DISCARD,
    "draw pile": DRAW_DISCARD,
    "decline": DECLINE,
    "pass": DECLINE,
    "undo": UNDO,
    "big gin": BIG_GIN,
    "big-gin": BIG_GIN,
    "big_gin": BIG_GIN,
}
_KIND_BY_WORD: Final = {
    "discard": ActionKind.DISCARD,
    "knock": ActionKind.KNOCK,
    "meld": ActionKind.MELD,
    "layoff": ActionKind.LAYOFF,
    "lay-off": ActionKind.LAYOFF,
    "lay_off": ActionKind.LAYOFF,
    "swap-joker": ActionKind.SWAP_JOKER,
    "swap_joker": ActionKind.SWAP_JOKER,
    "swap": ActionKind.SWAP_JOKER,
}
_SPLIT: Final = re.compile(r"[\s,;]+")


def _unreadable(text: str, why: str) -> IllegalActionError:
    message = Message.of("action.unknown", text=text)
    error = IllegalActionError(f"{render(message)}: {why}", reason=message)
    return error


def parse_action(text: str) -> Action:
    """Read an action from its text form (any case, ``10`` or ``T``, ♠♥♦♣).

    >>> parse_action("DRAW  Stock"), parse_action("knock 10♦"), parse_action("swap-joker 5h 1")
    (Action('draw stock'), Action('knock TD'), Action('swap-joker 5H 1'))
    >>> parse_action("layoff 9H")
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.IllegalActionError: cannot read the action 'layoff 9H': layoff needs a card and a table meld number, like 'layoff 9H 2'
    """
    if isinstance(text, Action):
        return text
    if not isinstance(text, str):
        raise _unreadable(repr(text), "an action is text like 'discard 7H'")
    words = [w for w in _SPLIT.split(text.strip()) if w]
    if not words:
        raise _unreadable(text, "the action is empty")
    simple = _SIMPLE.get(" ".join(words).lower())
    if simple is not None:
        return simple
    kind = _KIND_BY_WORD.get(words[0].lower())
    if kind is None:
        known = (
            "draw stock, draw discard, decline, discard, knock, big gin, meld, layoff, "
            "swap-joker, undo"
        )
        raise _unreadable(text, f"unknown action {words[0]!r}; actions are: {known}")
    args = words[1:]
    if kind in (ActionKind.DISCARD, ActionKind.KNOCK):
        if len(args) != 1:
            raise _unreadable(text, f"{kind.word} takes exactly one card")
        return Action(kind, (_card(text, args[0]),))
    if kind is ActionKind.MELD:
        run = bool(args) and args[0].lower() == "run"
        if run:
            args = args[1:]
        if not args:
            raise _unreadable(text, "meld needs its cards, like 'meld 7H 8H 9H'")
        cards = tuple(_card(text, word) for word in args)
        if len(set(cards)) != len(cards):
            raise _unreadable(text, "a card appears twice")
        return Action(kind, cards, run=run)
    if len(args) != 2 or not args[1].isdigit():
        example = "layoff 9H 2" if kind is ActionKind.LAYOFF else "swap-joker 5H 1"
        raise _unreadable(
            text, f"{kind.word} needs a card and a table meld number, like {example!r}"
        )
    return Action(kind, (_card(text, args[0]),), int(args[1]))


def _card(text: str, word: str) -> Card:
    try:
        return parse_card(word)
    except CardNotationError as exc:
        raise _unreadable(text, str(exc)) from None


# ---------------------------------------------------------------------------
# the integer encoding

MeldKey = tuple[int, tuple[int, ...]]
"""A meld's identity: (mask of its cards, the cards its jokers stand for).

For a run the second part lists, in position order, the card each joker
stands for; for a set and a meld without jokers it is empty. Jokers are
always placed in number order along the meld (X1 before X2), so the key
never depends on which joker is which.
"""


def _plain_melds(ace: AceRule) -> Iterator[tuple[Card, ...]]:
    """Every meld without jokers, in encoding order: sets by rank, then runs."""
    for numbers in plain_melds(ace):
        yield tuple(ALL_CARDS[number] for number in numbers)


def _joker_melds(ace: AceRule, jokers: int) -> Iterator[tuple[tuple[Card, ...], bool]]:
    """Every meld with jokers (at least one real card), in encoding order, and
    whether it is a run. The melds of one real card come after the others,
    so the numbers of the melds with two or more real cards did not move
    when one real card became enough."""
    available = JOKERS[:jokers]
    for rank in range(RANKS):
        for part, count in joker_sets(RANK_ACROSS_SUITS[rank], jokers, fewest=2):
            real = tuple(ALL_CARDS[number] for number in card_numbers(part))
            for chosen in combinations(available, count):
                yield (*real, *chosen), False
    for suit in range(SUITS):
        for start, length in run_windows(ace):
            represents = [
                ALL_CARDS[card_number(rank, suit)] for rank in window_ranks(start, length)
            ]
            for count in range(1, min(jokers, length - 2) + 1):
                for positions in combinations(range(length), count):
                    for chosen in combinations(available, count):
                        placed = iter(chosen)
                        yield (
                            tuple(
                                next(placed) if i in positions else card
                                for i, card in enumerate(represents)
                            ),
                            True,
                        )
    # One real card: a set of its rank, or a run (named so by the player).
    for number in range(N_STANDARD):
        for _, count in joker_sets(1 << number, jokers):
            for chosen in combinations(available, count):
                yield (ALL_CARDS[number], *chosen), False
    for suit in range(SUITS):
        for start, length in run_windows(ace):
            if length - 1 > jokers:
                continue
            represents = [
                ALL_CARDS[card_number(rank, suit)] for rank in window_ranks(start, length)
            ]
            for real_at in range(length):
                for chosen in combinations(available, length - 1):
                    placed = iter(chosen)
                    yield (
                        tuple(
                            card if i == real_at else next(placed)
                            for i, card in enumerate(represents)
                        ),
                        True,
                    )


def _key_of_cards(cards: tuple[Card, ...], ace: AceRule, run: bool = False) -> MeldKey:
    """The key of cards already in canonical meld order (as generated above).

    ``run`` says that one real card and jokers are a run (else a set).
    Works on card numbers: building a game's space computes tens of
    thousands of keys (Rotham), and the card properties are slower.
    """
    numbers = [card.index for card in cards]
    mask = 0
    for number in numbers:
        mask |= 1 << number
    reals = [number for number in numbers if number < N_STANDARD]
    one_rank = len({number % RANKS for number in reals}) == 1
    if len(reals) == len(numbers) or (one_rank and (len(reals) > 1 or not run)):
        return mask, ()
    first = next(i for i, number in enumerate(numbers) if number < N_STANDARD)
    suit, rank = divmod(numbers[first], RANKS)
    start = rank - first  # the rank of the run's first position (may wrap)
    stands = tuple(
        RANKS * suit + (start + i) % RANKS
        for i, number in enumerate(numbers)
        if number >= N_STANDARD
    )
    return mask, stands


def canonical_jokers(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The same meld with its jokers renumbered in position order (X1 first).

    >>> canonical_jokers(tuple(Card(c) for c in "5H X3 X1 8H".split()))
    (Card('5H'), Card('X1'), Card('X3'), Card('8H'))
    """
    jokers = iter(sorted(card for card in cards if card.is_joker))
    return tuple(next(jokers) if card.is_joker else card for card in cards)


class ActionSpace:
    """The fixed numbering of every action of one kind of game.

    Numbers, in order (``N`` = cards in the deck, ``T`` =
    :data:`MAX_TABLE_MELDS`): ``0`` draw stock, ``1`` draw discard, ``2``
    decline, ``3`` undo; ``4 + c`` discard card ``c``; knock games: then
    ``knock c``; gin with big gin (``big_gin_bonus``): then ``big gin``; melding games: then every meld (sets by rank, then runs by
    suit, then melds with jokers), then ``layoff c t`` at ``c * T + t``, then
    (with jokers) ``swap-joker c t`` for the 52 real cards.

    >>> space = action_space("gin")
    >>> space.size, space.encode(parse_action("knock AS")), str(space.decode(4))
    (108, 56, 'discard AS')
    >>> action_space("rummy").size, action_space("rotham").size
    (1321, 36366)
    """

    def __init__(self, family: Family, ace: AceRule, jokers: int, big_gin: bool = False) -> None:
        policy = FAMILIES[family]
        self.family = family
        self.big_gin = big_gin
        self.ace = ace
        self.jokers = jokers
        #: The family's knocks and table play are numbered (its policy says which).
        self.knocks = policy.knocks
        self.table_play = policy.table_play
        self.cards = N_STANDARD + jokers
        self.discard_base = 4
        next_base = self.discard_base + self.cards
        self.knock_base = next_base
        self.meld_base = next_base
        self._melds: list[Action] = []
        self._meld_index: dict[MeldKey, int] = {}
        # id of each canonical meld action -> its number; safe because
        # self._melds keeps those actions alive as long as the space.
        self._meld_by_id: dict[int, int] = {}
        if self.knocks:
            next_base += self.cards
            self.meld_base = next_base
        #: The number of ``big gin`` (-1: not in this space).
        self.big_gin_number = -1
        if big_gin:
            self.big_gin_number = next_base
            next_base += 1
            self.meld_base = next_base
        if self.table_play:
            for cards in _plain_melds(ace):
                self._add_meld(cards)
            if jokers:
                for cards, run in _joker_melds(ace, jokers):
                    self._add_meld(cards, run)
            next_base += len(self._melds)
        self.layoff_base = next_base
        if self.table_play:
            next_base += self.cards * MAX_TABLE_MELDS
        self.swap_base = next_base
        if self.table_play and jokers:
            next_base += N_STANDARD * MAX_TABLE_MELDS
        self.size = next_base

    def _add_meld(self, cards: tuple[Card, ...], run: bool = False) -> None:
        key = _key_of_cards(cards, self.ace, run)
        if key not in self._meld_index:
            # Only a run of one real card needs naming: the cards say the rest.
            named = run and sum(not card.is_joker for card in cards) == 1
            action = Action(ActionKind.MELD, cards, run=named)
            self._meld_index[key] = self._meld_by_id[id(action)] = len(self._melds)
            self._melds.append(action)

    @property
    def meld_count(self) -> int:
        return len(self._melds)

    @property
    def meld_index(self) -> Mapping[MeldKey, int]:
        """Meld key -> meld number (add ``meld_base`` for the action number)."""
        return self._meld_index

    def meld_action(self, key: MeldKey) -> Action:
        """The canonical meld action with this key (KeyError if none)."""
        return self._melds[self._meld_index[key]]

    def meld_at(self, number: int) -> Action:
        """The canonical meld action with this meld number (from 0)."""
        return self._melds[number]

    def encode(self, action: Action) -> int:
        """The number of ``action``; a meld's cards may be in any order.

        Raises :class:`IllegalActionError` for an action outside this space.
        """
        kind = action.kind
        if kind < _FIRST_CARD_KIND:  # draw stock, draw discard, decline, undo: 0-3
            return int(kind)
        if kind is ActionKind.BIG_GIN:
            if self.big_gin_number < 0:
                raise self._outside(action, "there is no big gin in this game")
            return self.big_gin_number
        if kind is _DISCARD:
            return self.discard_base + self._card_number(action)
        if kind is _KNOCK:
            if not self.knocks:
                raise self._outside(action, "there is no knock in a melding game")
            return self.knock_base + self._card_number(action)
        if not self.table_play:
            raise self._outside(action, f"there is no {kind.word} in a knock game")
        if kind is _MELD:
            # A canonical meld (as legal actions list them) is known by identity.
            number = self._meld_by_id.get(id(action))
            if number is None:
                number = self._meld_number(action)
            return self.meld_base + number
        target = action.target
        if target is None or not 0 <= target < MAX_TABLE_MELDS:
            raise self._outside(action, f"meld number must be 0-{MAX_TABLE_MELDS - 1}")
        if kind is _LAYOFF:
            return self.layoff_base + self._card_number(action) * MAX_TABLE_MELDS + target
        if not self.jokers:
            raise self._outside(action, "there are no jokers in this game")
        card = self._card_number(action)
        if card >= N_STANDARD:
            raise self._outside(action, "a joker is exchanged for a real card, not a joker")
        return self.swap_base + card * MAX_TABLE_MELDS + target

    def decode(self, number: int) -> Action:
        """The action numbered ``number`` (``IllegalActionError`` if out of range)."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise IllegalActionError(f"{number!r} is not an action number")
        if not 0 <= number < self.size:
            raise IllegalActionError(f"{number} is not an action number (0-{self.size - 1})")
        if number < 4:
            return (DRAW_STOCK, DRAW_DISCARD, DECLINE, UNDO)[number]
        if number < self.discard_base + self.cards:
            return DISCARDS[number - self.discard_base]
        if number == self.big_gin_number:
            return BIG_GIN
        if number < self.meld_base:
            return KNOCKS[number - self.knock_base]
        if number < self.layoff_base:
            return self._melds[number - self.meld_base]
        if number < self.swap_base:
            card, target = divmod(number - self.layoff_base, MAX_TABLE_MELDS)
            return Action(ActionKind.LAYOFF, (ALL_CARDS[card],), target)
        card, target = divmod(number - self.swap_base, MAX_TABLE_MELDS)
        return Action(ActionKind.SWAP_JOKER, (ALL_CARDS[card],), target)

    def normalize(self, action: Action) -> Action:
        """The canonical form of ``action`` (a meld's cards in meld order)."""
        if action.kind is not ActionKind.MELD:
            return action
        return self._melds[self._meld_number(action)]

    def _card_number(self, action: Action) -> int:
        if len(action.cards) != 1:
            raise self._outside(action, f"{action.kind.word} takes exactly one card")
        index = action.cards[0].index
        if index >= self.cards:
            raise self._outside(action, f"{action.cards[0]} is not in this deck")
        return index

    def _meld_number(self, action: Action) -> int:
        cards = action.cards
        if any(card.index >= self.cards for card in cards):
            raise self._outside(action, "a card is not in this deck")
        mask = 0
        for card in cards:
            mask |= card.bit
        if mask.bit_count() != len(cards):
            raise self._outside(action, "a card appears twice")
        if not any(card.is_joker for card in cards):
            if action.run:
                self._joker_key(action)  # a named run must be one (raises if not)
            key: MeldKey = (mask, ())
        else:
            key = self._joker_key(action)
        number = self._meld_index.get(key)
        if number is None:
            raise self._invalid_meld(action)
        return number

    def _joker_key(self, action: Action) -> MeldKey:
        try:
            meld = check_meld(action.cards, ACE_RULES[self.ace], run=action.run)
        except RummyError:
            raise self._invalid_meld(action) from None
        return _key_of_cards(canonical_jokers(meld.cards), self.ace, run=meld.kind is MeldKind.RUN)

    def _invalid_meld(self, action: Action) -> IllegalActionError:
        try:
            check_meld(action.cards, ACE_RULES[self.ace], run=action.run)
        except InvalidMeldError as exc:
            message = Message.of("action.invalid_meld", reason=str(exc))
            error = IllegalActionError(render(message), reason=message)
            return error
        return self._outside(action, "not a meld of this game")

    @staticmethod
    def _outside(action: Action, why: str) -> IllegalActionError:
        return IllegalActionError(f"{action}: {why}")


@lru_cache(maxsize=16)
def _space(family: Family, ace: AceRule, jokers: int, big_gin: bool) -> ActionSpace:
    return ActionSpace(family, ace, jokers, big_gin)


def action_space(rules: Rules | str) -> ActionSpace:
    """The (shared, immutable) action space of these rules."""
    resolved = rules if isinstance(rules, Rules) else find_rules(rules)
    # Jokers count in every family: with the jokers option a knock or gin
    # hand may discard or knock with a joker too.
    # Rules allow big gin in the gin family only.
    return _space(resolved.family, resolved.ace, resolved.jokers, resolved.big_gin_bonus > 0)
