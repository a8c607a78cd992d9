"""Knock rummy at 3+ players: the learned knock-value model and hard's use of it."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from deal_helpers import after_passive_rounds
from pyrummy.bots import HardBot
from pyrummy.bots.hard_knock import KnockRummyPlay
from pyrummy.bots.knock_value import (
    FEATURE_NAMES,
    KNOCK_VALUE_CAP,
    OUTLOOK_NAMES,
    KnockValueModel,
    bucket_of,
    draw_outlook,
    knock_features,
    learned_knock,
    load_model,
)
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.solver import deadwood_of_mask

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _constant_model(gain: float) -> KnockValueModel:
    """A model that predicts ``gain`` everywhere (every bucket's constant term)."""
    weights = [gain if name.startswith("one@") else 0.0 for name in FEATURE_NAMES]
    return KnockValueModel(tuple(weights), (4,))


def test_the_shipped_weights_load_and_name_the_features_in_order() -> None:
    model = load_model()
    assert len(model.weights) == len(FEATURE_NAMES)
    assert 4 in model.players
    assert KnockValueModel.from_json(model.to_json()) == model


def test_weights_fitted_for_other_features_are_refused() -> None:
    text = json.loads(load_model().to_json())
    text["features"] = text["features"][:-1]
    with pytest.raises(ValueError, match="other features"):
        KnockValueModel.from_json(json.dumps(text))


def test_the_features_count_passes_takes_and_own_turns_from_the_history() -> None:
    deal = after_passive_rounds(3, rounds=2)
    seat = deal.current_seat
    assert seat is not None
    features = dict(zip(FEATURE_NAMES, knock_features(deal.observe(seat), 12), strict=True))
    assert features["one@12"] == 1.0
    assert features["my_turns@12"] == 2.0  # two earlier turns of this seat
    assert features["passes@12"] == 6.0  # three opponents, two face-up give-backs each
    assert features["knockless@12"] == 3.0
    assert features["takes@12"] == 0.0
    # Only the deadwood's own bucket is set.
    assert sum(1 for name, v in features.items() if "@" in name and v) == 4


def test_the_model_decides_the_knock_rum_always_and_never_above_its_cap() -> None:
    rules = find_rules("knock")
    deal = after_passive_rounds(5, rounds=1)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    give_backs = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.DISCARD)]
    yes = learned_knock(observation, give_backs, rules, _constant_model(5.0))
    no = learned_knock(observation, give_backs, rules, _constant_model(-5.0))
    assert no is None
    if _least_left(deal, seat) > KNOCK_VALUE_CAP:
        assert yes is None  # above the cap: never weighed
    else:
        assert yes is not None and yes.kind is ActionKind.KNOCK
    # With only knocks to choose from there is nothing else to do.
    knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
    only = learned_knock(observation, knocks, rules, _constant_model(-5.0))
    assert only is not None and only.kind is ActionKind.KNOCK


def _least_left(deal: Deal, seat: int) -> int:
    hand = deal.hands(seat).mask
    return min(deadwood_of_mask(hand & ~card.bit, "low") for card in deal.hands(seat))


def test_hard_uses_the_learned_knock_at_four_players_only_by_default() -> None:
    def play(knock_value: bool | None = None) -> KnockRummyPlay:
        return KnockRummyPlay(HardBot(seed=1, rollouts=2, knock_value=knock_value).context)

    assert play().value_model_at(4) is not None
    assert play().value_model_at(2) is None
    assert play(knock_value=False).value_model_at(4) is None
    assert play(knock_value=True).value_model_at(2) is not None


