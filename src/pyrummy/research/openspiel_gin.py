"""Our bots at OpenSpiel's own C++ ``gin_rummy``, as ``pyspiel.Bot`` objects.

OpenSpiel's gin is played by its rules, which our preset ``gin-openspiel``
declares (docs/rules/gin-standard.md §8): knock card 10, gin bonus 25,
undercut bonus 25 (a tie is worth 0 to both there), no lay-off on gin, the
*wall* (with two cards left in the stock the next player may only take the
upcard to knock, or pass: a draw), the first-turn choice to take the upcard
or pass it, the upcard just taken may be thrown back, and after a knock the
players lay their melds and lay-offs one action at a time (ours arranges
them for the players: the one difference the preset keeps).

:class:`PyrummyGinBot` translates what its player may know in an OpenSpiel
state into one of our :class:`~pyrummy.core.observation.Observation` objects
under :data:`GIN_RULES` (the ``gin-openspiel`` preset), asks our bot, and
translates the answer back to OpenSpiel's action numbers:

- *What it reads*: its own hand, the upcard, the dead discard pile, the
  stock size and the cards each player is publicly known to hold (taken
  upcards), all through the state's accessors; the public move list from
  the history's player actions; its own stock draws from the chance
  outcomes that follow *its own* "Draw stock" actions. The opponent's hand
  and the opponent's stock draws are never read.
- *Decisions by our bot*: first upcard (asked as a draw: take = ``draw
  discard``, pass = ``draw stock``), draw, discard or knock, and at the wall
  (asked as one discard decision with the upcard added to the hand; a knock
  is played as OpenSpiel's Knock, anything else as Pass). The wall question
  is put under :data:`GIN_RULES` without ``wall_knock``: there a discard
  meets the wall and draws the deal, which is what passing does, so a bot
  weighs its knock against a draw (the preset's own question, take the
  upcard or pass and then the knock card, asks our bots' draw logic, which
  does not weigh the knock).
- *Decisions made here*: after a knock the knocker discards the card our
  bot knocked with and lays the melds of its least-deadwood arrangement
  (runs longer than 5 split, OpenSpiel numbers melds of 3-5 cards); the
  defender lays off greedily (the card that lowers its deadwood most, while
  one does) and then lays its best melds.

Cards: OpenSpiel numbers a card ``13 * suit + rank`` with suits in the order
s c d h; ours are S H D C, so clubs and hearts trade places
(:func:`card_from_openspiel`, :func:`card_to_openspiel`).

>>> card_from_openspiel(13), card_to_openspiel(Card("AC")), card_from_openspiel(51)
(Card('AC'), 13, Card('KH'))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

import pyspiel

from pyrummy.bots.base import Bot
from pyrummy.bots.registry import make_bot
from pyrummy.core.actions import (
    DECLINE,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCKS,
    Action,
    ActionKind,
)
from pyrummy.core.cards import ALL_CARDS, RANKS_IN_SUIT, Card, CardSet, card_number
from pyrummy.core.observation import Observation
from pyrummy.core.phases import Phase
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import best_arrangement, deadwood

#: OpenSpiel's rules as our preset declares them: the rules our bots think they play.
GIN_RULES: Final[Rules] = find_rules("gin-openspiel")
#: The wall's knock-or-pass, asked as a discard decision (see the module docstring).
_WALL_QUESTION: Final[Rules] = GIN_RULES.with_options(wall_knock=False)

DRAW_UPCARD: Final = 52
DRAW_STOCK_ACTION: Final = 53
PASS: Final = 54
KNOCK: Final = 55
MELD_BASE: Final = 56
_DEAL_CARDS: Final = 21  # 10 + 10 cards and the first upcard
_SUIT_MAP: Final = (0, 3, 2, 1)  # OpenSpiel s c d h <-> ours S H D C (its own inverse)
_MAX_MELD: Final = 5


def card_from_openspiel(number: int) -> Card:
    """Our card for OpenSpiel's card number."""
    # OpenSpiel numbers a card as we do, suit-major, only in its own suit order.
    suit, rank = divmod(number, RANKS_IN_SUIT)
    return ALL_CARDS[card_number(rank, _SUIT_MAP[suit])]


def card_to_openspiel(card: Card) -> int:
    """OpenSpiel's number for our card."""
    suit, rank = divmod(card.index, RANKS_IN_SUIT)
    return card_number(rank, _SUIT_MAP[suit])


def _cards(numbers: Sequence[int]) -> CardSet:
    return CardSet(sum(card_from_openspiel(n).bit for n in numbers))


