"""A Gymnasium single-agent environment: one seat learns, the others are our bots.

``RummyEnv(rules="knock", players=2, opponents="medium", seed=None)``: an
episode is one deal. The learner's seat is drawn at every reset (or fixed
with ``seat=``); the other seats are played by :func:`pyrummy.bots.make_bot`
bots (one name for all of them, or one name or bot per opponent).

- ``action_space``: ``Discrete(n)``, the core's integer action space
  (``docs/actions.md``); ``info["action_mask"]`` (and :meth:`RummyEnv.action_masks`,
  the name sb3-contrib's maskable algorithms look for) marks the legal ones.
  ``undo`` is never legal.
- ``observation_space``: ``Box(0, 1, (size,), float32)``, the version-1
  encoding of the learner's :class:`~pyrummy.core.observation.Observation`
  (:mod:`pyrummy.research.encoding`).
- Reward: 0 until the deal ends, then the learner's
  :func:`~pyrummy.nn.encoding.deal_rewards` entry (zero-sum over the
  table; the net points for the knock presets).
- An illegal action (``illegal_action="ignore"``, the default, so unmasked
  random agents and Gymnasium's checker can run) changes nothing, earns
  ``illegal_reward`` and sets ``info["illegal_action"]``; ``"raise"`` raises.
  After ``max_steps`` learner steps the episode is truncated.
- A deal the opponents finish before the learner's first decision (a knock
  on their first turn) is re-dealt: ``reset`` always returns a position where
  the learner acts. That suits learning (no decision is lost) but not
  measuring: :meth:`RummyEnv.play_deal` plays one whole deal for a policy and
  counts it whoever ends it, the deal :func:`pyrummy.research.training.evaluate_policy`
  plays.
- Registered with Gymnasium as ``pyrummy/Rummy-v0`` (keyword arguments as
  above).

>>> env = RummyEnv("knock", players=2, opponents="random", seed=1)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum()) >= 1
((513,), True)
>>> import numpy as np
>>> done = False
>>> while not done:
...     action = int(np.flatnonzero(info["action_mask"])[0])
...     observation, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> terminated
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from pyrummy.bots.base import Bot
from pyrummy.bots.random_bot import RandomBot
from pyrummy.bots.registry import make_bot
from pyrummy.core.actions import action_space
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.core.rules import Rules, find_rules
from pyrummy.research.deal_encoding import LegalActionsOfNow, encode_seat
from pyrummy.research.encoding import deal_rewards, observation_size, research_legal_actions
from pyrummy.research.render import render_for_mode

#: Attempts at a deal where the learner gets to act before giving up.
_REDEALS = 100

#: A policy as :meth:`RummyEnv.play_deal` plays it: the learner's observation
#: vector and action mask in, an action number out.
DealPolicy = Callable[[np.ndarray, np.ndarray], int]


class RummyEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One deal against bots, from one seat (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "knock",
        players: int = 2,
        opponents: str | Bot | Sequence[str | Bot] = "medium",
        seed: int | None = None,
        *,
        seat: int | None = None,
        render_mode: str | None = None,
        illegal_action: Literal["raise", "ignore"] = "ignore",
        illegal_reward: float = 0.0,
        max_steps: int = 2000,
        **options: object,
    ) -> None:
        super().__init__()
        self.rules: Rules = find_rules(rules, **options)
        self.rules.check_players(players)
        if seat is not None and not 0 <= seat < players:
            raise RulesError(f"seat must be 0-{players - 1}, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode must be ansi or human, not {render_mode!r}")
        if illegal_action not in ("raise", "ignore"):
            raise RulesError(f"illegal_action must be 'raise' or 'ignore', not {illegal_action!r}")
        self.players = players
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self._opponent_spec = opponents
        self.space = action_space(self.rules)
        self.action_space = spaces.Discrete(self.space.size)
        self.observation_space = spaces.Box(0.0, 1.0, (observation_size(players),), np.float32)
        self._seed = seed
        self._seeded = False
        self.deal: Deal | None = None
        self.seat = 0
        self.opponents: list[Bot | None] = []
        self._steps = 0
        self._legal_now = LegalActionsOfNow()

    # -- episode -----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new deal and play the opponents up to the learner's first decision.

        ``seed`` reseeds the environment (the first reset uses the constructor's
        seed); returns the learner's encoded observation and ``info``
        (``action_mask``, ``seat``).
        """
        if seed is None and not self._seeded:
            seed = self._seed
        super().reset(seed=seed)
        self._seeded = True
        for _ in range(_REDEALS):
            self._new_deal()
            if not self._deal().is_over:
                break
        else:  # pragma: no cover - needs a hundred first-turn knocks in a row
            raise RulesError("the opponents ended every deal before the learner could act")
        self._steps = 0
        return self._observation(), self._info()

    def play_deal(self, policy: DealPolicy, seed: int | None = None) -> float:
        """Deal once (reseeded with ``seed`` when given) and play the whole deal,
        ``policy`` choosing the learner's actions; the learner's reward.

        Unlike :meth:`reset`, a deal the opponents end before the learner's
        first decision is not dealt again: it counts, with its reward. The
        deal is the one ``reset(seed=seed)`` deals first, so a fixed ``seat``
        and seed give the same deal from every seat (duplicate). A deal still
        going after ``max_steps`` learner steps earns 0; an illegal action
        raises :class:`~pyrummy.core.errors.IllegalActionError`.
        """
        super().reset(seed=seed)
        self._seeded = True
        self._new_deal()
        deal = self._deal()
        self._steps = 0
        while not deal.is_over:
            if self._steps >= self.max_steps:
                return 0.0
            self._steps += 1
            legal, numbers = self._legal_now(deal)
            number = int(policy(self._observation(), self.action_masks()))
            if number not in numbers:
                raise IllegalActionError(f"{number} is not a legal action number now")
            deal.apply(legal[numbers.index(number)])
            self._play_opponents()
        assert deal.settlement is not None
        return deal_rewards(deal.settlement, self.rules)[self.seat]

    def _new_deal(self) -> None:
        rng = self.np_random
        self.seat = (
            self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.players))
        )
        dealer = int(rng.integers(self.players))
        self.deal = new_deal(self.rules, self.players, seed=int(rng.integers(2**62)), dealer=dealer)
        self.opponents = [
            None if other == self.seat else self._opponent(other, int(rng.integers(2**31)))
            for other in range(self.players)
        ]
        self._play_opponents()

    def _opponent(self, seat: int, seed: int) -> Bot:
        spec = self._opponent_spec
        if not isinstance(spec, str) and isinstance(spec, Sequence):
            others = [s for s in range(self.players) if s != self.seat]
            spec = spec[others.index(seat) % len(spec)]
        if isinstance(spec, str):
            return make_bot(spec, seed=seed)
        return spec

    def _deal(self) -> Deal:
        if self.deal is None:
            raise RulesError("call reset() before step()")
        return self.deal

    def _play_opponents(self) -> None:
        deal = self._deal()
        while not deal.is_over and deal.current_seat != self.seat:
            seat = deal.current_seat
            assert seat is not None
            bot = self.opponents[seat]
            assert bot is not None
            legal = research_legal_actions(deal)
            # The random bot reads no observation: building one would cost
            # more than the rest of its move.
            seen = None if type(bot) is RandomBot else deal.observe(seat)
            deal.apply(bot.choose(seen, legal))  # type: ignore[arg-type]

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` (an action number), then the opponents
        up to the learner's next decision or the end of the deal.

        Returns ``(observation, reward, terminated, truncated, info)`` as
        Gymnasium does; an illegal action is handled as ``illegal_action`` says.
        """
        deal = self._deal()
        if deal.is_over:
            raise RulesError("the deal is over: call reset()")
        self._steps += 1
        legal, numbers = self._legal_now(deal)
        try:
            number: int | None = int(action)
        except (TypeError, ValueError):
            number = None
        reward = 0.0
        illegal = number not in numbers
        if illegal:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"{action!r} is not a legal action number now")
            reward = self.illegal_reward
        else:
            deal.apply(legal[numbers.index(number)])  # type: ignore[arg-type]
            self._play_opponents()
        terminated = deal.is_over
        if terminated:
            assert deal.settlement is not None
            reward += deal_rewards(deal.settlement, self.rules)[self.seat]
        truncated = not terminated and self._steps >= self.max_steps
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    # -- views ---------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        return encode_seat(self._deal(), self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal actions as a 0/1 int8 vector (all zero once the deal is over)."""
        deal = self._deal()
        mask = np.zeros(self.space.size, np.int8)
        if deal.current_seat == self.seat:
            mask[self._legal_now(deal)[1]] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def render(self) -> str | None:
        """The deal as text (``render_mode="ansi"`` returns it, ``"human"`` prints it)."""
        return render_for_mode(self._deal(), self.render_mode)

    def close(self) -> None:
        """Drop the current deal."""
        self.deal = None


#: The Gymnasium id: ``gymnasium.make("pyrummy/Rummy-v0", rules="gin", opponents="hard")``.
ENV_ID = "pyrummy/Rummy-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="pyrummy.research.gym:RummyEnv")
