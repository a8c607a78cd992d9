"""Bots in play: only legal actions, every preset and table size; seeds; strength."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyrummy.bots import Bot, HardBot, make_bot
from pyrummy.core.actions import Action
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules, preset_names

TABLES = [
    (preset, players)
    for preset in preset_names()
    for players in range(find_rules(preset).min_players, find_rules(preset).max_players + 1)
]


class Referee:
    """Wraps a bot: checks every answer is one of the legal actions it was given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        assert isinstance(observation, Observation)
        assert observation.seat == observation.current_seat
        action = self.bot.choose(observation, list(legal_actions))
        assert action in legal_actions, f"{self.name} chose {action}, not in {legal_actions}"
        self.decisions += 1
        return action


def play(deal: Deal, bots: Sequence[Bot], step_limit: int = 5000) -> list[Action]:
    """Play the deal to its end; the actions taken."""
    taken: list[Action] = []
    while not deal.is_over:
        assert len(taken) < step_limit, "a deal that never ends"
        seat = deal.current_seat
        assert seat is not None
        action = bots[seat].choose(deal.observe(seat), deal.legal_actions())
        deal.apply(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_cheap_bots_only_play_legal_actions(preset: str, players: int) -> None:
    names = ["random", "simple", "medium"]
    referees = []
    for seed in range(3):
        deal = new_deal(preset, players=players, seed=seed, dealer=seed % players)
        seats = [
            Referee(
                make_bot(names[(seat + seed) % 3], seed=seed * 7 + seat, samples=4)
                if names[(seat + seed) % 3] == "medium"
                else make_bot(names[(seat + seed) % 3], seed=seed * 7 + seat)
            )
            for seat in range(players)
        ]
        play(deal, seats)
        assert deal.settlement is not None
        referees += seats
    assert sum(r.decisions for r in referees) >= 10


@pytest.mark.parametrize("preset", preset_names())
def test_hard_bot_only_plays_legal_actions(preset: str) -> None:
    players = 3 if find_rules(preset).max_players >= 3 else 2
    deal = new_deal(preset, players=players, seed=4, dealer=0)
    hard = Referee(HardBot(seed=1, rollouts=1, candidates=2, knock_samples=4))
    seats: list[Bot] = [hard, *(Referee(make_bot("simple")) for _ in range(players - 1))]
    while not deal.is_over and hard.decisions < 25:
        seat = deal.current_seat
        assert seat is not None
        deal.apply(seats[seat].choose(deal.observe(seat), deal.legal_actions()))
    assert hard.decisions > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    names=st.lists(st.sampled_from(["random", "simple", "easy", "medium"]), min_size=6, max_size=6),
)
def test_any_mix_of_bots_finishes_any_deal_legally(
    table: tuple[str, int], seed: int, names: list[str]
) -> None:
    preset, players = table
    deal = new_deal(preset, players=players, seed=seed, dealer=seed % players)
    seats: list[Bot] = [
        Referee(
            make_bot(names[s], seed=seed + s, **({"samples": 4} if names[s] == "medium" else {}))
        )
        for s in range(players)
    ]
    play(deal, seats)
    assert deal.settlement is not None
    assert sum(deal.settlement.net) == 0 or find_rules(preset).family != "knock"


def test_thousands_of_decisions_are_all_legal() -> None:
    decisions = 0
    seed = 0
    while decisions < 3000:
        preset, players = TABLES[seed % len(TABLES)]
        deal = new_deal(preset, players=players, seed=1000 + seed, dealer=seed % players)
        seats = [
            Referee(make_bot(("random", "simple")[(s + seed) % 2], seed=seed + s))
            for s in range(players)
        ]
        play(deal, seats)
        decisions += sum(r.decisions for r in seats)
        seed += 1
    assert decisions >= 3000


# -- determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("random", {}),
        ("simple", {}),
        ("medium", {"samples": 6}),
        ("hard", {"rollouts": 2, "knock_samples": 4}),
    ],
)
def test_same_seed_same_play(name: str, options: dict[str, object]) -> None:
    def run() -> list[Action]:
        deal = new_deal("knock", players=2, seed=21, dealer=1)
        return play(deal, [make_bot(name, seed=3, **options), make_bot(name, seed=4, **options)])

    assert run() == run()


def test_random_bots_with_different_seeds_play_differently() -> None:
    def run(seed: int) -> list[Action]:
        deal = new_deal("rummy", players=2, seed=21, dealer=1)
        return play(deal, [make_bot("random", seed=seed), make_bot("random", seed=seed + 1)])

    assert run(1) != run(5)


# -- strength --------------------------------------------------------------------------------


def duplicate_net(first: Bot, second: Bot, preset: str, seeds: range) -> float:
    """``first``'s total net minus ``second``'s over each deal played from both seats."""
    total = 0.0
    for seed in seeds:
        for first_seat in (0, 1):
            deal = new_deal(preset, players=2, seed=seed, dealer=0)
            bots = [first, second] if first_seat == 0 else [second, first]
            play(deal, bots)
            assert deal.settlement is not None
            net = deal.settlement.net
            total += float(net[first_seat] - net[1 - first_seat])
    return total


def test_hard_beats_random_in_a_small_seeded_match() -> None:
    hard = HardBot(seed=2, rollouts=3, candidates=3, knock_samples=8)
    assert duplicate_net(hard, make_bot("random", seed=2), "knock", range(4)) > 0


def test_simple_and_medium_beat_random_in_gin() -> None:
    assert duplicate_net(make_bot("simple"), make_bot("random", seed=1), "gin", range(10)) > 0
    assert (
        duplicate_net(make_bot("medium", seed=1), make_bot("random", seed=1), "gin", range(10)) > 0
    )
