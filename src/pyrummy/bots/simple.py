"""The simple bot: the well-known gin baseline, adapted to every preset.

* **Draw:** take the top discard only if it completes a meld (it sits in a
  meld of the best arrangement of hand + card; in the melding games also if
  it can be laid off on the table), otherwise draw from the stock. With the
  stock empty it takes the discard only if that lowers its deadwood (knock
  rummy) or completes a meld, and declines otherwise.
* **Give back:** the card leaving the least deadwood, the highest value among
  ties; never the discard taken this turn (the legal actions leave it out).
* **Knock:** in gin as soon as it may (deadwood 10 or less); in knock rummy
  when its deadwood after the give-back is at or below ``knock_threshold``
  (default about one a card).
* **Melding games:** swap a joker when that lowers its deadwood, meld every
  meld of its best arrangement, lay off every card that is not needed in
  its hand, then give back as above.

It holds no memory: the same observation gets the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    any_but_undo,
    big_gin_of,
    configured,
    first_of_kind,
    is_draw_decision,
    of_kind,
    require_actions,
)
from pyrummy.bots.family import traits_of
from pyrummy.bots.hand import (
    best_give_back,
    completes_meld,
    deadwood,
    give_back_order,
    values_of,
)
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.melds import layoff_targets
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules

#: Knock rummy threshold by hand size (cards held after the give-back): about
#: one point a card, the plain player's habit (the medium bot weighs each knock
#: by its expected settlement instead).
DEFAULT_KNOCK_THRESHOLDS = {6: 5, 7: 5, 10: 8}


def default_knock_threshold(hand_size: int) -> int:
    """The simple bot's knock threshold for a hand of this many cards."""
    if hand_size in DEFAULT_KNOCK_THRESHOLDS:
        return DEFAULT_KNOCK_THRESHOLDS[hand_size]
    return 5 if hand_size < 10 else 8


@dataclass(frozen=True)
class SimpleConfig:
    """The simple bot's settings: when it knocks in knock rummy.

    ``knock_threshold``: deadwood at or below which it knocks (None:
    :func:`default_knock_threshold` of the cards it keeps).
    """

    knock_threshold: int | None = None

    def threshold(self, hand_size: int) -> int:
        """The knock rummy threshold for a hand of this many cards."""
        if self.knock_threshold is not None:
            return self.knock_threshold
        return default_knock_threshold(hand_size)


