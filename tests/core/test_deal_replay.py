"""Every preset: replay from the deck, clones, refusals that change nothing."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.actions import action_space
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.record import parse_record
from pyrummy.core.rules import find_rules, preset_names


def state(deal: Deal) -> tuple[object, ...]:
    return (
        deal.phase,
        deal.current_seat,
        deal.turn,
        [deal.hands(s) for s in range(deal.players)],
        deal.stock,
        deal.discard_pile,
        deal.table,
        list(deal.history),
        [str(a) for a in deal.legal_actions()],
        [json.dumps(deal.observe(s).to_dict()) for s in [None, *range(deal.players)]],
    )


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(preset_names()), st.integers(0, 100_000))
def test_replay_clone_and_refusals(name: str, seed: int) -> None:
    rules = find_rules(name)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    deal = new_deal(rules, players, seed=seed, dealer=seed % players, deal_number=1 + seed % 6)
    rng = random.Random(seed)
    space = action_space(rules)
    clones: list[tuple[Deal, tuple[object, ...]]] = []
    checks = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        if checks < 12 and rng.random() < 0.1:  # illegal actions: refused, nothing changes
            checks += 1
            legal_ids = set(deal.legal_action_ids())
            before = state(deal)
            for number in rng.sample(range(space.size), 5):
                if number not in legal_ids:
                    with pytest.raises(IllegalActionError):
                        deal.apply(space.decode(number))
            assert state(deal) == before
            if len(clones) < 3:
                clones.append((deal.clone(), before))
        deal.apply(rng.choice(legal))
    for clone, saved in clones:  # clones were not touched by the play that followed
        assert state(clone) == saved
    replay = Deal.from_deck(rules, players, deal.dealer, deal.deck, deal.deal_number)
    for seat, action in deal.history:
        assert replay.current_seat == seat
        replay.apply(str(action))
    assert state(replay) == state(deal)
    assert replay.settlement is not None and deal.settlement is not None
    assert replay.settlement.net == deal.settlement.net
    replayed = parse_record(deal.record())
    assert isinstance(replayed, Deal)
    assert state(replayed) == state(deal)
    assert deal.record().count("\n") > len(deal.history)


def test_live_deals_are_shuffled_differently() -> None:
    decks = {new_deal("knock", 4).deck for _ in range(5)}
    assert len(decks) == 5
    assert new_deal("knock", 4).seed is None
