"""The melding games' family (Rummy, Basic, Block, Rotham): melds on the table,
going out, no knock."""

from __future__ import annotations

from pyrummy.core.families.base import DeclineEffect, FamilyPolicy
from pyrummy.core.phases import Phase
from pyrummy.core.rules import Rules

__all__ = ["MeldingFamily"]


class MeldingFamily(FamilyPolicy):
    """Melds, lay-offs and joker exchanges; the last card out ends the deal.

    Declining at an empty stock (``stock_refill="on_decline"``) turns the
    pile over into a new stock and the same player draws its top card at
    once; with ``stock_refill="automatic"`` the stock is rebuilt when a turn
    starts instead. How often the pile may be reused is ``rules.stock_end``.
    """

    __slots__ = ()
    name = "melding"
    play_phase = Phase.MELD
    nobody_out = "no_winner"
    knocks = False
    table_play = True
    out_by_discard = True
    whole_hands = True

    def all_seven(self, rules: Rules, deal_number: int) -> bool:
        return deal_number in rules.all_seven_deals

    def on_decline(self, rules: Rules) -> DeclineEffect:
        return "rebuild_and_draw" if rules.stock_refill == "on_decline" else "draw"

    def refills_at_turn_start(self, rules: Rules) -> bool:
        return rules.stock_refill == "automatic"

    def max_actions_per_turn(self, rules: Rules, players: int) -> int:
        # A draw, at most one meld, lay-off or joker exchange (at most 3
        # exchanges between two cards leaving the hand) per card, a discard.
        cards = rules.hand_size(players) + 1 + int(rules.starter_extra_card)
        return 2 + 4 * cards
