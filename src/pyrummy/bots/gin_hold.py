"""Gin: knock now or hold on, judged on sampled deals played out on card masks.

When a knock is legal the hard bot may knock now, or give the knock card
back face up and play on. :func:`hold_values` re-deals what the seat cannot
see (the opponent's unknown cards and the stock order, consistent with the
observation) and, on each re-deal, compares with common random numbers:

- ``now``: the exact gin settlement of knocking now (:func:`knock_net`, a
  mask version of :func:`pyrummy.core.settlement.settle` for two hands);
- ``next``: play on and knock at the next legal chance;
- ``gin``: play on and hold out for gin while the stock holds at least
  ``wait_stock`` cards, then knock at the next legal chance.

Both seats play the rest of a re-deal by one fast policy: take the up-card when it goes into a meld or allows a
knock, give back the highest card among those leaving the least deadwood;
the opponent knocks as soon as it may (the usual gin habit, and what every
knock decision of ours assumes of the others). A re-deal in which the
opponent's hand could have knocked at its last give-back but did not is
weighed ``pass_likelihood`` (that habit, read backwards).

Pure mask arithmetic on :func:`~pyrummy.core.solver.deadwood_of_mask`
(microseconds a call): one re-deal, its settlement and two play-outs cost
well under a millisecond, so the decision samples on a deadline (anytime).

>>> from pyrummy.core.cards import CardSet
>>> from pyrummy.core.rules import find_rules
>>> rules = find_rules("gin", gin_bonus=25, undercut_bonus=25, layoff_on_gin=False)
>>> knocker = CardSet("2S 3S 4S 7H 7D 7C 9C TC JC 3D").mask    # 3 deadwood
>>> knock_net(knocker, CardSet("5S 6S 7S KH KD 8H 8D QC QS 2D").mask, rules)  # QC laid off: 48 - 3
45
>>> knock_net(knocker, CardSet("AH AD AC 2H 2D 2C 5H 5D 5C 3H").mask, rules)  # undercut: 3 v 3
-25
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from pyrummy.bots.gin_read import GiveBack, contradicted, earlier_refusals, give_backs
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import CardSet
from pyrummy.core.observation import Observation
from pyrummy.core.patterns import SUIT_BITS
from pyrummy.core.rules import Rules
from pyrummy.core.solver import all_best_arrangements, best_discards_of_mask, deadwood_of_mask
from pyrummy.core.suit_tables import card_values

#: Likelihood of a re-deal in which the opponent could have knocked at its
#: last give-back and did not (gin players knock when they may).
DEFAULT_PASS_LIKELIHOOD = 0.2
#: Most cards an opponent that drew from the stock is taken to have chosen its
#: unknown cards from (it keeps the best of ``missing + extra`` random cards,
#: ``extra`` its stock draws up to this). Uniform re-deals overprice knocking
#: now several times over against a player that keeps its best cards; 10 comes
#: closest to the truth (``benchmarks/gin_hold_calibration.py``) and played
#: best (``benchmarks/results/bots.md``).
DEFAULT_SELECTION = 10
#: Likelihood of a re-deal that does not explain the opponent's last turn: its
#: give-back did not leave its least deadwood, or an up-card it drew from the
#: stock over would have gone into its melds (1: the turn is not read).
#: Fitted by ``benchmarks/gin_turn_fit.py``: gin players nearly always give back
#: a least-deadwood card and take an up-card that fits, so, as a likelihood
#: ratio (a card among ~1.5 best against ~5 others), about 0.03.
DEFAULT_DISCARD_LIKELIHOOD = 0.03
#: Likelihood of a re-deal per card the opponent gave back or drew over before
#: its last turn that meets two meld partners in its re-dealt hand
#: (:mod:`pyrummy.bots.gin_read`; 1: its earlier turns are not read).
DEFAULT_EARLIER_LIKELIHOOD = 1.0
#: Re-deals drawn to find one its opponent's last give-back explains before
#: one that does not is kept (weighed ``discard_likelihood``).
DISCARD_TRIES = 4
#: Re-deals a decision makes even when its deadline has passed.
MIN_SAMPLES = 8
_RANKS = 13


@dataclass(frozen=True)
class HoldValues:
    """Mean points for this seat of knocking now and of the two ways of playing on."""

    now: float
    next: float
    gin: float
    samples: int


def _rank_mask(index: int) -> int:
    rank = index % _RANKS
    return sum(1 << (suit * _RANKS + rank) for suit in range(4))


def _layoff_options(meld: int, defender: int) -> list[int]:
    """Masks of defender cards that can be laid off on ``meld`` together (0 first)."""
    low = (meld & -meld).bit_length() - 1
    if meld & _rank_mask(low) == meld:  # a set: its missing cards, one at a time
        missing = _rank_mask(low) & ~meld & defender
        options = [0]
        while missing:
            bit = missing & -missing
            missing ^= bit
            options.append(bit)
        return options
    high = meld.bit_length() - 1
    suit_base = low - low % _RANKS
    down = [0]
    chain = 0
    for index in range(low - 1, suit_base - 1, -1):
        if not defender >> index & 1:
            break
        chain |= 1 << index
        down.append(chain)
    up = [0]
    chain = 0
    for index in range(high + 1, suit_base + _RANKS):
        if not defender >> index & 1:
            break
        chain |= 1 << index
        up.append(chain)
    return [d | u for d in down for u in up]


def _defender_deadwood(melds: Sequence[int], defender: int, ace: str) -> int:
    """The defender's least deadwood after laying off on these melds (chosen with its own melds)."""
    best = deadwood_of_mask(defender, ace)
    options = [_layoff_options(meld, defender) for meld in melds]
    options = [o for o in options if len(o) > 1]
    if not options:
        return best
    for choice in product(*options):
        used = 0
        clash = False
        for part in choice:
            if used & part:
                clash = True
                break
            used |= part
        if clash or not used:
            continue
        value = deadwood_of_mask(defender & ~used, ace)
        if value < best:
            best = value
    return best


