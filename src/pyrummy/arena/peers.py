"""Other projects' gin bots as arena entrants: OpenSpiel's and RLCard's.

These are benchmark peers, not dependencies: each library is imported only
when its bot plays (OpenSpiel comes with ``pyrummy[research]``; RLCard is
installed by hand, ``pip install rlcard==1.2.0``).

- ``openspiel:simple``: ``pyspiel.make_simple_gin_rummy_bot`` as OpenSpiel
  ships it, in OpenSpiel's ``gin_rummy``.
- ``openspiel:ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
  (UCT constant 2, one random rollout per leaf, the most visited move), all
  its random numbers (the rollouts and the worlds it samples) from the
  deal's seed.
- ``rlcard:gin-rule``: RLCard's ``GinRummyNoviceRuleAgent`` behind our bot
  interface (:class:`RLCardGinRuleBot`): it goes gin when it can, else
  knocks when it can, else discards a card that leaves the least deadwood;
  its draw is a coin toss between the stock and the upcard. Importing its
  module imports all of RLCard's agents (torch, where installed, and a
  ``pip freeze`` that RLCard runs): a few seconds, once per process.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, Final

from pyrummy.bots.base import require_actions
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import CardSet
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood
from pyrummy.core.values import card_value

# RLCard's gin action numbers (rlcard.games.gin_rummy.utils.action_event).
_RL_DRAW: Final = 2
_RL_PICK_UP: Final = 3
_RL_GIN: Final = 5
_RL_DISCARD: Final = 6
_RL_KNOCK: Final = 58

#: OpenSpiel's ISMCTS simulations a decision, unless the entrant says (``+simulations=N``).
DEFAULT_ISMCTS_SIMULATIONS: Final = 40


def make_openspiel_bot(
    name: str, options: Mapping[str, object], game: Any, player: int, seed: int
) -> Any:
    """OpenSpiel's bot ``name`` (``openspiel:simple`` or ``openspiel:ismcts``) for ``player``."""
    import pyspiel

    if name == "openspiel:simple":
        return pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player)
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed % 2**32)
    simulations = options.get("simulations", DEFAULT_ISMCTS_SIMULATIONS)
    uct_c = options.get("uct_c", 2.0)
    if not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"openspiel:ismcts simulations: a whole number >= 1, not {simulations!r}")
    if not isinstance(uct_c, int | float):
        raise ValueError(f"openspiel:ismcts uct_c: a number, not {uct_c!r}")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=float(uct_c),
        max_simulations=simulations,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )

    def resample(state: Any, player: int) -> Any:
        # Its own resampler draws from an unseeded sampler; this one from the seed.
        sampler = pyspiel.UniformProbabilitySampler(int(rng.randint(2**31)), 0.0, 1.0)
        return state.resample_from_infostate(player, sampler)

    bot.set_resampler(resample)
    return bot


class RLCardGinRuleBot:
    """RLCard's novice gin rule agent, answering for one seat of our gin.

    Our legal actions become RLCard's action numbers (RLCard numbers cards
    as we do, ``13 * suit + rank`` with suits S H D C): ``draw stock`` and
    ``decline`` (the first upcard passed) are its *draw card*, ``draw
    discard`` its *pick up discard*, a discard and a knock the same card's,
    and a knock that leaves no deadwood its *gin*. The agent chooses with
    ``numpy.random``; it is seeded from this bot's seed for each decision
    and the global numpy state restored after, so the same seed gives the
    same moves. ``undo`` is never offered to it.
    """

    name = "rlcard:gin-rule"

    def __init__(self, seed: int | None, rules: Rules) -> None:
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self.agent = GinRummyNoviceRuleAgent()
        self.rng = random.Random(seed)
        self.rules = rules

    def _number(self, action: Action, hand_mask: int, has_stock_draw: bool) -> int | None:
        kind = action.kind
        if kind is ActionKind.DRAW_STOCK or (kind is ActionKind.DECLINE and not has_stock_draw):
            return _RL_DRAW
        if kind is ActionKind.DRAW_DISCARD:
            return _RL_PICK_UP
        if kind is ActionKind.DISCARD:
            return _RL_DISCARD + action.card.index
        if kind is ActionKind.KNOCK:
            rest = CardSet(hand_mask & ~action.card.bit)
            if deadwood(rest, self.rules) == 0:
                return _RL_GIN
            return _RL_KNOCK + action.card.index
        return None

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        import numpy as np

        require_actions(legal_actions)
        has_stock_draw = any(a.kind is ActionKind.DRAW_STOCK for a in legal_actions)
        hand_mask = observation.hand.mask
        ours: dict[int, list[Action]] = {}
        for action in legal_actions:
            number = self._number(action, hand_mask, has_stock_draw)
            if number is not None:
                ours.setdefault(number, []).append(action)
        if not ours:  # nothing RLCard knows (an undo only): the first legal action
            return legal_actions[0]
        hand = np.zeros((5, 52), dtype=np.int8)
        for card in observation.hand:
            hand[0, card.index] = 1
        state: dict[str, Any] = {
            "legal_actions": OrderedDict((number, None) for number in sorted(ours)),
            "obs": hand,
        }
        saved = np.random.get_state()
        np.random.seed(self.rng.randrange(2**32))
        try:
            number = int(self.agent.step(state))
        finally:
            np.random.set_state(saved)
        choices = ours[number]
        if number == _RL_GIN:  # its gin: discard the costliest card that leaves none
            return max(choices, key=lambda a: (card_value(a.card, self.rules), a.card.index))
        return choices[0]
