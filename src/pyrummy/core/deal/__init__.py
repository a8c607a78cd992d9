"""One deal of any preset as an explicit state machine (docs/rules/).

The public names are here: :class:`Deal`, :func:`new_deal`,
:func:`arrange_deck`, :class:`TableMeld`, :class:`PublicUndo`. The package
is split by job (see :mod:`pyrummy.core.deal.game` for the rulings):

- :mod:`~pyrummy.core.deal.state`: the deal's fields, declared once;
- :mod:`~pyrummy.core.deal.tables`: interned actions and per-suit tables;
- :mod:`~pyrummy.core.deal.meld_search`: melds of a hand, cards that fit the table;
- :mod:`~pyrummy.core.deal.families`: one policy per game family;
- :mod:`~pyrummy.core.deal.legal`: the legal actions, phase by phase;
- :mod:`~pyrummy.core.deal.refusals`: why an action is refused;
- :mod:`~pyrummy.core.deal.transitions`: what each action does;
- :mod:`~pyrummy.core.deal.game`: :class:`Deal` itself;
- :mod:`~pyrummy.core.deal.dealing`: new deals, shuffled or set up.
"""

from pyrummy.core.deal.dealing import HandsLike, arrange_deck, new_deal
from pyrummy.core.deal.game import DEAL_VIEWS, Deal, DealViews
from pyrummy.core.deal.state import PublicUndo, TableMeld, UndoSnapshot
from pyrummy.core.phases import Phase as Phase  # re-exported for old imports

# The public classes answer to this package (documentation, pickles, reprs).
for _public in (Deal, DealViews, arrange_deck, new_deal):
    _public.__module__ = __name__
del _public

__all__ = [
    "DEAL_VIEWS",
    "Deal",
    "DealViews",
    "HandsLike",
    "PublicUndo",
    "TableMeld",
    "UndoSnapshot",
    "arrange_deck",
    "new_deal",
]