def _reach(knocker: int) -> int:
    """Cards that could be laid off on some meld of ``knocker`` (a superset)."""
    reach = 0
    for shift in (0, 13, 26, 39):
        pattern = knocker >> shift & SUIT_BITS
        reach |= ((pattern << 1 | pattern >> 1) & SUIT_BITS & ~pattern) << shift
    s = knocker & SUIT_BITS
    h = knocker >> 13 & SUIT_BITS
    d = knocker >> 26 & SUIT_BITS
    c = knocker >> 39 & SUIT_BITS
    three = (s & h & (d | c)) | ((s | h) & d & c)
    return reach | three | three << 13 | three << 26 | three << 39


class _Arrangements:
    """The knocker's meld masks of every least-deadwood arrangement, remembered by hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.found: dict[int, list[tuple[int, ...]]] = {}

    def __call__(self, hand: int) -> list[tuple[int, ...]]:
        melds = self.found.get(hand)
        if melds is None:
            melds = [
                tuple(m.mask for m in a.melds)
                for a in all_best_arrangements(CardSet(hand), self.rules)
            ]
            self.found[hand] = melds
        return melds


def knock_net(
    knocker: int,
    defender: int,
    rules: Rules,
    arrangements: Callable[[int], list[tuple[int, ...]]] | None = None,
) -> int:
    """The knocker's points less the defender's when these two hands (masks) go down in gin.

    Hands without the knock card. The same figure as ``net[0] - net[1]`` of
    ``settle([knocker, defender], 0, rules)`` (the knocker picks the
    arrangement its defender lays off least on): the gin bonus plus the
    defender's deadwood, the difference, or minus the difference and the
    undercut bonus.
    """
    ace = rules.ace
    own = deadwood_of_mask(knocker, ace)
    if (own == 0 and not rules.layoff_on_gin) or not defender & _reach(knocker):
        theirs = deadwood_of_mask(defender, ace)
    else:
        find = arrangements or _Arrangements(rules)
        theirs = max(_defender_deadwood(melds, defender, ace) for melds in find(knocker))
    if own == 0:
        return rules.gin_bonus + theirs
    if theirs <= own:
        return -(own - theirs + rules.undercut_bonus)
    return theirs - own


# -- play-outs ----------------------------------------------------------------------


class Play:
    """Both seats' play-out policy under fixed rules (the knock thresholds vary)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ace = rules.ace
        self.values = card_values(rules.ace)
        self.arrangements = _Arrangements(rules)
        # Play-outs on the re-deals of one decision meet the same hands again and again
        # (about 2 calls in 5 repeat): remembered per Play, i.e. per decision, so memory stays small.
        self._deadwoods: dict[int, int] = {}
        self._discards: dict[tuple[int, int], tuple[int, int]] = {}

    def deadwood(self, hand: int) -> int:
        """:func:`deadwood_of_mask` of ``hand``, remembered."""
        value = self._deadwoods.get(hand)
        if value is None:
            value = self._deadwoods[hand] = deadwood_of_mask(hand, self.ace)
        return value

    def best_discards(self, hand: int, keep: int) -> tuple[int, int]:
        """:func:`best_discards_of_mask` of ``hand`` keeping ``keep``, remembered."""
        key = (hand, keep)
        found = self._discards.get(key)
        if found is None:
            found = self._discards[key] = best_discards_of_mask(hand, self.ace, keep=keep)
        return found

    def turn(self, hand: int, up: int, stock: list[int], knock_at: int) -> tuple[int, int, bool]:
        """One turn: (the 10 cards kept, the card given back, knocked?).

        ``knock_at``: the deadwood at or below which this seat knocks (gin: 0;
        -1 never). Draws from the end of ``stock``.
        """
        limit = self.rules.knock_limit
        taken = 0
        if up:
            # Taken when it lowers the deadwood by more than its own value, or allows a knock.
            helps = (
                self.deadwood(hand | up) < self.deadwood(hand) + self.values[up.bit_length() - 1]
            )
            if helps or self.best_discards(hand | up, up)[0] <= limit:
                taken = up
        drawn = taken or 1 << stock.pop()
        full = hand | drawn
        value, tied = self.best_discards(full, taken)
        card = 1 << (highest_value(tied, self.values))
        return full & ~card, card, value <= knock_at

    def play_out(
        self,
        mine: int,
        theirs: int,
        up: int,
        stock: list[int],
        plan: int,
        wait_stock: int,
    ) -> int:
        """My points when the opponent moves next, after I gave back ``up``.

        ``plan`` 1: I knock at my next legal chance; 2: I hold out for gin
        while the stock holds ``wait_stock`` cards or more.
        """
        rules = self.rules
        limit = rules.knock_limit
        wall = rules.wall_cards
        while len(stock) > wall:
            theirs, up, knocked = self.turn(theirs, up, stock, limit)
            if knocked:
                return -knock_net(theirs, mine, rules, self.arrangements)
            if len(stock) <= wall:
                return 0
            knock_at = limit if plan == 1 or len(stock) - 1 < wait_stock else 0
            mine, up, knocked = self.turn(mine, up, stock, knock_at)
            if knocked:
                return knock_net(mine, theirs, rules, self.arrangements)
        return 0


