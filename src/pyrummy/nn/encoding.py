"""Versioned tensor encoding of one seat's observation, action masks, rewards.

Everything here is built from an :class:`~pyrummy.core.observation.Observation`
(what one seat may know), never from the deal itself, so a learning agent
sees exactly what a person in that seat would see.

Encoding version 1 (:data:`ENCODING_VERSION`), for ``n`` players. Seats are
*relative* to the observer: ``r = (seat - observer) % n``, so ``r = 0`` is the
observer, ``r = 1`` the player to the left (who plays next), and so on. A
card plane has :data:`CARDS` = 55 entries, indexed by card number
(``13 * suit + rank``, jokers 52-54; unused in presets without jokers).

=====================  ============  =============================================
block                  size          content (all values in [0, 1])
=====================  ============  =============================================
``hand``               55            own hand
``drawn``              55            the card the observer drew this turn
``discard_top``        55            the top card of the discard pile
``discard_pile``       55            every card in the discard pile
``taken``              (n-1) x 55    per opponent r = 1..n-1: cards taken from
                                     the pile and still held
``known``              (n-1) x 55    per opponent: every card known to be in
                                     that hand (taken discards and more)
``table``              n x 55        per owner r = 0..n-1: cards in melds on the
                                     table (melding games)
``public_stock``       55            the stock, when its order is public
``hand_sizes``         n             cards held / (hand size + 1)
``melded``             n             has put cards on the table in this deal
``counts``             4             stock / deck size, turn / turn cap,
                                     stock exhaustions / 3 (capped at 1),
                                     melds this turn / 3 (capped at 1)
``phase``              6             one-hot: deal, draw, decline, meld,
                                     discard, over
``dealer``             n             one-hot relative seat of the dealer
``to_play``            n             one-hot relative seat to play (zero: over)
=====================  ============  =============================================

Total size: ``55 * (3 * n + 3) + 4 * n + 10``; 2 players: 513, 4 players: 851.

Rewards (:func:`deal_rewards`): the deal's settlement ``net`` per seat. The
transfer presets (``knock``, ``knock-target``, ``scoring=pay_per_point``)
already sum to zero. For the presets that only award points (``rummy``,
``basic``, ``block``, ``rotham``, ``gin``, penalty scoring) a seat's reward
is its net minus the mean net of the *other* seats, which sums to zero over
the table and keeps the order of the nets.

>>> from pyrummy.core.deal import new_deal
>>> deal = new_deal("knock", players=4, seed=1)
>>> vector = encode_observation(deal.observe(1))
>>> vector.shape, observation_size(4), int(vector[:55].sum())
((851,), 851, 7)
>>> mask = action_mask(deal.observe(1), research_legal_actions(deal))
>>> [int(i) for i in mask.nonzero()[0]]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.core.actions import Action, ActionKind, action_space
from pyrummy.core.cards import N_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.families import family_of
from pyrummy.core.observation import Observation
from pyrummy.core.phases import Phase
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.settlement import Settlement

#: The version of the encoding (the layout of the observation tensor).
ENCODING_VERSION: Final = 1
#: Entries in a card plane: every card number, the three jokers included.
CARDS: Final = N_CARDS
PHASES: Final = (Phase.DEAL, Phase.DRAW, Phase.DECLINE, Phase.MELD, Phase.DISCARD, Phase.OVER)
#: Each phase's place in the phase one-hot: gin's up-card offer is the
#: same choice as the decline phase (take the top discard or pass), so it
#: shares that place and the tensor's layout (and version) stays as it was.
PHASE_INDEX: Final = {
    **{phase: i for i, phase in enumerate(PHASES)},
    Phase.OFFER: PHASES.index(Phase.DECLINE),
}
_PHASE_INDEX: Final = PHASE_INDEX

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def observation_size(players: int) -> int:
    """Length of the encoded observation for ``players`` seats."""
    return CARDS * (3 * players + 3) + 4 * players + 10


def observation_blocks(players: int) -> list[tuple[str, int, tuple[int, ...]]]:
    """The blocks of the encoding in order: (name, size, shape).

    >>> [name for name, _, _ in observation_blocks(2)][:4]
    ['hand', 'drawn', 'discard_top', 'discard_pile']
    >>> sum(size for _, size, _ in observation_blocks(3)) == observation_size(3)
    True
    """
    n = players
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("hand", (CARDS,)),
        ("drawn", (CARDS,)),
        ("discard_top", (CARDS,)),
        ("discard_pile", (CARDS,)),
        ("taken", (n - 1, CARDS)),
        ("known", (n - 1, CARDS)),
        ("table", (n, CARDS)),
        ("public_stock", (CARDS,)),
        ("hand_sizes", (n,)),
        ("melded", (n,)),
        ("counts", (4,)),
        ("phase", (len(PHASES),)),
        ("dealer", (n,)),
        ("to_play", (n,)),
    ]
    return [(name, int(np.prod(shape)), shape) for name, shape in shapes]


def _set_cards(plane: FloatArray, cards: object) -> None:
    for card in cards:  # type: ignore[attr-defined]
        plane[card.index] = 1.0


def encode_observation(observation: Observation, out: FloatArray | None = None) -> FloatArray:
    """The version-1 vector of ``observation`` (see the module docstring).

    ``out`` (optional) is a float32 array of :func:`observation_size` to fill.
    A spectator's view (``seat=None``) is encoded as seen from seat 0 with an
    empty hand.
    """
    n = observation.players
    me = observation.seat if observation.seat is not None else 0
    size = observation_size(n)
    vector = np.zeros(size, np.float32) if out is None else out
    if out is not None:
        vector.fill(0.0)
    views: dict[str, FloatArray] = {}
    start = 0
    for name, length, shape in observation_blocks(n):
        views[name] = vector[start : start + length].reshape(shape)
        start += length

    def rel(seat: int) -> int:
        return (seat - me) % n

    _set_cards(views["hand"], observation.hand)
    if observation.drawn_card is not None:
        views["drawn"][observation.drawn_card.index] = 1.0
    pile = observation.discard_pile
    if pile:
        views["discard_top"][pile[-1].index] = 1.0
    _set_cards(views["discard_pile"], pile)
    for seat in range(n):
        r = rel(seat)
        if r == 0:
            continue
        _set_cards(views["taken"][r - 1], observation.taken_discards[seat])
        _set_cards(views["known"][r - 1], observation.known_cards[seat])
    for table_meld in observation.table:
        _set_cards(views["table"][rel(table_meld.owner)], table_meld.meld.cards)
    if observation.public_stock is not None:
        _set_cards(views["public_stock"], observation.public_stock)
    rules = observation.rules
    full_hand = rules.hand_size(n) + 1 + int(rules.starter_extra_card)
    for seat in range(n):
        r = rel(seat)
        views["hand_sizes"][r] = min(observation.hand_sizes[seat] / full_hand, 1.0)
        views["melded"][r] = float(observation.melded[seat]) if observation.melded else 0.0
    counts = views["counts"]
    counts[0] = observation.stock_count / rules.deck_size
    counts[1] = min(observation.turn / rules.turn_cap, 1.0)
    counts[2] = min(observation.exhaustions / 3, 1.0)
    counts[3] = min(observation.melds_this_turn / 3, 1.0)
    views["phase"][_PHASE_INDEX[observation.phase]] = 1.0
    views["dealer"][rel(observation.dealer)] = 1.0
    if observation.current_seat is not None:
        views["to_play"][rel(observation.current_seat)] = 1.0
    return vector


def research_legal_actions(deal: Deal) -> list[Action]:
    """The deal's legal actions without ``undo``.

    Undo is there for people who misclick; for a learning agent it only adds
    loops (meld, undo, meld, ...) that make a deal unbounded. It is kept only
    in the (never observed) case where it would be the one legal action.
    """
    legal = deal.legal_actions()
    kept = [action for action in legal if action.kind is not ActionKind.UNDO]
    return kept or legal


def action_ids(rules: Rules | str, actions: Sequence[Action]) -> list[int]:
    """The integer numbers of ``actions``, in the same order."""
    encode = action_space(rules).encode
    return [encode(action) for action in actions]


def action_mask(observation: Observation, legal_actions: Sequence[Action]) -> MaskArray:
    """A 0/1 int8 vector over the action space: 1 for each legal action."""
    space = action_space(observation.rules)
    mask = np.zeros(space.size, np.int8)
    for action in legal_actions:
        mask[space.encode(action)] = 1
    return mask


def moves_points(rules: Rules) -> bool:
    """True when the preset's settlement moves points between players (zero-sum nets)."""
    return family_of(rules).moves_points(rules)


