"""One deal of any preset as an explicit state machine (docs/rules/).

The public names are here: :class:`Deal`, :func:`new_deal`,
:func:`arrange_deck`, :class:`TableMeld`, :class:`PublicUndo`. The package
is split by job (see :mod:`pyrummy.core.deal.game` for the rulings):

- :mod:`~pyrummy.core.deal.state`: the deal's fields, declared once;
- :mod:`~pyrummy.core.deal.tables`: interned actions and per-suit tables;
- :mod:`~pyrummy.core.deal.meld_search`: melds of a hand, cards that fit the table;
- :mod:`~pyrummy.core.deal.turns`: turns starting, the stock running out,
  the deal ending and its settlement;
- one module per phase, each with its legal actions, its refusal reasons
  and its transitions: :mod:`~pyrummy.core.deal.draw` (draw, decline),
  :mod:`~pyrummy.core.deal.discard` (discard, knock),
  :mod:`~pyrummy.core.deal.table_play` (meld, lay off, exchange a joker),
  :mod:`~pyrummy.core.deal.undo`;
- :mod:`~pyrummy.core.deal.views`: a seat's observation of the deal;
- :mod:`~pyrummy.core.deal.game`: :class:`Deal` itself, which holds the
  state and hands each step to its phase;
- :mod:`~pyrummy.core.deal.dealing`: new deals, shuffled or set up.

Where the game families differ, the phases ask the family's policy
(:mod:`pyrummy.core.families`).
"""

from pyrummy.core.deal.dealing import HandsLike, arrange_deck, new_deal
from pyrummy.core.deal.game import Deal
from pyrummy.core.deal.state import UndoSnapshot
from pyrummy.core.phases import Phase as Phase  # re-exported for old imports
from pyrummy.core.table import PublicUndo, TableMeld

__all__ = [
    "Deal",
    "HandsLike",
    "PublicUndo",
    "TableMeld",
    "UndoSnapshot",
    "arrange_deck",
    "new_deal",
]
