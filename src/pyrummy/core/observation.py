"""What one seat may know of a deal.

An :class:`Observation` is built for one seat (or ``None``, a spectator) by
:meth:`pyrummy.core.deal.Deal.observe` (:mod:`pyrummy.core.deal.views`). It holds the seat's own hand and
every public fact, never another hand's hidden cards, the stock order (unless
the stock is the discard pile turned over unshuffled, which everybody saw),
the knock card before the deal is over, or the deal's random state.
Visibility follows who owns a card, not the phase: once the deal is over
every hand and the knock card are shown (``revealed_hands``, ``knock_card``).

>>> from pyrummy.core.deal import new_deal
>>> deal = new_deal("gin", players=2, seed=4)
>>> seen = deal.observe(1)
>>> len(seen.hand), seen.hand_sizes, seen.stock_count, seen.revealed_hands
(10, (10, 10), 31, None)
>>> deal.observe(None).hand
CardSet('')

Re-deals consistent with an observation are :func:`pyrummy.core.sampling.sample_deal`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final, Protocol

from pyrummy.core.actions import Action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import Settlement
from pyrummy.core.table import PublicUndo, TableMeld

_CARD_NAMES: Final = tuple(str(card) for card in ALL_CARDS)


@lru_cache(maxsize=64)
def _option_text(rules: Rules) -> str:
    """``rules.option_text()``, cached: every view sent to a client has it."""
    return rules.option_text()


class Observable(Protocol):
    """What a view is taken of: a :class:`~pyrummy.core.deal.Deal` (or a
    match, for its current deal)."""

    def observe(self, seat: int | None) -> Observation: ...


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal (immutable).

    Fields: ``seat`` (None: spectator), ``rules``, ``players``, ``dealer``,
    ``deal_number``, ``phase``, ``current_seat`` (None once over), ``turn``;
    ``hand`` (own cards; empty for a spectator), ``hand_sizes`` (every
    seat), ``stock_count``, ``discard_pile`` (bottom to top), ``table``
    (:class:`TableMeld` in the order laid, numbered from 0 for lay-offs);
    ``taken_discards`` (per seat: cards taken from the discard pile and still
    in that hand), ``known_cards`` (per seat: every card known to everybody
    to be in that hand: taken discards, jokers freed by an exchange, cards
    taken back from the table by undo, cards drawn from a stock whose order
    is public); ``drawn_card`` (the observer's own draw this turn, when the
    observer is the seat to play); ``taken_discard`` (the card the seat to
    play took from the pile this turn: public); ``melded`` (per seat: has
    put cards down in this deal); ``exhaustions`` (times the stock ran out);
    ``public_stock`` (the stock, top card first, when its order is public:
    the pile turned over unshuffled; else None) and ``recycled_stock`` (the
    stock was rebuilt from the pile, shuffled or not); ``history`` (every
    action so far, ``(seat, action)``: none hides anything); ``legal_actions``
    (for the seat to play, when that is the observer); ``scores`` (match
    totals, if a match passes them); ``is_over``; once over
    ``revealed_hands``, ``knock_card`` and ``settlement``. ``up_card`` is the
    deal's first up-card (public) and ``offer_passes`` how many players have
    passed it (standard gin's offer). ``rules`` are the rules in force in the
    deal (:meth:`Rules.in_force <pyrummy.core.rules.Rules.in_force>`: under
    Oklahoma the knock limit is the up-card's value). For the seat to
    play: ``melds_this_turn``, ``undos_this_turn`` and ``undo_entries`` (the
    steps undo would take back, in public terms); ``end_reason`` once over.
    Who has a meld of their own on the table and who put cards down in an
    earlier turn follow from ``table`` and ``history``
    (:func:`pyrummy.core.sampling.sample_deal` reads them there).

    :meth:`to_dict` is the JSON form the web server sends::

        {"seat": 1 | null, "rules": "gin", "options": "", "players": 2,
         "dealer": 0, "deal_number": 1, "phase": "draw", "current_seat": 1,
         "turn": 1, "hand": ["AS", ...], "hand_sizes": [10, 10],
         "stock_count": 31, "discard_pile": ["7H"],
         "table": [{"owner": 0, "kind": "run", "cards": [...],
                    "represents": [...], "laid_by": [0, 0, 0]}],
         "taken_discards": [[...], [...]], "known_cards": [[...], [...]],
         "drawn_card": "KD" | null, "taken_discard": "7H" | null,
         "melded": [false, false], "exhaustions": 0,
         "public_stock": [...] | null, "recycled_stock": false,
         "history": [[1, "draw stock"], ...], "legal_actions": ["discard AS", ...],
         "scores": ["3", "-1/2"] | null, "is_over": false,
         "revealed_hands": [[...], [...]] | null, "knock_card": "7H" | null,
         "settlement": {...} | null}

    and, with standard gin's offer or Oklahoma, ``"up_card": "7H"``,
    ``"offer_passes": 0`` and ``"knock_limit": 7`` (the limit in force).
    """

    seat: int | None
    rules: Rules
    players: int
    dealer: int
    deal_number: int
    phase: Phase
    current_seat: int | None
    turn: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    stock_count: int
    discard_pile: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    taken_discards: tuple[tuple[Card, ...], ...]
    known_cards: tuple[CardSet, ...]
    drawn_card: Card | None
    taken_discard: Card | None
    melded: tuple[bool, ...]
    exhaustions: int
    public_stock: tuple[Card, ...] | None
    recycled_stock: bool
    history: tuple[tuple[int, Action], ...]
    legal_actions: tuple[Action, ...]
    is_over: bool
    revealed_hands: tuple[CardSet, ...] | None
    knock_card: Card | None
    settlement: Settlement | None
    melds_this_turn: int = 0
    undos_this_turn: int = 0
    undo_entries: tuple[PublicUndo, ...] = ()
    end_reason: EndReason = EndReason.ONGOING
    scores: tuple[Fraction, ...] | None = None
    up_card: Card | None = None
    offer_passes: int = 0

    @classmethod
    def of(cls, deal: Observable, seat: int | None) -> Observation:
        """``seat``'s view of ``deal``: the same as ``deal.observe(seat)``
        (:mod:`pyrummy.core.deal.views` builds it)."""
        return deal.observe(seat)

    def to_dict(self) -> dict[str, object]:
        """The JSON-able form (shape in the class docstring)."""

        def names(cards: tuple[Card, ...] | CardSet) -> list[str]:
            return [_CARD_NAMES[card.index] for card in cards]

        result: dict[str, object] = {
            "seat": self.seat,
            "rules": self.rules.name,
            "options": _option_text(self.rules),
            "players": self.players,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "phase": self.phase.value,
            "current_seat": self.current_seat,
            "turn": self.turn,
            "hand": names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "stock_count": self.stock_count,
            "discard_pile": names(self.discard_pile),
            "table": [meld.to_dict() for meld in self.table],
            "taken_discards": [names(cards) for cards in self.taken_discards],
            "known_cards": [names(cards) for cards in self.known_cards],
            "drawn_card": None if self.drawn_card is None else str(self.drawn_card),
            "taken_discard": None if self.taken_discard is None else str(self.taken_discard),
            "melded": list(self.melded),
            "exhaustions": self.exhaustions,
            "public_stock": None if self.public_stock is None else names(self.public_stock),
            "recycled_stock": self.recycled_stock,
            "history": [[seat, str(action)] for seat, action in self.history],
            "legal_actions": [str(action) for action in self.legal_actions],
            "scores": None if self.scores is None else [str(s) for s in self.scores],
            "is_over": self.is_over,
            "revealed_hands": (
                None if self.revealed_hands is None else [names(h) for h in self.revealed_hands]
            ),
            "knock_card": None if self.knock_card is None else str(self.knock_card),
            "settlement": None if self.settlement is None else self.settlement.to_dict(),
        }
        rules = self.rules
        if rules.up_card_offer or rules.oklahoma:
            # Standard gin only: the other games' JSON stays as it was.
            result["up_card"] = None if self.up_card is None else str(self.up_card)
            result["offer_passes"] = self.offer_passes
            result["knock_limit"] = rules.knock_limit
        return result

    def unseen_cards(self) -> CardSet:
        """Cards whose place the observer does not know (other hands or the stock)."""
        known = self.hand.mask
        for card in self.discard_pile:
            known |= card.bit
        for table_meld in self.table:
            for card in table_meld.meld.cards:
                known |= card.bit
        for cards in self.known_cards:
            known |= cards.mask
        if self.public_stock is not None:
            for card in self.public_stock:
                known |= card.bit
        if self.knock_card is not None:
            known |= self.knock_card.bit
        for cards in self.revealed_hands or ():
            known |= cards.mask
        return CardSet(((1 << self.rules.deck_size) - 1) & ~known)


__all__ = ["Observable", "Observation", "PublicUndo", "TableMeld"]
