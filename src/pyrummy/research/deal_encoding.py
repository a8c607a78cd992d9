"""The version-1 encoding read straight from a deal: the unbatched environments' fast path.

:func:`~pyrummy.nn.encoding.encode_observation` encodes an
:class:`~pyrummy.core.observation.Observation`, which the deal first builds
whole (its history, every card as an object, the legal actions): most of
an environment step. :func:`encode_seat` writes the same vector from the
deal's own fields (card masks) in one pass: every card plane of the
layout (own hand to the public stock, contiguous) from one
``numpy.unpackbits`` of the planes' masks, then the short tail of counts
and one-hot blocks. ``tests/research/test_research_deal_encoding.py`` holds it to
``encode_observation(deal.observe(seat))`` on random play of every preset,
bit for bit. A deal that lacks the fields read here (a core of another
shape) is encoded the slow way.

:func:`legal_action_ids` is the research legal actions as numbers, with
the actions themselves, remembered per deal state.

>>> from pyrummy.core.deal import new_deal
>>> from pyrummy.research.encoding import encode_observation
>>> deal = new_deal("rummy", players=3, seed=4)
>>> bool((encode_seat(deal, 1) == encode_observation(deal.observe(1))).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from pyrummy.core.actions import UNDO, Action
from pyrummy.core.deal import Deal
from pyrummy.research.encoding import (
    CARDS,
    PHASE_INDEX,
    PHASES,
    FloatArray,
    observation_size,
    research_legal_actions,
)

_PHASE_INDEX: Final = PHASE_INDEX
_PLANE_BITS: Final = 64


class _Layout:
    """Where the blocks of the encoding start for one player count."""

    def __init__(self, players: int) -> None:
        n = self.players = players
        self.size = observation_size(n)
        self.planes = 3 * n + 3
        self.hand_sizes = CARDS * self.planes
        self.melded = self.hand_sizes + n
        self.counts = self.melded + n
        self.phase = self.counts + 4
        self.dealer = self.phase + len(PHASES)
        self.to_play = self.dealer + n
        self.rules: object = None
        self.full_hand = 1
        self.others = [[(seat + r) % n for r in range(1, n)] for seat in range(n)]
        #: Seats from the observer's (relative order), per observer.
        self.order = [[seat, *others] for seat, others in enumerate(self.others)]
        self.no_table = [0] * n
        #: The tail (hand sizes to ``to_play``) of zeros, copied per call.
        self.tail = [0.0] * (self.size - self.hand_sizes)


_LAYOUTS: dict[int, _Layout] = {}


def _layout(players: int) -> _Layout:
    layout = _LAYOUTS.get(players)
    if layout is None:
        layout = _LAYOUTS[players] = _Layout(players)
    return layout


def _mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def encode_seat(deal: Deal, seat: int, out: FloatArray | None = None) -> FloatArray:
    """``encode_observation(deal.observe(seat))``, read from the deal's fields.

    ``out`` (optional): a float32 array of the encoding's size to fill. It reads
    :class:`~pyrummy.core.deal.state.DealState`'s fields directly (the hot path
    of every unbatched environment); ``tests/research/test_research_deal_encoding.py``
    holds it to :func:`~pyrummy.nn.encoding.encode_observation`.
    """
    return _encode(deal, seat, out)


def _encode(deal: Deal, seat: int, out: FloatArray | None) -> FloatArray:
    # Written out flat (no comprehensions, a template for the tail): this
    # runs at every decision of every unbatched environment.
    n = deal.players
    layout = _layout(n)
    hands = deal._hands
    to_play = None if deal.is_over else deal._seat
    others = layout.others[seat]
    drawn = deal._drawn
    pile = deal._pile
    pile_mask = 0
    for card in pile:
        pile_mask |= 1 << card
    masks = [
        hands[seat],
        1 << drawn if drawn is not None and seat == to_play else 0,
        1 << pile[-1] if pile else 0,
        pile_mask,
    ]
    taken = deal._taken_held
    for other in others:
        masks.append(taken[other])
    public = deal._public
    for other in others:
        masks.append(public[other])
    if deal._table:
        table = [0] * n
        for table_meld in deal._table:
            owner = (table_meld.owner - seat) % n
            for meld_card in table_meld.meld.cards:
                table[owner] |= 1 << meld_card.index
        masks += table
    else:
        masks += layout.no_table
    masks.append(_mask_of(deal._stock) if deal._stock_public else 0)
    bits = np.unpackbits(np.array(masks, np.uint64).view(np.uint8), bitorder="little")
    vector = np.empty(layout.size, np.float32) if out is None else out
    vector[: layout.hand_sizes].reshape(layout.planes, CARDS)[:] = bits.reshape(
        layout.planes, _PLANE_BITS
    )[:, :CARDS]
    rules = deal.rules
    if rules is not layout.rules:
        layout.full_hand = rules.hand_size(n) + 1 + int(rules.starter_extra_card)
        layout.rules = rules
    full_hand = layout.full_hand
    tail = layout.tail[:]
    played = deal._played
    played_turn = deal._played_turn
    for at, s in enumerate(layout.order[seat]):
        size = hands[s].bit_count() / full_hand
        tail[at] = size if size < 1.0 else 1.0
        if played[s] or (played_turn and s == to_play):
            tail[n + at] = 1.0
    counts = 2 * n
    tail[counts] = len(deal._stock) / rules.deck_size
    tail[counts + 1] = min(deal.turn / rules.turn_cap, 1.0)
    tail[counts + 2] = min(deal._exhaustions / 3, 1.0)
    tail[counts + 3] = min(deal._melds_turn / 3, 1.0)
    phase = counts + 4
    tail[phase + _PHASE_INDEX[deal.phase]] = 1.0
    dealer = phase + len(PHASES)
    tail[dealer + (deal.dealer - seat) % n] = 1.0
    if to_play is not None:
        tail[dealer + n + (to_play - seat) % n] = 1.0
    vector[layout.hand_sizes :] = tail
    return vector


def legal_action_ids(deal: Deal) -> tuple[list[Action], list[int]]:
    """The research legal actions of the deal and their numbers (same order).

    The deal lists interned actions (the same objects every time), so each
    action's number is remembered by the object's identity (the entry keeps
    the object, so the identity stays its own); at most a few times the
    action space's size of them.
    """
    legal = deal.legal_actions()
    space = deal.action_space
    numbers = _NUMBERS.get(id(space))
    if numbers is None or len(numbers) > 4 * space.size + 64:
        numbers = _NUMBERS[id(space)] = {}
        _SPACES[id(space)] = space
    actions: list[Action] = []
    found: list[int] = []
    for action in legal:
        if action is UNDO:  # the deal lists the interned undo
            continue
        entry = numbers.get(id(action))
        if entry is None or entry[0] is not action:
            entry = numbers[id(action)] = (action, space.encode(action))
        actions.append(action)
        found.append(entry[1])
    if not actions:  # undo alone (never seen): research_legal_actions keeps it
        actions = research_legal_actions(deal)
        found = [space.encode(action) for action in actions]
    return actions, found


# Per action space (kept alive here, so its id stays its own): id of an
# action -> (the action, its number).
_NUMBERS: dict[int, dict[int, tuple[Action, int]]] = {}
_SPACES: dict[int, object] = {}


class LegalActionsOfNow:
    """:func:`legal_action_ids` of a deal, remembered until the deal moves (an
    environment asks for the mask and then steps, both for the same position)."""

    __slots__ = ("_deal", "_legal", "_length")

    def __init__(self) -> None:
        self._deal: Deal | None = None
        self._length = -1
        self._legal: tuple[list[Action], list[int]] = ([], [])

    def __call__(self, deal: Deal) -> tuple[list[Action], list[int]]:
        length = len(deal.history)
        if deal is not self._deal or length != self._length:
            self._legal = legal_action_ids(deal)
            self._deal = deal
            self._length = length
        return self._legal
