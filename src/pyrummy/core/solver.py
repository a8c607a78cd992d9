"""Best arrangement of a hand: the least deadwood, fast and exact (docs/rules/common.md §4).

The hand is an int bit set (card ``13 * suit + rank``). Runs live inside one
suit, so every 13-bit suit pattern has a best run split that can be looked
up: a table of 8,192 entries per ace option holds the least deadwood each
suit pattern leaves when only runs are formed (built once, lazily). Sets are
the cross-suit part: only ranks held in three or four suits can form one, and
each such rank allows few choices (no set, one of the triples, the quad).
The solver tries those choices, removes their cards and reads the four suit
tables. Most hands hold no such rank and cost four lookups. Giving back one
card (:func:`best_discards`) reads a second pair of tables: per suit pattern,
the least run-only deadwood after removing one card and which cards do it.

Bots use the int path (:func:`deadwood_of_mask`, :func:`best_discards_of_mask`,
:func:`deadwood_without_each`): masks in, ints out, no validation, no objects
built.

Jokers (Rotham: a joker stands for any one card in a set or a run, counts
15 when left in hand) are handled exactly by choosing the melds that use a
joker among all partial melds of the hand, and solving the real cards left
with the table path. A meld with jokers holds at least one real card (the
ruling of :mod:`pyrummy.core.melds`: one real card and two jokers are a
meld; for deadwood it does not matter whether it is a set or a run).

>>> best_arrangement("7S 7H 7D 8S 9S")
Arrangement(melds=(CardSet('7S 8S 9S'),), deadwood_cards=CardSet('7H 7D'), deadwood=14)
>>> deadwood("AS 2S 3S 4S 5S 6S 7S 4H 4D QC")
10
>>> best_discards("6D 4D 6H 4S 3C 3D 4C 5C 5S 6S 5D", "gin")
(0, [Card('6H')])
>>> deadwood_of_mask(CardSet("QS KS AS").mask, ace="high_or_low")
0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations, product
from typing import Final

from pyrummy.core.cards import JOKER_POINTS, N_STANDARD, Card, CardSet, CardsLike, to_cardset
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.patterns import (
    RANK_ACROSS_SUITS,
    STANDARD_BITS,
    SUIT_SHIFTS,
    joker_runs_in_suit,
    joker_sets,
    set_masks,
)
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.suit_tables import (
    _SUIT_TABLES,
    SUIT_BITS,
    card_values,
    suit_deadwood_table,
    suit_splits,
)

_NO_CARDS: Final = CardSet()
_NOTHING_TO_DROP: Final = 1 << 20

# A joker meld chosen for a hand: (its real cards as a mask, how many jokers).
JokerMeld = tuple[int, int]
# An arrangement at int level: (meld masks, deadwood mask).
MaskArrangement = tuple[tuple[int, ...], int]


class Arrangement:
    """Disjoint melds and the deadwood left; melds ordered by their lowest card.

    Immutable, compared and hashed by its three fields like a frozen
    dataclass. :func:`best_arrangement` answers with the deadwood only and
    finds the melds on first access to ``melds`` or ``deadwood_cards``: the
    least deadwood comes from the int fast path, and most callers want no more.

    >>> arrangement = best_arrangement("3S 4S 5S 5H 5D 6D 7D")
    >>> [str(meld) for meld in arrangement.melds], str(arrangement.deadwood_cards)
    (['3S 4S 5S', '5D 6D 7D'], '5H')
    >>> arrangement.deadwood, len(arrangement.cards)
    (5, 7)
    >>> arrangement == Arrangement(arrangement.melds, CardSet("5H"), 5)
    True
    """

    # _melds is None until the melds of a lazy arrangement are found from
    # _hand (a card mask) under the ace option _ace.
    __slots__ = ("_ace", "_deadwood", "_deadwood_cards", "_hand", "_melds")
    __match_args__ = ("melds", "deadwood_cards", "deadwood")

    _melds: tuple[CardSet, ...] | None
    _deadwood_cards: CardSet
    _deadwood: int
    _hand: int
    _ace: str

    def __init__(self, melds: tuple[CardSet, ...], deadwood_cards: CardSet, deadwood: int) -> None:
        self._melds = melds
        self._deadwood_cards = deadwood_cards
        self._deadwood = deadwood

    @property
    def melds(self) -> tuple[CardSet, ...]:
        """The melds, each a :class:`~pyrummy.core.cards.CardSet`, ordered by their lowest card."""
        melds = self._melds
        if melds is None:
            melds = self._find_melds()
        return melds

    @property
    def deadwood_cards(self) -> CardSet:
        """The cards in no meld."""
        if self._melds is None:
            self._find_melds()
        return self._deadwood_cards

    @property
    def deadwood(self) -> int:
        """The value of the deadwood cards."""
        return self._deadwood

    def _find_melds(self) -> tuple[CardSet, ...]:
        melds, dead = _mask_arrangements(self._hand, self._ace, first_only=True)[0]
        ordered = tuple(CardSet._of(meld) for meld in sorted(melds, key=_lowest_bit))
        self._deadwood_cards = CardSet._of(dead)
        self._melds = ordered
        return ordered

    @property
    def cards(self) -> CardSet:
        """The whole hand: every meld and the deadwood."""
        if self._melds is None:
            return CardSet._of(self._hand)
        mask = self._deadwood_cards.mask
        for meld in self._melds:
            mask |= meld.mask
        return CardSet(mask)

    def _fields(self) -> tuple[tuple[CardSet, ...], CardSet, int]:
        return self.melds, self.deadwood_cards, self._deadwood

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Arrangement:
            return NotImplemented
        assert isinstance(other, Arrangement)
        if (
            self._melds is None
            and other._melds is None
            and self._hand == other._hand
            and self._ace == other._ace
        ):
            return True  # the same hand and ace option find the same melds
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Arrangement(melds={self.melds!r}, deadwood_cards={self.deadwood_cards!r},"
            f" deadwood={self._deadwood!r})"
        )

    def __reduce__(self) -> tuple[type[Arrangement], tuple[tuple[CardSet, ...], CardSet, int]]:
        return (Arrangement, self._fields())

    def __str__(self) -> str:
        parts = [f"[{meld}]" for meld in self.melds]
        if self.deadwood_cards:
            parts.append(str(self.deadwood_cards))
        return f"{' '.join(parts)} = {self._deadwood}"


def _lowest_bit(mask: int) -> int:
    return mask & -mask


_new_object = object.__new__


# -- the int path ---------------------------------------------------------------


def deadwood_of_mask(mask: int, ace: str = "low") -> int:
    """Least deadwood of a hand given as a card mask (bots' fast path).

    The mask is trusted (no validation): bits 0-51 cards, 52-54 jokers.

    >>> deadwood_of_mask(CardSet("7S 7H 7D 8S 9S").mask)
    14
    """
    table = _SUIT_TABLES.get(ace) or suit_deadwood_table(ace)
    if mask >> N_STANDARD:
        return _joker_deadwood(mask, ace)
    s = mask & SUIT_BITS
    h = mask >> 13 & SUIT_BITS
    d = mask >> 26 & SUIT_BITS
    c = mask >> 39
    three_suits = (s & h & (d | c)) | ((s | h) & d & c)
    if not three_suits:
        return table[s] + table[h] + table[d] + table[c]
    if three_suits & (three_suits - 1):
        return _with_sets(s, h, d, c, three_suits, table)
    # One rank can form a set, inlined: no set, the triple, or the quad and its triples.
    best = table[s] + table[h] + table[d] + table[c]
    keep = ~three_suits
    s2, h2, d2, c2 = table[s & keep], table[h & keep], table[d & keep], table[c & keep]
    value = s2 + h2 + d2 + c2
    if value < best:
        best = value
    if s & h & d & c & three_suits:
        s1, h1, d1, c1 = table[s], table[h], table[d], table[c]
        best = min(best, s1 + h2 + d2 + c2, s2 + h1 + d2 + c2, s2 + h2 + d1 + c2, s2 + h2 + d2 + c1)
    return best


def _with_sets(s: int, h: int, d: int, c: int, ranks: int, table: tuple[int, ...]) -> int:
    """Least deadwood trying every set choice at the ranks held in 3+ suits."""
    low = ranks & -ranks
    rest = ranks ^ low
    if rest:
        best = _with_sets(s, h, d, c, rest, table)
        choices = _set_choices(s, h, d, c, low)
        for s2, h2, d2, c2 in choices:
            value = _with_sets(s2, h2, d2, c2, rest, table)
            if value < best:
                best = value
        return best
    best = table[s] + table[h] + table[d] + table[c]
    for s2, h2, d2, c2 in _set_choices(s, h, d, c, low):
        value = table[s2] + table[h2] + table[d2] + table[c2]
        if value < best:
            best = value
    return best


def _set_choices(s: int, h: int, d: int, c: int, bit: int) -> tuple[tuple[int, int, int, int], ...]:
    """Suit patterns left after each set that can be formed at one rank."""
    if s & h & d & c & bit:
        keep = ~bit
        s2, h2, d2, c2 = s & keep, h & keep, d & keep, c & keep
        return (
            (s2, h2, d2, c2),
            (s, h2, d2, c2),
            (s2, h, d2, c2),
            (s2, h2, d, c2),
            (s2, h2, d2, c),
        )
    keep = ~bit
    return ((s & keep, h & keep, d & keep, c & keep),)


def best_discards_of_mask(mask: int, ace: str = "low", keep: int = 0) -> tuple[int, int]:
    """Least deadwood after giving back one card, and the mask of every card doing it.

    Cards in ``keep`` are not given back. Raises :class:`IllegalActionError`
    when no card may be given back.

    >>> value, cards = best_discards_of_mask(CardSet("7S 8S 9S KH 2C").mask)
    >>> value, CardSet(cards)
    (2, CardSet('KH'))
    """
    if not mask & ~keep:
        raise IllegalActionError("no card may be given back")
    if mask >> N_STANDARD:
        return _joker_discards(mask, ace, keep)
    s = mask & SUIT_BITS
    h = mask >> 13 & SUIT_BITS
    d = mask >> 26 & SUIT_BITS
    c = mask >> 39
    three_suits = (s & h & (d | c)) | ((s | h) & d & c)
    table, gain_of, which = _drop_tables(ace)
    if not three_suits and not keep:
        # No set can form: the loop below for one choice, inlined (the bots' hottest path).
        gain_s = gain_of[s]
        gain_h = gain_of[h]
        gain_d = gain_of[d]
        gain_c = gain_of[c]
        gain = min(gain_s, gain_h, gain_d, gain_c)
        tied = which[s] if gain_s == gain else 0
        if gain_h == gain:
            tied |= which[h] << 13
        if gain_d == gain:
            tied |= which[d] << 26
        if gain_c == gain:
            tied |= which[c] << 39
        return table[s] + table[h] + table[d] + table[c] + gain, tied
    if not three_suits:
        choices: tuple[tuple[int, int, int, int], ...] = ((s, h, d, c),)
    elif three_suits & (three_suits - 1):
        choices = ((s, h, d, c), *_all_set_choices(s, h, d, c, three_suits))
    elif s & h & d & c & three_suits:
        choices = ((s, h, d, c), *_set_choices(s, h, d, c, three_suits))
    else:
        others = ~three_suits
        choices = ((s, h, d, c), (s & others, h & others, d & others, c & others))
    best = _NOTHING_TO_DROP
    tied = 0
    for s2, h2, d2, c2 in choices:
        # Only runs form in what the sets leave: per suit, the best card to drop.
        gain_s = gain_of[s2]
        gain_h = gain_of[h2]
        gain_d = gain_of[d2]
        gain_c = gain_of[c2]
        gain = min(gain_s, gain_h, gain_d, gain_c)
        value = table[s2] + table[h2] + table[d2] + table[c2] + gain
        if value > best:
            continue
        cards = which[s2] if gain_s == gain else 0
        if gain_h == gain:
            cards |= which[h2] << 13
        if gain_d == gain:
            cards |= which[d2] << 26
        if gain_c == gain:
            cards |= which[c2] << 39
        if value < best:
            best, tied = value, cards
        else:
            tied |= cards
    if tied & keep:
        # A card that may go ties for the best: the best stands, without the kept cards.
        if tied & ~keep:
            return best, tied & ~keep
        return _discards_keeping(s, h, d, c, three_suits, keep, ace)
    return best, tied


def deadwood_without_each(mask: int, ace: str = "low") -> dict[int, int]:
    """Least deadwood of the hand without each one of its cards: card number -> value.

    One pass instead of one solve per card: for every set choice, removing a
    card changes one suit pattern only.

    >>> without = deadwood_without_each(CardSet("7S 8S 9S KH").mask)
    >>> {str(Card.from_index(i)): v for i, v in without.items()}
    {'7S': 27, '8S': 26, '9S': 25, 'KH': 0}
    """
    if mask >> N_STANDARD:
        return _joker_removals(mask, ace, mask)
    table = suit_deadwood_table(ace)
    s = mask & SUIT_BITS
    h = mask >> 13 & SUIT_BITS
    d = mask >> 26 & SUIT_BITS
    c = mask >> 39
    three_suits = (s & h & (d | c)) | ((s | h) & d & c)
    choices = [(s, h, d, c)]
    if three_suits:
        choices += _all_set_choices(s, h, d, c, three_suits)
    values: dict[int, int] = {}
    for patterns in choices:
        base = table[patterns[0]] + table[patterns[1]] + table[patterns[2]] + table[patterns[3]]
        for first, pattern in zip(SUIT_SHIFTS, patterns, strict=True):
            rest = base - table[pattern]
            shift = first - 1  # card number = shift + the bit's length
            cards = pattern
            while cards:
                low = cards & -cards
                cards ^= low
                value = rest + table[pattern ^ low]
                index = shift + low.bit_length()
                if values.get(index, _NOTHING_TO_DROP) > value:
                    values[index] = value
    return values


def _discards_keeping(
    s: int, h: int, d: int, c: int, three_suits: int, keep: int, ace: str
) -> tuple[int, int]:
    """Best single removal when some cards may not be given back."""
    best, tied = _best_drop(s, h, d, c, keep, ace)
    choices = _all_set_choices(s, h, d, c, three_suits) if three_suits else []
    for s2, h2, d2, c2 in choices:
        value, cards = _best_drop(s2, h2, d2, c2, keep, ace)
        if value < 0:
            continue
        if value < best or best < 0:
            best, tied = value, cards
        elif value == best:
            tied |= cards
    return best, tied


@cache
def _drop_tables(ace: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The suit table, and per suit pattern what removing the best card changes
    (least run-only deadwood after it minus before) and which cards do it."""
    table = suit_deadwood_table(ace)
    # An empty suit has nothing to give back: a change no real removal reaches.
    gain = [_NOTHING_TO_DROP] * (SUIT_BITS + 1)
    which = [0] * (SUIT_BITS + 1)
    for pattern in range(1, SUIT_BITS + 1):
        least, which[pattern] = _drop_one(pattern, pattern, table)
        gain[pattern] = least - table[pattern]
    return table, tuple(gain), tuple(which)


def _drop_one(pattern: int, options: int, table: tuple[int, ...]) -> tuple[int, int]:
    best = -1
    tied = 0
    while options:
        bit = options & -options
        options ^= bit
        value = table[pattern ^ bit]
        if value < best or best < 0:
            best, tied = value, bit
        elif value == best:
            tied |= bit
    return best, tied


def _best_drop(s: int, h: int, d: int, c: int, keep: int, ace: str) -> tuple[int, int]:
    """Best single removal when the set cards are fixed: only runs form in what is left.

    Returns (-1, 0) when every card left is kept.
    """
    table, gain_of, which = _drop_tables(ace)
    base = table[s] + table[h] + table[d] + table[c]
    best = -1
    tied = 0
    for shift, pattern in ((0, s), (13, h), (26, d), (39, c)):
        if not pattern:
            continue
        kept = keep >> shift & pattern
        if kept:
            value, cards = _drop_one(pattern, pattern ^ kept, table)
            if value < 0:
                continue
        else:
            value, cards = table[pattern] + gain_of[pattern], which[pattern]
        value += base - table[pattern]
        if value < best or best < 0:
            best, tied = value, cards << shift
        elif value == best:
            tied |= cards << shift
    return best, tied


def _all_set_choices(s: int, h: int, d: int, c: int, ranks: int) -> list[tuple[int, int, int, int]]:
    """Suit patterns left by every non-empty choice of sets at the given ranks."""
    found: list[tuple[int, int, int, int]] = []
    low = ranks & -ranks
    rest = ranks ^ low
    for s2, h2, d2, c2 in _set_choices(s, h, d, c, low):
        found.append((s2, h2, d2, c2))
        if rest:
            found.extend(_all_set_choices(s2, h2, d2, c2, rest))
    if rest:
        found.extend(_all_set_choices(s, h, d, c, rest))
    return found


# -- jokers ---------------------------------------------------------------------


def _joker_melds(real: int, jokers: int, ace: str) -> tuple[JokerMeld, ...]:
    """Every (real cards, joker count) pair that forms a meld with at least one
    joker and at least one real card."""
    found: set[JokerMeld] = set()
    patterns = tuple(real >> shift & SUIT_BITS for shift in SUIT_SHIFTS)
    s, h, d, c = patterns
    # One joker needs two real cards of a rank; two or more need only one.
    ranks = (s | h | d | c) if jokers >= 2 else (s & (h | d | c)) | (h & (d | c)) | (d & c)
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        found.update(joker_sets(real & RANK_ACROSS_SUITS[low.bit_length() - 1], jokers))
    for shift, pattern in zip(SUIT_SHIFTS, patterns, strict=True):
        if pattern & (pattern - 1) or (jokers >= 2 and pattern):
            # One real card and jokers may read as a set and as a run: the
            # set keeps one copy (deadwood is the same either way).
            found.update(
                (part << shift, count) for part, count in _joker_runs(ace, pattern, jokers)
            )
    return tuple(sorted(found))


@lru_cache(maxsize=1 << 14)
def _joker_runs(ace: str, pattern: int, jokers: int) -> tuple[JokerMeld, ...]:
    """Runs of one suit pattern completed by 1..jokers jokers: (real cards, jokers used)."""
    return tuple(
        sorted({(reals, count) for reals, _, count in joker_runs_in_suit(pattern, jokers, ace)})
    )


def _joker_choices(
    real: int, jokers: int, ace: str
) -> Iterator[tuple[tuple[JokerMeld, ...], int, int]]:
    """Every choice of disjoint joker melds: (melds, real cards left, jokers left)."""
    melds = _joker_melds(real, jokers, ace)

    def extend(
        start: int, chosen: tuple[JokerMeld, ...], left: int, spare: int
    ) -> Iterator[tuple[tuple[JokerMeld, ...], int, int]]:
        yield chosen, left, spare
        for index in range(start, len(melds)):
            part, count = melds[index]
            if count <= spare and part & left == part:
                yield from extend(index + 1, (*chosen, melds[index]), left ^ part, spare - count)

    return extend(0, (), real, jokers)


def _joker_deadwood(mask: int, ace: str) -> int:
    real = mask & STANDARD_BITS
    jokers = (mask >> N_STANDARD).bit_count()
    return _joker_search(real, jokers, _joker_melds(real, jokers, ace), ace)


def _joker_search(real: int, jokers: int, melds: Sequence[JokerMeld], ace: str) -> int:
    """Least deadwood over every choice of disjoint joker melds among ``melds``."""
    best = deadwood_of_mask(real, ace) + JOKER_POINTS * jokers
    count_melds = len(melds)

    def extend(start: int, left: int, spare: int) -> None:
        nonlocal best
        for index in range(start, count_melds):
            part, count = melds[index]
            if count <= spare and part & left == part:
                value = deadwood_of_mask(left ^ part, ace) + JOKER_POINTS * (spare - count)
                if value < best:
                    best = value
                if spare > count:
                    extend(index + 1, left ^ part, spare - count)

    extend(0, real, jokers)
    return best


def _joker_discards(mask: int, ace: str, keep: int) -> tuple[int, int]:
    """Best single removal from a hand with jokers."""
    best = -1
    tied = 0
    for index, value in _joker_removals(mask, ace, mask & ~keep).items():
        if value < best or best < 0:
            best, tied = value, 1 << index
        elif value == best:
            tied |= 1 << index
    return best, tied


def _joker_removals(mask: int, ace: str, options: int) -> dict[int, int]:
    """Least deadwood without each card of ``options``; the joker melds are found once."""
    real = mask & STANDARD_BITS
    jokers = (mask >> N_STANDARD).bit_count()
    melds = _joker_melds(real, jokers, ace)
    values: dict[int, int] = {}
    joker_value = -1
    while options:
        bit = options & -options
        options ^= bit
        if bit >> N_STANDARD:
            if joker_value < 0:  # every joker leaves the same hand
                fewer = [meld for meld in melds if meld[1] < jokers]
                joker_value = _joker_search(real, jokers - 1, fewer, ace)
            value = joker_value
        else:
            without = [meld for meld in melds if not meld[0] & bit]
            value = _joker_search(real ^ bit, jokers, without, ace)
        values[bit.bit_length() - 1] = value
    return values


# -- arrangements at int level ---------------------------------------------------


def _real_arrangements(mask: int, ace: str) -> Iterator[MaskArrangement]:
    """Every optimal arrangement of a hand without jokers."""
    table = suit_deadwood_table(ace)
    target = deadwood_of_mask(mask, ace)
    s, h, d, c = (mask >> shift & SUIT_BITS for shift in SUIT_SHIFTS)
    three_suits = (s & h & (d | c)) | ((s | h) & d & c)
    per_rank: list[list[int]] = []
    for rank, across in enumerate(RANK_ACROSS_SUITS):
        if three_suits >> rank & 1:
            per_rank.append([0, *set_masks(mask & across)])
    for sets_chosen in product(*per_rank):
        left = mask
        for meld in sets_chosen:
            left ^= meld
        patterns = [left >> shift & SUIT_BITS for shift in SUIT_SHIFTS]
        if sum(table[p] for p in patterns) != target:
            continue
        set_melds = tuple(meld for meld in sets_chosen if meld)
        for splits in product(*(suit_splits(ace, p) for p in patterns)):
            runs = tuple(
                run << shift
                for shift, split in zip(SUIT_SHIFTS, splits, strict=True)
                for run in split
            )
            melds = set_melds + runs
            melded = 0
            for meld in melds:
                melded |= meld
            yield melds, mask ^ melded


def _joker_assignments(jokers: tuple[int, ...], counts: tuple[int, ...]) -> Iterator[list[int]]:
    """Every way to hand out distinct jokers (bits) in groups of the given sizes."""
    if not counts:
        yield []
        return
    for group in combinations(jokers, counts[0]):
        rest = tuple(joker for joker in jokers if joker not in group)
        for tail in _joker_assignments(rest, counts[1:]):
            yield [sum(group), *tail]


def _first_real_arrangement(mask: int, ace: str) -> MaskArrangement:
    """One optimal arrangement of a hand without jokers; direct when no set can form."""
    s = mask & SUIT_BITS
    h = mask >> 13 & SUIT_BITS
    d = mask >> 26 & SUIT_BITS
    c = mask >> 39
    if (s & h & (d | c)) | ((s | h) & d & c):
        return next(_real_arrangements(mask, ace))
    melds: list[int] = []
    melded = 0
    for shift, pattern in ((0, s), (13, h), (26, d), (39, c)):
        if pattern:
            for run in suit_splits(ace, pattern)[0]:
                melds.append(run << shift)
                melded |= run << shift
    return tuple(melds), mask ^ melded


def _mask_arrangements(mask: int, ace: str, first_only: bool) -> list[MaskArrangement]:
    if not mask >> N_STANDARD:
        if first_only:
            return [_first_real_arrangement(mask, ace)]
        return list(_real_arrangements(mask, ace))
    real = mask & STANDARD_BITS
    joker_bits = tuple(1 << i for i in range(N_STANDARD, N_STANDARD + 3) if mask >> i & 1)
    target = deadwood_of_mask(mask, ace)
    results: list[MaskArrangement] = []
    for chosen, left, spare in _joker_choices(real, len(joker_bits), ace):
        if deadwood_of_mask(left, ace) + JOKER_POINTS * spare != target:
            continue
        counts = tuple(count for _, count in chosen)
        for groups in _joker_assignments(joker_bits, counts):
            joker_melds = tuple(
                part | group for (part, _), group in zip(chosen, groups, strict=True)
            )
            used = sum(groups)
            for melds, dead in _real_arrangements(left, ace):
                spare_jokers = (mask >> N_STANDARD << N_STANDARD) ^ used
                results.append((joker_melds + melds, dead | spare_jokers))
                if first_only:
                    return results
    return results


# -- the public API ---------------------------------------------------------------


def _to_arrangement(found: MaskArrangement, values: tuple[int, ...]) -> Arrangement:
    melds, dead = found
    ordered = sorted(melds, key=lambda meld: meld & -meld)
    points = 0
    rest = dead
    while rest:
        bit = rest & -rest
        rest ^= bit
        points += values[bit.bit_length() - 1]
    return Arrangement(tuple(CardSet(m) for m in ordered), CardSet(dead), points)


def _ace_of(rules: Rules | str) -> str:
    """The ace option of rules given by name or object; names are remembered."""
    if rules.__class__ is Rules:
        return rules.ace
    ace = _ACE_BY_NAME.get(rules)
    if ace is None:
        ace = find_rules(rules).ace
        if isinstance(rules, str) and len(_ACE_BY_NAME) < _ACE_NAMES_KEPT:
            _ACE_BY_NAME[rules] = ace
    return ace


_ACE_BY_NAME: dict[object, str] = {}
_ACE_NAMES_KEPT: Final = 64


def deadwood(cards: CardsLike, rules: Rules | str = "knock") -> int:
    """Least deadwood of the hand under the rules (docs/rules/common.md §4: not most melds).

    >>> deadwood("7S 7H 7D 8S 9S"), deadwood("QS KS AS", find_rules("basic", ace="high_or_low"))
    (14, 0)
    """
    mask = cards.mask if cards.__class__ is CardSet else to_cardset(cards).mask
    ace = rules.ace if rules.__class__ is Rules else _ACE_BY_NAME.get(rules) or _ace_of(rules)
    return deadwood_of_mask(mask, ace)


def best_arrangement(cards: CardsLike, rules: Rules | str = "knock") -> Arrangement:
    """One arrangement of the hand with the least deadwood.

    The deadwood is computed now; the melds when first read (the same melds
    every time for the same hand and ace option).

    >>> str(best_arrangement("5H 6H X1 7S 7D KC", "rotham"))
    '[7S 7D X1] 5H 6H KC = 21'
    """
    mask = cards.mask if cards.__class__ is CardSet else to_cardset(cards).mask
    ace = rules.ace if rules.__class__ is Rules else _ACE_BY_NAME.get(rules) or _ace_of(rules)
    value = deadwood_of_mask(mask, ace)
    arrangement: Arrangement = _new_object(Arrangement)
    arrangement._melds = None
    arrangement._hand = mask
    arrangement._ace = ace
    arrangement._deadwood = value
    return arrangement


def _eager_best_arrangement(cards: CardsLike, rules: Rules | str = "knock") -> Arrangement:
    """:func:`best_arrangement` with its melds found at once (the reference for tests)."""
    ace = find_rules(rules).ace
    found = _mask_arrangements(to_cardset(cards).mask, ace, first_only=True)
    return _to_arrangement(found[0], card_values(ace))


def all_best_arrangements(cards: CardsLike, rules: Rules | str = "knock") -> list[Arrangement]:
    """Every distinct arrangement with the least deadwood, in a stable order.

    >>> for arrangement in all_best_arrangements("3S 4S 5S 6S 7S 8S"):
    ...     print(arrangement)
    [3S 4S 5S] [6S 7S 8S] = 0
    [3S 4S 5S 6S 7S 8S] = 0
    """
    the_rules = find_rules(rules)
    mask = to_cardset(cards).mask
    values = card_values(the_rules.ace)
    unique = {
        (tuple(sorted(melds)), dead)
        for melds, dead in _mask_arrangements(mask, the_rules.ace, first_only=False)
    }
    arrangements = [_to_arrangement(found, values) for found in unique]
    arrangements.sort(
        key=lambda a: ([[c.index for c in m] for m in a.melds], a.deadwood_cards.mask)
    )
    return arrangements


def best_discards(
    cards: CardsLike, rules: Rules | str = "knock", keep: CardsLike = _NO_CARDS
) -> tuple[int, list[Card]]:
    """Least deadwood after giving back one card, and every card achieving it.

    ``keep`` lists cards that may not be given back (e.g. the discard just
    taken). Raises :class:`IllegalActionError` when no card may be given back.

    >>> best_discards("7S 8S 9S KH QH", keep="KH")
    (10, [Card('QH')])
    """
    hand = to_cardset(cards)
    kept = to_cardset(keep)
    if not hand.mask & ~kept.mask:
        raise IllegalActionError(f"no card of '{hand}' may be given back")
    value, tied = best_discards_of_mask(hand.mask, find_rules(rules).ace, kept.mask)
    return value, list(CardSet(tied))
