"""One deal of any preset as an explicit state machine (docs/rules/).

A :class:`Deal` is in one :class:`~pyrummy.core.phases.Phase` at a time;
:meth:`Deal.legal_actions` lists what the seat to play may do (sorted by the
integer encoding of :mod:`pyrummy.core.actions`, no repeats) and
:meth:`Deal.apply` does one of them, or raises
:class:`~pyrummy.core.errors.IllegalActionError` with the reason and changes
nothing.

Dealing (docs/rules/common.md §5): ``deck[0]`` is dealt first, one card at a time,
clockwise, starting with the seat to the dealer's left (``dealer + 1``); in
Rotham the starting player's eighth card comes after the round-robin. The
next card is turned face up to start the discard pile; the card after it is
the top of the stock (drawn first), the last card of ``deck`` its bottom.

>>> deal = new_deal("knock", players=4, seed=1)
>>> [len(deal.hands(s)) for s in range(4)], deal.observe(None).stock_count
([7, 7, 7, 7], 23)
>>> deal.phase, deal.current_seat, [str(a) for a in deal.legal_actions()]
(<Phase.DRAW: 'draw'>, 1, ['draw stock', 'draw discard'])
>>> deal.apply("draw stock")
>>> card = deal.hands(1).sorted_by_rank()[0]
>>> deal.apply(f"knock {card}")
>>> deal.is_over, deal.settlement is not None, deal.current_seat
(True, True, None)

Rulings where the sources are silent (docs/rules/common.md §6-§8, ``docs/actions.md``):

- *Taken discard* (every melding preset): you may not meld or lay off so
  that the card you took from the discard pile this turn is the only card
  left in your hand (you could not discard it), and you may not discard it.
- *Undo*: melding games take back melds, lay-offs and joker exchanges of the
  current turn one by one, latest first, and a draw from the discard pile
  while nothing else of the turn is left to undo. Knock and gin may undo a
  draw from the discard pile before the discard. A stock draw is final.
- *Declining at an empty stock* (``stock_refill="on_decline"``): the pile is
  turned over (or shuffled) into the new stock and the same player draws its
  top card at once, as part of ``decline``.
- *All-seven deals* (Rotham deals in ``rules.all_seven_deals``): a meld or
  lay-off is legal only if the cards left in the hand can still all be
  melded among themselves with at most one card over (to discard); a player
  who started going down this turn may discard only their last card (so
  they go out this turn, or undo). The one-meld-per-turn limit does not
  apply to that turn: going down all at once needs several melds.
- *Going rummy* counts a joker exchange as having put cards down.
- *Undo has no limit* (seed 001: «До сброса любой шаг можно отменить»): a
  person may undo as often as they like before the discard. A deal therefore
  ends only if the players stop undoing at some point (draw the discard,
  undo, draw it again... is a loop the turn cap cannot end, as it counts
  turns, not actions). Bots and the research environments never undo;
  random or scripted play that offers undo must bound it itself (see
  ``tests/test_deal_termination.py``). ``Observation.undos_this_turn``
  still counts the undos of the turn, for display.
- *Turn cap*: the turn numbered ``rules.turn_cap + 1`` is never played: the
  deal ends with nobody out (knock: showdown without a knocker; melding:
  :func:`settle_no_winner`; gin: a draw).
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, NoReturn

from pyrummy.core.actions import (
    DECLINE,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCKS,
    MAX_TABLE_MELDS,
    UNDO,
    Action,
    ActionKind,
    ActionSpace,
    MeldKey,
    action_space,
    canonical_jokers,
    parse_action,
)
from pyrummy.core.cards import (
    ALL_CARDS,
    JOKERS,
    N_STANDARD,
    Card,
    CardSet,
    parse_card,
    parse_card_list,
)
from pyrummy.core.errors import (
    CardGivenTwiceError,
    CardNotInDeckError,
    HandSizeError,
    IllegalActionError,
    RulesError,
    RummyError,
    SetupError,
)
from pyrummy.core.melds import (
    Meld,
    MeldKind,
    check_meld,
    extend_meld,
    swap_joker,
)
from pyrummy.core.messages import Message, render, show_cards
from pyrummy.core.patterns import (
    ACE_RULES,
    RANK_ACROSS_SUITS,
    SUIT_BITS,
    card_numbers,
    run_patterns,
    run_windows,
)
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.settlement import (
    Settlement,
    settle,
    settle_draw,
    settle_going_out,
    settle_no_winner,
)
from pyrummy.core.solver import deadwood_of_mask, deadwood_without_each, suit_deadwood_table

if TYPE_CHECKING:  # typing only: observation and record sit above this module
    from pyrummy.core.observation import Observation

__all__ = ["Deal", "DealViews", "Phase", "PublicUndo", "TableMeld", "arrange_deck", "new_deal"]

_STANDARD_MASK: Final = (1 << N_STANDARD) - 1
_SETUP_SPLIT: Final = re.compile(r"[\s,;]+")
#: Interned lay-off actions, by card number and table meld number.
_LAYOFFS: Final = tuple(
    tuple(Action(ActionKind.LAYOFF, (card,), target) for target in range(MAX_TABLE_MELDS))
    for card in ALL_CARDS
)
#: Interned joker exchanges, by card number (real cards) and table meld number.
_SWAPS: Final = tuple(
    tuple(Action(ActionKind.SWAP_JOKER, (card,), target) for target in range(MAX_TABLE_MELDS))
    for card in ALL_CARDS[:N_STANDARD]
)

# Enum members are class-attribute look-ups costing ~150 ns each on CPython
# 3.11, several per step: the hot paths compare with these constants instead.
_PHASE_DEAL: Final = Phase.DEAL
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_DECLINE: Final = Phase.DECLINE
_PHASE_MELD: Final = Phase.MELD
_PHASE_DISCARD: Final = Phase.DISCARD
_PHASE_OVER: Final = Phase.OVER
_KIND_DRAW_STOCK: Final = ActionKind.DRAW_STOCK
_KIND_DRAW_DISCARD: Final = ActionKind.DRAW_DISCARD
_KIND_UNDO: Final = ActionKind.UNDO
_KIND_DISCARD: Final = ActionKind.DISCARD
_KIND_KNOCK: Final = ActionKind.KNOCK
_KIND_MELD: Final = ActionKind.MELD
_KIND_LAYOFF: Final = ActionKind.LAYOFF
_KIND_SWAP_JOKER: Final = ActionKind.SWAP_JOKER
_MELD_SET: Final = MeldKind.SET
_MELD_RUN: Final = MeldKind.RUN


# An undo entry: what the turn did and the state before it:
# ("draw", card number) or ("table", UndoSnapshot).
class UndoSnapshot(NamedTuple):
    """What a ``table`` undo entry restores: the seat's hand and the table as
    they were, with the turn's flags and the seat's public cards."""

    hand: int
    table: tuple[TableMeld, ...]
    own_meld: bool
    melds_this_turn: int
    played_this_turn: bool
    known: int
    taken: int


_Snapshot = UndoSnapshot


def _illegal(key: str, **params: str) -> IllegalActionError:
    message = Message.of(key, **params)
    error = IllegalActionError(render(message), reason=message)
    return error


_ActionTables = tuple[tuple[tuple[Action, ...], ...], ...]


def _card_action_tables(actions: tuple[Action, ...]) -> _ActionTables:
    """The actions (one per card number) of every 13-bit pattern of each
    suit, and of every joker pattern: a hand's actions are five look-ups,
    already in card order."""
    ranks = tuple(
        tuple(i for i in range(13) if pattern >> i & 1) for pattern in range(SUIT_BITS + 1)
    )
    tables = [
        tuple(tuple([actions[base + i] for i in held]) for held in ranks)
        for base in range(0, N_STANDARD, 13)
    ]
    tables.append(tuple(tuple([actions[N_STANDARD + i] for i in ranks[j]]) for j in range(8)))
    return tuple(tables)


# Built on first use (some 50 ms each), not at import; no arguments, so
# the cached call is as cheap as a call gets.
@cache
def _discard_tables() -> _ActionTables:
    return _card_action_tables(DISCARDS)


@cache
def _knock_tables() -> _ActionTables:
    return _card_action_tables(KNOCKS)


def _card_actions(tables: _ActionTables, mask: int) -> tuple[Action, ...]:
    """The actions of :func:`_card_action_tables` for every card in ``mask``."""
    return (
        tables[0][mask & SUIT_BITS]
        + tables[1][mask >> 13 & SUIT_BITS]
        + tables[2][mask >> 26 & SUIT_BITS]
        + tables[3][mask >> 39 & SUIT_BITS]
        + tables[4][mask >> N_STANDARD]
    )


# Legal actions of the draw phases (shared and immutable: callers get lists).
_DRAW_BOTH: Final = (DRAW_STOCK, DRAW_DISCARD)
_DRAW_STOCK_ONLY: Final = (DRAW_STOCK,)
_DECLINE_BOTH: Final = (DRAW_DISCARD, DECLINE)
_DECLINE_ONLY: Final = (DECLINE,)
_NO_ACTIONS: Final[tuple[Action, ...]] = ()


def _as_rules(rules: Rules | str, options: dict[str, object] | None = None) -> Rules:
    if isinstance(rules, Rules):
        return rules.with_options(**options) if options else rules
    return find_rules(rules, **(options or {}))


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: who laid it down and who laid each of its cards.

    ``laid_by[i]`` is the seat that put ``meld.cards[i]`` on the table.
    """

    owner: int
    meld: Meld
    laid_by: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "owner": self.owner,
            "kind": self.meld.kind.value,
            "cards": [str(card) for card in self.meld.cards],
            "represents": [None if c is None else str(c) for c in self.meld.represents],
            "laid_by": list(self.laid_by),
        }


