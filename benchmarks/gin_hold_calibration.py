"""Gin: how well do re-deals of the opponent's hand price "knock now"? Estimate against truth.

Plays OpenSpiel gin hands of the hard bot against OpenSpiel's simple bot
(``--opponent stock`` or ``repaired``, as in ``vs_openspiel_gin.py``). At
every discard decision of ours where a knock without gin is legal it asks
:func:`~pyrummy.bots.gin_hold.hold_values` for the mean value of knocking
now with the least-deadwood card, once per ``--selection`` (the opponent's
unknown cards the best of that many more: 0 is a uniform re-deal, the
medium bot's), and settles the same knock on the opponent's true hand
(:func:`~pyrummy.bots.gin_hold.knock_net`). A calibrated model has a mean
estimate equal to the mean truth. Diagnostic only: the bots never see the
hidden hand.

    .venv-bench/bin/python benchmarks/gin_hold_calibration.py --hands 150 --selection 0 3 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from typing import Any

import pyspiel
from pyspiel import gin_rummy

from pyrummy.bots.gin_hold import hold_values, knock_net
from pyrummy.bots.hand import best_give_back
from pyrummy.core.actions import ActionKind
from pyrummy.core.phases import Phase
from pyrummy.core.solver import deadwood_of_mask
from pyrummy.research.openspiel_gin import (
    GIN_RULES,
    PyrummyGinBot,
    _cards,
    _give_backs,
    _View,
)
from vs_openspiel_gin import make_opponent


def _knock_rows(
    state: Any, our: int, selections: Sequence[int], samples: int
) -> tuple[float, list[float], int] | None:
    """(true value of knocking now, estimate per selection, opponent's deadwood), or None."""
    view = _View(state, our)
    options = _give_backs(view.hand, view.taken, True)
    observation = view.observation(Phase.DISCARD, view.hand, options)
    hand = observation.hand.mask
    left = {
        a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, GIN_RULES.ace)
        for a in options
        if a.kind is ActionKind.KNOCK
    }
    least, card = best_give_back(left, GIN_RULES)
    if least == 0:
        return None
    theirs = _cards(state.hands()[1 - our]).mask
    truth = float(knock_net(hand & ~card.bit, theirs, GIN_RULES))
    estimates = [
        hold_values(
            observation,
            card.index,
            GIN_RULES,
            random.Random(1),
            samples=samples,
            wait_stock=14,
            selection=selection,
        ).now
        for selection in selections
    ]
    return truth, estimates, deadwood_of_mask(theirs, GIN_RULES.ace)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=["stock", "repaired"], default="repaired")
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--selection", type=int, nargs="+", default=[0, 3, 10])
    args = parser.parse_args(argv)
    game = pyspiel.load_game("gin_rummy")
    truths: list[float] = []
    estimates: list[list[float]] = []
    deadwoods: list[int] = []
    for number in range(args.hands):
        seed = args.seed * 1_000_003 + number
        rng = random.Random(seed)
        our = number % 2
        ours = PyrummyGinBot("hard", our, seed=seed, rollouts=8)
        bots = [ours, make_opponent(game, args.opponent, 1 - our)]
        if our == 1:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            player = state.current_player()
            if (
                player == our
                and state.current_phase() == gin_rummy.Phase.DISCARD
                and gin_rummy.KNOCK_ACTION in state.legal_actions()
            ):
                found = _knock_rows(state, our, args.selection, args.samples)
                if found is not None:
                    truths.append(found[0])
                    estimates.append(found[1])
                    deadwoods.append(found[2])
            state.apply_action(int(bots[player].step(state)))
    count = len(truths)
    print(
        f"{count} knock decisions in {args.hands} hands against the {args.opponent} bot; "
        f"true value of knocking now {statistics.mean(truths):+.1f} a decision "
        f"(opponent's true deadwood {statistics.mean(deadwoods):.1f})"
    )
    for column, selection in enumerate(args.selection):
        guesses = [row[column] for row in estimates]
        errors = [g - t for g, t in zip(guesses, truths, strict=True)]
        print(
            f"  selection {selection:2d}: estimate {statistics.mean(guesses):+.1f}, "
            f"mean error {statistics.mean(errors):+.1f}, "
            f"mean absolute error {statistics.mean(abs(e) for e in errors):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
