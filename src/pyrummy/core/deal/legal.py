"""The legal actions of a deal, phase by phase (as OpenSpiel lists them).

Draw and decline phases: draw from the stock or the pile, or decline. The
discard phase (knock, gin): discards, and the family's knocks. The meld
phase (melding presets): undo, discards, melds, lay-offs, joker exchanges,
each filtered by the rulings of the taken discard and all-seven deals.
Lists are tuples of interned actions, cached until the state changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyrummy.core.actions import UNDO, Action
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal.meld_search import coverage, layoff_fits, meld_numbers, swap_fits
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.tables import (
    DECLINE_BOTH,
    DECLINE_ONLY,
    DISCARD_TABLES,
    DRAW_BOTH,
    DRAW_STOCK_ONLY,
    NO_ACTIONS,
    PHASE_DECLINE,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    card_actions,
    layoff_actions,
    swap_actions,
)
from pyrummy.core.messages import Message
from pyrummy.core.patterns import WITHOUT_CARD, card_numbers

__all__ = ["LegalActions"]


class LegalActions(DealState):
    """The legal actions of every phase (a part of :class:`~pyrummy.core.deal.Deal`)."""

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every action the seat to play may take, sorted by number, no repeats."""
        legal = self._legal
        if legal is None:
            # The draw and discard phases (knock, gin) inlined: nearly every
            # step of those games, so a call less on the engine's hot loop.
            phase = self.phase
            if phase is PHASE_DRAW:
                legal = DRAW_BOTH if self._pile else DRAW_STOCK_ONLY
            elif phase is PHASE_DISCARD:
                hand = self._hands[self._seat]
                taken = self._taken
                options = hand if taken is None else hand & WITHOUT_CARD[taken]
                # The discards: card_actions(DISCARD_TABLES, options) inlined,
                # into one list (no intermediate tuples), the mask's bytes
                # read at once (no shifted copies of the mask).
                b0, b1, b2, b3, b4, b5, b6 = DISCARD_TABLES
                raw = options.to_bytes(7, "little")
                listed = [
                    *b0[raw[0]],
                    *b1[raw[1]],
                    *b2[raw[2]],
                    *b3[raw[3]],
                    *b4[raw[4]],
                    *b5[raw[5]],
                    *b6[raw[6]],
                ]
                if self._undo:
                    listed.insert(0, UNDO)
                knocks = self._policy.knock_actions(hand, options, self.rules)
                if knocks:
                    listed += knocks
                legal = listed
            elif phase is PHASE_MELD:
                legal = self._meld_phase_actions()
            elif phase is PHASE_DECLINE:
                legal = DECLINE_BOTH if self._pile else DECLINE_ONLY
            else:
                legal = NO_ACTIONS
            self._legal = legal
        return list(legal)

    def legal_action_ids(self) -> list[int]:
        """The numbers (:class:`~pyrummy.core.actions.ActionSpace`) of the legal actions."""
        encode = self._space.encode
        return [encode(action) for action in self.legal_actions()]

    def _legal_cached(self) -> Sequence[Action]:
        """The legal actions as cached (listed first if need be)."""
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal
            assert legal is not None
        return legal

    def _meld_phase_actions(self) -> tuple[Action, ...]:
        seat = self._seat
        hand = self._hands[seat]
        result: list[Action] = [UNDO] if self._undo else []
        if self._discard_allowed(hand):
            options = hand if self._taken is None else hand & ~(1 << self._taken)
            result += card_actions(DISCARD_TABLES, options)
        space = self._space
        melds_allowed = self._meld_allowed()  # always in all-seven deals
        melds = meld_numbers(space, hand) if melds_allowed else []
        # All-seven deals ask, for every candidate, whether the cards left
        # can still be melded: one memo for the whole hand answers them all.
        coverable = (
            coverage([mask for _, mask in melds], self.rules.last_discard_required)
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
                    layoffs = layoff_actions(i)
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
                swaps = swap_actions(i)
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
            layoffs = tuple(layoff_fits(meld, ace) for meld in melds)
            swaps = tuple(swap_fits(meld) for meld in melds) if self.rules.jokers else ()
            fits = self._table_fits = (layoffs, swaps)
        return fits

    def _discard_allowed(self, hand: int) -> bool:
        # All-seven deals: once going down this turn, only the last card goes.
        return not (self._all_seven and self._played_turn and hand.bit_count() != 1)

    def _meld_allowed(self) -> bool:
        return self.rules.multiple_melds or self._all_seven or self._melds_turn == 0

    def _coverable(self, left: int) -> bool:
        melds = [mask for _, mask in meld_numbers(self._space, left)]
        return coverage(melds, self.rules.last_discard_required)(left)

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