def deal_rewards(settlement: Settlement, rules: Rules | str) -> tuple[float, ...]:
    """Zero-sum rewards of a settled deal, one per seat (see the module docstring).

    >>> from pyrummy.core.settlement import settle
    >>> deal_rewards(settle(["7S 8S 9S", "KH QD 2C"], knocker=0, rules="gin"), "gin")
    (42.0, -42.0)
    >>> deal_rewards(settle(["4H 5H 6H QC QD QS 8D", "AS AH AD 7C 8C 9C 3H"], 0), "knock")
    (-15.0, 15.0)
    """
    the_rules = rules if isinstance(rules, Rules) else find_rules(rules)
    net = settlement.net
    if moves_points(the_rules) or len(net) < 2:
        return tuple(float(value) for value in net)
    total = sum(net, Fraction(0))
    others = len(net) - 1
    return tuple(float(value - (total - value) / others) for value in net)


def reward_bound(rules: Rules | str, players: int) -> float:
    """A bound on the absolute value of any seat's reward in one deal.

    Loose on purpose (OpenSpiel needs utility bounds, not tight ones): each
    opponent's hand is worth at most 15 a card, possibly doubled, plus the
    largest bonus.
    """
    the_rules = rules if isinstance(rules, Rules) else find_rules(rules)
    cards = the_rules.hand_size(players) + 1 + int(the_rules.starter_extra_card)
    bonus = the_rules.rum_bonus + the_rules.knock_penalty + the_rules.gin_bonus
    bonus += the_rules.undercut_bonus + 10
    per_opponent = 2 * 15 * cards + bonus
    return float(2 * (players - 1) * per_opponent)


def default_players(rules: Rules | str) -> int:
    """The player count an environment uses when none is given: four where the
    rules allow it, else the nearest count they allow.

    >>> default_players("knock"), default_players("gin"), default_players("rotham")
    (4, 2, 4)
    """
    the_rules = rules if isinstance(rules, Rules) else find_rules(rules)
    return min(max(4, the_rules.min_players), the_rules.max_players)
