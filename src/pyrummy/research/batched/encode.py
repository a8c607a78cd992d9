"""The version-1 observation encoding of many deals at once.

The same vector as :func:`pyrummy.nn.encoding.encode_observation` of
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

from pyrummy.research.batched.deadwood import IntArray, MaskArray
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
        self._seats = np.arange(n)[None, :]
        self._all_seat_starts = np.arange(deals.batch) * n
        self._block = self._new_block(deals.batch)
        # The phase, dealer and to_play one-hots of every (phase, dealer,
        # to_play) triple, to_play n meaning nobody (the deal is over).
        phase_eye = np.eye(self.phases, dtype=np.float32)
        seat_eye = np.eye(n + 1, n, dtype=np.float32)
        self._one_hots = np.array(
            [
                np.concatenate((phase_eye[phase], seat_eye[dealer], seat_eye[to_play]))
                for phase in range(self.phases)
                for dealer in range(n)
                for to_play in range(n + 1)
            ],
            np.float32,
        )

    def new_buffer(self, rows: int) -> FloatArray:
        """A zeroed (rows, size) buffer for :meth:`encode` (the entries it never
        writes must be zero)."""
        return np.zeros((rows, self.size), np.float32)

    def plane_masks(self, rows: IntArray | None, observers: IntArray) -> MaskArray:
        """The card planes of each row as masks: (rows, planes) uint64
        (``rows`` None: every row, read without gathering)."""
        deals, n = self.deals, self.players
        if rows is None:
            seat, phase, drawn, top = deals.seat, deals.phase, deals.drawn, deals.top
            pile_mask, base = deals.pile_mask, self._all_seat_starts
        else:
            seat, phase, drawn, top = (
                deals.seat[rows],
                deals.phase[rows],
                deals.drawn[rows],
                deals.top[rows],
            )
            pile_mask, base = deals.pile_mask[rows], rows * n
        masks = np.empty((observers.shape[0], self.planes), np.uint64)
        masks[:, 0] = deals.hands_flat[base + observers]
        shows = (observers == seat) & (phase != OVER)
        # Card -1 (none) reads bit 0 of _CARD_BITS, which is no card.
        masks[:, 1] = np.where(shows, _CARD_BITS[drawn + 1], ZERO)
        masks[:, 2] = _CARD_BITS[top + 1]
        masks[:, 3] = pile_mask
        for r in range(1, n):
            other = base + (observers + r) % n
            masks[:, 3 + r] = deals.taken_flat[other]
            masks[:, 2 + n + r] = deals.public_flat[other]
        return masks

    def tail(self, rows: IntArray, observers: IntArray) -> FloatArray:
        """The entries from ``hand_sizes`` to the end (``to_play``) of each row.

        The block of a whole batch is one kept buffer (its entries that the
        knock and gin families never set stay 0): the caller copies it.
        """
        deals, n = self.deals, self.players
        count = rows.shape[0]
        sizes = np.bitwise_count(deals.hands[rows]).astype(np.float64) / self.full_hand
        block = self._block if count == deals.batch else self._new_block(count)
        if n == 2:
            flat = sizes.reshape(-1)
            mine = np.arange(count) * 2 + observers
            block[:, 0] = flat[mine]
            block[:, 1] = flat[mine ^ 1]
        else:
            order = (observers[:, None] + self._seats) % n
            block[:, :n] = np.take_along_axis(sizes, order, axis=1)
        np.minimum(block[:, :n], 1.0, out=block[:, :n])
        counts = 2 * n
        block[:, counts] = (deals.deck_size - deals.stock_pos[rows]) / deals.deck_size
        block[:, counts + 1] = np.minimum(deals.turn[rows] / deals.turn_cap, 1.0)
        phase = deals.phase[rows]
        # to_play: the relative seat, or n (no row of the one-hot) once over.
        to_play = np.where(phase == OVER, n, (deals.seat[rows] - observers) % n)
        dealer = (deals.dealer[rows] - observers) % n
        block[:, counts + 4 :] = self._one_hots[(phase * n + dealer) * (n + 1) + to_play]
        return block

    def _new_block(self, count: int) -> FloatArray:
        return np.zeros((count, self.size - self.offsets["hand_sizes"]), np.float32)

    def encode(self, rows: IntArray, observers: IntArray, out: FloatArray) -> FloatArray:
        """Write the vector of each row ``rows[i]`` as seen by seat
        ``observers[i]`` into ``out[i]`` (a :meth:`new_buffer`); returns ``out``."""
        if rows.shape[0] == 0:
            return out
        masks = self.plane_masks(rows, observers)
        bits = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")
        planes = bits.reshape(rows.shape[0], self.planes, 64)
        for plane in range(self.planes):
            out[:, plane * CARDS : (plane + 1) * CARDS] = planes[:, plane, :CARDS]
        out[:, self.offsets["hand_sizes"] :] = self.tail(rows, observers)
        return out


class IncrementalEncoder:
    """The observations of every row of a batch kept in one buffer, updated in place.

    Between two steps a row's card planes change in a few cards (a draw, a
    discard; a new observer's hand differs from the last one's in about
    twenty), so :meth:`update` flips only the entries whose card changed
    (the masks last written are kept) and writes the short tail in place:
    the counts read from tables of their possible values, and the three
    one-hot entries (phase, dealer, to_play) moved by clearing the ones last
    set and setting the new ones. :attr:`view` is the buffer, read-only.
    """

    def __init__(self, encoder: BatchedEncoder) -> None:
        self.encoder = encoder
        deals = encoder.deals
        batch, n = deals.batch, encoder.players
        self.buffer = encoder.new_buffer(batch)
        self.view: FloatArray = self.buffer.view()
        self.view.flags.writeable = False
        self._flat = self.buffer.reshape(-1)
        self.written = np.zeros((batch, encoder.planes), np.uint64)
        self.rows = np.arange(batch)
        offsets = encoder.offsets
        self._tail = offsets["hand_sizes"]
        self._counts = offsets["counts"]
        # The float32 of every value a count can take, computed in float64
        # as the core's encoder does.
        full_hand, deck, cap = encoder.full_hand, deals.deck_size, deals.turn_cap
        self._size_values = np.minimum(np.arange(65) / full_hand, 1.0).astype(np.float32)
        self._stock_values = ((deck - np.arange(deck + 1)) / deck).astype(np.float32)
        self._turn_values = np.minimum(np.arange(cap + 1) / cap, 1.0).astype(np.float32)
        self._row_starts = self.rows * encoder.size
        self._seat_starts = self.rows * n
        #: The flat position of each (row, plane)'s first card.
        self._plane_starts = (
            self._row_starts[:, None] + np.arange(encoder.planes)[None, :] * CARDS
        ).reshape(-1)
        self._phase_at = self._row_starts + offsets["phase"]
        self._dealer_at = self._row_starts + offsets["dealer"]
        self._to_play_at = self._row_starts + offsets["to_play"]
        #: The flat positions of the one-hot entries set last (clearing an
        #: entry of the zero buffer at first is harmless).
        self._hot = np.concatenate((self._phase_at,) * 3)

    def update(self, observers: IntArray) -> FloatArray:
        """Bring every row up to date as seen by ``observers``; the read-only view."""
        encoder = self.encoder
        batch = self.rows.shape[0]
        masks = encoder.plane_masks(None, observers)
        changed = masks ^ self.written
        self.written = masks
        flips = np.bitwise_count(changed)
        # A plane that changed in many cards (a new observer's hand) is
        # written whole from its bits; a few cards are set one by one.
        whole = flips > _FEW
        for plane in np.flatnonzero(whole.any(axis=0)).tolist():
            start = plane * CARDS
            rows = np.flatnonzero(whole[:, plane])
            if rows.size == batch:
                self.buffer[:, start : start + CARDS] = _bits(masks[:, plane])[:, :CARDS]
            elif rows.size:
                self.buffer[rows, start : start + CARDS] = _bits(masks[rows, plane])[:, :CARDS]
        few = np.flatnonzero((flips - np.uint8(1)).reshape(-1) < np.uint8(_FEW))
        if few.size:
            words = changed.reshape(-1)[few]
            now = masks.reshape(-1)[few]
            flat = self._flat
            base = self._plane_starts[few]
            # Two rounds (_FEW): the lowest changed card, then the other one
            # of the words that changed in two.
            lowest = words & (~words + np.uint64(1))
            flat[base + np.bitwise_count(lowest - np.uint64(1))] = (now & lowest) != ZERO
            words ^= lowest
            second = np.flatnonzero(words)
            if second.size:
                words, now = words[second], now[second]
                at = base[second] + np.bitwise_count(words - np.uint64(1))
                flat[at] = (now & words) != ZERO
        self._write_tail(observers)
        return self.view

    def _write_tail(self, observers: IntArray) -> None:
        """The entries from ``hand_sizes`` to the end, written in place."""
        deals, n = self.encoder.deals, self.encoder.players
        buffer, tail = self.buffer, self._tail
        sizes = self._size_values[np.bitwise_count(deals.hands_flat)]
        if n == 2:
            mine = self._seat_starts + observers
            buffer[:, tail] = sizes[mine]
            buffer[:, tail + 1] = sizes[mine ^ 1]
        else:
            order = (observers[:, None] + np.arange(n)[None, :]) % n
            buffer[:, tail : tail + n] = sizes[self._seat_starts[:, None] + order]
        counts = self._counts
        buffer[:, counts] = self._stock_values[deals.stock_pos]
        buffer[:, counts + 1] = self._turn_values[np.minimum(deals.turn, deals.turn_cap)]
        phase = deals.phase
        if n == 2:
            dealer = deals.dealer ^ observers
            to_play = deals.seat ^ observers
        else:
            dealer = (deals.dealer - observers) % n
            to_play = (deals.seat - observers) % n
        hot = np.concatenate(
            (
                self._phase_at + phase,
                self._dealer_at + dealer,
                # Nobody is to play once over: the phase entry is set again.
                np.where(phase == OVER, self._phase_at + OVER, self._to_play_at + to_play),
            )
        )
        flat = self._flat
        flat[self._hot] = 0.0
        flat[hot] = 1.0
        self._hot = hot


#: The bit of each card number plus one (0: no card, -1 + 1).
_CARD_BITS: Final = np.concatenate(([ZERO], BITS))

#: Above this many changed cards a plane is rewritten whole (the flips
#: of :meth:`IncrementalEncoder.update` are two rounds).
_FEW: Final = 2


def _bits(masks: MaskArray) -> npt.NDArray[np.uint8]:
    """The 64 bits of each mask, bit 0 first: (rows, 64) of 0/1."""
    bits: npt.NDArray[np.uint8] = np.unpackbits(
        np.ascontiguousarray(masks).view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
    )
    return bits
