"""Features of a decision for the learned policy, read from the encoded observation.

The learned policy scores each legal action of a knock-family game (Knock Rummy,
Gin) from two parts:

- the **state** (:func:`state_features`): the blocks of the version-1 observation
  encoding that matter to a two-choice game (own hand, pile top, pile, what the
  opponents took and are known to hold, the counts and the phase) plus the
  deadwood of the hand now and after its best give-back;
- each **action** (:func:`action_features`): its kind, the card it moves (one-hot),
  the deadwood it leaves, how it compares with the best give-back, the card's
  value, and how the card sits among the hand's other cards and the cards the
  opponents are known to collect.

Everything is computed from the encoded observation alone (what the seat may
know), so the same function serves the bot (one observation) and training
(a batch from any environment that yields the encoding).

>>> from pyrummy.core.deal import new_deal
>>> from pyrummy.nn.encoding import encode_observation, research_legal_actions, action_mask
>>> deal = new_deal("gin", players=2, seed=3)
>>> seat = deal.current_seat
>>> obs = encode_observation(deal.observe(seat))[None, :]
>>> mask = action_mask(deal.observe(seat), research_legal_actions(deal))[None, :]
>>> layout = Layout.of("gin", 2)
>>> state = state_features(obs, layout)
>>> feats, ids, valid = action_features(obs, mask, layout)
>>> state.shape == (1, layout.state_size), feats.shape[2] == ACTION_FEATURES
(True, True)
>>> sorted(int(i) for i in ids[0][valid[0]]) == sorted(int(i) for i in mask[0].nonzero()[0])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.core.cards import N_STANDARD
from pyrummy.core.families import family_of
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask, deadwood_without_each
from pyrummy.nn.encoding import CARDS, observation_blocks

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Action numbers of the knock-family action space (see ``ActionSpace``).
DRAW_STOCK: Final = 0
DRAW_DISCARD: Final = 1
DECLINE: Final = 2
UNDO: Final = 3
DISCARD_BASE: Final = 4
KNOCK_BASE: Final = DISCARD_BASE + N_STANDARD
#: Big gin (standard gin's options), after the knocks where the rules have it.
BIG_GIN: Final = KNOCK_BASE + N_STANDARD
#: Points of each card number (ace low, court cards 10), as the deadwood counts them.
CARD_POINTS: Final = np.array(
    [min(rank + 1, 10) for _ in range(4) for rank in range(13)], np.float32
)
#: Deadwood is scaled by this before it enters the network.
DEADWOOD_SCALE: Final = 50.0

_KIND_FEATURES: Final = 5  # draw stock, take the discard, decline, discard, knock
_DISCARD_KIND: Final = 3
_KNOCK_KIND: Final = 4
_SCALARS: Final = 11
_GIN_AFTER: Final = _KIND_FEATURES + 3  # the deadwood left is 0
_MAY_KNOCK_AFTER: Final = _KIND_FEATURES + 10  # the deadwood left is within the knock limit
#: Length of one action's feature row.
ACTION_FEATURES: Final = _KIND_FEATURES + _SCALARS + N_STANDARD


@dataclass(frozen=True)
class Layout:
    """Where the blocks the features read sit in the encoding for this game."""

    players: int
    knock_limit: int
    hand: int
    top: int
    pile: int
    taken: int
    known: int
    counts: int
    phase: int
    size: int

    @staticmethod
    @cache
    def of(rules: Rules | str, players: int) -> Layout:
        the_rules = rules if isinstance(rules, Rules) else find_rules(rules)
        family = family_of(the_rules)
        if family.table_play:
            raise ValueError("the learned policy plays the knock and gin families only")
        starts: dict[str, int] = {}
        start = 0
        for name, length, _ in observation_blocks(players):
            starts[name] = start
            start += length
        # Gin knocks at the knock limit; Knock Rummy at any deadwood (a large number).
        limit = the_rules.knock_limit if family.showdown == "gin" else 10_000
        return Layout(
            players=players,
            knock_limit=limit,
            hand=starts["hand"],
            top=starts["discard_top"],
            pile=starts["discard_pile"],
            taken=starts["taken"],
            known=starts["known"],
            counts=starts["counts"],
            phase=starts["phase"],
            size=start,
        )

    @property
    def state_size(self) -> int:
        """Length of :func:`state_features`' rows."""
        return 5 * N_STANDARD + 4 + 6 + 2


_BITS: Final = np.array([1 << i for i in range(N_STANDARD)], dtype=object)


def _masks(planes: FloatArray) -> list[int]:
    """Card planes (B, 52) as the solver's bit masks."""
    rows = planes > 0.5
    return [int(_BITS[row].sum()) if row.any() else 0 for row in rows]


def _opponents(obs: FloatArray, start: int, players: int) -> FloatArray:
    """The union over opponents of a per-opponent card block, (B, 52)."""
    blocks = obs[:, start : start + (players - 1) * CARDS].reshape(len(obs), players - 1, CARDS)
    return np.asarray(blocks.max(axis=1)[:, :N_STANDARD], np.float32)


