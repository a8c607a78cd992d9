"""The version-1 observation encoding of many deals at once.

The same vector as :func:`pyrummy.research.encoding.encode_observation` of
``deal.observe(seat)`` (see that module for the layout), written for rows
of a :class:`~pyrummy.research.batched.engine.BatchedDeals` from its arrays:
every card plane of a row (own hand, the card drawn, the pile's top, the
pile, each opponent's taken and known cards) is one uint64 mask, and the
masks of all rows turn into float planes through one byte table read. The
knock and gin families never have table melds, a public stock, melded
players, stock exhaustions or melds in a turn: those entries stay 0.

Fractions are computed in float64 and stored as float32, as the core's
encoder does (Python floats stored into a float32 array), so the vectors
are equal bit for bit.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.research.batched.deadwood import IntArray
from pyrummy.research.batched.engine import BITS, OVER, ZERO, BatchedDeals
from pyrummy.research.encoding import CARDS, PHASES, observation_blocks, observation_size

FloatArray = npt.NDArray[np.float32]

#: Byte value -> its eight bits as float32 (bit 0 first).
_BYTE_BITS: Final = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


class BatchedEncoder:
    """Encodes rows of one :class:`BatchedDeals` as seen by given seats."""

    def __init__(self, deals: BatchedDeals) -> None:
        self.deals = deals
        n = self.players = deals.players
        self.size = observation_size(n)
        offsets: dict[str, int] = {}
        start = 0
        for name, length, _ in observation_blocks(n):
            offsets[name] = start
            start += length
        self.offsets = offsets
        #: Card planes, in layout order from the hand: hand, drawn, top,
        #: pile, then taken and known per opponent.
        self.planes = 4 + 2 * (n - 1)
        assert offsets["known"] + (n - 1) * CARDS == self.planes * CARDS
        rules = deals.rules
        self.full_hand = float(rules.hand_size(n) + 1 + int(rules.starter_extra_card))
        self.phases = len(PHASES)

    def new_buffer(self, rows: int) -> FloatArray:
        """A zeroed (rows, size) buffer for :meth:`encode` (the entries it never
        writes must be zero)."""
        return np.zeros((rows, self.size), np.float32)

    def encode(self, rows: IntArray, observers: IntArray, out: FloatArray) -> FloatArray:
        """Write the vector of each row ``rows[i]`` as seen by seat
        ``observers[i]`` into ``out[i]`` (a :meth:`new_buffer`); returns ``out``."""
        deals, n = self.deals, self.players
        count = rows.shape[0]
        if count == 0:
            return out
        seat = deals.seat[rows]
        over = deals.phase[rows] == OVER
        masks = np.empty((count, self.planes), np.uint64)
        masks[:, 0] = deals.hands[rows, observers]
        drawn = deals.drawn[rows]
        shows = (drawn >= 0) & (observers == seat) & ~over
        masks[:, 1] = np.where(shows, BITS[np.maximum(drawn, 0)], ZERO)
        height = deals.pile_len[rows]
        top = deals.pile[rows, np.maximum(height - 1, 0)]
        masks[:, 2] = np.where(height > 0, BITS[top], ZERO)
        masks[:, 3] = deals.pile_mask[rows]
        for r in range(1, n):
            other = (observers + r) % n
            masks[:, 3 + r] = deals.taken_held[rows, other]
            masks[:, 2 + n + r] = deals.public[rows, other]
        planes = _BYTE_BITS[masks.view(np.uint8)].reshape(count, self.planes, 64)
        for plane in range(self.planes):
            out[:, plane * CARDS : (plane + 1) * CARDS] = planes[:, plane, :CARDS]
        off = self.offsets
        sizes = np.bitwise_count(deals.hands[rows]).astype(np.float64) / self.full_hand
        order = (observers[:, None] + np.arange(n)[None, :]) % n
        relative = np.take_along_axis(sizes, order, axis=1)
        out[:, off["hand_sizes"] : off["hand_sizes"] + n] = np.minimum(relative, 1.0)
        counts = off["counts"]
        out[:, counts] = (deals.deck_size - deals.stock_pos[rows]) / deals.deck_size
        out[:, counts + 1] = np.minimum(deals.turn[rows] / deals.turn_cap, 1.0)
        line = np.arange(count)
        phase = off["phase"]
        out[:, phase : phase + self.phases] = 0.0
        out[line, phase + deals.phase[rows]] = 1.0
        dealer = off["dealer"]
        out[:, dealer : dealer + n] = 0.0
        out[line, dealer + (deals.dealer[rows] - observers) % n] = 1.0
        to_play = off["to_play"]
        out[:, to_play : to_play + n] = 0.0
        playing = ~over
        out[line[playing], to_play + (seat[playing] - observers[playing]) % n] = 1.0
        return out
