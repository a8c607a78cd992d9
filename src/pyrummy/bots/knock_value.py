"""Knock Rummy at 3+ players: a learned value of "knock now" over "play on".

The model is a ridge regression fitted by ``benchmarks/train_knock_value.py``
from counterfactual branches of real deals: at each knock decision of a
training seat the same deal was settled as if it knocked now (exactly, from
the true hands) and played on from the true state with the true opponents
(several play-outs over re-shuffled stocks); the target is the difference of
the two for the seat's own net. Its features are read from the observation
only (:func:`knock_features`): the deadwood left by the best give-back, how
far into the deal the seat is, and what the opponents showed (passes, cards
taken from the pile). The weights ship as ``knock_value.json`` beside this
module; inference is the standard library only.

>>> model = load_model()
>>> model.players
(4,)
>>> len(model.weights) == len(FEATURE_NAMES)
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from pyrummy.bots.hand import best_give_back
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask

#: Deadwood buckets (upper bounds, inclusive) the features are split by.
DEADWOOD_BUCKETS: Final = (4, 8, 12, 16, 20, 25, 30, 35, 40, 50, 60)
#: Per-bucket terms: a constant and how each game fact shifts it.
_TERMS: Final = ("one", "my_turns", "passes", "takes", "knockless")
#: The feature names, in the order of the weights.
FEATURE_NAMES: Final = (
    *(f"{term}@{bound}" for bound in DEADWOOD_BUCKETS for term in _TERMS),
    "deadwood",
    "stock",
)
#: Optional features (a model trained with them says so): the draw outlook of the
#: hand left by the give-back (:func:`draw_outlook`), alone and with the deadwood.
OUTLOOK_NAMES: Final = ("fall", "share", "fall_x_deadwood")
#: The weights file shipped in the package.
MODEL_FILE: Final = "knock_value.json"


def bucket_of(deadwood: int) -> int:
    """The index of the deadwood bucket (the last one holds everything above).

    >>> bucket_of(0), bucket_of(5), bucket_of(60), bucket_of(99)
    (0, 1, 10, 10)
    """
    for index, bound in enumerate(DEADWOOD_BUCKETS):
        if deadwood <= bound:
            return index
    return len(DEADWOOD_BUCKETS) - 1


def knock_features(observation: Observation, deadwood: int) -> list[float]:
    """The model's features of a knock decision, read from the observation only.

    ``deadwood``: what the best give-back leaves. ``my_turns``: this seat's
    earlier turns in the deal; ``passes``: face-up give-backs by opponents;
    ``takes``: top discards opponents took; ``knockless``: opponents that
    had a turn (they could all have knocked, any deadwood allows it).
    """
    me = observation.seat
    my_turns = passes = takes = 0
    seen: set[int] = set()
    for seat, action in observation.history:
        if seat == me:
            if action.kind is ActionKind.DISCARD:
                my_turns += 1
            continue
        if action.kind is ActionKind.DISCARD:
            passes += 1
            seen.add(seat)
        elif action.kind is ActionKind.DRAW_DISCARD:
            takes += 1
    facts = {
        "one": 1.0,
        "my_turns": float(min(my_turns, 4)),
        "passes": float(min(passes, 8)),
        "takes": float(min(takes, 4)),
        "knockless": float(len(seen)),
    }
    features = [0.0] * len(FEATURE_NAMES)
    start = bucket_of(deadwood) * len(_TERMS)
    for offset, term in enumerate(_TERMS):
        features[start + offset] = facts[term]
    features[-2] = deadwood / 10
    features[-1] = observation.stock_count / 10
    return features


def draw_outlook(
    observation: Observation, hand: int, deadwood: int, ace: str
) -> tuple[float, float]:
    """What one more draw is worth to the ``hand`` left by a give-back (10 cards).

    Over the unseen cards (the observer's view: any of them may come next):
    the mean fall in deadwood after drawing the card and giving back the best
    one, and the share of cards that lower it at all.

    >>> from pyrummy.core.deal import new_deal
    >>> deal = new_deal("knock", players=4, seed=1, dealer=0)
    >>> seen = deal.observe(1)
    >>> fall, share = draw_outlook(seen, seen.hand.mask, 40, "low")
    >>> fall >= 0 and 0 <= share <= 1
    True
    """
    unseen = observation.unseen_cards().mask & ~hand
    falls = 0
    better = 0
    count = 0
    while unseen:
        card = unseen & -unseen
        unseen ^= card
        count += 1
        after = best_discards_of_mask(hand | card, ace)[0]
        if after < deadwood:
            falls += deadwood - after
            better += 1
    if not count:
        return 0.0, 0.0
    return falls / count, better / count


def outlook_terms(fall: float, share: float, deadwood: int) -> list[float]:
    """The :data:`OUTLOOK_NAMES` features from :func:`draw_outlook`'s figures.

    >>> outlook_terms(5.0, 0.5, 20)
    [1.0, 0.5, 2.0]
    """
    return [fall / 5, share, fall / 5 * deadwood / 10]


@dataclass(frozen=True)
class KnockValueModel:
    """Weights of the linear model, and the table sizes it was trained at.

    ``outlook``: the weights end with the :data:`OUTLOOK_NAMES` features.
    """

    weights: tuple[float, ...]
    players: tuple[int, ...]
    trained: str = ""
    outlook: bool = False

    @property
    def features(self) -> tuple[str, ...]:
        return (*FEATURE_NAMES, *OUTLOOK_NAMES) if self.outlook else FEATURE_NAMES

    def gain(self, features: list[float]) -> float:
        """Predicted points of knocking now over playing on (positive: knock)."""
        return sum(w * x for w, x in zip(self.weights, features, strict=True))

    def to_json(self) -> str:
        return json.dumps(
            {
                "features": list(self.features),
                "weights": [round(w, 5) for w in self.weights],
                "players": list(self.players),
                "trained": self.trained,
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> KnockValueModel:
        """Read weights; they must name the features of this module, in order."""
        data = json.loads(text)
        names = tuple(data["features"])
        if names not in (FEATURE_NAMES, (*FEATURE_NAMES, *OUTLOOK_NAMES)):
            raise ValueError("knock value weights were fitted for other features")
        weights = tuple(float(w) for w in data["weights"])
        players = tuple(int(p) for p in data["players"])
        return cls(weights, players, str(data.get("trained", "")), len(names) > len(FEATURE_NAMES))


@cache
def load_model(path: str | None = None) -> KnockValueModel:
    """The shipped model, or the weights at ``path`` (each read once)."""
    if path is not None:
        return KnockValueModel.from_json(Path(path).read_text(encoding="utf-8"))
    text = resources.files("pyrummy.bots").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return KnockValueModel.from_json(text)


#: Deadwood above which the model is not asked (it was trained up to here).
KNOCK_VALUE_CAP: Final = 60


def learned_knock(
    observation: Observation,
    give_backs: Sequence[Action],
    rules: Rules,
    model: KnockValueModel,
    margin: float = 0.0,
) -> Action | None:
    """The least-deadwood knock when the model predicts it gains over ``margin``, else None.

    A rum (0 deadwood) always knocks; with no face-up give-back left the
    knock is the only way on.
    """
    hand = observation.hand.mask
    left = {a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace) for a in give_backs}
    least, card = best_give_back(left, rules)
    knock = next((a for a in give_backs if a.kind is ActionKind.KNOCK and a.cards[0] == card), None)
    if knock is None:
        return None
    if least == 0 or not any(a.kind is ActionKind.DISCARD for a in give_backs):
        return knock
    if least > KNOCK_VALUE_CAP:
        return None
    features = knock_features(observation, least)
    if model.outlook:
        fall, share = draw_outlook(observation, hand & ~card.bit, least, rules.ace)
        features += outlook_terms(fall, share, least)
    return knock if model.gain(features) > margin else None