def state_features(obs: FloatArray, layout: Layout) -> FloatArray:
    """One row per observation: card planes, counts, phase and two deadwoods."""
    batch = len(obs)
    out = np.zeros((batch, layout.state_size), np.float32)
    hand = obs[:, layout.hand : layout.hand + N_STANDARD]
    out[:, 0:52] = hand
    out[:, 52:104] = obs[:, layout.top : layout.top + N_STANDARD]
    out[:, 104:156] = obs[:, layout.pile : layout.pile + N_STANDARD]
    out[:, 156:208] = _opponents(obs, layout.taken, layout.players)
    out[:, 208:260] = _opponents(obs, layout.known, layout.players)
    out[:, 260:264] = obs[:, layout.counts : layout.counts + 4]
    out[:, 264:270] = obs[:, layout.phase : layout.phase + 6]
    for row, mask in enumerate(_masks(hand)):
        if not mask:
            continue
        out[row, 270] = deadwood_of_mask(mask) / DEADWOOD_SCALE
        if mask.bit_count() > 1:
            out[row, 271] = best_discards_of_mask(mask)[0] / DEADWOOD_SCALE
    return out


@cache
def _neighbour_masks() -> tuple[tuple[int, int, int], ...]:
    """Per card number: same rank (other suits), suit neighbours at 1, at 2."""
    result = []
    for index in range(N_STANDARD):
        suit, rank = divmod(index, 13)
        same_rank = sum(1 << (13 * s + rank) for s in range(4) if s != suit)
        near1 = sum(1 << (13 * suit + r) for r in (rank - 1, rank + 1) if 0 <= r < 13)
        near2 = sum(1 << (13 * suit + r) for r in (rank - 2, rank + 2) if 0 <= r < 13)
        result.append((same_rank, near1, near2))
    return tuple(result)


def _card_row(
    row: FloatArray, card: int, hand_left: int, collected: int, deadwood: int, best: int
) -> None:
    """Fill the card part of one action row (after the kind one-hot)."""
    same_rank, near1, near2 = _neighbour_masks()[card]
    base = _KIND_FEATURES
    row[base + 0] = deadwood / DEADWOOD_SCALE
    row[base + 1] = (deadwood - best) / 20.0
    row[base + 2] = CARD_POINTS[card] / 10.0
    row[_GIN_AFTER] = float(deadwood == 0)
    row[base + 4] = (hand_left & same_rank).bit_count() / 3.0
    row[base + 5] = (hand_left & near1).bit_count() / 2.0
    row[base + 6] = (hand_left & near2).bit_count() / 2.0
    row[base + 7] = (collected & same_rank).bit_count() / 3.0
    row[base + 8] = ((collected & near1).bit_count() + (collected & near2).bit_count()) / 4.0
    row[base + 9] = (card % 13) / 12.0
    row[base + _SCALARS + card] = 1.0


def action_features(
    obs: FloatArray, mask: npt.NDArray[np.int8], layout: Layout
) -> tuple[FloatArray, IntArray, BoolArray]:
    """Per observation, one feature row per legal action.

    Returns ``(features (B, K, F), action ids (B, K), valid (B, K))`` where ``K``
    is the most legal actions of any row; padded rows are invalid.
    """
    batch = len(obs)
    legal = [np.flatnonzero(m) for m in mask]
    width = max(1, max(len(ids) for ids in legal))
    feats = np.zeros((batch, width, ACTION_FEATURES), np.float32)
    ids = np.zeros((batch, width), np.int64)
    valid = np.zeros((batch, width), np.bool_)
    hands = _masks(obs[:, layout.hand : layout.hand + N_STANDARD])
    tops = _masks(obs[:, layout.top : layout.top + N_STANDARD])
    collected_all = _masks(
        np.maximum(
            _opponents(obs, layout.taken, layout.players),
            _opponents(obs, layout.known, layout.players),
        )
    )
    for b in range(batch):
        hand, top, collected = hands[b], tops[b], collected_all[b]
        actions = legal[b]
        count = len(actions)
        ids[b, :count] = actions
        valid[b, :count] = True
        gives_back = actions[actions >= DISCARD_BASE]
        without: dict[int, int] = deadwood_without_each(hand) if len(gives_back) else {}
        best = min(without.values()) if without else 0
        for k, number in enumerate(actions):
            row = feats[b, k]
            action = int(number)
            if action == DRAW_STOCK:
                row[0] = 1.0
                row[_KIND_FEATURES] = deadwood_of_mask(hand) / DEADWOOD_SCALE
            elif action == DRAW_DISCARD:
                row[1] = 1.0
                card = top.bit_length() - 1
                after, _ = best_discards_of_mask(hand | top, keep=top)
                now = deadwood_of_mask(hand)
                _card_row(row, card, hand, collected, after, now)
            elif action == UNDO:
                raise ValueError("the learned policy's features have no row for undo")
            elif action == DECLINE:
                row[2] = 1.0
                row[_KIND_FEATURES] = deadwood_of_mask(hand) / DEADWOOD_SCALE
            elif action == BIG_GIN:
                # Going out with all eleven cards melded: a knock at deadwood 0
                # that gives no card back (standard gin's big gin).
                row[_KNOCK_KIND] = 1.0
                row[_GIN_AFTER] = 1.0
                row[_MAY_KNOCK_AFTER] = 1.0
            else:
                knock = action >= KNOCK_BASE
                card = action - (KNOCK_BASE if knock else DISCARD_BASE)
                row[_KNOCK_KIND if knock else _DISCARD_KIND] = 1.0
                left = without.get(card, 0)
                _card_row(row, card, hand & ~(1 << card), collected, left, best)
                row[_MAY_KNOCK_AFTER] = float(left <= layout.knock_limit)
    return feats, ids, valid
