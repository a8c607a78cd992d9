"""Our bots at OpenSpiel's C++ gin_rummy through the adapter, and the benchmark script."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pyspiel
import pytest

from pyrummy.bots.hard import HardBot
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import ALL_CARDS, Card, CardSet
from pyrummy.core.melds import check_meld
from pyrummy.core.phases import Phase
from pyrummy.research.openspiel_gin import (
    GIN_RULES,
    PyrummyGinBot,
    _View,
    card_from_openspiel,
    card_to_openspiel,
    meld_numbers,
)

ROOT = Path(__file__).resolve().parents[2]
GAME = pyspiel.load_game("gin_rummy")


def test_card_numbers_follow_openspiels_own_names() -> None:
    state = GAME.new_initial_state()
    for number in range(52):
        name = state.action_to_string(pyspiel.PlayerId.CHANCE, number).rsplit(" ", 1)[-1]
        card = card_from_openspiel(number)
        assert str(card) == name[0] + name[1].upper()
        assert card_to_openspiel(card) == number
    assert sorted(card_to_openspiel(c) for c in ALL_CARDS[:52]) == list(range(52))


def test_every_openspiel_meld_is_one_of_our_gin_melds() -> None:
    table = meld_numbers()
    assert len(table) == 185
    assert sorted(table.values()) == list(range(56, 241))
    for mask in table:
        assert 3 <= len(check_meld(CardSet(mask), GIN_RULES).cards) <= 5


def _start(seed: int, swap_second_hand: bool = False) -> pyspiel.State:
    """A dealt state; with ``swap_second_hand``, player 1 gets ten other cards."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    if swap_second_hand:
        deck[10:20], deck[21:31] = deck[21:31], deck[10:20]
    state = GAME.new_initial_state()
    for card in deck[:21]:
        state.apply_action(card)
    return state, deck


def test_the_view_does_not_depend_on_the_opponents_hidden_cards() -> None:
    for seed in range(5):
        views = []
        for swap in (False, True):
            state, deck = _start(seed, swap)
            state.apply_action(54)  # player 0 passes the first upcard
            state.apply_action(54)  # player 1 passes too
            state.apply_action(53)  # player 0 draws from the stock
            state.apply_action(deck[40])  # the same stock card either way
            view = _View(state, 0)
            observation = view.observation(Phase.DISCARD, view.hand, [])
            views.append(observation)
        first, second = views
        assert first == second
        assert first.drawn_card == card_from_openspiel(deck[40])
        assert first.hand == CardSet(card_from_openspiel(n) for n in [*deck[:10], deck[40]])


def test_the_view_records_public_moves_and_taken_upcards() -> None:
    state, deck = _start(3)
    state.apply_action(52)  # player 0 takes the first upcard
    upcard = card_from_openspiel(deck[20])
    discard = next(a for a in state.legal_actions() if a != deck[20] and a < 52)
    state.apply_action(discard)
    view = _View(state, 1)
    assert view.known[0] == CardSet([upcard])
    assert [(seat, str(action)) for seat, action in view.history] == [
        (0, "draw discard"),
        (0, f"discard {card_from_openspiel(discard)}"),
    ]
    assert view.upcard == card_from_openspiel(discard)
    observation = view.observation(Phase.DRAW, view.hand, [])
    assert observation.taken_discards[0] == (upcard,)
    assert observation.discard_pile[-1] == card_from_openspiel(discard)


def _play(bots: list[PyrummyGinBot | pyspiel.Bot], seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


@pytest.mark.parametrize("name", ["random", "simple", "medium"])
def test_our_bots_finish_hands_against_openspiels_simple_bot(name: str) -> None:
    params = GAME.get_parameters()
    for seed in range(6):
        ours = seed % 2
        mine = PyrummyGinBot(name, ours, seed=seed)
        theirs = pyspiel.make_simple_gin_rummy_bot(params, 1 - ours)
        bots: list[PyrummyGinBot | pyspiel.Bot] = [mine, theirs] if ours == 0 else [theirs, mine]
        state = _play(bots, seed)
        assert sum(state.returns()) == 0.0


def test_hard_bot_knocks_and_lays_its_melds() -> None:
    # Two copies of our hard bot (few rollouts): somebody knocks in most hands,
    # so the knock, meld and lay-off translation is exercised.
    knocked = 0
    for seed in range(4):
        bots = [PyrummyGinBot(HardBot(seed=seed, rollouts=3), p) for p in range(2)]
        state = _play(bots, 100 + seed)
        if any(state.knocked()):
            knocked += 1
            knocker = 0 if state.knocked()[0] else 1
            assert state.layed_melds()[knocker] or state.deadwood()[knocker] <= 10
            assert state.deadwood()[knocker] <= 10
    assert knocked >= 1


def test_wall_decisions_are_asked_of_our_bot() -> None:
    class Recorder:
        """Never knocks: passes the first upcard, draws stock, throws the drawn card."""

        name = "recorder"

        def __init__(self) -> None:
            self.walls = 0

        def choose(self, observation, legal_actions):  # type: ignore[no-untyped-def]
            # Only at the wall is the upcard in hand with two cards left in the stock.
            if observation.stock_count == 2 and observation.taken_discard is not None:
                assert observation.phase is Phase.DISCARD
                assert observation.taken_discard in observation.hand
                assert any(a.kind is ActionKind.KNOCK for a in legal_actions)
                self.walls += 1
            drawn = [a for a in legal_actions if a.cards == (observation.drawn_card,)]
            discards = [a for a in legal_actions if a.kind is ActionKind.DISCARD]
            return (drawn or discards or legal_actions)[0]

    recorders = [Recorder(), Recorder()]
    bots = [PyrummyGinBot(recorders[p], p) for p in range(2)]
    # Player 1 holds A-9 of spades and the king of hearts (deadwood 10): at the
    # wall (player 0 makes the 29th stock draw) it may take the upcard and knock.
    low = [card_to_openspiel(Card(f"{r}S")) for r in "A23456789"] + [card_to_openspiel(Card("KH"))]
    rest = [n for n in range(52) if n not in low]
    deck = rest[:10] + low + rest[10:]
    state = GAME.new_initial_state()
    position = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(deck[position])
            position += 1
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert recorders[1].walls == 1 and recorders[0].walls == 0
    assert state.returns() == [0.0, 0.0]  # the recorder passed at the wall: a draw
    assert state.stock_size() == 2


def test_card_objects_are_ours() -> None:
    assert card_from_openspiel(0) is Card("AS")


def test_benchmark_script_runs_small() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "vs_openspiel_gin.py"),
            "--games",
            "2",
            "--hands",
            "4",
            "--bots",
            "medium",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    line = result.stdout.splitlines()[-1]
    assert line.startswith("medium  games ")
    assert "over 4 hands" in line and "/2 won" in line


def test_benchmark_diagnosis_accounts_for_every_hand() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "vs_openspiel_gin.py"),
            "--hands",
            "6",
            "--bots",
            "medium",
            "--workers",
            "1",
            "--diagnose",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[1].startswith("medium: 6 hands, ")
    # One row per ending seen; the rows' hand counts add up to the hands played.
    rows = [line.split() for line in lines[3:] if not line.strip().startswith("held")]
    counts = [int(next(word for word in row if word.isdigit())) for row in rows]
    assert sum(counts) == 6
