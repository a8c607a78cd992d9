"""Re-deals consistent with what one seat knows, for search (determinization).

:func:`sample_deal` turns an :class:`~pyrummy.core.observation.Observation`
into a full :class:`~pyrummy.core.deal.Deal`: the seat's own hand and every
public fact stay put, the unseen cards are dealt again at random.

>>> import random
>>> from pyrummy.core.deal import new_deal
>>> deal = new_deal("gin", players=2, seed=4)
>>> seen = deal.observe(1)
>>> again = sample_deal(seen, random.Random(0))
>>> again.hands(1) == deal.hands(1), again.discard_pile == deal.discard_pile
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal import Deal, UndoSnapshot
from pyrummy.core.observation import Observation
from pyrummy.core.phases import EndReason, Phase

_TABLE_PLAYS: Final = frozenset({ActionKind.MELD, ActionKind.LAYOFF, ActionKind.SWAP_JOKER})
_TURN_ENDS: Final = frozenset({ActionKind.DISCARD, ActionKind.KNOCK})

__all__ = ["openspiel_counts", "put_down_from_history", "sample_deal"]


def sample_deal(seen: Observation, rng: random.Random) -> Deal:
    """A full deal consistent with what ``seen`` shows, for search.

    The observer's hand, the pile, the table and every card known to be
    in some hand stay put; the unseen cards are dealt at random to the
    other hands' unknown places and the stock. The sampled deal carries
    the same history and phase but no deck (it has no record).
    Limitation: after a *shuffled* rebuild of the stock, the stock may
    be sampled with cards that were in a hand at the time.
    """
    seat = seen.seat
    unseen = list(seen.unseen_cards())
    rng.shuffle(unseen)
    hands: list[int] = []
    for other in range(seen.players):
        if seen.revealed_hands is not None:
            hands.append(seen.revealed_hands[other].mask)
            continue
        if other == seat:
            hands.append(seen.hand.mask)
            continue
        mask = seen.known_cards[other].mask
        for _ in range(seen.hand_sizes[other] - mask.bit_count()):
            mask |= unseen.pop().bit
        hands.append(mask)
    if seen.public_stock is not None:
        stock = [card.index for card in reversed(seen.public_stock)]
    else:
        stock = [unseen.pop().index for _ in range(seen.stock_count)] if unseen else []
    knock = seen.knock_card.index if seen.knock_card is not None else None
    return _deal_in_position(seen, hands, stock, knock, random.Random(rng.random()))


def put_down_from_history(
    history: Sequence[tuple[int, Action]], players: int
) -> tuple[list[bool], bool]:
    """Who put cards on the table in a finished turn of theirs, and whether
    the turn in progress has (undo taken into account), from the public
    history alone.

    A turn's table plays that undo took back do not count: the actions
    undo can take back form a stack (a draw from the pile, melds, lay-offs,
    joker exchanges), cleared by a stock draw and at the end of the turn.

    >>> from pyrummy.core.deal import new_deal
    >>> deal = new_deal("rummy", hands=["AS 2S 3S 4C 5C 6C 7C 9D JD KS",
    ...                                 "7H 8H 9H 2C 3D 4S 5S 8C TC QC"], upcard="KD")
    >>> for action in ("draw stock", "meld 7H 8H 9H"):
    ...     deal.apply(action)
    >>> put_down_from_history(deal.history, 2)
    ([False, False], True)
    >>> deal.apply("discard 2C")
    >>> put_down_from_history(deal.history, 2)
    ([False, True], False)
    """
    played = [False] * players
    stack: list[bool] = []  # True: a table play; False: a draw from the pile
    for seat, action in history:
        kind = action.kind
        if kind in _TABLE_PLAYS:
            stack.append(True)
        elif kind is ActionKind.DRAW_DISCARD:
            stack.append(False)
        elif kind is ActionKind.UNDO:
            if stack:
                stack.pop()
        elif kind in _TURN_ENDS:
            if True in stack:
                played[seat] = True
            stack.clear()
        else:  # a stock draw or a decline: nothing before it can be undone
            stack.clear()
    return played, True in stack


def openspiel_counts(seen: Observation) -> tuple[int, bool]:
    """OpenSpiel's counts (``pile_draw_limit``, ``discard_taken``), read from the
    public history: the draws from the pile that a discard followed (the
    first up-card's offer not counted), and whether the last discard threw
    back the card taken that turn.

    >>> from pyrummy.core.deal import new_deal
    >>> deal = new_deal("gin-openspiel", hands=["AS 2S 3S 4H 5H 6H 7D 7S 7C 9C",
    ...     "AD 2D 3D 4C 5C 6C 8S 9S TS 2C"], upcard="QH", stock="KD", seed=1)
    >>> for step in ("draw discard", "discard QH", "draw discard", "discard 9C"):
    ...     deal.apply(step)
    >>> openspiel_counts(deal.observe(0))
    (1, False)
    """
    top = None if seen.up_card is None else seen.up_card.index
    offer = seen.rules.up_card_offer
    taken: int | None = None
    counted = False
    draws, thrown_back = 0, False
    for number, (_, action) in enumerate(seen.history):
        kind = action.kind
        if kind is ActionKind.DRAW_DISCARD:
            taken = top
            offered = (
                offer
                and number < seen.players
                and all(a.kind is ActionKind.DECLINE for _, a in seen.history[:number])
            )
            counted = not offered
        elif kind is ActionKind.DRAW_STOCK or kind is ActionKind.UNDO:
            taken = None
        elif kind is ActionKind.DISCARD:
            card = action.cards[0].index
            thrown_back = card == taken
            if taken is not None and counted:
                draws += 1
            top, taken = card, None
    return draws, thrown_back


def _deal_in_position(
    seen: Observation,
    hands: list[int],
    stock: list[int],
    knock_card: int | None,
    rng: random.Random,
) -> Deal:
    """A deal in the observed position with these hidden cards (see
    :func:`sample_deal`); ``stock`` is top card last."""
    deal = Deal._blank(seen.rules, seen.players, seen.dealer, seen.deal_number)
    deal.history = list(seen.history)
    deal.phase = seen.phase
    deal.is_over = seen.phase is Phase.OVER
    deal.turn = seen.turn
    deal._settlement = seen.settlement
    deal._hands = hands
    deal._stock = stock
    deal._pile = [card.index for card in seen.discard_pile]
    deal._table = list(seen.table)
    if seen.current_seat is not None:
        deal._seat = seen.current_seat
    deal._taken = None if seen.taken_discard is None else seen.taken_discard.index
    deal._drawn = deal._taken
    if seen.drawn_card is not None:
        deal._drawn = seen.drawn_card.index
    elif deal._drawn is None and seen.phase in (Phase.MELD, Phase.DISCARD):
        hidden = hands[deal._seat] & ~seen.known_cards[deal._seat].mask
        if hidden and not (seen.rules.starter_extra_card and seen.turn == 1):
            deal._drawn = (hidden & -hidden).bit_length() - 1
    deal._melds_turn = seen.melds_this_turn
    deal._undos_turn = seen.undos_this_turn
    deal._played, deal._played_turn = put_down_from_history(seen.history, seen.players)
    deal._own_meld = [False] * seen.players
    for table_meld in seen.table:  # a seat's own meld stays on the table (undo aside)
        deal._own_meld[table_meld.owner] = True
    deal._public = [cards.mask for cards in seen.known_cards]
    deal._taken_held = [sum(card.bit for card in cards) for cards in seen.taken_discards]
    deal._exhaustions = seen.exhaustions
    deal._stock_public = seen.public_stock is not None
    deal._stock_recycled = seen.recycled_stock
    deal._knock_card = knock_card
    if seen.up_card is not None:
        deal._up_card = seen.up_card.index
        deal._knock_rules = deal.rules.in_force(deal._up_card)
    deal._offer_passes = seen.offer_passes
    # Both passed the first up-card and nobody has drawn yet: the stock only.
    # (The turn after the passes; the history may hold a taken-back up-card too.)
    deal._stock_only = (
        seen.offer_passes >= seen.players
        and seen.turn == seen.players + 1
        and seen.phase is Phase.DRAW
    )
    rules = seen.rules
    if rules.discard_taken or rules.pile_draw_limit:
        deal._pile_draws, deal._thrown_back = openspiel_counts(seen)
    # The wall (wall_knock): the seat to play may take the discard to knock,
    # or has taken it (a turn's draw from the pile with the stock at the wall).
    deal._at_wall = (
        rules.wall_knock
        and 0 < len(stock) <= rules.wall_cards
        and (
            seen.phase is Phase.DECLINE or (seen.phase is Phase.DISCARD and deal._taken is not None)
        )
    )
    deal._rng = rng
    deal._end = EndReason(seen.end_reason)
    hand = hands[deal._seat]
    for entry in seen.undo_entries:
        if entry.kind == "draw":
            assert entry.card is not None
            deal._undo.append(("draw", entry.card.index))
        else:
            before = (hand | entry.hand_add.mask) & ~entry.hand_remove.mask
            deal._undo.append(
                (
                    entry.kind,
                    UndoSnapshot(
                        before,
                        entry.table,
                        entry.own_meld,
                        entry.melds_this_turn,
                        entry.played_this_turn,
                        entry.known.mask,
                        entry.taken.mask,
                    ),
                )
            )
    return deal
