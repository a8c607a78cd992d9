"""The melds on the table, and the steps a turn may take back, in public terms.

Both are public facts of a deal: a :class:`~pyrummy.core.deal.Deal` keeps
its table as :class:`TableMeld` values and every seat's
:class:`~pyrummy.core.observation.Observation` shows them, with the
:class:`PublicUndo` entries of the seat to play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyrummy.core.cards import Card, CardSet
from pyrummy.core.melds import Meld

__all__ = ["PublicUndo", "TableMeld"]


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: who laid it down and who laid each of its cards.

    ``laid_by[i]`` is the seat that put ``meld.cards[i]`` on the table.
    """

    owner: int
    meld: Meld
    laid_by: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "owner": self.owner,
            "kind": self.meld.kind.value,
            "cards": [str(card) for card in self.meld.cards],
            "represents": [None if c is None else str(c) for c in self.meld.represents],
            "laid_by": list(self.laid_by),
        }


@dataclass(frozen=True)
class PublicUndo:
    """One step the seat to play may take back, in public terms.

    ``kind`` is ``draw`` (``card`` goes back on the pile) or ``table`` (the
    table, flags and the hand as they were: the hand is the current hand
    plus ``hand_add`` minus ``hand_remove``, both made of public cards).
    """

    kind: str
    card: Card | None = None
    table: tuple[TableMeld, ...] = ()
    own_meld: bool = False
    melds_this_turn: int = 0
    played_this_turn: bool = False
    known: CardSet = field(default_factory=CardSet)
    taken: CardSet = field(default_factory=CardSet)
    hand_add: CardSet = field(default_factory=CardSet)
    hand_remove: CardSet = field(default_factory=CardSet)
