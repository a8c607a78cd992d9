"""A gin knock's two counts, on card masks: the knocker's deadwood and the
defender's deadwood after lay-offs.

The same numbers as :func:`pyrummy.core.settlement.settle` for gin (its
rulings: the knocker shows, among the arrangements of least deadwood, the
one leaving the defender the most; the defender chooses own melds and
lay-offs together, exactly), computed on ints instead of card objects: a
batch of random play ends about one deal in forty with a knock, and the
general settlement costs milliseconds a knock.

On a knocker's meld the defender can lay off the fourth card of a set of
three, and on a run the cards extending it downwards or upwards in its suit
(chains included): every choice is a lowest-down and highest-up extension,
one per meld, the choices of different melds disjoint.

>>> from pyrummy.core.cards import CardSet
>>> from pyrummy.core.rules import find_rules
>>> knocker = CardSet("4H 5H 6H 9S 9D 9C 2C 3C AD KS").mask
>>> gin_counts(knocker & ~CardSet("KS").mask, CardSet("7H 8H 9H KC").mask, find_rules("gin"))
(6, 10)
"""

from __future__ import annotations

from itertools import product

from pyrummy.core.patterns import RANK_ACROSS_SUITS, SUIT_BITS, SUIT_SHIFTS, set_masks
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask
from pyrummy.core.suit_tables import suit_deadwood_table, suit_splits

__all__ = ["gin_counts", "gin_rewards"]


def _arrangements(mask: int, ace: str) -> list[tuple[int, ...]]:
    """The melds (as masks) of every arrangement of least deadwood."""
    table = suit_deadwood_table(ace)
    target = deadwood_of_mask(mask, ace)
    s, h, d, c = (mask >> shift & SUIT_BITS for shift in SUIT_SHIFTS)
    three_suits = (s & h & (d | c)) | ((s | h) & d & c)
    per_rank = [
        [0, *set_masks(mask & across)]
        for rank, across in enumerate(RANK_ACROSS_SUITS)
        if three_suits >> rank & 1
    ]
    found: list[tuple[int, ...]] = []
    for sets in product(*per_rank):
        left = mask
        for meld in sets:
            left ^= meld
        patterns = [left >> shift & SUIT_BITS for shift in SUIT_SHIFTS]
        if sum(table[p] for p in patterns) != target:
            continue
        chosen = tuple(meld for meld in sets if meld)
        for splits in product(*(suit_splits(ace, p) for p in patterns)):
            runs = tuple(
                run << shift
                for shift, split in zip(SUIT_SHIFTS, splits, strict=True)
                for run in split
            )
            found.append(chosen + runs)
    return found


def _layoffs(meld: int, defender: int) -> list[int]:
    """Every set of the defender's cards that can be laid off on ``meld``."""
    low = (meld & -meld).bit_length() - 1
    suit, rank = divmod(low, 13)
    if meld >> (13 * suit) & SUIT_BITS == meld >> (13 * suit):  # one suit: a run
        top = meld.bit_length() - 1 - 13 * suit
        down = [0]
        r = rank - 1
        while r >= 0 and defender >> (13 * suit + r) & 1:
            down.append(down[-1] | 1 << (13 * suit + r))
            r -= 1
        up = [0]
        r = top + 1
        while r < 13 and defender >> (13 * suit + r) & 1:
            up.append(up[-1] | 1 << (13 * suit + r))
            r += 1
        return [a | b for a in down for b in up]
    fourth = RANK_ACROSS_SUITS[rank] & ~meld
    if meld.bit_count() == 3 and defender & fourth:
        return [0, fourth]
    return [0]


def _defence(melds: tuple[int, ...], defender: int, ace: str, solved: dict[int, int]) -> int:
    """The defender's least deadwood after laying off on ``melds``."""
    best = -1
    for choice in product(*(_layoffs(meld, defender) for meld in melds)):
        used = 0
        for cards in choice:
            if used & cards:
                break
            used |= cards
        else:
            value = solved.get(used)
            if value is None:
                value = solved[used] = deadwood_of_mask(defender & ~used, ace)
            if best < 0 or value < best:
                best = value
    return best


def gin_counts(knocker: int, defender: int, rules: Rules) -> tuple[int, int]:
    """(the knocker's deadwood, the defender's deadwood after lay-offs)."""
    ace = rules.ace
    own = deadwood_of_mask(knocker, ace)
    if own == 0 and not rules.layoff_on_gin:
        return own, deadwood_of_mask(defender, ace)
    solved: dict[int, int] = {}
    theirs = max(_defence(melds, defender, ace, solved) for melds in _arrangements(knocker, ace))
    return own, theirs


def gin_rewards(
    knocker_seat: int, knocker: int, defender: int, rules: Rules
) -> tuple[float, float]:
    """The two seats' rewards of a gin knock (:func:`~pyrummy.nn.encoding.deal_rewards`)."""
    own, theirs = gin_counts(knocker, defender, rules)
    if own == 0:
        winner, amount = knocker_seat, rules.gin_bonus + theirs
    elif theirs <= own:
        winner, amount = 1 - knocker_seat, own - theirs + rules.undercut_bonus
    else:
        winner, amount = knocker_seat, theirs - own
    rewards = [float(-amount), float(-amount)]
    rewards[winner] = float(amount)
    return rewards[0], rewards[1]
