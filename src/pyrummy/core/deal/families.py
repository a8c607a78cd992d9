"""What the game families do differently: one policy object per family.

The phases of a deal are the same in every preset; where the families part
(knock, gin, melding: :attr:`Rules.family <pyrummy.core.rules.Rules.family>`)
the deal asks its family's policy instead of comparing the family's name:

- the play phase after the draw (discard or knock; or meld, lay off, swap,
  discard) and whether a deal is an all-seven deal (Rotham);
- the knocks the hand may make, and why a knock is refused;
- whether a discard ends the deal (melding: the last card; gin: the wall:
  flags, read on the hot path without a call);
- declining at an empty stock, and a stock rebuilt at the start of a turn;
- how a deal that nobody won is settled (turn cap, empty stock).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from pyrummy.core.actions import KNOCKS, Action
from pyrummy.core.cards import N_STANDARD
from pyrummy.core.deal.tables import KNOCK_TABLES, NO_ACTIONS, card_actions
from pyrummy.core.messages import Message
from pyrummy.core.patterns import SUIT_BITS, card_numbers
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask, deadwood_without_each
from pyrummy.core.suit_tables import pattern_values, suit_deadwood_table

if TYPE_CHECKING:  # typing only: the transitions sit above the families
    from pyrummy.core.deal.transitions import Transitions

__all__ = ["FAMILIES", "FamilyPolicy", "GinFamily", "KnockFamily", "MeldingFamily", "family_of"]


class FamilyPolicy:
    """The rules of one game family that the phases of a deal call.

    Class attributes are read on the hot paths; methods do the rest.
    ``nobody_out`` is how a deal that ends with nobody out (turn cap, empty
    stock) is settled: ``showdown`` (knock), ``draw`` (gin) or
    ``no_winner`` (melding).
    """

    __slots__ = ()

    name: ClassVar[str]
    play_phase: ClassVar[Phase] = Phase.DISCARD
    nobody_out: ClassVar[str]
    #: Knocking is an action of this family.
    knocks: ClassVar[bool] = True
    #: Melds, lay-offs and joker exchanges are actions of this family.
    table_play: ClassVar[bool] = False
    #: A discard of the last card goes out (the deal then ends).
    out_by_discard: ClassVar[bool] = False
    #: A discard that leaves ``rules.wall_cards`` in the stock ends the deal drawn.
    wall: ClassVar[bool] = False

    def all_seven(self, rules: Rules, deal_number: int) -> bool:
        """Is deal ``deal_number`` an all-seven deal (Rotham)?"""
        return False

    def knock_actions(self, hand: int, options: int, rules: Rules) -> tuple[Action, ...]:
        """The knocks of ``hand`` (``options``: the cards it may give back)."""
        return NO_ACTIONS

    def knock_problem(self, hand: int, card: int, rules: Rules) -> Message | None:
        """Why knocking with card number ``card`` is refused, if it is."""
        return None

    def decline(self, deal: Transitions, seat: int) -> None:
        """``seat`` declines the discard at an empty stock."""
        deal._finish(EndReason.DECLINE, self.nobody_out)

    def refills_at_turn_start(self, rules: Rules) -> bool:
        """Is an empty stock rebuilt from the pile when a turn starts?"""
        return False


class KnockFamily(FamilyPolicy):
    """Knock Rummy: any card may be given back with a knock; showdowns."""

    __slots__ = ()
    name = "knock"
    nobody_out = "showdown"

    def knock_actions(self, hand: int, options: int, rules: Rules) -> tuple[Action, ...]:
        return card_actions(KNOCK_TABLES, options)


# Gin is played with the ace low (Rules checks it): its run-only table and
# the value of each suit pattern (deadwood_floor's tables).
_RUN_DEADWOOD: Final = suit_deadwood_table("low")
_PATTERN_VALUES: Final = pattern_values("low")


class GinFamily(FamilyPolicy):
    """Gin: a knock within the deadwood limit; the wall ends the deal drawn."""

    __slots__ = ()
    name = "gin"
    nobody_out = "draw"
    wall = True

    def knock_actions(self, hand: int, options: int, rules: Rules) -> tuple[Action, ...]:
        limit = rules.knock_limit
        # Giving back a card lowers the deadwood by 10 at most (15: a joker),
        # so a hand whose deadwood (or a floor of it) exceeds the limit by
        # more cannot knock: most hands, decided by four table reads.
        if hand >> N_STANDARD:
            if deadwood_of_mask(hand) - 15 > limit:  # jokers (an option): the solver
                return NO_ACTIONS
        else:
            s = hand & SUIT_BITS
            h = hand >> 13 & SUIT_BITS
            d = hand >> 26 & SUIT_BITS
            c = hand >> 39  # no jokers above the clubs here
            ranks = (s & h & (d | c)) | ((s | h) & d & c)
            if not ranks:  # no set can form: only runs, four table reads
                table = _RUN_DEADWOOD
                if table[s] + table[h] + table[d] + table[c] - 10 > limit:
                    return NO_ACTIONS
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
                    return NO_ACTIONS
        # Close to knocking: the deadwood without each card, in one pass.
        without = deadwood_without_each(hand)
        return tuple(KNOCKS[i] for i in card_numbers(options) if without[i] <= limit)

    def knock_problem(self, hand: int, card: int, rules: Rules) -> Message | None:
        left = deadwood_of_mask(hand & ~(1 << card))
        if left > rules.knock_limit:
            return Message.of(
                "action.knock_limit", limit=str(rules.knock_limit), deadwood=str(left)
            )
        return None


class MeldingFamily(FamilyPolicy):
    """Rummy, Basic, Block, Rotham: melds on the table, going out, no knock."""

    __slots__ = ()
    name = "melding"
    play_phase = Phase.MELD
    nobody_out = "no_winner"
    knocks = False
    table_play = True
    out_by_discard = True

    def all_seven(self, rules: Rules, deal_number: int) -> bool:
        return deal_number in rules.all_seven_deals

    def decline(self, deal: Transitions, seat: int) -> None:
        if deal.rules.stock_refill == "on_decline":
            deal._exhaustions += 1
            if deal._stock_ends_deal():
                deal._finish(EndReason.EXHAUSTED, "no_winner")
                return
            deal._refill()
        if not deal._stock:
            deal._finish(EndReason.EXHAUSTED, "no_winner")
            return
        deal._draw_stock(seat)

    def refills_at_turn_start(self, rules: Rules) -> bool:
        return rules.stock_refill == "automatic"


#: The policy of each family, by :attr:`Rules.family <pyrummy.core.rules.Rules.family>`.
FAMILIES: Final[dict[str, FamilyPolicy]] = {
    policy.name: policy for policy in (KnockFamily(), GinFamily(), MeldingFamily())
}


def family_of(rules: Rules) -> FamilyPolicy:
    """The policy of ``rules``'s family."""
    return FAMILIES[rules.family]