@lru_cache(maxsize=1)
def meld_numbers() -> dict[int, int]:
    """OpenSpiel's meld action number for each meld, keyed by our card mask."""
    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    table: dict[int, int] = {}
    for action in range(MELD_BASE, game.num_distinct_actions()):
        text = state.action_to_string(0, action).rsplit(" ", 1)[-1]
        mask = 0
        for i in range(0, len(text), 2):
            rank, suit = text[i], text[i + 1]
            mask |= Card(f"{rank}{suit.upper()}").bit
        table[mask] = action
    return table


class _View:
    """What one player knows, read from an OpenSpiel gin state."""

    def __init__(self, state: Any, me: int) -> None:
        self.me = me
        self.history: list[tuple[int, Action]] = []
        self.turn = 1
        self.drawn: Card | None = None
        self.taken: Card | None = None
        upcard: int | None = None
        chance_seen = 0
        stock_drawer: int | None = None
        knocker: int | None = None
        for entry in state.full_history():
            player, action = entry.player, entry.action
            if player == pyspiel.PlayerId.CHANCE:
                chance_seen += 1
                if chance_seen == _DEAL_CARDS:
                    upcard = action  # the first upcard: public
                elif chance_seen > _DEAL_CARDS and stock_drawer is not None:
                    if stock_drawer == me:  # our own stock draw: we see our card
                        self.drawn = card_from_openspiel(action)
                    stock_drawer = None
                continue
            if knocker is not None:
                if player == knocker and action < MELD_BASE and action != PASS:
                    self.history.append((player, KNOCKS[card_from_openspiel(action).index]))
                    knocker = -1  # the knock card is recorded; the rest is the showdown
                continue
            if action == DRAW_UPCARD:
                assert upcard is not None
                self.history.append((player, DRAW_DISCARD))
                self.taken = card_from_openspiel(upcard)
                self.drawn = self.taken if player == me else None
                upcard = None
            elif action == DRAW_STOCK_ACTION:
                self.history.append((player, DRAW_STOCK))
                stock_drawer = player
                self.drawn = self.taken = None
                upcard = None
            elif action == PASS:
                self.history.append((player, DECLINE))
            elif action == KNOCK:
                if upcard is not None:  # the wall: the knock takes the upcard
                    self.history.append((player, DRAW_DISCARD))
                    upcard = None
                knocker = player
            elif action < MELD_BASE:
                self.history.append((player, DISCARDS[card_from_openspiel(action).index]))
                upcard = action
                self.turn += 1
                self.drawn = self.taken = None
        self.hand = _cards(state.hands()[me])
        self.known = tuple(_cards(cards) for cards in state.known_cards())
        self.dead = [card_from_openspiel(n) for n in state.discard_pile()]
        up = state.upcard()
        self.upcard = None if up is None else card_from_openspiel(up)
        self.stock = state.stock_size()

    def observation(
        self,
        phase: Phase,
        hand: CardSet,
        legal: Sequence[Action],
        extra: Sequence[Action] = (),
        rules: Rules = GIN_RULES,
    ) -> Observation:
        pile = tuple(self.dead) + (() if self.upcard is None else (self.upcard,))
        sizes = tuple(len(hand) if seat == self.me else 10 for seat in range(2))
        return Observation(
            seat=self.me,
            rules=rules,
            players=2,
            dealer=1,
            deal_number=1,
            phase=phase,
            current_seat=self.me,
            turn=self.turn,
            hand=hand,
            hand_sizes=sizes,
            stock_count=self.stock,
            discard_pile=pile,
            table=(),
            taken_discards=tuple(tuple(cards) for cards in self.known),
            known_cards=self.known,
            drawn_card=self.drawn,
            taken_discard=self.taken,
            melded=(False, False),
            exhaustions=0,
            public_stock=None,
            recycled_stock=False,
            history=tuple(self.history) + tuple((self.me, a) for a in extra),
            legal_actions=tuple(legal),
            is_over=False,
            revealed_hands=None,
            knock_card=None,
            settlement=None,
        )


def _give_backs(hand: CardSet, keep: Card | None, can_knock: bool) -> list[Action]:
    """Our discard and knock actions for an 11-card hand (sorted by number);
    ``keep``, the upcard just taken, is among them only under ``discard_taken``."""
    cards = [card for card in hand if card != keep or GIN_RULES.discard_taken]
    actions = [DISCARDS[card.index] for card in cards]
    if can_knock:
        limit = GIN_RULES.knock_limit
        actions += [
            KNOCKS[card.index] for card in cards if deadwood(hand - {card}, GIN_RULES) <= limit
        ]
    return actions