@dataclass(frozen=True)
class PublicUndo:
    """One step the seat to play may take back, in public terms.

    ``kind`` is ``draw`` (``card`` goes back on the pile) or ``table`` (the
    table, flags and the hand as they were: the hand is the current hand
    plus ``hand_add`` minus ``hand_remove``, both made of public cards).
    """

    kind: str
    card: Card | None = None
    table: tuple[TableMeld, ...] = ()
    own_meld: bool = False
    melds_this_turn: int = 0
    played_this_turn: bool = False
    known: CardSet = field(default_factory=CardSet)
    taken: CardSet = field(default_factory=CardSet)
    hand_add: CardSet = field(default_factory=CardSet)
    hand_remove: CardSet = field(default_factory=CardSet)


class DealViews:
    """The views of a deal that the layers above it define.

    The core imports one way (cards, rules, melds, solver, settlement,
    actions, deal, observation, sampling, match, record: see
    ``docs/design.md``, "Layers"), so this module cannot import
    :mod:`~pyrummy.core.observation` or :mod:`~pyrummy.core.record`.
    :meth:`Deal.observe` and :meth:`Deal.record` call through this table
    instead, which those modules fill when they are imported; importing
    anything of ``pyrummy`` imports both (``pyrummy/__init__.py``), so the
    table is always full before a deal exists. The canonical functions are
    :meth:`Observation.of <pyrummy.core.observation.Observation.of>` and
    :func:`pyrummy.core.record.emit_record`.
    """

    __slots__ = ("observe", "record")

    def __init__(self) -> None:
        self.observe: Callable[[Deal, int | None], Observation] = _view_missing
        self.record: Callable[[Deal], str] = _view_missing


def _view_missing(*_: object) -> NoReturn:
    raise RummyError("pyrummy.core.observation and pyrummy.core.record are not imported")


#: Filled by pyrummy.core.observation and pyrummy.core.record on import.
DEAL_VIEWS: Final = DealViews()


