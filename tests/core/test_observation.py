"""Observations: what each seat may know, and consistent re-deals for search."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest

from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules, preset_names
from pyrummy.core.sampling import sample_deal

CARD_TOKEN = re.compile(r'"([2-9TJQKA][SHDC]|X[123])"')


def secret_cards(deal: Deal, seat: int | None) -> set[str]:
    """What ``seat`` must not be told: hidden cards of other hands, a hidden stock."""
    view = deal.observe(seat)
    hidden = set() if view.public_stock is not None else {str(c) for c in deal.stock}
    for other in range(deal.players):
        if other != seat:
            hidden |= {str(c) for c in deal.hands(other) - view.known_cards[other]}
    return hidden


def random_positions(name: str, deals: int, seed: int = 0) -> list[Deal]:
    """Snapshots of random play (every few steps) in ``deals`` deals of a preset."""
    rules = find_rules(name)
    rng = random.Random(seed)
    found = []
    for number in range(deals):
        players = rules.min_players + number % (rules.max_players - rules.min_players + 1)
        deal = new_deal(rules, players, seed=1000 * seed + number, deal_number=1 + number % 6)
        step = 0
        while not deal.is_over:
            if step % 7 == 0:
                found.append(deal.clone())
            deal.apply(rng.choice(deal.legal_actions()))
            step += 1
        found.append(deal)
    return found


@pytest.mark.parametrize("name", preset_names())
def test_views_hide_what_they_must_and_tell_the_truth(name: str) -> None:
    for deal in random_positions(name, 6):
        for seat in [None, *range(deal.players)]:
            view = deal.observe(seat)
            shown = view.to_dict()
            for table_meld in shown["table"]:  # type: ignore[attr-defined]
                del table_meld["represents"]  # what a joker stands for is no card's place
            text = json.dumps(shown)
            if not deal.is_over:
                assert not set(CARD_TOKEN.findall(text)) & secret_cards(deal, seat)
                assert view.revealed_hands is None and view.settlement is None
            else:
                assert view.revealed_hands == tuple(deal.hands(s) for s in range(deal.players))
            assert view.hand == (CardSet() if seat is None else deal.hands(seat))
            for other in range(deal.players):
                assert view.known_cards[other] <= deal.hands(other)
                assert CardSet(view.taken_discards[other]) <= view.known_cards[other]
            assert view.hand_sizes == tuple(len(deal.hands(s)) for s in range(deal.players))
            if seat is None or seat != deal.current_seat:
                assert view.legal_actions == () and view.drawn_card is None


@pytest.mark.parametrize("name", preset_names())
def test_sampled_deals_agree_with_the_observation(name: str) -> None:
    rng = random.Random(7)
    for deal in random_positions(name, 4, seed=1):
        seat = deal.current_seat if deal.current_seat is not None else 0
        view = deal.observe(seat)
        sampled = sample_deal(view, rng)
        assert sampled.observe(seat).to_dict() == view.to_dict()
        cards = [c for s in range(deal.players) for c in sampled.hands(s)]
        cards += list(sampled.stock) + list(sampled.discard_pile)
        cards += [c for t in sampled.table for c in t.meld.cards]
        if sampled.knock_card is not None:
            cards.append(sampled.knock_card)
        assert sorted(cards) == sorted(deal.deck)
        assert [str(a) for a in sampled.legal_actions()] == [str(a) for a in deal.legal_actions()]
        while not sampled.is_over:  # a sampled deal plays on to the end
            sampled.apply(rng.choice(sampled.legal_actions()))


def test_sampling_moves_hidden_cards_only() -> None:
    deal = new_deal("knock", 3, seed=2)
    deal.apply("draw discard")
    taken = deal.observe(1).taken_discard
    assert taken is not None
    deal.apply(f"discard {next(c for c in deal.hands(1) if c != taken)}")
    view = deal.observe(2)
    seen_hands = set()
    for seed in range(20):
        sampled = sample_deal(view, random.Random(seed))
        assert taken in sampled.hands(1)  # public: seat 1 took it
        assert sampled.hands(2) == deal.hands(2)
        seen_hands.add(str(sampled.hands(0)))
    assert len(seen_hands) > 1


def test_observation_is_immutable_and_spectators_see_no_hand() -> None:
    deal = new_deal("gin", 2, seed=1)
    view = deal.observe(None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.turn = 5  # type: ignore[misc]
    assert view.hand == CardSet() and view.seat is None
    with pytest.raises(ValueError, match="seat"):
        deal.observe(2)


def test_drawn_card_is_shown_to_its_owner_only() -> None:
    deal = new_deal("gin", 2, seed=1)
    before = deal.hands(1)
    deal.apply("draw stock")
    (drawn,) = deal.hands(1) - before
    assert deal.observe(1).drawn_card == drawn
    assert deal.observe(0).drawn_card is None and drawn not in deal.observe(0).known_cards[1]


def test_a_view_sets_every_field_as_the_constructor_would() -> None:
    # Observation.of fills the instance directly (no __init__): it must set
    # exactly the dataclass's fields, and equal the view built the usual way.
    names = {field.name for field in dataclasses.fields(Observation)}
    for deal in random_positions("rotham", 2, seed=3)[::5]:
        for seat in (None, *range(deal.players)):
            view = deal.observe(seat)
            assert set(vars(view)) == names
            rebuilt = Observation(**{name: getattr(view, name) for name in names})
            assert rebuilt == view
            assert rebuilt.to_dict() == view.to_dict()