class SimpleBot:
    """Least deadwood, take only useful discards, knock early.

    Options are :class:`SimpleConfig`'s fields, given as a config or by name:

    >>> SimpleBot(knock_threshold=3).config.knock_threshold
    3
    """

    name = "simple"

    def __init__(
        self, seed: int | None = None, config: SimpleConfig | None = None, **options: object
    ) -> None:
        # The simple bot needs no randomness; ``seed`` keeps the constructor uniform.
        self.seed = seed
        self.config = configured(config or SimpleConfig(), options, self.name)

    # -- the interface --------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        big_gin = big_gin_of(legal_actions)
        if big_gin is not None:
            return big_gin
        rules = find_rules(observation.rules)
        if is_draw_decision(legal_actions):
            return self.choose_draw(observation, legal_actions, rules)
        return self.choose_play(observation, legal_actions, rules)

    # -- drawing --------------------------------------------------------------
    def wants_discard(self, observation: Observation, card: Card, rules: Rules) -> bool:
        """Whether taking ``card`` from the discard pile is worth it."""
        hand = observation.hand.mask
        if completes_meld(hand, card, rules):
            return True
        return traits_of(rules).melds_on_table and self._can_lay_off(observation, card, rules)

    def choose_draw(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
        stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
        decline = first_of_kind(legal_actions, ActionKind.DECLINE)
        top = observation.discard_pile[-1] if observation.discard_pile else None
        if take is not None and top is not None:
            if stock is None and traits_of(rules).knock_open:
                # Knock rummy, stock empty: declining ends the deal, so take only
                # a real improvement.
                if self.improves_hand(observation.hand.mask, top, rules):
                    return take
            elif self.wants_discard(observation, top, rules):
                return take
        for action in (stock, decline, take):
            if action is not None:
                return action
        return legal_actions[0]

    @staticmethod
    def improves_hand(hand: int, card: Card, rules: Rules) -> bool:
        """Taking ``card`` (and giving back another) lowers the deadwood."""
        now = deadwood(hand, rules)
        widened = hand | card.bit
        best = min(
            deadwood(widened & ~(1 << i), rules)
            for i in range(widened.bit_length())
            if widened >> i & 1 and i != card.index
        )
        return best < now

    @staticmethod
    def _can_lay_off(observation: Observation, card: Card, rules: Rules) -> bool:
        if not observation.table:
            return False
        if rules.layoff_after_own_meld and not any(
            t.owner == observation.seat for t in observation.table
        ):
            return False
        return bool(layoff_targets(card, [t.meld for t in observation.table], rules))

    # -- after the draw ---------------------------------------------------------
    def choose_play(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        action = self.choose_table_play(observation, legal_actions, rules)
        if action is not None:
            return action
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if give_backs:
            return self.choose_give_back(observation, give_backs, rules)
        return any_but_undo(legal_actions)

    def choose_table_play(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action | None:
        """A joker swap, meld or lay-off worth making now, or None (melding games)."""
        hand = observation.hand.mask
        for pick in (self._joker_swap, self._meld, self._layoff):
            action = pick(observation, legal_actions, rules, hand)
            if action is not None:
                return action
        return None

    def _joker_swap(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules, hand: int
    ) -> Action | None:
        swaps = of_kind(legal_actions, ActionKind.SWAP_JOKER)
        if not swaps:
            return None
        now = deadwood(hand, rules)
        best: tuple[int, Action] | None = None
        for action in swaps:
            joker = _joker_of(observation, action)
            if joker is None:
                continue
            after = deadwood((hand & ~action.cards[0].bit) | joker.bit, rules)
            if after < now and (best is None or after < best[0]):
                best = (after, action)
        return None if best is None else best[1]

    def _meld(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules, hand: int
    ) -> Action | None:
        melds = of_kind(legal_actions, ActionKind.MELD)
        if not melds:
            return None
        now = deadwood(hand, rules)
        values = values_of(rules)
        best: tuple[tuple[int, int, int], Action] | None = None
        for action in melds:
            mask = _mask(action.cards)
            # A meld of some best arrangement leaves the deadwood as it is.
            if deadwood(hand & ~mask, rules) != now:
                continue
            key = (len(action.cards), sum(values[c.index] for c in action.cards), mask)
            if best is None or key > best[0]:
                best = (key, action)
        return None if best is None else best[1]

    def _layoff(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules, hand: int
    ) -> Action | None:
        layoffs = of_kind(legal_actions, ActionKind.LAYOFF)
        if not layoffs:
            return None
        now = deadwood(hand, rules)
        best: tuple[tuple[int, int, int], Action] | None = None
        for action in layoffs:
            card = action.cards[0]
            if deadwood(hand & ~card.bit, rules) > now:
                continue  # the card is needed in a meld still in hand
            key = give_back_order(card, rules)
            if best is None or key > best[0]:
                best = (key, action)
        return None if best is None else best[1]

    # -- giving back --------------------------------------------------------------
    def choose_give_back(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> Action:
        """Least deadwood left (highest value among ties); knock when the rules say so."""
        hand = observation.hand.mask
        scored = {
            action.cards[0]: deadwood(hand & ~action.cards[0].bit, rules) for action in give_backs
        }
        least, card = best_give_back(scored, rules)
        knock = _action_for(give_backs, ActionKind.KNOCK, card)
        if knock is not None and self.should_knock(observation, rules, least):
            return knock
        discard = _action_for(give_backs, ActionKind.DISCARD, card)
        if discard is not None:
            return discard
        return knock if knock is not None else give_backs[0]

    def should_knock(self, observation: Observation, rules: Rules, deadwood_left: int) -> bool:
        """Gin: whenever allowed. Knock rummy: at or below the threshold."""
        if traits_of(rules).knock_limited:
            return True
        return deadwood_left <= self.config.threshold(len(observation.hand) - 1)


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def _action_for(actions: Sequence[Action], kind: ActionKind, card: Card) -> Action | None:
    for action in actions:
        if action.kind is kind and action.cards and action.cards[0] == card:
            return action
    return None


def _joker_of(observation: Observation, action: Action) -> Card | None:
    """The joker that ``swap-joker`` would free from its table meld."""
    if action.target is None or not 0 <= action.target < len(observation.table):
        return None
    for card in observation.table[action.target].meld.cards:
        if card.is_joker:
            return card
    return None
