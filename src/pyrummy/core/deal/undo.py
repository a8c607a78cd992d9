"""Undo: taking back the current turn's steps, latest first.

The steps that may be taken back are a draw from the discard pile (its card
goes back on the pile) and, in the melding games, each meld, lay-off and
joker exchange (the hand, the table and the turn's flags as they were: an
:class:`~pyrummy.core.deal.state.UndoSnapshot`). A stock draw is final.
Undo is legal while the stack is not empty (listed first among the play
phase's actions, by :mod:`~pyrummy.core.deal.discard` and
:mod:`~pyrummy.core.deal.table_play`).
"""

from __future__ import annotations

from pyrummy.core.cards import ALL_CARDS, CardSet
from pyrummy.core.deal.state import DealState, UndoSnapshot
from pyrummy.core.deal.tables import PHASE_DECLINE, PHASE_DRAW, PHASE_OFFER
from pyrummy.core.deal.turns import offer_turn
from pyrummy.core.messages import Message
from pyrummy.core.table import PublicUndo

__all__ = ["problem", "public_undo", "save_table", "undo_last"]


def problem(deal: DealState) -> Message | None:
    """Why undo is refused, if it is."""
    if not deal._undo:
        if deal._drawn is not None and deal._taken is None:
            return Message.of("action.stock_draw_final")
        return Message.of("action.nothing_to_undo")
    return None


def save_table(deal: DealState, seat: int) -> None:
    """Save what a table play changes (``seat``'s hand, the table, the
    turn's flags), for undo to restore."""
    deal._undo.append(
        (
            "table",
            UndoSnapshot(
                deal._hands[seat],
                tuple(deal._table),
                deal._own_meld[seat],
                deal._melds_turn,
                deal._played_turn,
                deal._public[seat],
                deal._taken_held[seat],
            ),
        )
    )


def undo_last(deal: DealState, seat: int) -> None:
    """Take back the turn's latest step."""
    deal._undos_turn += 1
    kind, saved = deal._undo.pop()
    if kind == "draw":
        assert isinstance(saved, int)
        bit = 1 << saved
        deal._hands[seat] &= ~bit
        deal._public[seat] &= ~bit
        deal._taken_held[seat] &= ~bit
        deal._pile.append(saved)
        deal._drawn = deal._taken = None
        # Back to the phase the card was taken in: the up-card's offer, a
        # draw, or the wall's (or an empty stock's) decline.
        if offer_turn(deal):
            deal.phase = PHASE_OFFER
        elif deal._stock and not deal._at_wall:
            deal.phase = PHASE_DRAW
        else:
            deal.phase = PHASE_DECLINE
        return
    assert isinstance(saved, tuple)
    hand, table, own_meld, melds_turn, played_turn, public, held = saved
    # Cards taken back from the table were seen by everyone: public now.
    returned = hand & ~deal._hands[seat]
    deal._hands[seat] = hand
    deal._table = list(table)
    deal._table_fits = None
    deal._own_meld[seat] = own_meld
    deal._melds_turn = melds_turn
    deal._played_turn = played_turn
    deal._public[seat] = public | returned
    deal._taken_held[seat] = held


def public_undo(deal: DealState) -> tuple[PublicUndo, ...]:
    """The undo stack in public terms (see :class:`~pyrummy.core.table.PublicUndo`)."""
    if not deal._undo:
        return ()
    hand = deal._hands[deal._seat]
    entries = []
    for kind, saved in deal._undo:
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