def _meld_plan(hand: CardSet) -> list[int]:
    """OpenSpiel meld numbers for the least-deadwood arrangement of ``hand``."""
    numbers = meld_numbers()
    plan = []
    for meld in best_arrangement(hand, GIN_RULES).melds:
        cards = sorted(meld, key=lambda card: card.index)
        chunks = [cards]
        if len(cards) > _MAX_MELD:  # only a run can be this long: split it in two
            first = max(3, len(cards) - _MAX_MELD)
            chunks = [cards[:first], cards[first:]]
        for chunk in chunks:
            mask = sum(card.bit for card in chunk)
            if mask in numbers:
                plan.append(numbers[mask])
    return plan


class PyrummyGinBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots playing one seat of OpenSpiel's ``gin_rummy``.

    >>> import random
    >>> game = pyspiel.load_game("gin_rummy")
    >>> bots = [PyrummyGinBot("simple", 0, seed=1), PyrummyGinBot("random", 1, seed=2)]
    >>> state, rng = game.new_initial_state(), random.Random(3)
    >>> while not state.is_terminal():
    ...     if state.is_chance_node():
    ...         state.apply_action(rng.choice(state.legal_actions()))
    ...     else:
    ...         state.apply_action(bots[state.current_player()].step(state))
    >>> sum(state.returns())
    0.0
    """

    def __init__(
        self, bot: Bot | str, player_id: int, seed: int | None = None, **options: object
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.bot: Bot = make_bot(bot, seed=seed, **options) if isinstance(bot, str) else bot
        self._player_id = player_id
        self._knock_card: Card | None = None

    def player_id(self) -> int:
        return self._player_id

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        self._knock_card = None

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        legal: list[int] = list(state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        phase = str(state.current_phase()).rsplit(".", 1)[-1]
        view = _View(state, self._player_id)
        if phase in ("FIRST_UPCARD", "DRAW"):
            choice = self._ask(view, Phase.DRAW, view.hand, [DRAW_STOCK, DRAW_DISCARD])
            if choice.kind is ActionKind.DRAW_DISCARD:
                return DRAW_UPCARD
            return PASS if phase == "FIRST_UPCARD" else DRAW_STOCK_ACTION
        if phase == "DISCARD":
            options = _give_backs(view.hand, view.taken, KNOCK in legal)
            return self._give_back(self._ask(view, Phase.DISCARD, view.hand, options), legal)
        if phase == "WALL":
            assert view.upcard is not None
            hand = view.hand | {view.upcard}
            view.drawn = view.taken = view.upcard
            view.upcard = None
            options = _give_backs(hand, view.taken, True)
            choice = self._ask(
                view, Phase.DISCARD, hand, options, extra=[DRAW_DISCARD], rules=_WALL_QUESTION
            )
            if choice.kind is ActionKind.KNOCK:
                self._knock_card = choice.card
                return KNOCK
            return PASS
        if phase == "KNOCK":
            return self._showdown_as_knocker(view, legal)
        return self._showdown_as_defender(view, legal, bool(state.finished_layoffs()))

    def _ask(
        self,
        view: _View,
        phase: Phase,
        hand: CardSet,
        legal: Sequence[Action],
        extra: Sequence[Action] = (),
        rules: Rules = GIN_RULES,
    ) -> Action:
        observation = view.observation(phase, hand, legal, extra, rules)
        return self.bot.choose(observation, list(legal))

    def _give_back(self, choice: Action, legal: list[int]) -> int:
        if choice.kind is ActionKind.KNOCK and KNOCK in legal:
            self._knock_card = choice.card
            return KNOCK
        number = card_to_openspiel(choice.card)
        return number if number in legal else min(a for a in legal if a < DRAW_UPCARD)

    def _showdown_as_knocker(self, view: _View, legal: list[int]) -> int:
        cards = [a for a in legal if a < DRAW_UPCARD]
        if cards:  # the knock card goes on the pile first
            wanted = self._knock_card
            if wanted is not None and card_to_openspiel(wanted) in cards:
                return card_to_openspiel(wanted)
            return min(
                cards,
                key=lambda n: deadwood(view.hand - {card_from_openspiel(n)}, GIN_RULES),
            )
        return self._lay_melds(view.hand, legal)

    def _showdown_as_defender(self, view: _View, legal: list[int], laying_melds: bool) -> int:
        if laying_melds:
            return self._lay_melds(view.hand, legal)
        current = deadwood(view.hand, GIN_RULES)
        best, best_number = current, PASS
        for number in legal:
            if number >= DRAW_UPCARD:
                continue
            after = deadwood(view.hand - {card_from_openspiel(number)}, GIN_RULES)
            if after < best:
                best, best_number = after, number
        return best_number

    @staticmethod
    def _lay_melds(hand: CardSet, legal: list[int]) -> int:
        for number in _meld_plan(hand):
            if number in legal:
                return number
        if PASS in legal:
            return PASS
        return next(a for a in legal if a >= MELD_BASE)
