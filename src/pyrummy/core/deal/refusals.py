"""Why an action is refused: the reason, as a catalogue message.

:meth:`Deal.apply <pyrummy.core.deal.Deal.apply>` checks an action against
the legal list; only a refused action comes here, to be explained (the
phase, the hand, the taken discard, the family's knock rule, the table),
so the explanations cost nothing on the hot path.
"""

from __future__ import annotations

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal.legal import LegalActions
from pyrummy.core.errors import IllegalActionError, RummyError
from pyrummy.core.melds import check_meld, extend_meld, swap_joker
from pyrummy.core.messages import Message, render, show_cards
from pyrummy.core.phases import Phase

__all__ = ["Refusals", "illegal"]


def illegal(key: str, **params: str) -> IllegalActionError:
    """The error for catalogue message ``key``."""
    message = Message.of(key, **params)
    return IllegalActionError(render(message), reason=message)


class Refusals(LegalActions):
    """The reasons for refusing actions (a part of :class:`~pyrummy.core.deal.Deal`)."""

    __slots__ = ()

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
        policy = self._policy
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
        if kind is ActionKind.KNOCK and not policy.knocks:
            return Message.of("action.no_knock")
        if not policy.table_play and kind not in (ActionKind.DISCARD, ActionKind.KNOCK):
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
            return policy.knock_problem(hand, card.index, self.rules)
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
