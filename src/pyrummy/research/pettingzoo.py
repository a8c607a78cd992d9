"""PettingZoo AEC environments: one deal of any preset, any player count.

``env(rules="knock", players=None, seed=None, render_mode=None, max_cycles=None,
schedule="turns", illegal_action="raise", **options)`` gives the
environment wrapped in PettingZoo's order-enforcing wrapper; ``raw_env``
the bare class. An episode is one deal. ``players`` defaults to four
where the rules allow it, else to the count they allow nearest to it (gin:
two), so every preset works with the defaults.

- **Agents** ``player_0`` ... ``player_{n-1}`` are the seats. The dealer is
  drawn from the environment's random generator at every reset.
- **Actions** are the core's integer action space (``docs/actions.md``,
  :class:`~pyrummy.core.actions.ActionSpace`): ``Discrete(space.size)``.
  ``undo`` is never legal here (it only adds loops for a learning agent).
- **Observations** are ``{"observation": float32 vector, "action_mask": int8
  vector}``; the vector is :func:`~pyrummy.nn.encoding.encode_observation`
  of the seat's own :class:`~pyrummy.core.observation.Observation` (encoding
  version 1, see :mod:`pyrummy.research.encoding`). The mask is all zeros for
  an agent that is not to act.
- **Rewards** are 0 until the deal ends, then
  :func:`~pyrummy.nn.encoding.deal_rewards` (zero-sum).
- **Schedules.** ``"turns"`` (default): ``agent_selection`` is always the seat
  to act, which acts as many times in a row as its turn needs (draw, then
  discard; melds and lay-offs in melding games). ``"cycle"``: the agents act
  strictly in the order ``player_0, player_1, ...``, once per *cycle*; an
  agent that is not the seat to act has one legal action, ``WAIT`` (number
  ``space.size``, so the space is ``Discrete(space.size + 1)``). Only the
  cycle schedule fits PettingZoo's parallel API (:func:`parallel_env`).
- **Truncation.** ``max_cycles``: the episode is truncated (rewards 0) after
  ``max_cycles`` cycles, where a cycle is one step of every agent: in the
  ``turns`` schedule after ``max_cycles * players`` steps. The rules' own
  turn cap always ends a deal normally (a settled showdown or a draw).
- **Illegal actions.** ``illegal_action="raise"`` raises
  :class:`~pyrummy.core.errors.IllegalActionError`; ``"ignore"`` leaves the
  deal unchanged, counts the step and sets ``infos[agent]["illegal_action"]``
  (what unmasked random play needs, e.g. PettingZoo's ``max_cycles_test``).

>>> e = env("knock", players=2, seed=3)
>>> e.reset(seed=3)
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((513,), 2)
>>> while e.agents:
...     observation, reward, terminated, truncated, info = e.last()
...     legal = observation["action_mask"].nonzero()[0]
...     e.step(None if terminated or truncated else int(legal[-1]))
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Final, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import aec_to_parallel

from pyrummy.core.actions import ActionSpace, action_space
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.core.rules import Rules, find_rules
from pyrummy.research.deal_encoding import LegalActionsOfNow, encode_seat
from pyrummy.research.encoding import (
    ENCODING_VERSION,
    deal_rewards,
    default_players,
    observation_size,
)
from pyrummy.research.render import render_for_mode

#: Who acts when: ``"turns"`` (the seat to play, for its whole turn) or ``"cycle"``
#: (every agent once per cycle, ``WAIT`` when not the seat to play).
Schedule = Literal["turns", "cycle"]
#: What an illegal action does: ``"raise"`` an error, or ``"ignore"`` it (the deal unchanged).
IllegalPolicy = Literal["raise", "ignore"]
_SCHEDULES: Final = ("turns", "cycle")
_POLICIES: Final = ("raise", "ignore")


def env(
    rules: Rules | str = "knock",
    players: int | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> AECEnv:
    """The AEC environment of ``rules`` for ``players`` seats, order-enforced."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, players, seed, render_mode, **kwargs))