def highest_value(cards: int, values: Sequence[int]) -> int:
    """The index of the highest-valued card in ``cards`` (the highest index among ties)."""
    best = -1
    best_key = (-1, -1)
    while cards:
        bit = cards & -cards
        cards ^= bit
        index = bit.bit_length() - 1
        key = (values[index], index % _RANKS)
        if key > best_key:
            best, best_key = index, key
    return best


def _stock_draws(observation: Observation, seat: int) -> int:
    """How many cards ``seat`` has drawn from the stock in this deal."""
    return sum(
        1
        for actor, action in observation.history
        if actor == seat and action.kind is ActionKind.DRAW_STOCK
    )


def _selected_hand(hand: int, extra: int, known: int, play: Play) -> tuple[int, list[int]]:
    """``hand`` less ``extra`` cards given back the play-out's way (never a ``known`` card)."""
    dropped = []
    for _ in range(extra):
        _, tied = play.best_discards(hand, known)
        index = highest_value(tied, play.values)
        hand &= ~(1 << index)
        dropped.append(index)
    return hand, dropped


def last_give_back(observation: Observation, seat: int) -> GiveBack | None:
    """``seat``'s last turn if it ended in a give-back (None if not, or it has not acted)."""
    turns, last_gave_back = give_backs(observation, seat)
    return turns[-1] if last_gave_back else None


