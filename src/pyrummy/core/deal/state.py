"""The state of a deal, declared once.

:class:`DealState` lists every field of a deal with how it is copied
(:func:`state_field`): copying a deal (:meth:`Deal.clone
<pyrummy.core.deal.Deal.clone>`), pickling it, starting a blank one and
the fields' types all come from this one declaration instead of each
writing the fields out again. The groups: the deal's identity (shared by
every copy), its progress, the piles and hands, the table, the turn's
bookkeeping, the per-seat public facts, the stock's history, the result,
and caches that are derived from the rest.

The values are card numbers and masks (``1 << card.index``), not
:class:`~pyrummy.core.cards.Card` objects: the hot paths work on ints.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Final, Literal, NamedTuple

from pyrummy.core.actions import Action, ActionSpace, action_space
from pyrummy.core.cards import Card
from pyrummy.core.families import FamilyPolicy, family_of
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import Settlement
from pyrummy.core.shuffle import LEGACY_SHUFFLE
from pyrummy.core.table import TableMeld

__all__ = [
    "Copy",
    "DealState",
    "UndoEntry",
    "UndoSnapshot",
    "make_copier",
    "state_field",
    "state_fields",
]

Copy = Literal["share", "list", "rng", "cache", "derived"]
"""How a field is copied.