def parallel_env(
    rules: Rules | str = "knock",
    players: int | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> Any:
    """The parallel-API version: the cycle schedule, every agent acts each step.

    >>> p = parallel_env("gin", players=2, seed=1, max_cycles=3)
    >>> observations, infos = p.reset(seed=1)
    >>> sorted(observations)
    ['player_0', 'player_1']
    """
    kwargs["schedule"] = "cycle"
    return aec_to_parallel(raw_env(rules, players, seed, render_mode, **kwargs))


class raw_env(AECEnv):  # type: ignore[misc]
    """One deal of a pyrummy preset as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "pyrummy_v1",
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }

    def __init__(
        self,
        rules: Rules | str = "knock",
        players: int | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        schedule: Schedule = "turns",
        illegal_action: IllegalPolicy = "raise",
        **options: object,
    ) -> None:
        super().__init__()
        self.rules: Rules = find_rules(rules, **options)
        if players is None:
            players = default_players(self.rules)
        self.rules.check_players(players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode must be one of ansi, human, not {render_mode!r}")
        if schedule not in _SCHEDULES:
            raise RulesError(f"schedule must be 'turns' or 'cycle', not {schedule!r}")
        if illegal_action not in _POLICIES:
            raise RulesError(f"illegal_action must be 'raise' or 'ignore', not {illegal_action!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or max_cycles < 1):
            raise RulesError(f"max_cycles must be a positive number, not {max_cycles!r}")
        # Only the cycle schedule steps every agent once per cycle, which is
        # what PettingZoo's AEC-to-parallel conversion assumes.
        self.metadata = {**self.metadata, "is_parallelizable": schedule == "cycle"}
        self.players = players
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.schedule: Schedule = schedule
        self.illegal_action: IllegalPolicy = illegal_action
        self.space: ActionSpace = action_space(self.rules)
        #: The number of the ``WAIT`` action in the cycle schedule.
        self.wait_action = self.space.size
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self.space.size + (1 if schedule == "cycle" else 0)
        size = observation_size(players)
        self._action_spaces = {
            agent: spaces.Discrete(actions, seed=None if seed is None else seed + seat)
            for seat, agent in enumerate(self.possible_agents)
        }
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._seed = seed
        self._rng: random.Random | None = None
        self.deal: Deal | None = None
        self._steps = 0
        # The legal actions and their numbers, for the deal at one length of
        # its history (observe lists them, step reads them again).
        self._legal_now = LegalActionsOfNow()

    # -- spaces ---------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- episode --------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random(
                self._seed if self._seed is not None else secrets.randbits(64)
            )
        rng = self._rng
        dealer = rng.randrange(self.players)
        self.deal = new_deal(self.rules, self.players, seed=rng.getrandbits(63), dealer=dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0
        self._skip_agent_selection = None
        self.agent_selection = self._first_agent()

    def _first_agent(self) -> str:
        if self.schedule == "cycle":
            return self.possible_agents[0]
        assert self.deal is not None and self.deal.current_seat is not None
        return self.possible_agents[self.deal.current_seat]

    def _deal(self) -> Deal:
        if self.deal is None:
            raise RulesError("call reset() before using the environment")
        return self.deal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        deal = self._deal()
        seat = self._seat_of[agent]
        vector = encode_seat(deal, seat)
        mask = np.zeros(self._action_spaces[agent].n, np.int8)
        if deal.current_seat == seat:
            mask[self._legal_now(deal)[1]] = 1
        elif self.schedule == "cycle" and not deal.is_over:
            mask[self.wait_action] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self._deal()
        seat = self._seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.infos[agent] = {}
        self._play(deal, seat, action)
        self._steps += 1
        if deal.is_over:
            assert deal.settlement is not None
            for other, reward in zip(
                self.possible_agents, deal_rewards(deal.settlement, self.rules), strict=True
            ):
                self.rewards[other] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._out_of_cycles():
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self._next_agent(deal, seat)
        if self.render_mode == "human":
            self.render()

    def _play(self, deal: Deal, seat: int, action: Any) -> None:
        number = _as_number(action)
        if self.schedule == "cycle" and deal.current_seat != seat:
            if number != self.wait_action:
                self._illegal(seat, f"{number!r}: only WAIT ({self.wait_action}) is legal now")
            return
        legal, numbers = self._legal_now(deal)
        if number is None or number not in numbers:
            self._illegal(seat, f"{action!r} is not a legal action number now")
            return
        deal.apply(legal[numbers.index(number)])

    def _illegal(self, seat: int, why: str) -> None:
        if self.illegal_action == "raise":
            raise IllegalActionError(f"player_{seat}: {why}")
        self.infos[self.possible_agents[seat]] = {"illegal_action": True}

    def _out_of_cycles(self) -> bool:
        if self.max_cycles is None:
            return False
        return self._steps >= self.max_cycles * self.players

    def _next_agent(self, deal: Deal, seat: int) -> str:
        if self.schedule == "cycle" or deal.current_seat is None:
            return self.possible_agents[(seat + 1) % self.players]
        return self.possible_agents[deal.current_seat]

    # -- display ----------------------------------------------------------------
    def render(self) -> str | None:
        return render_for_mode(self._deal(), self.render_mode)

    def close(self) -> None:
        self.deal = None

    def __str__(self) -> str:
        return f"pyrummy_{self.rules.name.replace('-', '_')}_{self.players}p"


def _as_number(action: Any) -> int | None:
    if action is None or isinstance(action, bool):
        return None
    try:
        return int(action)
    except (TypeError, ValueError):
        return None