def _passed_knock(observation: Observation, seat: int) -> bool:
    """Did ``seat``'s last action give a card back face up (not a knock)?"""
    for actor, action in reversed(observation.history):
        if actor == seat:
            return action.kind is ActionKind.DISCARD
    return False


class Redeals:
    """Re-deals of what a seat cannot see: the opponent's hand (selected) and the stock.

    The opponent's unknown cards are the best of ``min(stock draws,
    selection)`` more: it kept what suited it, giving back the play-out's
    way. A re-deal in which the opponent could have knocked at its last
    give-back but did not weighs ``pass_likelihood``. Two players only;
    ``usable`` is False when the observation cannot be re-dealt. When the
    opponent's last action was a give-back, up to :data:`DISCARD_TRIES`
    re-deals are drawn for one that explains that turn (the give-back left
    its least deadwood, and an up-card it drew from the stock over would not
    have gone into its melds: the play of the simple bot, of our medium bot
    and of most players); if none does, the last weighs
    ``discard_likelihood`` (1: the turn is not read, one re-deal each).
    Each card of its earlier turns that its re-dealt hand holds two meld
    partners of weighs ``earlier_likelihood`` (:mod:`pyrummy.bots.gin_read`).
    """

    def __init__(
        self,
        observation: Observation,
        rules: Rules,
        rng: random.Random,
        play: Play,
        *,
        pass_likelihood: float = DEFAULT_PASS_LIKELIHOOD,
        selection: int = DEFAULT_SELECTION,
        discard_likelihood: float = DEFAULT_DISCARD_LIKELIHOOD,
        earlier_likelihood: float = DEFAULT_EARLIER_LIKELIHOOD,
    ) -> None:
        me = observation.seat
        assert me is not None and observation.players == 2
        opponent = 1 - me
        self.rules = rules
        self.rng = rng
        self.play = play
        self.pass_likelihood = pass_likelihood
        self.known = observation.known_cards[opponent].mask
        self.missing = observation.hand_sizes[opponent] - self.known.bit_count()
        self.pool = [card.index for card in observation.unseen_cards()]
        self.usable = 0 <= self.missing <= len(self.pool)
        self.passed = _passed_knock(observation, opponent)
        self.discard_likelihood = discard_likelihood
        self.give_back = last_give_back(observation, opponent) if discard_likelihood < 1 else None
        self.earlier_likelihood = earlier_likelihood
        self.refused = earlier_refusals(observation, opponent) if earlier_likelihood < 1 else 0
        self.extra = max(
            0, min(selection, _stock_draws(observation, opponent), len(self.pool) - self.missing)
        )

    def draw(self) -> tuple[int, list[int], float]:
        """One re-deal: (the opponent's hand, the stock drawn from its end, its weight)."""
        theirs, stock, weight = self._read_last()
        if self.refused:
            weight *= self.earlier_likelihood ** contradicted(theirs, self.refused)
        return theirs, stock, weight

    def _read_last(self) -> tuple[int, list[int], float]:
        if self.give_back is None:
            return self._draw()
        for _ in range(DISCARD_TRIES):
            theirs, stock, weight = self._draw()
            if self._explains(theirs, self.give_back):
                return theirs, stock, weight
        return theirs, stock, weight * self.discard_likelihood

    def _explains(self, theirs: int, turn: GiveBack) -> bool:
        """Would the play-out policy have played ``turn`` from this hand (``theirs``, after it)?

        Its give-back leaves its least deadwood, and an up-card it drew
        from the stock over would not have lowered its deadwood by more than
        its value (its hand then: ``theirs`` with the give-back, less one
        card it drew, picked at random among the unknown ones).
        """
        play = self.play
        eleven = theirs | 1 << turn.card
        if play.deadwood(theirs) > play.best_discards(eleven, turn.taken)[0]:
            return False
        if turn.passed < 0:
            return True
        unknown = eleven & ~self.known
        if not unknown:
            return True
        drawn = 1 << self.rng.choice([i for i in range(52) if unknown >> i & 1])
        before = eleven & ~drawn
        up = 1 << turn.passed
        return play.deadwood(before | up) >= play.deadwood(before) + play.values[turn.passed]

    def _draw(self) -> tuple[int, list[int], float]:
        pool = self.pool
        self.rng.shuffle(pool)
        theirs = self.known
        for index in pool[: self.missing + self.extra]:
            theirs |= 1 << index
        stock = pool[self.missing + self.extra :]
        if self.extra:
            theirs, dropped = _selected_hand(theirs, self.extra, self.known, self.play)
            stock += dropped
            self.rng.shuffle(stock)
        weight = 1.0
        if self.passed and self.play.deadwood(theirs) <= self.rules.knock_limit:
            weight = self.pass_likelihood
        return theirs, stock, weight


