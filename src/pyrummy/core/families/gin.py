"""Gin's family: a knock within the deadwood limit; the wall ends the deal drawn."""

from __future__ import annotations

from typing import Final

from pyrummy.core.cards import N_STANDARD
from pyrummy.core.families.base import FamilyPolicy
from pyrummy.core.messages import Message
from pyrummy.core.patterns import SUIT_BITS, card_numbers
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask, deadwood_without_each
from pyrummy.core.suit_tables import pattern_values, suit_deadwood_table

__all__ = ["GinFamily"]

# Gin is played with the ace low (Rules checks it): its run-only table and
# the value of each suit pattern (deadwood_floor's tables).
_RUN_DEADWOOD: Final = suit_deadwood_table("low")
_PATTERN_VALUES: Final = pattern_values("low")


class GinFamily(FamilyPolicy):
    """Gin: a knock leaving ``rules.knock_limit`` deadwood or less; gin and
    undercut bonuses; the wall (``rules.wall_cards`` left) ends the deal drawn."""

    __slots__ = ()
    name = "gin"
    nobody_out = "draw"
    showdown = "gin"
    wall = True
    # docs/rules/gin-standard.md: the menu names the bonuses, the table its
    # offer and Oklahoma, from the rules themselves.
    shown_options = (
        "knock_limit",
        "gin_bonus",
        "undercut_bonus",
        "big_gin_bonus",
        "layoff_on_gin",
        "tie_undercuts",
        "up_card_offer",
        "oklahoma",
        "game_bonus",
        "line_bonus",
        "shutout_double",
        "discard_taken",
        "pile_draw_limit",
        "wall_knock",
    )

    def knock_cards(self, hand: int, options: int, rules: Rules) -> int:
        limit = rules.knock_limit
        # Giving back a card lowers the deadwood by 10 at most (15: a joker),
        # so a hand whose deadwood (or a floor of it) exceeds the limit by
        # more cannot knock: most hands, decided by four table reads.
        if hand >> N_STANDARD:
            if deadwood_of_mask(hand) - 15 > limit:  # jokers (an option): the solver
                return 0
        else:
            s = hand & SUIT_BITS
            h = hand >> 13 & SUIT_BITS
            d = hand >> 26 & SUIT_BITS
            c = hand >> 39  # no jokers above the clubs here
            ranks = (s & h & (d | c)) | ((s | h) & d & c)
            if not ranks:  # no set can form: only runs, four table reads
                table = _RUN_DEADWOOD
                if table[s] + table[h] + table[d] + table[c] - 10 > limit:
                    return 0
            else:
                # A rank in three suits (a third of the hands): the floor of
                # deadwood_floor, inlined, then the solver only when the
                # floor does not decide (about 1 such hand in 25).
                table = _RUN_DEADWOOD
                values = _PATTERN_VALUES
                floor = 0
                left = table[s] - values[s & ranks]
                if left > 0:
                    floor = left
                left = table[h] - values[h & ranks]
                if left > 0:
                    floor += left
                left = table[d] - values[d & ranks]
                if left > 0:
                    floor += left
                left = table[c] - values[c & ranks]
                if left > 0:
                    floor += left
                if floor - 10 > limit or deadwood_of_mask(hand) - 10 > limit:
                    return 0
        # Close to knocking: the deadwood without each card, in one pass.
        without = deadwood_without_each(hand)
        knocks = 0
        for i in card_numbers(options):
            if without[i] <= limit:
                knocks |= 1 << i
        return knocks

    def knock_problem(self, hand: int, card: int, rules: Rules) -> Message | None:
        left = deadwood_of_mask(hand & ~(1 << card))
        if left > rules.knock_limit:
            return Message.of(
                "action.knock_limit", limit=str(rules.knock_limit), deadwood=str(left)
            )
        return None

    def scores_can_fall(self, rules: Rules) -> bool:
        return False