def test_hard_knocks_or_discards_as_the_model_says(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = after_passive_rounds(2, rounds=1)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    if _least_left(deal, seat) > KNOCK_VALUE_CAP:
        pytest.skip("this deal's hand is above the cap")
    for gain, kind in ((5.0, ActionKind.KNOCK), (-5.0, ActionKind.DISCARD)):
        monkeypatch.setattr(
            "pyrummy.bots.hard_knock.load_model", lambda path=None, g=gain: _constant_model(g)
        )
        assert HardBot(seed=1, rollouts=2).choose(observation, legal).kind is kind


def test_hard_with_the_learned_knock_decides_only_on_what_the_seat_sees() -> None:
    rng = random.Random(4)
    checked = knocks_seen = 0
    for seed in range(8):
        deal = new_deal("knock", players=4, seed=seed, dealer=0)
        while not deal.is_over and checked < 60:
            seat = deal.current_seat
            assert seat is not None
            seen = deal.observe(seat)
            other = sample_deal(seen, rng)
            first = HardBot(seed=3, rollouts=2).choose(seen, deal.legal_actions())
            again = HardBot(seed=3, rollouts=2).choose(other.observe(seat), other.legal_actions())
            assert first == again
            knocks_seen += any(a.kind is ActionKind.KNOCK for a in deal.legal_actions())
            deal.apply(first)
            checked += 1
    assert checked >= 30 and knocks_seen >= 10


def test_the_training_fit_recovers_known_weights() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from train_knock_value import fit
    finally:
        sys.path.remove(str(BENCHMARKS))
    rng = random.Random(1)
    truth = [rng.uniform(-3, 3) for _ in FEATURE_NAMES]
    samples: list[dict[str, object]] = []
    for _ in range(3000):
        deadwood = rng.randrange(1, 61)
        x = [0.0] * len(FEATURE_NAMES)
        start = bucket_of(deadwood) * 5
        for offset in range(5):
            x[start + offset] = 1.0 if offset == 0 else float(rng.randrange(0, 4))
        x[-2], x[-1] = deadwood / 10, rng.randrange(0, 24) / 10
        samples.append({"x": x, "y": sum(w * v for w, v in zip(truth, x, strict=True))})
    fitted = fit(samples, ridge=1e-6)
    assert max(abs(a - b) for a, b in zip(fitted, truth, strict=True)) < 1e-3


def test_the_margin_is_the_gain_a_knock_must_beat() -> None:
    rules = find_rules("knock")
    deal = after_passive_rounds(5, rounds=1)
    seat = deal.current_seat
    assert seat is not None
    if _least_left(deal, seat) > KNOCK_VALUE_CAP:
        pytest.skip("this deal's hand is above the cap")
    observation, legal = deal.observe(seat), deal.legal_actions()
    give_backs = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.DISCARD)]
    model = _constant_model(2.0)
    assert learned_knock(observation, give_backs, rules, model, margin=1.0) is not None
    assert learned_knock(observation, give_backs, rules, model, margin=3.0) is None


def test_a_model_with_the_draw_outlook_reads_it_from_the_hand_left() -> None:
    rules = find_rules("knock")
    deal = after_passive_rounds(5, rounds=1)
    seat = deal.current_seat
    assert seat is not None
    least = _least_left(deal, seat)
    if least > KNOCK_VALUE_CAP or least == 0:
        pytest.skip("this deal's hand is not weighed by the model")
    observation, legal = deal.observe(seat), deal.legal_actions()
    give_backs = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.DISCARD)]
    hand = observation.hand.mask
    card = min(
        (a.cards[0] for a in give_backs), key=lambda c: deadwood_of_mask(hand & ~c.bit, "low")
    )
    fall, share = draw_outlook(observation, hand & ~card.bit, least, "low")
    assert 0 < share <= 1 and fall > 0  # some unseen card always helps a hand with deadwood
    # Only the "share" weight is set: the decision follows the sign of the outlook term.
    for weight, knocks in ((1.0, True), (-1.0, False)):
        weights = [0.0] * len(FEATURE_NAMES) + [0.0, weight, 0.0]
        model = KnockValueModel(tuple(weights), (4,), outlook=True)
        assert model.features == (*FEATURE_NAMES, *OUTLOOK_NAMES)
        assert KnockValueModel.from_json(model.to_json()) == model
        assert (learned_knock(observation, give_backs, rules, model) is not None) is knocks
