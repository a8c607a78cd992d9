"""Knock Rummy's family: any card may be given back with a knock; showdowns."""

from __future__ import annotations

from pyrummy.core.families.base import FamilyPolicy
from pyrummy.core.rules import Rules

__all__ = ["KnockFamily"]


class KnockFamily(FamilyPolicy):
    """Knock Rummy: a knock with any card; a deal nobody knocked is a showdown."""

    __slots__ = ()
    name = "knock"
    nobody_out = "showdown"
    showdown = "knock"

    def knock_cards(self, hand: int, options: int, rules: Rules) -> int:
        return options

    def moves_points(self, rules: Rules) -> bool:
        return True

    def scores_can_fall(self, rules: Rules) -> bool:
        return True
