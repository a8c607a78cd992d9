"""One deal of any preset as an explicit state machine (docs/rules/).

A :class:`Deal` is in one :class:`~pyrummy.core.phases.Phase` at a time;
:meth:`Deal.legal_actions` lists what the seat to play may do (sorted by the
integer encoding of :mod:`pyrummy.core.actions`, no repeats) and
:meth:`Deal.apply` does one of them, or raises
:class:`~pyrummy.core.errors.IllegalActionError` with the reason and changes
nothing.

The package is split by job: :mod:`~pyrummy.core.deal.state` declares the
fields, :mod:`~pyrummy.core.deal.legal` lists the legal actions phase by
phase, :mod:`~pyrummy.core.deal.transitions` applies them,
:mod:`~pyrummy.core.deal.refusals` explains refusals,
:mod:`~pyrummy.core.deal.families` holds what the game families do
differently, :mod:`~pyrummy.core.deal.meld_search` finds melds as numbers
and masks, and :mod:`~pyrummy.core.deal.dealing` deals (``deck[0]`` first,
docs/rules/common.md §5).

>>> from pyrummy.core.deal import new_deal
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
  :func:`~pyrummy.core.settlement.settle_no_winner`; gin: a draw).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final, NoReturn, cast

from pyrummy.core.actions import ActionSpace, action_space
from pyrummy.core.cards import ALL_CARDS, Card, CardSet, parse_card_list
from pyrummy.core.deal.families import family_of
from pyrummy.core.deal.state import PublicUndo, TableMeld, make_copier
from pyrummy.core.deal.transitions import Transitions
from pyrummy.core.errors import RulesError, RummyError
from pyrummy.core.patterns import CARD_BITS
from pyrummy.core.phases import EndReason
from pyrummy.core.rules import Rules, find_rules

if TYPE_CHECKING:  # typing only: observation and record sit above this module
    from pyrummy.core.observation import Observation

__all__ = ["as_rules"]  # Deal, DealViews, DEAL_VIEWS: public in pyrummy.core.deal


def as_rules(rules: Rules | str, options: dict[str, object] | None = None) -> Rules:
    """``rules`` as :class:`Rules` (a preset's name looked up), with ``options``."""
    if isinstance(rules, Rules):
        return rules.with_options(**options) if options else rules
    return find_rules(rules, **(options or {}))


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


class Deal(Transitions):
    """One deal: the full state, legal actions and their effects.

    Full state is open here (:meth:`hands`, :attr:`deck`) for tests, replay
    and the table manager; a seat sees only :meth:`observe`. The fields are
    declared once in :class:`~pyrummy.core.deal.state.DealState`; copies
    (:meth:`clone`) and pickles follow that declaration.
    """

    _views: ClassVar[DealViews] = DEAL_VIEWS

    __slots__ = ()

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
        the_rules = as_rules(rules)
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
        deal._start_blank()
        deal._seat = (dealer + 1) % players
        deal._derive()
        return deal

    def _derive(self) -> None:
        rules = self.rules
        policy = self._policy = family_of(rules)
        self._space = action_space(rules)
        self._play_phase = policy.play_phase
        self._wall_stock = rules.wall_cards if policy.wall else -1
        self._all_seven = policy.all_seven(rules, self.deal_number)

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
                mask |= CARD_BITS[index]
            hands[(starter + offset) % players] = mask
        position = size * players
        if rules.starter_extra_card:
            self._hands[starter] |= CARD_BITS[order[position]]
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
        return cast("Deal", _copy_deal(self))

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


_copy_deal: Final = make_copier(Deal)
