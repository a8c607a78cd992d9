"""Gin: how often an opponent's hand holds two meld partners of a card it refused earlier.

Plays OpenSpiel gin hands of one of our bots (``--bot``, default medium)
against OpenSpiel's repaired simple bot (as ``vs_openspiel_gin.py`` does,
seats swapped every hand). At each discard decision of ours, the cards the
opponent gave back or drew from the stock over before its last turn
(:func:`pyrummy.bots.gin_read.earlier_refusals`) are counted against its
true hand (diagnostic only: no bot sees it) and against ``--redeals``
re-deals of :class:`pyrummy.bots.gin_hold.Redeals` (the last turn read,
the earlier ones not). The ratio of the two rates is the likelihood per
contradicted card (``earlier_likelihood`` of :class:`pyrummy.bots.gin_hold.Redeals`)::

    .venv-bench/bin/python benchmarks/gin_earlier_fit.py --hands 150 --seed 2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

import pyspiel
from pyspiel import gin_rummy

from pyrummy.bots.gin_hold import Play, Redeals
from pyrummy.bots.gin_read import contradicted, earlier_refusals
from pyrummy.core.actions import DISCARDS
from pyrummy.core.phases import Phase
from pyrummy.research.openspiel_gin import GIN_RULES, _View, card_from_openspiel
from vs_openspiel_gin import Budget, _make_bots


def fit(hands: int, bot: str, seed: int, redeals: int) -> tuple[int, int, float]:
    """(decisions, contradictions of the true hands, mean contradictions of a re-deal)."""
    game = pyspiel.load_game("gin_rummy")
    budget = Budget(0.06, 16, "repaired")
    decisions = true_hits = 0
    redealt = 0.0
    for i in range(hands):
        ours = i % 2
        rng = random.Random(seed * 100_003 + i)
        bots = _make_bots(game, bot, ours, seed * 100_003 + i, budget)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            player = state.current_player()
            if player == ours and state.current_phase() == gin_rummy.Phase.DISCARD:
                view = _View(state, ours)
                legal = [DISCARDS[card.index] for card in view.hand]
                seen = view.observation(Phase.DISCARD, view.hand, legal)
                refused = earlier_refusals(seen, 1 - ours)
                sampler = Redeals(seen, GIN_RULES, random.Random(i), Play(GIN_RULES))
                if refused and sampler.usable:
                    theirs = 0
                    for number in state.hands()[1 - ours]:
                        theirs |= card_from_openspiel(number).bit
                    decisions += 1
                    true_hits += contradicted(theirs, refused)
                    redealt += sum(
                        contradicted(sampler.draw()[0], refused) for _ in range(redeals)
                    ) / max(1, redeals)
            state.apply_action(int(bots[player].step(state)))
    return decisions, true_hits, redealt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--bot", default="medium", help="our bot (options as vs_openspiel_gin)")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--redeals", type=int, default=20, help="re-deals per decision")
    args = parser.parse_args(argv)
    decisions, true_hits, redealt = fit(args.hands, args.bot, args.seed, args.redeals)
    true_rate = true_hits / max(1, decisions)
    redeal_rate = redealt / max(1, decisions)
    print(
        f"{decisions} decisions: contradicted cards per decision, true hands {true_rate:.3f}, "
        f"re-deals {redeal_rate:.3f}; likelihood per card {true_rate / max(redeal_rate, 1e-9):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