def hold_values(
    observation: Observation,
    knock_card: int,
    rules: Rules,
    rng: random.Random,
    *,
    samples: int,
    wait_stock: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] | None = None,
    pass_likelihood: float = DEFAULT_PASS_LIKELIHOOD,
    selection: int = DEFAULT_SELECTION,
    discard_likelihood: float = DEFAULT_DISCARD_LIKELIHOOD,
    earlier_likelihood: float = DEFAULT_EARLIER_LIKELIHOOD,
) -> HoldValues:
    """Knocking now with ``knock_card`` (an index) against playing on, on re-deals.

    At most ``samples`` re-deals (:class:`Redeals`); once ``clock()`` passes
    ``deadline`` it stops (after :data:`MIN_SAMPLES`). Two players only.
    """
    hand = observation.hand.mask & ~(1 << knock_card)
    play = Play(rules)
    redeals = Redeals(
        observation,
        rules,
        rng,
        play,
        pass_likelihood=pass_likelihood,
        selection=selection,
        discard_likelihood=discard_likelihood,
        earlier_likelihood=earlier_likelihood,
    )
    if not redeals.usable:
        return HoldValues(0.0, 0.0, 0.0, 0)
    up = 1 << knock_card
    totals = [0.0, 0.0, 0.0]
    weight_total = 0.0
    done = 0
    for _ in range(samples):
        if clock is not None and done >= MIN_SAMPLES and clock() > deadline:
            break
        theirs, stock, weight = redeals.draw()
        done += 1
        weight_total += weight
        totals[0] += weight * knock_net(hand, theirs, rules, play.arrangements)
        totals[1] += weight * play.play_out(hand, theirs, up, list(stock), 1, wait_stock)
        totals[2] += weight * play.play_out(hand, theirs, up, list(stock), 2, wait_stock)
    if done == 0 or weight_total <= 0:
        return HoldValues(0.0, 0.0, 0.0, done)
    now, later, gin = (t / weight_total for t in totals)
    return HoldValues(now, later, gin, done)