``share``: the same (immutable) value in the copy; ``list``: a shallow copy
of the list; ``rng``: an independent random generator in the same state;
``cache``: shared by a copy, left out of a pickle (rebuilt when needed);
``derived``: shared by a copy, rebuilt from the rules when unpickled."""


def state_field(copy: Copy, start: object = MISSING, *, per_seat: bool = False) -> Any:
    """Declare a field of :class:`DealState`.

    ``start`` is its value in a blank deal (a list is copied; ``per_seat``
    repeats it once per seat, as a list); none: set by whoever builds the
    deal (``Deal._blank``).
    """
    return field(metadata={"copy": copy, "start": start, "per_seat": per_seat})


class UndoSnapshot(NamedTuple):
    """What a ``table`` undo entry restores: the seat's hand and the table as
    they were, with the turn's flags and the seat's public cards."""

    hand: int
    table: tuple[TableMeld, ...]
    own_meld: bool
    melds_this_turn: int
    played_this_turn: bool
    known: int
    taken: int


UndoEntry = tuple[str, "int | UndoSnapshot"]
"""An undo entry: what the turn did and the state before it:
``("draw", card number)`` or ``("table", UndoSnapshot)``."""


@dataclass(slots=True, eq=False, repr=False, init=False)
class DealState:
    """Every field of a deal, each with how it is copied (see :data:`Copy`).

    Full state: a seat sees only its :class:`~pyrummy.core.observation.Observation`.
    """

    # The deal's identity: set when it is dealt, never changed.
    rules: Rules = state_field("share")
    players: int = state_field("share")
    dealer: int = state_field("share")
    deal_number: int = state_field("share")
    deck: tuple[Card, ...] = state_field("share", ())
    seed: int | None = state_field("share", None)
    #: The shuffle ``seed`` deals by (:mod:`pyrummy.core.shuffle`).
    shuffle: str = state_field("share", LEGACY_SHUFFLE)
    # Progress. ``is_over`` (``phase is Phase.OVER``) is a plain attribute
    # because every play loop reads it after every step.
    history: list[tuple[int, Action]] = state_field("list", [])
    phase: Phase = state_field("share", Phase.DEAL)
    is_over: bool = state_field("share", False)
    turn: int = state_field("share", 0)
    _seat: int = state_field("share", 0)
    _end: EndReason = state_field("share", EndReason.ONGOING)
    # Piles and hands (card masks; the stock's top card last).
    _hands: list[int] = state_field("list", 0, per_seat=True)
    _stock: list[int] = state_field("list", [])
    _pile: list[int] = state_field("list", [])
    # The table.
    _table: list[TableMeld] = state_field("list", [])
    # The turn's bookkeeping: the card drawn and the one taken from the pile,
    # what undo takes back, melds and undos so far, cards put down this turn.
    _drawn: int | None = state_field("share", None)
    _taken: int | None = state_field("share", None)
    _undo: list[UndoEntry] = state_field("list", [])
    _melds_turn: int = state_field("share", 0)
    _undos_turn: int = state_field("share", 0)
    _played_turn: bool = state_field("share", False)
    # Per seat: has put cards down in an earlier turn, has a meld of their
    # own on the table, cards everybody knows to be in the hand, taken discards.
    _played: list[bool] = state_field("list", False, per_seat=True)
    _own_meld: list[bool] = state_field("list", False, per_seat=True)
    _public: list[int] = state_field("list", 0, per_seat=True)
    _taken_held: list[int] = state_field("list", 0, per_seat=True)
    # The stock's history: times it ran out, rebuilt from the pile (and in a
    # public order), the shuffler of rebuilt stocks (made when first needed).
    _exhaustions: int = state_field("share", 0)
    _stock_public: bool = state_field("share", False)
    _stock_recycled: bool = state_field("share", False)
    _rng: random.Random | None = state_field("rng", None)
    # Standard gin: the first up-card (card number), passes of its offer so
    # far, and the non-dealer's draw from the stock after both passed.
    _up_card: int | None = state_field("share", None)
    _offer_passes: int = state_field("share", 0)
    _stock_only: bool = state_field("share", False)
    # OpenSpiel's gin: draws from the pile so far (the offer's not counted),
    # was the last discard the card taken that turn, is the seat to play at
    # the wall (it may take the discard only to knock).
    _pile_draws: int = state_field("share", 0)
    _thrown_back: bool = state_field("share", False)
    _at_wall: bool = state_field("share", False)
    # The result: the knock card, the settlement (computed when first asked
    # for from ``_pending``: how the deal ended, by whom, went rummy).
    _knock_card: int | None = state_field("share", None)
    _settlement: Settlement | None = state_field("share", None)
    _pending: tuple[str, int | None, bool] | None = state_field("share", None)
    # Derived from the rules and the deal number.
    _space: ActionSpace = state_field("derived")
    # The rules in force (:meth:`Rules.in_force`: Oklahoma's knock limit
    # follows the first up-card).
    _knock_rules: Rules = state_field("derived")
    _policy: FamilyPolicy = state_field("derived")
    _play_phase: Phase = state_field("derived")
    # A discard leaving this many cards in the stock or fewer ends the deal
    # (gin's wall; -1: no wall).
    _wall_stock: int = state_field("derived")
    _all_seven: bool = state_field("derived")
    # OpenSpiel's gin options (rules.discard_taken, pile_draw_limit, wall_knock).
    _taken_free: bool = state_field("derived")
    _pile_limit: int = state_field("derived")
    _wall_knock: bool = state_field("derived")
    # Caches: the legal actions (never changed once cached: copies share
    # them), the cards that fit each table meld.
    _legal: Sequence[Action] | None = state_field("cache", None)
    _table_fits: tuple[tuple[int, ...], tuple[int, ...]] | None = state_field("cache", None)

    def _derive(self) -> None:
        """Set the ``derived`` fields from the rules and the deal number."""
        rules = self.rules
        policy = self._policy = family_of(rules)
        self._space = action_space(rules)
        self._knock_rules = rules.in_force(self._up_card)
        self._play_phase = policy.play_phase
        self._wall_stock = rules.wall_cards if policy.wall else -1
        self._all_seven = policy.all_seven(rules, self.deal_number)
        self._taken_free = rules.discard_taken
        self._pile_limit = rules.pile_draw_limit
        self._wall_knock = rules.wall_knock and policy.wall

    def _start_blank(self) -> None:
        """Every field with a start value set to it (see :func:`state_field`)."""
        _start_blank(self)

    def __getstate__(self) -> dict[str, object]:
        """The fields to pickle: all but the caches and what the rules give."""
        return {name: getattr(self, name) for name in _PICKLED}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        for name in _CACHES:
            setattr(self, name, None)
        self._derive()


def state_fields() -> dict[str, Copy]:
    """Every field of :class:`DealState` with how it is copied, in order."""
    return {item.name: item.metadata["copy"] for item in fields(DealState)}


_STARTS: Final = tuple(
    (item.name, item.metadata["start"], item.metadata["per_seat"])
    for item in fields(DealState)
    if item.metadata["start"] is not MISSING
)


def _make_starter() -> Callable[[DealState], None]:
    """The straight-line function setting every field with a start value
    (a new deal starts with it: a loop over the fields costs more than the
    rest of dealing)."""
    lines = ["def start_blank(self):"]
    namespace: dict[str, Any] = {}
    for name, start, per_seat in _STARTS:
        namespace[f"_start_{name}"] = start
        if per_seat:
            lines.append(f"    self.{name} = [_start_{name}] * self.players")
        elif isinstance(start, list):
            lines.append(f"    self.{name} = _start_{name}[:]")
        else:
            lines.append(f"    self.{name} = _start_{name}")
    # The source is built from the declared field names only.
    exec("\n".join(lines), namespace)
    starter: Callable[[DealState], None] = namespace["start_blank"]
    return starter


_start_blank: Final = _make_starter()
_PICKLED: Final = tuple(
    name for name, copy in state_fields().items() if copy not in ("cache", "derived")
)
_CACHES: Final = tuple(name for name, copy in state_fields().items() if copy == "cache")

_COPY_LINES: Final = {
    "share": "    copy.{0} = self.{0}",
    "derived": "    copy.{0} = self.{0}",
    "cache": "    copy.{0} = self.{0}",
    "list": "    copy.{0} = self.{0}[:]",
    # setstate sets the whole state: skip Random()'s seeding from the OS,
    # which costs more than the rest of the copy.
    "rng": (
        "    if self.{0} is not None:\n"
        "        copy.{0} = _new_rng(_Random)\n"
        "        copy.{0}.setstate(self.{0}.getstate())\n"
        "    else:\n"
        "        copy.{0} = None"
    ),
}


def make_copier(cls: type[DealState]) -> Callable[[DealState], DealState]:
    """A fast copy function for ``cls``, written from the field declarations.

    Bots copy deals a lot: one straight-line function (as ``dataclasses``
    writes ``__init__``) is several times faster than a loop over the fields.
    """
    lines = ["def copy_state(self):", "    copy = _new(_cls)"]
    lines += [_COPY_LINES[copy].format(name) for name, copy in state_fields().items()]
    lines.append("    return copy")
    namespace: dict[str, Any] = {
        "_new": object.__new__,
        "_new_rng": random.Random.__new__,
        "_cls": cls,
        "_Random": random.Random,
    }
    # The source is built above from the declared field names only.
    exec("\n".join(lines), namespace)
    copier: Callable[[DealState], DealState] = namespace["copy_state"]
    return copier
