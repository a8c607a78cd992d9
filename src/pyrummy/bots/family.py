"""What the bots need to know about each family of rules, declared once.

The three families play alike in most respects (draw, meld in hand, give a
card back) and differ in two ways a bot must respect:

* **where melds go**: in the melding games they go on the table during play
  and others may lay off on them; in knock rummy and gin they stay in hand
  until the deal ends;
* **what a knock is**: in gin a knock is only offered at ``knock_limit``
  deadwood or less, so one that is offered is a sound knock; in knock rummy
  any hand may knock, so a bot weighs every knock (and a knock at an empty
  stock ends the deal like a decline).

Each bot reads these traits, or keeps a table of its own keyed by family, so
no bot branches on a family's name.

>>> from pyrummy.core.rules import find_rules
>>> traits_of(find_rules("gin")).knock_limited, traits_of(find_rules("rummy")).melds_on_table
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pyrummy.core.rules import Family, Rules


@dataclass(frozen=True)
class FamilyTraits:
    """How a family of rules plays, as far as the bots are concerned."""

    #: Melds and lay-offs go on the table during play (the melding games).
    melds_on_table: bool
    #: A knock is offered only at the rules' knock limit or less (gin).
    knock_limited: bool
    #: Any hand may knock, whatever its deadwood (knock rummy).
    knock_open: bool


#: Every family's traits.
TRAITS: Final[dict[Family, FamilyTraits]] = {
    "knock": FamilyTraits(melds_on_table=False, knock_limited=False, knock_open=True),
    "gin": FamilyTraits(melds_on_table=False, knock_limited=True, knock_open=False),
    "melding": FamilyTraits(melds_on_table=True, knock_limited=False, knock_open=False),
}


def traits_of(rules: Rules) -> FamilyTraits:
    """The traits of the family these rules belong to."""
    return TRAITS[rules.family]
