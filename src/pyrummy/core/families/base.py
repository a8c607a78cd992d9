"""What a game family decides: the one place the families differ.

The phases of a deal, the action space, the settlement, the match's ending
and the front ends are the same code for every preset; where the families
part (:attr:`Rules.family <pyrummy.core.rules.Rules.family>`) they ask the
family's policy, by the public attributes and methods declared here,
instead of comparing the family's name. A policy decides; it never changes
a deal (the deal's phase handlers do what it says).

A new family is a subclass in a module of its own and an entry in
:data:`pyrummy.core.families.FAMILIES`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pyrummy.core.messages import Message
from pyrummy.core.phases import Phase
from pyrummy.core.rules import Rules

__all__ = ["DeclineEffect", "FamilyPolicy", "NobodyOut", "Showdown"]

NobodyOut = Literal["showdown", "draw", "no_winner"]
"""How a deal that ends with nobody out (turn cap, declined or exhausted
stock) is settled: a ``showdown`` without a knocker
(:func:`~pyrummy.core.settlement.settle`), a ``draw``
(:func:`~pyrummy.core.settlement.settle_draw`) or ``no_winner``
(:func:`~pyrummy.core.settlement.settle_no_winner`)."""

Showdown = Literal["knock", "gin"]
"""How a knock is scored: knock rummy's (rum bonus, the knock penalty) or gin's
(gin and undercut bonuses, lay-offs on the knocker's melds)."""

DeclineEffect = Literal["end", "draw", "rebuild_and_draw"]
"""What declining the discard at an empty stock does: ``end`` the deal
(settled as :attr:`FamilyPolicy.nobody_out`), ``draw`` (the same player
draws from the stock, if a rebuilt one has cards; else the deal ends
exhausted) or ``rebuild_and_draw`` (the discard pile is turned over into a
new stock first, within the preset's reuse limit)."""


class FamilyPolicy:
    """The rules of one game family that the rest of the engine asks for.

    Class attributes are read on the hot paths (a flag costs no call);
    methods answer what depends on the rules' options.
    """

    __slots__ = ()

    #: The family's name, as :attr:`Rules.family <pyrummy.core.rules.Rules.family>` spells it.
    name: ClassVar[str]
    #: The phase after the draw: discard (or knock), or meld (table play).
    play_phase: ClassVar[Phase] = Phase.DISCARD
    #: How a deal nobody went out of is settled
    #: (see :data:`~pyrummy.core.families.base.NobodyOut`).
    nobody_out: ClassVar[NobodyOut]
    #: How a knock is scored (see :data:`~pyrummy.core.families.base.Showdown`);
    #: None: the family has no knock.
    showdown: ClassVar[Showdown | None] = None
    #: Knocking is an action of this family (its action space numbers knocks).
    knocks: ClassVar[bool] = True
    #: Melds, lay-offs and joker exchanges on the table are actions of this
    #: family (its action space numbers them; the hands are shown with the table).
    table_play: ClassVar[bool] = False
    #: A discard of the last card goes out (the deal then ends).
    out_by_discard: ClassVar[bool] = False
    #: A discard that leaves ``rules.wall_cards`` in the stock ends the deal drawn.
    wall: ClassVar[bool] = False
    #: Settlements count the whole hand left (melding) rather than the
    #: deadwood of its best arrangement.
    whole_hands: ClassVar[bool] = False
    #: The options a front end tells this family's games apart by (their
    #: bonuses, offers, house rules): served with every game of the family.
    shown_options: ClassVar[tuple[str, ...]] = ()

    def capabilities(self) -> dict[str, object]:
        """What the family does, as plain data (JSON-able), for front ends and APIs.

        >>> from pyrummy.core.families import FAMILIES
        >>> FAMILIES["gin"].capabilities()["wall"], FAMILIES["melding"].capabilities()["table_play"]
        (True, True)
        """
        return {
            "family": self.name,
            "play_phase": self.play_phase.value,
            "knocks": self.knocks,
            "showdown": self.showdown,
            "table_play": self.table_play,
            "out_by_discard": self.out_by_discard,
            "wall": self.wall,
            "nobody_out": self.nobody_out,
            "whole_hands": self.whole_hands,
        }

    def all_seven(self, rules: Rules, deal_number: int) -> bool:
        """Is deal ``deal_number`` an all-seven deal (Rotham)?"""
        return False

    def knock_cards(self, hand: int, options: int, rules: Rules) -> int:
        """The cards ``hand`` may knock with, as a mask (``options``: the cards
        it may give back at all)."""
        return 0

    def knock_problem(self, hand: int, card: int, rules: Rules) -> Message | None:
        """Why knocking with card number ``card`` is refused, if it is."""
        return None

    def on_decline(self, rules: Rules) -> DeclineEffect:
        """What declining the discard at an empty stock does
        (see :data:`~pyrummy.core.families.base.DeclineEffect`)."""
        return "end"

    def refills_at_turn_start(self, rules: Rules) -> bool:
        """Is an empty stock rebuilt from the pile when a turn starts?"""
        return False

    def moves_points(self, rules: Rules) -> bool:
        """Does a settlement move points between players (zero-sum nets)?"""
        return rules.scoring == "pay_per_point"

    def scores_can_fall(self, rules: Rules) -> bool:
        """Can a player's total go down (so that a penalty limit can end a match)?"""
        return rules.scoring != "winner_collects"

    def max_actions_per_turn(self, rules: Rules, players: int) -> int:
        """An upper bound on one player's actions in one turn (draw to discard)."""
        return 2

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
