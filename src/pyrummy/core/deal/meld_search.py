"""Melds of a hand and the cards that fit the table, as numbers and masks.

The deal's legal actions ask which melds a hand holds (by their number in
the :class:`~pyrummy.core.actions.ActionSpace`), whether the cards left can
still all be melded (all-seven deals), and which cards fit each table meld
(lay-offs, joker exchanges). Everything here works on masks and caches per
suit or rank pattern; :func:`pyrummy.core.melds.all_melds_in` is the
card-level enumeration, and :mod:`pyrummy.core.oracle` checks both.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations
from typing import Final

from pyrummy.core.actions import Action, ActionSpace, MeldKey, canonical_jokers
from pyrummy.core.cards import ALL_CARDS, JOKERS, N_STANDARD, Card
from pyrummy.core.melds import Meld, MeldKind, check_meld, extend_meld, swap_joker
from pyrummy.core.patterns import (
    ACE_RULES,
    RANK_ACROSS_SUITS,
    RANKS,
    STANDARD_BITS,
    SUIT_BITS,
    SUIT_SHIFTS,
    SUITS,
    card_number,
    joker_runs_in_suit,
    joker_sets,
    runs_in_suit,
    set_masks,
)
from pyrummy.core.rules import Rules

__all__ = [
    "coverage",
    "joker_meld_keys",
    "layoff_fits",
    "meld_numbers",
    "meld_of",
    "swap_fits",
]

_MELD_SET: Final = MeldKind.SET
_MELD_RUN: Final = MeldKind.RUN


def meld_of(action: Action, rules: Rules) -> Meld:
    """The table meld of a canonical meld action (jokers stay where listed)."""
    cards = action.cards
    meld = check_meld(cards, rules, run=action.run)
    if meld.jokers and meld.cards != cards and meld.kind is MeldKind.RUN:
        # check_meld read the order given; keep the canonical joker numbering.
        return Meld(meld.kind, canonical_jokers(meld.cards), meld.represents)
    return meld


def _missing(meld: Meld) -> list[Card | None]:
    """The real cards a joker in a set can stand for (the suits not shown)."""
    rank = meld.rank
    if rank is None:
        return []
    present = {card.suit for card in meld.real_cards}
    return [ALL_CARDS[card_number(rank, suit)] for suit in range(SUITS) if suit not in present]


def layoff_fits(meld: Meld, ace: str) -> int:
    """Every card that can be laid off on ``meld`` (as a mask).

    Cached by the meld's card tuples, not the meld: hashing a tuple of
    (interned) cards is much cheaper than hashing the dataclass.
    """
    return _layoff_mask(meld.kind is _MELD_SET, meld.cards, meld.represents, ace)


@lru_cache(maxsize=8192)
def _layoff_mask(
    is_set: bool, cards: tuple[Card, ...], represents: tuple[Card | None, ...], ace: str
) -> int:
    rules = ACE_RULES[ace]
    meld = Meld(MeldKind.SET if is_set else MeldKind.RUN, cards, represents)
    if is_set:
        rank = meld.rank
        assert rank is not None
        candidates = [ALL_CARDS[card_number(rank, suit)] for suit in range(SUITS)]
    else:
        suit = meld.suit
        assert suit is not None
        first = card_number(0, suit)
        candidates = list(ALL_CARDS[first : first + RANKS])
    candidates += JOKERS
    mask = 0
    for card in candidates:
        if extend_meld(meld, card, rules) is not None:
            mask |= card.bit
    return mask


def swap_fits(meld: Meld) -> int:
    """Every card that can take the place of a joker of ``meld`` (as a mask)."""
    return _swap_mask(meld.kind is _MELD_SET, meld.cards, meld.represents)


@lru_cache(maxsize=8192)
def _swap_mask(is_set: bool, cards: tuple[Card, ...], represents: tuple[Card | None, ...]) -> int:
    meld = Meld(_MELD_SET if is_set else _MELD_RUN, cards, represents)
    if not meld.jokers:
        return 0
    wanted = represents if not is_set else _missing(meld)
    mask = 0
    for card in wanted:
        if card is not None and swap_joker(meld, card) is not None:
            mask |= card.bit
    return mask


def meld_numbers(space: ActionSpace, hand: int) -> list[tuple[int, int]]:
    """Every meld made of the hand's cards: (meld number, mask of its cards).

    Works on masks only (no CardSet): sets only at ranks held in three
    suits or more, runs only in suits with three cards in a row (the rank
    pattern wrapped once, for the ace rules that go round the corner).
    """
    s = hand & SUIT_BITS
    h = hand >> 13 & SUIT_BITS
    d = hand >> 26 & SUIT_BITS
    c = hand >> 39 & SUIT_BITS
    found: list[tuple[int, int]] = []
    three = (s & h & (d | c)) | ((s | h) & d & c)
    if three:
        sets = _set_numbers(space)
        while three:
            low = three & -three
            three ^= low
            rank = low.bit_length() - 1
            held = (
                (s >> rank & 1) | (h >> rank & 1) << 1 | (d >> rank & 1) << 2 | (c >> rank & 1) << 3
            )
            found += sets[rank][held]
    for base, pattern in ((0, s), (13, h), (26, d), (39, c)):
        wrapped = pattern | (pattern & 3) << 13
        if wrapped & wrapped >> 1 & wrapped >> 2:
            found += _run_numbers(space, base, pattern)
    jokers = hand >> N_STANDARD
    if jokers:
        # Melds with jokers, rank by rank and suit by suit (each part cached):
        # with one joker a set needs two suits of its rank and a run two
        # cards of its suit; with two jokers or more, one real card will do.
        many = jokers & (jokers - 1)
        jokers <<= N_STANDARD
        ranks = (s | h | d | c) if many else (s & (h | d | c)) | (h & (d | c)) | (d & c)
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            found += _joker_melds_of(
                space, hand & RANK_ACROSS_SUITS[low.bit_length() - 1] | jokers, False
            )
        for base, pattern in ((0, s), (13, h), (26, d), (39, c)):
            if pattern & (pattern - 1) or (many and pattern):
                found += _joker_melds_of(space, pattern << base | jokers, True)
    return found


@lru_cache(maxsize=1 << 15)
def _joker_melds_of(space: ActionSpace, part: int, runs: bool) -> tuple[tuple[int, int], ...]:
    """The sets with jokers of one rank's cards plus the jokers, or the runs
    with jokers of one suit's cards plus the jokers (``runs``)."""
    index = space.meld_index
    return tuple((index[key], key[0]) for key in joker_meld_keys(part, space.ace, runs))


