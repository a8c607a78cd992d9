"""The game families: one policy object per family, found by the rules.

Everything that differs between knock rummy, gin and the melding games is
asked of :func:`family_of(rules) <family_of>` (see
:class:`~pyrummy.core.families.base.FamilyPolicy`): the phase after the
draw, the knocks, what ends a deal, declining at an empty stock, the shape
of the action space, how a deal nobody won is settled, the match's ending,
what a front end shows.

>>> from pyrummy.core.rules import find_rules
>>> policy = family_of(find_rules("gin"))
>>> policy.name, policy.knocks, policy.table_play, policy.nobody_out
('gin', True, False, 'draw')
>>> family_of(find_rules("rotham")).on_decline(find_rules("rotham"))
'rebuild_and_draw'
"""

from __future__ import annotations

from typing import Final

from pyrummy.core.families.base import DeclineEffect, FamilyPolicy, NobodyOut, Showdown
from pyrummy.core.families.gin import GinFamily
from pyrummy.core.families.knock import KnockFamily
from pyrummy.core.families.melding import MeldingFamily
from pyrummy.core.rules import Rules

__all__ = [
    "FAMILIES",
    "DeclineEffect",
    "FamilyPolicy",
    "GinFamily",
    "KnockFamily",
    "MeldingFamily",
    "NobodyOut",
    "Showdown",
    "family_of",
]

#: The policy of each family, by :attr:`Rules.family <pyrummy.core.rules.Rules.family>`.
FAMILIES: Final[dict[str, FamilyPolicy]] = {
    policy.name: policy for policy in (KnockFamily(), GinFamily(), MeldingFamily())
}


def family_of(rules: Rules) -> FamilyPolicy:
    """The policy of ``rules``'s family."""
    return FAMILIES[rules.family]
