"""Gin: how a player's turns read: is its give-back a least-deadwood card, does it take up-cards that fit?

Plays OpenSpiel gin hands of one of our bots (``--bot``, default medium)
against OpenSpiel's repaired simple bot (as ``vs_openspiel_gin.py`` does,
seats swapped every hand) and, at each turn of either side, looks at its true
hand (diagnostic only: no bot sees it):

- a give-back: is it among the cards that leave the least deadwood (the
  up-card just taken excluded), and is it the highest-valued of those;
- a draw with an up-card: does the up-card *fit* (lower the deadwood of the
  10 cards plus it by more than its own value, the rule of the play-outs in
  :mod:`pyrummy.bots.gin_hold`), and was it taken.

These counts fit ``DEFAULT_DISCARD_LIKELIHOOD`` in :mod:`pyrummy.bots.gin_hold`::

    .venv-bench/bin/python benchmarks/gin_turn_fit.py --hands 100 --bot medium
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence

import pyspiel
from pyspiel import gin_rummy

from pyrummy.bots.gin_hold import highest_value
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask
from pyrummy.core.suit_tables import card_values
from pyrummy.research.openspiel_gin import card_from_openspiel
from vs_openspiel_gin import Budget, _make_bots

_VALUES = card_values("low")


def _mask(numbers: Sequence[int]) -> int:
    mask = 0
    for number in numbers:
        mask |= card_from_openspiel(number).bit
    return mask


def fit(hands: int, bot: str, seed: int) -> dict[str, Counter[str]]:
    """Counts per side (``repaired`` and ``bot``) over ``hands`` hands."""
    game = pyspiel.load_game("gin_rummy")
    counts: dict[str, Counter[str]] = {"repaired": Counter(), bot: Counter()}
    budget = Budget(0.06, 16, "repaired")
    for i in range(hands):
        ours = i % 2
        rng = random.Random(seed * 100_003 + i)
        bots = _make_bots(game, bot, ours, seed * 100_003 + i, budget)
        state = game.new_initial_state()
        taken: dict[int, int] = {0: 0, 1: 0}
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            player = state.current_player()
            side = counts[bot if player == ours else "repaired"]
            phase = state.current_phase()
            action = int(bots[player].step(state))
            hand = _mask(state.hands()[player])
            if phase in (gin_rummy.Phase.DRAW, gin_rummy.Phase.FIRST_UPCARD):
                took = action == gin_rummy.DRAW_UPCARD_ACTION
                taken[player] = card_from_openspiel(state.upcard()).bit if took else 0
                if phase == gin_rummy.Phase.DRAW and state.upcard() >= 0:
                    up = card_from_openspiel(state.upcard())
                    fits = (
                        deadwood_of_mask(hand | up.bit) < deadwood_of_mask(hand) + _VALUES[up.index]
                    )
                    side[
                        f"up-card {'fits' if fits else 'does not fit'}, {'taken' if took else 'passed'}"
                    ] += 1
            elif phase == gin_rummy.Phase.DISCARD and action < 52:
                card = card_from_openspiel(action)
                least, tied = best_discards_of_mask(hand, "low", keep=taken[player])
                side["give-backs"] += 1
                if deadwood_of_mask(hand & ~card.bit) == least:
                    side["least deadwood"] += 1
                    if highest_value(tied, _VALUES) == card.index:
                        side["least deadwood, highest value"] += 1
            state.apply_action(action)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--bot", default="medium", help="our bot (options as vs_openspiel_gin)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for side, counts in fit(args.hands, args.bot, args.seed).items():
        print(f"{side}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