@cache
def _set_numbers(space: ActionSpace) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per rank and per 4-bit pattern of the suits held: the sets without jokers."""
    index = space.meld_index
    table = []
    for rank in range(RANKS):
        by_pattern = []
        for held in range(1 << SUITS):
            cards = sum(1 << card_number(rank, suit) for suit in range(SUITS) if held >> suit & 1)
            by_pattern.append(tuple((index[(mask, ())], mask) for mask in set_masks(cards)))
        table.append(tuple(by_pattern))
    return tuple(table)


@lru_cache(maxsize=1 << 15)
def _run_numbers(space: ActionSpace, base: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """The runs without jokers in one suit (``base`` its first card number)."""
    index = space.meld_index
    return tuple(
        (index[(window << base, ())], window << base) for window in runs_in_suit(pattern, space.ace)
    )


def coverage(melds: list[int], need_one: bool) -> Callable[[int], bool]:
    """Can a part of the hand be melded by itself with at most one card over
    (exactly one when the last card must be discarded)?

    ``melds`` are the masks of the melds in the whole hand; the answer for
    every part shares one memo. Per mask, bit 0 says "nothing over" is
    possible, bit 1 "one card over".
    """
    memo: dict[int, int] = {0: 1}

    def leftovers(mask: int) -> int:
        found = memo.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        # The lowest card is either the one left over or in some meld.
        counts = 2 if leftovers(mask ^ low) & 1 else 0
        for meld in melds:
            if meld & low and meld & mask == meld:
                counts |= leftovers(mask ^ meld)
                if counts == 3:
                    break
        memo[mask] = counts
        return counts

    if need_one:
        return lambda left: bool(leftovers(left) & 2)
    return lambda left: bool(leftovers(left))


def joker_meld_keys(hand: int, ace: str, runs: bool | None = None) -> list[MeldKey]:
    """Every meld with jokers (at least one real card) made of the hand's cards:
    only sets (``runs=False``), only runs (``True``) or both (``None``).

    Jokers are numbered in position order (X1 before X2): one action per
    placement of jokers, whichever joker goes where.
    """
    jokers = [i for i in range(N_STANDARD, N_STANDARD + 3) if hand >> i & 1]
    real = hand & STANDARD_BITS
    keys: list[MeldKey] = []
    joker_groups = [
        [sum(1 << j for j in chosen) for chosen in combinations(jokers, count)]
        for count in range(4)
    ]
    for across in RANK_ACROSS_SUITS if runs is not True else ():
        for part, count in joker_sets(real & across, len(jokers)):
            keys += [(part | js, ()) for js in joker_groups[count]]
    if not jokers or runs is False:
        return keys
    for base in SUIT_SHIFTS:
        pattern = real >> base & SUIT_BITS
        if not pattern:
            continue
        for reals, stands, count in joker_runs_in_suit(pattern, len(jokers), ace):
            shifted = reals << base
            stand_cards = tuple(base + rank for rank in stands)
            keys += [(shifted | js, stand_cards) for js in joker_groups[count]]
    return keys
