"""Self-play over many deals at once: every seat is the learner.

:class:`BatchedGame` steps ``batch`` deals of one preset together. Each
step takes one action per deal (for the seat to play there) and returns
``(observations, masks, rewards, done)``:

- ``observations``: float32 ``(batch, size)``, the version-1 encoding
  (:mod:`pyrummy.research.encoding`) of the deal as seen by the seat to play
  (:attr:`BatchedGame.to_play`);
- ``masks``: int8 ``(batch, actions)``, the legal actions of that seat (the
  core's action numbers, ``undo`` never legal);
- ``rewards``: float64 ``(batch, players)``, every seat's
  :func:`~pyrummy.nn.encoding.deal_rewards` in the step its deal ends
  (zero otherwise);
- ``done``: bool ``(batch,)``, the deal ended in this step. Such a deal is
  dealt again at once (automatic reset): its observation and mask are the
  new deal's; the ended deal's observations of every seat are in
  ``final_observations`` (rows ``final_rows``).

Decks are shuffled by a numpy generator seeded by ``seed``; the dealer of
each new deal is drawn from it too. The returned arrays are buffers the
next step overwrites (copy them to keep them).

>>> game = BatchedGame("gin", batch=8, seed=1)
>>> observations, masks = game.reset()
>>> observations.shape, masks.shape, int(masks[0].sum())
((8, 513), (8, 108), 2)
>>> rng = np.random.default_rng(2)
>>> for _ in range(300):
...     observations, masks, rewards, done = game.step(game.sample_actions(rng))
>>> bool((rewards.sum(axis=1) == 0).all())
True
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.core.errors import IllegalActionError
from pyrummy.core.rules import Rules, find_rules
from pyrummy.research.batched.deadwood import IntArray
from pyrummy.research.batched.encode import BatchedEncoder, FloatArray, IncrementalEncoder
from pyrummy.research.batched.engine import WORD, BatchedDeals, Int8Array
from pyrummy.research.encoding import default_players

BoolArray = npt.NDArray[np.bool_]


def sample_legal(
    low: npt.NDArray[np.uint64], high: npt.NDArray[np.uint64], uniform: npt.NDArray[np.float64]
) -> IntArray:
    """One legal action per row, uniformly: the ``floor(u * n)``-th set bit
    of the row's two legal words (``n`` set bits, ``u`` from ``uniform``).

    The bit is found by halving: three rounds, each keeping the half of the
    word that holds it (counting the set bits of the lower half), then one
    read of a table of the ``k``-th set bit of each byte. Counts and
    positions stay below 128, so they are uint8.

    >>> words = np.array([0b10110], np.uint64), np.array([1], np.uint64)
    >>> [int(sample_legal(*words, np.array([u]))[0]) for u in (0.0, 0.3, 0.6, 0.9)]
    [1, 2, 4, 64]
    """
    count_low = np.bitwise_count(low)
    total = count_low + np.bitwise_count(high)
    pick = (uniform * total).astype(np.uint8)
    in_high = pick >= count_low
    word = np.where(in_high, high, low)
    pick -= count_low * in_high
    position = in_high.astype(np.uint8) * np.uint8(WORD)
    for width in (32, 16, 8):
        lower = word & _LOWER[width]
        below = np.bitwise_count(lower)
        up = pick >= below
        pick -= below * up
        shift = up.astype(np.uint8) * np.uint8(width)
        word >>= shift.astype(np.uint64)
        word &= _LOWER[width]
        position += shift
    position += _NTH_BIT[(word << np.uint64(3)).astype(np.intp) + pick]
    result: IntArray = position.astype(np.int64)
    return result


#: The lowest ``width`` bits of a word.
_LOWER: Final = {width: np.uint64((1 << width) - 1) for width in (32, 16, 8)}
#: ``_NTH_BIT[8 * byte + k]``: the position of the ``k``-th set bit of ``byte``.
_NTH_BIT: Final = np.array(
    [
        ([i for i in range(8) if byte >> i & 1] + [0] * 8)[k]
        for byte in range(256)
        for k in range(8)
    ],
    np.uint8,
)


class BatchedGame:
    """``batch`` deals of ``rules`` played by every seat (see the module docstring)."""

    def __init__(
        self,
        rules: Rules | str = "gin",
        players: int | None = None,
        batch: int = 1024,
        seed: int | None = None,
        **options: object,
    ) -> None:
        the_rules = find_rules(rules, **options)
        self.players = default_players(the_rules) if players is None else players
        self.deals = BatchedDeals(the_rules, self.players, batch)
        self.rules = the_rules
        self.batch = batch
        self.encoder = BatchedEncoder(self.deals)
        self.action_count = self.deals.space.size
        self.observation_size = self.encoder.size
        self.rng = np.random.default_rng(seed)
        self._observations = IncrementalEncoder(self.encoder)
        self._masks = np.zeros((batch, self.action_count), np.int8)
        self._rewards = np.zeros((batch, self.players), np.float64)
        self._done = np.zeros(batch, bool)
        self._all = np.arange(batch)
        self.final_rows: IntArray = self._all[:0]
        self.final_observations: FloatArray = np.zeros(
            (0, self.players, self.observation_size), np.float32
        )

    @property
    def to_play(self) -> IntArray:
        """The seat to play in each deal."""
        return self.deals.seat

    def reset(self, seed: int | None = None) -> tuple[FloatArray, Int8Array]:
        """Deal every row afresh; ``(observations, masks)``."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._deal(self._all)
        return self._view()

    def _deal(self, rows: IntArray) -> None:
        count = rows.shape[0]
        decks = self.deals.shuffled_decks(self.rng, count)
        dealers = self.rng.integers(self.players, size=count)
        self.deals.deal(rows, decks, dealers)

    def _view(self) -> tuple[FloatArray, Int8Array]:
        observations = self._observations.update(self.deals.seat)
        self.deals.legal_mask(out=self._masks)
        return observations, self._masks

    def sample_actions(self, rng: np.random.Generator | None = None) -> IntArray:
        """A uniformly random legal action for every deal."""
        generator = self.rng if rng is None else rng
        return sample_legal(
            self.deals.legal_low, self.deals.legal_high, generator.random(self.batch)
        )

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[FloatArray, Int8Array, npt.NDArray[np.float64], BoolArray]:
        """Play ``actions[i]`` in deal ``i``; see the module docstring."""
        chosen = np.asarray(actions, np.int64).reshape(-1)
        if chosen.shape[0] != self.batch:
            raise IllegalActionError(f"expected {self.batch} actions, got {chosen.shape[0]}")
        legal = self.deals.is_legal(chosen)
        if not legal.all():
            bad = np.flatnonzero(~legal)[:5].tolist()
            raise IllegalActionError(
                f"illegal actions in deals {bad}: {chosen[bad].tolist()} (see the masks)"
            )
        ended = self.deals.step(chosen)
        rewards, done = self._rewards, self._done
        rewards[:] = 0.0
        done[:] = False
        if ended.size:
            ended.sort()
            rewards[ended] = self.deals.rewards[ended]
            done[ended] = True
            self._keep_final(ended)
            self._deal(ended)
        observations, masks = self._view()
        return observations, masks, rewards, done

    def _keep_final(self, rows: IntArray) -> None:
        count, n = rows.shape[0], self.players
        finals = np.zeros((n, count, self.observation_size), np.float32)
        # Every seat's view in one pass: the rows repeated once per seat.
        seats = np.repeat(np.arange(n), count)
        self.encoder.encode(np.tile(rows, n), seats, finals.reshape(n * count, -1))
        self.final_rows = rows
        self.final_observations = np.ascontiguousarray(finals.transpose(1, 0, 2))

    def __repr__(self) -> str:
        return f"<BatchedGame {self.rules.name} {self.players} players, batch {self.batch}>"


__all__ = ["BatchedGame", "default_players", "sample_legal"]