class Deal:
    """One deal: the full state, legal actions and their effects.

    Full state is open here (:meth:`hands`, :attr:`deck`) for tests, replay
    and the table manager; a seat sees only :meth:`observe`.
    """

    _views: ClassVar[DealViews] = DEAL_VIEWS

    __slots__ = (
        "_all_seven",
        "_drawn",
        "_end",
        "_exhaustions",
        "_hands",
        "_knock_card",
        "_legal",
        "_melds_turn",
        "_own_meld",
        "_pending",
        "_pile",
        "_play_phase",
        "_played",
        "_played_turn",
        "_public",
        "_rng",
        "_seat",
        "_settlement",
        "_space",
        "_stock",
        "_stock_public",
        "_stock_recycled",
        "_table",
        "_table_fits",
        "_taken",
        "_taken_held",
        "_undo",
        "_undos_turn",
        "deal_number",
        "dealer",
        "deck",
        "history",
        "is_over",
        "phase",
        "players",
        "rules",
        "seed",
        "turn",
    )

    rules: Rules
    players: int
    dealer: int
    deal_number: int
    deck: tuple[Card, ...]
    seed: int | None
    history: list[tuple[int, Action]]
    phase: Phase
    #: True once the deal is settled (``phase is Phase.OVER``): kept as a
    #: plain attribute because every play loop reads it after every step.
    is_over: bool
    turn: int
    _settlement: Settlement | None
    _pending: tuple[str, int | None, bool] | None
    _all_seven: bool
    _drawn: int | None
    _end: EndReason
    _exhaustions: int
    _hands: list[int]
    _knock_card: int | None
    _legal: tuple[Action, ...] | None
    _melds_turn: int
    _undos_turn: int
    _own_meld: list[bool]
    _play_phase: Phase
    _pile: list[int]
    _played: list[bool]
    _played_turn: bool
    _public: list[int]
    _rng: random.Random | None
    _seat: int
    _space: ActionSpace
    _stock: list[int]
    _stock_public: bool
    _stock_recycled: bool
    _table: list[TableMeld]
    _table_fits: tuple[tuple[int, ...], tuple[int, ...]] | None
    _taken: int | None
    _taken_held: list[int]
    _undo: list[tuple[str, int | _Snapshot]]

    # -- construction -------------------------------------------------------
    @classmethod
    def from_deck(
        cls,
        rules_or_deck: Rules | str | Sequence[Card],
        players: int | None = None,
        dealer: int = 0,
        deck: Sequence[Card] | str | None = None,
        deal_number: int = 1,
        *,
        rules: Rules | str | None = None,
    ) -> Deal:
        """A deal dealt from an explicit deck order (``deck[0]`` dealt first).

        Called as ``Deal.from_deck(rules, players, dealer, deck)`` or
        ``Deal.from_deck(deck, rules=..., players=..., dealer=...)``.

        >>> deal = Deal.from_deck("gin", 2, 0, new_deal("gin", 2, seed=5).deck)
        >>> deal.deck == new_deal("gin", 2, seed=5).deck
        True
        """
        if rules is None:
            if not isinstance(rules_or_deck, (Rules, str)):
                raise RulesError("from_deck needs the rules")
            rules = rules_or_deck
        elif deck is None:
            if isinstance(rules_or_deck, Rules):
                raise RulesError("from_deck needs the deck")
            deck = rules_or_deck
        if deck is None:
            raise RulesError("from_deck needs the deck")
        if players is None:
            raise RulesError("from_deck needs the number of players")
        the_rules = _as_rules(rules)
        cards = parse_card_list(deck) if isinstance(deck, str) else list(deck)
        size = the_rules.deck_size
        if not all(isinstance(card, Card) for card in cards):
            bad = next(card for card in cards if not isinstance(card, Card))
            raise RulesError(f"{bad!r} is not a card")
        order = [card.index for card in cards]
        distinct = set(order)
        if len(order) != size or len(distinct) != size or max(distinct) >= size:
            raise RulesError(
                f"the deck must hold each of the {size} cards of {the_rules.name} once "
                f"(got {len(cards)} cards, {len(distinct)} distinct)"
            )
        deal = cls._blank(the_rules, players, dealer, deal_number)
        deal.deck = tuple(cards)
        deal._deal_out(order)
        return deal

    @classmethod
    def _blank(cls, rules: Rules, players: int, dealer: int, deal_number: int) -> Deal:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players: expected a whole number, got {players!r}")
        rules.check_players(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number < 1:
            raise RulesError(f"deal_number must be 1 or more, not {deal_number!r}")
        deal = object.__new__(cls)
        deal.rules = rules
        deal.players = players
        deal.dealer = dealer
        deal.deal_number = deal_number
        deal.deck = ()
        deal.seed = None
        deal.history = []
        deal.phase = _PHASE_DEAL
        deal.is_over = False
        deal.turn = 0
        deal._settlement = None
        deal._pending = None
        deal._space = action_space(rules)
        deal._hands = [0] * players
        deal._stock = []
        deal._pile = []
        deal._table = []
        deal._table_fits = None
        deal._seat = (dealer + 1) % players
        deal._drawn = None
        deal._taken = None
        deal._undo = []
        deal._melds_turn = 0
        deal._undos_turn = 0
        deal._played_turn = False
        deal._played = [False] * players
        deal._own_meld = [False] * players
        deal._public = [0] * players
        deal._taken_held = [0] * players
        deal._exhaustions = 0
        deal._stock_public = False
        deal._stock_recycled = False
        deal._knock_card = None
        deal._rng = None
        deal._legal = None
        deal._all_seven = rules.family == "melding" and deal_number in rules.all_seven_deals
        deal._end = EndReason.ONGOING
        deal._play_phase = _PHASE_MELD if rules.family == "melding" else _PHASE_DISCARD
        return deal

    def _deal_out(self, order: list[int]) -> None:
        rules, players = self.rules, self.players
        size = rules.hand_size(players)
        starter = (self.dealer + 1) % players
        hands = self._hands
        for offset in range(players):
            # Round-robin from the starter: seat starter+offset gets every
            # players-th card from position offset.
            mask = 0
            for index in order[offset : size * players : players]:
                mask |= 1 << index
            hands[(starter + offset) % players] = mask
        position = size * players
        if rules.starter_extra_card:
            self._hands[starter] |= 1 << order[position]
            position += 1
        self._pile = [order[position]]
        self._stock = order[position + 1 :][::-1]
        self.turn = 0
        self._start_turn(starter, first=True)

    # -- public state -------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to play, None once the deal is over."""
        return None if self.is_over else self._seat

    @property
    def end_reason(self) -> EndReason:
        """How the deal ended (:class:`~pyrummy.core.phases.EndReason`:
        ``knock``, ``out``, ``decline``, ``exhausted``, ``wall``, ``cap``;
        ``EndReason.ONGOING``, the empty text, while it goes on)."""
        return self._end

    def hands(self, seat: int) -> CardSet:
        """The cards in ``seat``'s hand (full state: for tests and replay)."""
        return CardSet(self._hands[seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first (full state)."""
        return tuple(ALL_CARDS[i] for i in reversed(self._stock))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top (public)."""
        return tuple(ALL_CARDS[i] for i in self._pile)

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return tuple(self._table)

    @property
    def knock_card(self) -> Card | None:
        return None if self._knock_card is None else ALL_CARDS[self._knock_card]

    @property
    def action_space(self) -> ActionSpace:
        return self._space

    def __repr__(self) -> str:
        state = (
            "over" if self.is_over else f"turn {self.turn}, seat {self._seat} {self.phase.value}"
        )
        return f"<Deal {self.rules.name} {self.players} players, deal {self.deal_number}, {state}>"

    def clone(self) -> Deal:
        """An independent copy (fast: bots clone a lot)."""
        copy = object.__new__(Deal)
        copy.rules = self.rules
        copy.players = self.players
        copy.dealer = self.dealer
        copy.deal_number = self.deal_number
        copy.deck = self.deck
        copy.seed = self.seed
        copy.history = self.history[:]
        copy.phase = self.phase
        copy.is_over = self.is_over
        copy.turn = self.turn
        copy._settlement = self._settlement
        copy._pending = self._pending
        copy._space = self._space
        copy._hands = self._hands[:]
        copy._stock = self._stock[:]
        copy._pile = self._pile[:]
        copy._table = self._table[:]
        copy._table_fits = self._table_fits
        copy._seat = self._seat
        copy._drawn = self._drawn
        copy._taken = self._taken
        copy._undo = self._undo[:]
        copy._melds_turn = self._melds_turn
        copy._undos_turn = self._undos_turn
        copy._played_turn = self._played_turn
        copy._played = self._played[:]
        copy._own_meld = self._own_meld[:]
        copy._public = self._public[:]
        copy._taken_held = self._taken_held[:]
        copy._exhaustions = self._exhaustions
        copy._stock_public = self._stock_public
        copy._stock_recycled = self._stock_recycled
        copy._knock_card = self._knock_card
        if self._rng is None:
            copy._rng = None
        else:
            # setstate sets the whole state: skip Random()'s seeding from
            # the OS, which costs more than the rest of the clone.
            copy._rng = random.Random.__new__(random.Random)
            copy._rng.setstate(self._rng.getstate())
        copy._legal = self._legal
        copy._all_seven = self._all_seven
        copy._end = self._end
        copy._play_phase = self._play_phase
        return copy

    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may know (``None``: a spectator, public facts only)."""
        return self._views.observe(self, seat)

    def _public_undo(self) -> tuple[PublicUndo, ...]:
        """The undo stack in public terms (see :class:`PublicUndo`)."""
        if not self._undo:
            return ()
        hand = self._hands[self._seat]
        entries = []
        for kind, saved in self._undo:
            if isinstance(saved, int):
                entries.append(PublicUndo("draw", card=ALL_CARDS[saved]))
                continue
            before, table, own_meld, melds_turn, played_turn, public, held = saved
            entries.append(
                PublicUndo(
                    kind,
                    table=table,
                    own_meld=own_meld,
                    melds_this_turn=melds_turn,
                    played_this_turn=played_turn,
                    known=CardSet(public),
                    taken=CardSet(held),
                    hand_add=CardSet(before & ~hand),
                    hand_remove=CardSet(hand & ~before),
                )
            )
        return tuple(entries)

    def record(self) -> str:
        """This deal as a game record (:func:`pyrummy.core.record.emit_record`):
        headers, ``Deal N``, ``Dealer: S``, ``Deck: ...``, one ``seat: action``
        line per action, then the outcome once over. ``parse_record`` replays it.

        >>> deal = new_deal("gin", 2, seed=3)
        >>> deal.apply("draw stock")
        >>> deal.record().splitlines()[7]
        '1: draw stock'
        """
        return self._views.record(self)

    # -- legal actions ------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the seat to play may take, sorted by number, no repeats."""
        legal = self._legal
        if legal is None:
            # The draw phase inlined: half of all steps, and trivial.
            if self.phase is _PHASE_DRAW:
                legal = _DRAW_BOTH if self._pile else _DRAW_STOCK_ONLY
            else:
                legal = self._generate()
            self._legal = legal
        return list(legal)

    def legal_action_ids(self) -> list[int]:
        """The numbers (:class:`~pyrummy.core.actions.ActionSpace`) of the legal actions."""
        encode = self._space.encode
        return [encode(action) for action in self.legal_actions()]

    def _generate(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase is _PHASE_DRAW:
            return _DRAW_BOTH if self._pile else _DRAW_STOCK_ONLY
        if phase is _PHASE_DISCARD:
            return self._knock_phase_actions()
        if phase is _PHASE_MELD:
            return self._meld_phase_actions()
        if phase is _PHASE_DECLINE:
            return _DECLINE_BOTH if self._pile else _DECLINE_ONLY
        return _NO_ACTIONS

    def _knock_phase_actions(self) -> tuple[Action, ...]:
        hand = self._hands[self._seat]
        taken = self._taken
        options = hand if taken is None else hand & ~(1 << taken)
        result = _card_actions(_discard_tables(), options)
        if self._undo:
            result = (UNDO, *result)
        rules = self.rules
        if rules.family == "knock":
            return result + _card_actions(_knock_tables(), options)
        limit = rules.knock_limit
        # The whole hand's deadwood, inlined for the usual hand with no rank
        # in three suits (no set possible: only runs count); the solver
        # otherwise. Giving back a card lowers it by 10 at most (15: a joker).
        s = hand & SUIT_BITS
        h = hand >> 13 & SUIT_BITS
        d = hand >> 26 & SUIT_BITS
        c = hand >> 39 & SUIT_BITS
        if hand >> N_STANDARD or (s & h & (d | c)) | ((s | h) & d & c):
            whole = deadwood_of_mask(hand)  # jokers (an option) or a possible set
        else:
            table = suit_deadwood_table("low")
            whole = table[s] + table[h] + table[d] + table[c]
        if whole - (15 if hand >> N_STANDARD else 10) > limit:
            return result
        # Close to knocking: the deadwood without each card, in one pass.
        without = deadwood_without_each(hand)
        knocks = tuple(KNOCKS[i] for i in card_numbers(options) if without[i] <= limit)
        return result + knocks

    def _meld_phase_actions(self) -> tuple[Action, ...]:
        seat = self._seat
        hand = self._hands[seat]
        result: list[Action] = [UNDO] if self._undo else []
        if self._discard_allowed(hand):
            options = hand if self._taken is None else hand & ~(1 << self._taken)
            result += _card_actions(_discard_tables(), options)
        space = self._space
        melds_allowed = self._meld_allowed()  # always in all-seven deals
        melds = _meld_numbers(space, hand) if melds_allowed else []
        # All-seven deals ask, for every candidate, whether the cards left
        # can still be melded: one memo for the whole hand answers them all.
        coverable = (
            _coverage([mask for _, mask in melds], self.rules.last_discard_required)
            if self._all_seven
            else None
        )

        taken_bit = 0 if self._taken is None else 1 << self._taken
        empty_ok = not self.rules.last_discard_required

        def may_remove(removed: int) -> bool:
            """May ``removed`` leave the hand by meld or lay-off? (See
            :meth:`_removal_problem`, which says why not.)"""
            left = hand & ~removed
            if not left:
                return empty_ok
            if left == taken_bit:
                return False
            return coverable is None or coverable(left)

        if melds_allowed:
            numbers = [number for number, mask in melds if may_remove(mask)]
            numbers.sort()
            result += map(space.meld_at, numbers)
        layoff_fits, swap_fits = self._fits() if self._table else ((), ())
        if layoff_fits and not (self.rules.layoff_after_own_meld and not self._own_meld[seat]):
            reachable = 0
            for mask in layoff_fits:
                reachable |= mask
            for i in card_numbers(hand & reachable):
                bit = 1 << i
                if may_remove(bit):
                    layoffs = _LAYOFFS[i]
                    result += [
                        layoffs[target] for target, mask in enumerate(layoff_fits) if mask & bit
                    ]
        if swap_fits:
            reachable = 0
            for mask in swap_fits:
                reachable |= mask
            # Card by card, then table meld by table meld: the encoding order.
            for i in card_numbers(hand & reachable):
                bit = 1 << i
                swaps = _SWAPS[i]
                result += [swaps[target] for target, mask in enumerate(swap_fits) if mask & bit]
        return tuple(result)

    def _fits(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per table meld, the cards that can be laid off on it and (with
        jokers) the cards that can take a joker's place; kept until the
        table changes."""
        fits = self._table_fits
        if fits is None:
            ace = self.rules.ace
            melds = [table_meld.meld for table_meld in self._table]
            layoffs = tuple(_layoff_fits(meld, ace) for meld in melds)
            swaps = tuple(_swap_fits(meld) for meld in melds) if self.rules.jokers else ()
            fits = self._table_fits = (layoffs, swaps)
        return fits

    def _discard_allowed(self, hand: int) -> bool:
        # All-seven deals: once going down this turn, only the last card goes.
        return not (self._all_seven and self._played_turn and hand.bit_count() != 1)

    def _meld_allowed(self) -> bool:
        return self.rules.multiple_melds or self._all_seven or self._melds_turn == 0

    def _coverable(self, left: int) -> bool:
        melds = [mask for _, mask in _meld_numbers(self._space, left)]
        return _coverage(melds, self.rules.last_discard_required)(left)

    def _removal_problem(self, hand: int, removed: int) -> Message | None:
        """Why cards ``removed`` may not leave the hand by meld or lay-off."""
        left = hand & ~removed
        if not left:
            if self.rules.last_discard_required:
                return Message.of("action.must_discard_out")
            return None
        taken = self._taken
        if taken is not None and left == 1 << taken:
            return Message.of("action.taken_discard_last", card=ALL_CARDS[taken].pretty())
        if self._all_seven and not self._coverable(left):
            return Message.of("action.all_seven")
        return None

    # -- applying -----------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Do ``action`` for the seat to play (``seat``, if given, must be that seat).

        Raises :class:`IllegalActionError` (the reason in ``.reason`` when it
        has a catalogue message); the deal is then exactly as before.
        """
        if seat is not None and seat != self._seat and self.phase is not _PHASE_OVER:
            raise _illegal("action.not_your_turn", seat=str(self._seat))
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        # Fast path: an action taken from legal_actions() (interned) is found
        # by identity, without the dataclass's slow equality.
        for candidate in legal:
            if candidate is action:
                break
        else:
            if self.phase is _PHASE_OVER:
                raise _illegal("action.deal_over")
            if not isinstance(action, Action):
                action = parse_action(action)
            if action.kind is _KIND_MELD and self.phase is _PHASE_MELD:
                action = self._space.normalize(action)
            if action not in legal:
                raise self._why_illegal(action)
            action = legal[legal.index(action)]
        seat = self._seat
        self.history.append((seat, action))
        self._legal = None
        kind = action.kind
        # The two commonest kinds first, the rest by the dispatcher.
        if kind is _KIND_DISCARD:
            self._discard(seat, action.cards[0].index)
        elif kind is _KIND_DRAW_STOCK:
            self._draw_stock(seat)
        else:
            self._do(seat, kind, action)

    def _do(self, seat: int, kind: ActionKind, action: Action) -> None:
        if kind is _KIND_DRAW_DISCARD:
            self._draw_discard(seat)
        elif kind is _KIND_KNOCK:
            self._knock(seat, action.cards[0].index)
        elif kind is _KIND_MELD:
            self._meld(seat, action)
        elif kind is _KIND_LAYOFF:
            self._layoff(seat, action)
        elif kind is _KIND_SWAP_JOKER:
            self._swap(seat, action)
        elif kind is _KIND_UNDO:
            self._undo_last(seat)
        else:
            self._decline(seat)

    def _draw_stock(self, seat: int) -> None:
        card = self._stock.pop()
        self._hands[seat] |= 1 << card
        if self._stock_public:
            self._public[seat] |= 1 << card
        self._drawn = card
        self._undo.clear()
        self.phase = self._play_phase

    def _draw_discard(self, seat: int) -> None:
        card = self._pile.pop()
        bit = 1 << card
        self._hands[seat] |= bit
        self._public[seat] |= bit
        self._taken_held[seat] |= bit
        self._drawn = self._taken = card
        self._undo.append(("draw", card))
        self.phase = self._play_phase

    def _discard(self, seat: int, card: int) -> None:
        bit = 1 << card
        self._hands[seat] &= ~bit
        if self._public[seat] & bit:  # taken discards are a part of the public cards
            self._public[seat] &= ~bit
            self._taken_held[seat] &= ~bit
        self._pile.append(card)
        rules = self.rules
        family = rules.family
        if family == "melding":
            if not self._hands[seat]:
                self._go_out(seat)
                return
        elif family == "gin" and len(self._stock) <= rules.wall_cards:
            self._finish(EndReason.WALL, "draw")
            return
        if self._played_turn:
            self._played[seat] = True
        seat += 1
        self._start_turn(seat if seat < self.players else 0)

    def _knock(self, seat: int, card: int) -> None:
        self._hands[seat] &= ~(1 << card)
        self._knock_card = card
        self._finish(EndReason.KNOCK, "showdown", seat)

    def _snapshot(self, seat: int) -> _Snapshot:
        return UndoSnapshot(
            self._hands[seat],
            tuple(self._table),
            self._own_meld[seat],
            self._melds_turn,
            self._played_turn,
            self._public[seat],
            self._taken_held[seat],
        )

    def _remove_to_table(self, seat: int, mask: int) -> None:
        self._hands[seat] &= ~mask
        self._public[seat] &= ~mask
        self._taken_held[seat] &= ~mask
        self._played_turn = True

    def _meld(self, seat: int, action: Action) -> None:
        self._undo.append(("table", self._snapshot(seat)))
        meld = _meld_of(action, self.rules)
        mask = 0
        for card in action.cards:
            mask |= card.bit
        self._table.append(TableMeld(seat, meld, (seat,) * len(meld.cards)))
        self._table_fits = None
        self._own_meld[seat] = True
        self._melds_turn += 1
        self._remove_to_table(seat, mask)
        self._after_table_play(seat)

    def _layoff(self, seat: int, action: Action) -> None:
        card = action.cards[0]
        target = action.target
        assert target is not None
        self._undo.append(("table", self._snapshot(seat)))
        old = self._table[target]
        extended = extend_meld(old.meld, card, self.rules)
        assert extended is not None
        who = dict(zip(old.meld.cards, old.laid_by, strict=True))
        who[card] = seat
        self._table[target] = TableMeld(old.owner, extended, tuple(who[c] for c in extended.cards))
        self._table_fits = None
        self._remove_to_table(seat, card.bit)
        self._after_table_play(seat)

    def _swap(self, seat: int, action: Action) -> None:
        card = action.cards[0]
        target = action.target
        assert target is not None
        self._undo.append(("table", self._snapshot(seat)))
        old = self._table[target]
        swapped = swap_joker(old.meld, card)
        assert swapped is not None
        meld, joker = swapped
        who = dict(zip(old.meld.cards, old.laid_by, strict=True))
        who[card] = seat
        self._table[target] = TableMeld(old.owner, meld, tuple(who[c] for c in meld.cards))
        self._table_fits = None
        self._remove_to_table(seat, card.bit)
        self._hands[seat] |= joker.bit
        self._public[seat] |= joker.bit

    def _after_table_play(self, seat: int) -> None:
        if not self._hands[seat]:
            self._go_out(seat)

    def _undo_last(self, seat: int) -> None:
        self._undos_turn += 1
        kind, saved = self._undo.pop()
        if kind == "draw":
            assert isinstance(saved, int)
            bit = 1 << saved
            self._hands[seat] &= ~bit
            self._public[seat] &= ~bit
            self._taken_held[seat] &= ~bit
            self._pile.append(saved)
            self._drawn = self._taken = None
            self.phase = _PHASE_DRAW if self._stock else _PHASE_DECLINE
            return
        assert isinstance(saved, tuple)
        hand, table, own_meld, melds_turn, played_turn, public, held = saved
        # Cards taken back from the table were seen by everyone: public now.
        returned = hand & ~self._hands[seat]
        self._hands[seat] = hand
        self._table = list(table)
        self._table_fits = None
        self._own_meld[seat] = own_meld
        self._melds_turn = melds_turn
        self._played_turn = played_turn
        self._public[seat] = public | returned
        self._taken_held[seat] = held

    def _decline(self, seat: int) -> None:
        rules = self.rules
        if rules.family == "knock":
            self._finish(EndReason.DECLINE, "showdown")
            return
        if rules.family == "gin":
            self._finish(EndReason.DECLINE, "draw")
            return
        if rules.stock_refill == "on_decline":
            self._exhaustions += 1
            if self._stock_ends_deal():
                self._finish(EndReason.EXHAUSTED, "no_winner")
                return
            self._refill()
        if not self._stock:
            self._finish(EndReason.EXHAUSTED, "no_winner")
            return
        self._draw_stock(seat)

    def _stock_ends_deal(self) -> bool:
        rules = self.rules
        if rules.stock_end == "block":
            return True
        return rules.stock_end == "reuse_limit" and self._exhaustions >= rules.reuse_limit

    def _refill(self) -> None:
        """Turn the discard pile over as the new stock (docs/rules/rummy.md §8, basic.md §1)."""
        pile = self._pile
        keep = pile[-1:] if self.rules.recycle_keeps_top else []
        recycled = pile[:-1] if keep else pile[:]
        # Turned face down, the pile's bottom card becomes the stock's top.
        stock = recycled[::-1]
        shuffled = self.rules.stock_end == "shuffle"
        if shuffled:
            if self._rng is None:
                # Seeded from the deck, so that a replay shuffles the same way.
                self._rng = random.Random("pyrummy-refill " + " ".join(map(str, self.deck)))
            self._rng.shuffle(stock)
        self._stock = stock
        self._pile = keep
        self._stock_recycled = True
        self._stock_public = not shuffled

    def _start_turn(self, seat: int, first: bool = False) -> None:
        self._seat = seat
        self.turn = turn = self.turn + 1
        self._drawn = self._taken = None
        if self._undo:
            self._undo.clear()
        self._melds_turn = 0
        self._undos_turn = 0
        self._played_turn = False
        rules = self.rules
        if turn > rules.turn_cap:
            self._end_by_cap()
        elif first and rules.starter_extra_card:
            self.phase = self._play_phase
        elif self._stock:
            self.phase = _PHASE_DRAW
        elif rules.family == "melding" and rules.stock_refill == "automatic":
            self._exhaustions += 1
            if self._stock_ends_deal():
                self._finish(EndReason.EXHAUSTED, "no_winner")
                return
            self._refill()
            self.phase = _PHASE_DRAW if self._stock else _PHASE_DECLINE
        else:
            self.phase = _PHASE_DECLINE

    def _end_by_cap(self) -> None:
        family = self.rules.family
        if family == "knock":
            self._finish(EndReason.CAP, "showdown")
        elif family == "gin":
            self._finish(EndReason.CAP, "draw")
        else:
            self._finish(EndReason.CAP, "no_winner")

    def _go_out(self, seat: int) -> None:
        went_rummy = not self._played[seat]
        self._played[seat] = True
        self._finish(EndReason.OUT, "out", seat, went_rummy)

    def _finish(
        self, reason: EndReason, how: str, seat: int | None = None, went_rummy: bool = False
    ) -> None:
        # Settled when first asked for (random play and search often never ask).
        self._pending = (how, seat, went_rummy)
        self.phase = _PHASE_OVER
        self.is_over = True
        self._end = reason
        self._undo.clear()

    @property
    def settlement(self) -> Settlement | None:
        """The deal's result, None until it is over."""
        result = self._settlement
        if result is None and self._pending is not None:
            result = self._settlement = self._settle_now(*self._pending)
        return result

    def _settle_now(self, how: str, seat: int | None, went_rummy: bool) -> Settlement:
        hands = self._hand_sets()
        rules = self.rules
        if how == "showdown":
            return settle(hands, seat, rules)
        if how == "draw":
            return settle_draw(hands, rules)
        if how == "no_winner":
            return settle_no_winner(hands, rules)
        assert seat is not None
        return settle_going_out(seat, hands, rules, went_rummy)

    def _hand_sets(self) -> list[CardSet]:
        return [CardSet(mask) for mask in self._hands]

    # -- why an action is illegal -------------------------------------------
    def _why_illegal(self, action: Action) -> IllegalActionError:
        problem = self._problem(action)
        if problem is None:
            problem = Message.of("action.not_legal", action=str(action))
        error = IllegalActionError(render(problem), reason=problem)
        return error

    def _problem(self, action: Action) -> Message | None:
        kind = action.kind
        phase = self.phase
        seat = self._seat
        hand = self._hands[seat]
        family = self.rules.family
        if kind is ActionKind.UNDO:
            if not self._undo:
                if self._drawn is not None and self._taken is None:
                    return Message.of("action.stock_draw_final")
                return Message.of("action.nothing_to_undo")
            return None
        if kind is ActionKind.DRAW_STOCK:
            if phase is Phase.DECLINE:
                return Message.of("action.stock_empty")
            if phase is not Phase.DRAW:
                return self._drew_already()
            return None
        if kind is ActionKind.DRAW_DISCARD:
            if phase not in (Phase.DRAW, Phase.DECLINE):
                return self._drew_already()
            return Message.of("action.discard_empty") if not self._pile else None
        if kind is ActionKind.DECLINE:
            return Message.of("action.decline_not_allowed") if phase is not Phase.DECLINE else None
        if phase in (Phase.DRAW, Phase.DECLINE):
            return Message.of("action.draw_first")
        card = action.cards[0] if action.cards else None
        if kind is ActionKind.KNOCK and family == "melding":
            return Message.of("action.no_knock")
        if family != "melding" and kind not in (ActionKind.DISCARD, ActionKind.KNOCK):
            return Message.of("action.layoff_not_allowed")
        if kind is ActionKind.MELD:
            return self._meld_problem(action, hand)
        if card is None or not hand >> card.index & 1:
            return Message.of("action.not_in_hand", card=show_cards(action.cards))
        if kind is ActionKind.DISCARD:
            if self._taken == card.index:
                return Message.of("action.taken_discard_back", card=card.pretty())
            if not self._discard_allowed(hand):
                return Message.of("action.all_seven")
            return None
        if kind is ActionKind.KNOCK:
            if self._taken == card.index:
                return Message.of("action.taken_discard_knock", card=card.pretty())
            if family == "gin":
                left = deadwood_of_mask(hand ^ card.bit)
                if left > self.rules.knock_limit:
                    return Message.of(
                        "action.knock_limit", limit=str(self.rules.knock_limit), deadwood=str(left)
                    )
            return None
        target = action.target
        if target is None or not 0 <= target < len(self._table):
            return Message.of("action.no_such_meld", target=str(target))
        meld = self._table[target].meld
        if kind is ActionKind.LAYOFF:
            if self.rules.layoff_after_own_meld and not self._own_meld[seat]:
                return Message.of("action.layoff_before_meld")
            if extend_meld(meld, card, self.rules) is None:
                return Message.of("action.layoff_no_fit", card=card.pretty(), meld=meld.pretty())
            return self._removal_problem(hand, card.bit)
        if not meld.jokers:
            return Message.of("action.no_joker", meld=meld.pretty())
        if swap_joker(meld, card) is None:
            return Message.of("action.joker_mismatch", card=card.pretty(), meld=meld.pretty())
        return None

    def _drew_already(self) -> Message:
        if self._drawn is None and self.rules.starter_extra_card and self.turn == 1:
            return Message.of("action.no_draw_first_turn")
        return Message.of("action.already_drew")

    def _meld_problem(self, action: Action, hand: int) -> Message | None:
        missing = [card for card in action.cards if not hand >> card.index & 1]
        if missing:
            return Message.of("action.not_in_hand", card=show_cards(missing))
        try:
            check_meld(action.cards, self.rules, run=action.run)
        except RummyError as exc:
            return Message.of("action.invalid_meld", reason=str(exc))
        if not self._meld_allowed():
            return Message.of("action.one_meld_per_turn")
        mask = 0
        for card in action.cards:
            mask |= card.bit
        return self._removal_problem(hand, mask)


# -- meld helpers ---------------------------------------------------------------


def _meld_of(action: Action, rules: Rules) -> Meld:
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
    return [ALL_CARDS[13 * suit + rank] for suit in range(4) if suit not in present]


def _layoff_fits(meld: Meld, ace: str) -> int:
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
        candidates = [ALL_CARDS[13 * suit + rank] for suit in range(4)]
    else:
        suit = meld.suit
        assert suit is not None
        candidates = list(ALL_CARDS[13 * suit : 13 * suit + 13])
    candidates += JOKERS
    mask = 0
    for card in candidates:
        if extend_meld(meld, card, rules) is not None:
            mask |= card.bit
    return mask


def _swap_fits(meld: Meld) -> int:
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


def _meld_numbers(space: ActionSpace, hand: int) -> list[tuple[int, int]]:
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
    return tuple((index[key], key[0]) for key in _joker_meld_keys(part, space.ace, runs))


@cache
def _set_numbers(space: ActionSpace) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per rank and per 4-bit pattern of the suits held: the sets without jokers."""
    index = space.meld_index
    table = []
    for rank in range(13):
        by_pattern = []
        for held in range(16):
            bits = [1 << (13 * suit + rank) for suit in range(4) if held >> suit & 1]
            masks = [sum(trio) for trio in combinations(bits, 3)]
            if len(bits) == 4:
                masks.append(sum(bits))
            by_pattern.append(tuple((index[(mask, ())], mask) for mask in masks))
        table.append(tuple(by_pattern))
    return tuple(table)


@lru_cache(maxsize=1 << 15)
def _run_numbers(space: ActionSpace, base: int, pattern: int) -> tuple[tuple[int, int], ...]:
    """The runs without jokers in one suit (``base`` its first card number)."""
    index = space.meld_index
    found = []
    for window in run_patterns(space.ace):
        if window & pattern == window:
            mask = window << base
            found.append((index[(mask, ())], mask))
    return tuple(found)


def _coverage(melds: list[int], need_one: bool) -> Callable[[int], bool]:
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


@lru_cache(maxsize=1 << 16)
def _joker_runs_in_suit(
    pattern: int, jokers: int, ace: str
) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Runs with 1..``jokers`` jokers and one real card or more in one suit
    holding ``pattern`` (13 bits):
    (ranks of the real cards used, ranks the jokers stand for in position
    order, number of jokers)."""
    found = []
    most = pattern.bit_count() + jokers
    for start, length in run_windows(ace):
        if length > most:
            continue
        ranks = [(start + i) % 13 for i in range(length)]
        held = [i for i, rank in enumerate(ranks) if pattern >> rank & 1]
        gaps = length - len(held)
        if gaps > jokers or not held:
            continue
        missing = [i for i in range(length) if not pattern >> ranks[i] & 1]
        # At least one real card stays in the run.
        for count in range(max(gaps, 1), min(jokers, length - 1) + 1):
            for extra in combinations(held, count - gaps):
                positions = sorted(missing + list(extra))
                reals = sum(1 << ranks[i] for i in held if i not in extra)
                found.append((reals, tuple(ranks[i] for i in positions), count))
    return tuple(found)


def _joker_meld_keys(hand: int, ace: str, runs: bool | None = None) -> list[MeldKey]:
    """Every meld with jokers (at least one real card) made of the hand's cards:
    only sets (``runs=False``), only runs (``True``) or both (``None``).

    Jokers are numbered in position order (X1 before X2): one action per
    placement of jokers, whichever joker goes where.
    """
    jokers = [i for i in range(N_STANDARD, N_STANDARD + 3) if hand >> i & 1]
    real = hand & _STANDARD_MASK
    keys: list[MeldKey] = []
    joker_sets = [
        [sum(1 << j for j in chosen) for chosen in combinations(jokers, count)]
        for count in range(4)
    ]
    for rank in range(13 if runs is not True else 0):
        present = [13 * suit + rank for suit in range(4) if real >> (13 * suit + rank) & 1]
        for reals in (1, 2, 3):
            for group in combinations(present, reals):
                group_mask = sum(1 << i for i in group)
                for count in range(max(1, 3 - reals), min(len(jokers), 4 - reals) + 1):
                    keys += [(group_mask | js, ()) for js in joker_sets[count]]
    if not jokers or runs is False:
        return keys
    for suit in range(4):
        pattern = real >> (13 * suit) & 0x1FFF
        if not pattern:
            continue
        base = 13 * suit
        for reals, stands, count in _joker_runs_in_suit(pattern, len(jokers), ace):
            shifted = reals << base
            stand_cards = tuple(base + rank for rank in stands)
            keys += [(shifted | js, stand_cards) for js in joker_sets[count]]
    return keys


# -- new deals -----------------------------------------------------------------


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
    the_rules = _as_rules(rules)
    count, order = _position_order(the_rules, hands, upcard, stock, dealer, players)
    used = set(order)
    rest = [index for index in range(the_rules.deck_size) if index not in used]
    if upcard is None:
        order.insert(_cards_in_hands(the_rules, count), rest.pop(0))
    return [ALL_CARDS[index] for index in order + rest]


def _cards_in_hands(rules: Rules, players: int) -> int:
    return rules.hand_size(players) * players + int(rules.starter_extra_card)


_WIDTHS: Final = tuple(n.bit_length() for n in range(N_STANDARD + 4))


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Fisher-Yates with ``getrandbits`` rejection sampling: the very steps of
    :meth:`random.Random.shuffle`, written out so seeded decks never depend on
    the library's internals (and a little faster)."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        width = _WIDTHS[bound]
        j = getrandbits(width)
        while j >= bound:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]


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
    **options: object,
) -> Deal:
    """A freshly shuffled and dealt deal, or a deal set up from given hands.

    ``seed=None`` (a live deal) shuffles from :class:`secrets.SystemRandom`;
    a seed (simulations) shuffles with ``random.Random(seed)``, so the same
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
    the_rules = _as_rules(rules, dict(options))
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
    used = set(placed)
    rest = [index for index in range(the_rules.deck_size) if index not in used]
    if seed is None:
        secrets.SystemRandom().shuffle(rest)
    else:
        _shuffle(rest, random.Random(seed))
    if placed and upcard is None:
        # The upcard comes from the shuffled rest: it goes before the stock given.
        placed.insert(_cards_in_hands(the_rules, players), rest.pop(0))
    order = placed + rest
    deal = Deal._blank(the_rules, players, dealer, deal_number)
    deal.deck = tuple(map(ALL_CARDS.__getitem__, order))
    deal.seed = seed if hands is None else None
    deal._deal_out(order)
    return deal
