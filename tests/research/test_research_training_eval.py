"""The training module's evaluation measures what the arena measures: every deal
counted, whoever ends it, in true duplicate, and the policy is the shipped bot's."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from pyrummy.bots.learned import LearnedBot
from pyrummy.core.actions import Action, ActionKind, action_space
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.observation import Observation
from pyrummy.nn.features import Layout
from pyrummy.research.encoding import deal_rewards, research_legal_actions
from pyrummy.research.gym import RummyEnv
from pyrummy.research.training import Policy, evaluate_policy, greedy, new_model

#: The shipped weights files, by preset.
WEIGHTS = Path(__file__).resolve().parents[2] / "src" / "pyrummy" / "bots" / "weights"


class KnockAtOnce:
    """Knocks whenever it may, else plays its lowest-numbered legal action."""

    name = "knock-at-once"

    def __init__(self, rules: str) -> None:
        self.space = action_space(rules)

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return min(
            legal_actions, key=lambda a: (a.kind is not ActionKind.KNOCK, self.space.encode(a))
        )


def knock_at_once(rules: str, calls: list[int] | None = None) -> Policy:
    """:class:`KnockAtOnce`'s play as a policy on action numbers (counting its calls)."""
    space = action_space(rules)

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        if calls is not None:
            calls.append(1)
        numbers = [int(n) for n in np.flatnonzero(mask)]
        return min(numbers, key=lambda n: (space.decode(n).kind is not ActionKind.KNOCK, n))

    return choose


def test_the_same_play_from_both_seats_nets_zero_in_every_deal() -> None:
    # The opponent knocks on its first turn whenever it moves first: a deal
    # the policy never acts in. Counted, each deal played from both seats by
    # the same play is the same game with the seats swapped: exactly zero.
    # (Re-dealing those deals, as the environment's reset does, gave the
    # policy other cards in one seat and a nonzero result.)
    mean, half = evaluate_policy(knock_at_once("knock"), "knock", 2, KnockAtOnce("knock"), 20, 5)
    assert (mean, half) == (0.0, 0.0)


def test_play_deal_counts_a_deal_the_opponents_end_first() -> None:
    unplayed = 0
    for seed in range(6):
        for seat in range(2):
            env = RummyEnv("knock", 2, opponents=KnockAtOnce("knock"), seat=seat)
            calls: list[int] = []
            reward = env.play_deal(knock_at_once("knock", calls), seed=seed)
            deal = env.deal
            assert deal is not None and deal.settlement is not None
            assert reward == deal_rewards(deal.settlement, env.rules)[seat]
            if not calls:
                unplayed += 1
            else:
                # the deal reset(seed) deals: the same cards
                deck = deal.deck
                env.reset(seed=seed)
                assert env.deal is not None and env.deal.deck == deck
    assert unplayed == 6  # one seat of every deal


def test_play_deal_raises_on_an_illegal_action() -> None:
    env = RummyEnv("knock", 2, opponents="random", seat=0)
    with pytest.raises(IllegalActionError):
        env.play_deal(lambda observation, mask: int(np.flatnonzero(mask == 0)[-1]), seed=1)


@pytest.mark.parametrize("rules", ["knock", "gin"])
def test_the_report_plays_what_the_learned_bot_plays(rules: str) -> None:
    model, _ = new_model(rules, 2, 0, str(WEIGHTS / f"{rules}-2p.npz"))
    policy = greedy(model, Layout.of(rules, 2))
    bot = LearnedBot()
    decisions = 0
    for seed in range(15):
        env = RummyEnv(rules, 2, opponents="medium", seat=seed % 2)
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            deal = env.deal
            assert deal is not None
            mine = policy(observation, info["action_mask"])
            shipped = bot.choose(deal.observe(env.seat), research_legal_actions(deal))
            assert mine == env.space.encode(shipped)
            decisions += 1
            observation, _, terminated, truncated, info = env.step(mine)
            done = terminated or truncated
    assert decisions >= 30
