"""A Gymnasium vector environment: one learner seat per deal, many deals at once.

``RummyVectorEnv(rules="gin", num_envs=1024, players=None, opponents="random",
seat=None, seed=None)`` is a :class:`gymnasium.vector.VectorEnv` over the
batched engine (:mod:`pyrummy.research.batched`): ``num_envs`` deals of the
knock or gin family stepped together with numpy, each with one learner
seat and the other seats played by fixed opponents. It is the batched form
of :class:`pyrummy.research.gym.RummyEnv` (same observation, actions and
rewards; presets ``knock``, ``knock-target``, ``gin``).

- ``single_action_space``: ``Discrete(n)``, the core's action numbers;
  ``infos["action_mask"]`` (int8 ``(num_envs, n)``, also :meth:`RummyVectorEnv.action_masks`)
  marks the legal ones.
- ``single_observation_space``: ``Box(0, 1, (size,), float32)``, the
  version-1 encoding of the learner's view (:mod:`pyrummy.research.encoding`).
  The observations returned are a read-only buffer the next step updates
  in place: copy them to keep them.
- Reward: 0 until the deal ends, then the learner's
  :func:`~pyrummy.nn.encoding.deal_rewards` entry.
- Opponents: ``"random"`` (uniform over the legal actions, vectorised); a
  callable ``policy(observations, masks, seats) -> actions`` called with
  the opponents' own observations, for every deal where an opponent is to
  play (one call per decision round); or the name of one of our bots
  (``"simple"``, ``"medium"``, ``"hard"``: :func:`pyrummy.bots.make_bot`,
  one per seat and deal). Our bots read the core's
  :class:`~pyrummy.core.observation.Observation`, so with them every deal
  is also kept as a core :class:`~pyrummy.core.deal.Deal` (replayed action
  by action): as fast as the bots, not as numpy.
- Automatic reset in the same step (Gymnasium's ``AutoresetMode.SAME_STEP``):
  a deal that ends is dealt again at once and played up to the learner's
  first decision; the returned observation is the new deal's, the ended
  deal's last observation is in ``infos["final_obs"]`` (the rows where
  ``infos["_final_obs"]`` is true; the other rows mean nothing, and the
  buffer is reused by the next step). The learner's seat is drawn for each
  deal (``seat=`` fixes it); a deal the opponents end before the learner
  acts is dealt again.
- An illegal action (``illegal_action="ignore"``, the default) leaves that
  deal unchanged, earns ``illegal_reward`` and sets
  ``infos["illegal_action"]``; ``"raise"`` raises. After ``max_steps``
  learner steps a deal is truncated (and dealt again).

>>> env = RummyVectorEnv("gin", num_envs=4, seed=1)
>>> observations, infos = env.reset(seed=1)
>>> observations.shape, infos["action_mask"].shape
((4, 513), (4, 108))
>>> rng = np.random.default_rng(1)
>>> for _ in range(200):
...     actions = env.sample_legal_actions(rng)
...     observations, rewards, terminated, truncated, infos = env.step(actions)
>>> env.close()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from pyrummy.bots.base import Bot
from pyrummy.bots.registry import make_bot
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.core.rules import Rules, find_rules
from pyrummy.research.batched.deadwood import IntArray
from pyrummy.research.batched.encode import BatchedEncoder, FloatArray, IncrementalEncoder
from pyrummy.research.batched.engine import OVER, BatchedDeals, Int8Array
from pyrummy.research.batched.game import default_players, sample_legal
from pyrummy.research.encoding import research_legal_actions

#: An opponent policy: (observations, masks, seats) of the deals where an
#: opponent is to play -> one action number per deal.
Policy = Callable[[FloatArray, Int8Array, IntArray], npt.ArrayLike]

#: Deals the opponents may end before the learner's first decision, in a row,
#: before a reset gives up.
_REDEALS = 100


class RummyVectorEnv(gymnasium.vector.VectorEnv):
    """Many deals, one learner seat each, against fixed opponents (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium reads it from the class
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        rules: Rules | str = "gin",
        num_envs: int = 1024,
        players: int | None = None,
        opponents: str | Policy = "random",
        seat: int | None = None,
        seed: int | None = None,
        *,
        illegal_action: Literal["raise", "ignore"] = "ignore",
        illegal_reward: float = 0.0,
        max_steps: int = 2000,
        **options: object,
    ) -> None:
        the_rules = find_rules(rules, **options)
        count = default_players(the_rules) if players is None else players
        if seat is not None and not 0 <= seat < count:
            raise RulesError(f"seat must be 0-{count - 1}, not {seat}")
        if not isinstance(opponents, str) and not callable(opponents):
            raise RulesError(
                f"opponents must be 'random', a bot name or a policy function, not {opponents!r}"
            )
        if isinstance(opponents, str) and opponents != "random":
            make_bot(opponents)  # an unknown name is refused here
        if illegal_action not in ("raise", "ignore"):
            raise RulesError(f"illegal_action must be 'raise' or 'ignore', not {illegal_action!r}")
        self.rules = the_rules
        self.players = count
        self.num_envs = num_envs
        self.deals = BatchedDeals(the_rules, count, num_envs)
        self.encoder = BatchedEncoder(self.deals)
        self._observations = IncrementalEncoder(self.encoder)
        self.fixed_seat = seat
        self.opponents = opponents
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        actions = self.deals.space.size
        self.single_action_space = spaces.Discrete(actions)
        self.single_observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.rng = np.random.default_rng(seed)
        self.seats = np.zeros(num_envs, np.int64)
        self.steps = np.zeros(num_envs, np.int64)
        self._all = np.arange(num_envs)
        self._masks = np.zeros((num_envs, actions), np.int8)
        self._final = self.encoder.new_buffer(num_envs)
        # With our bots: each deal as a core deal, and its bots by seat.
        self._bots_by_name = isinstance(opponents, str) and opponents != "random"
        self._core: list[Deal | None] = [None] * num_envs
        self._bots: list[list[Bot | None]] = [[None] * count for _ in range(num_envs)]

    # -- episodes ----------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """Deal every deal afresh, played up to the learner's first decision."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._redeal(self._all)
        return self._view(), self._infos()

    def _redeal(self, rows: IntArray) -> None:
        """Deal ``rows`` again until the learner is to play in each."""
        pending = rows
        for _ in range(_REDEALS):
            count = pending.shape[0]
            if self.fixed_seat is None:
                self.seats[pending] = self.rng.integers(self.players, size=count)
            else:
                self.seats[pending] = self.fixed_seat
            decks = self.deals.shuffled_decks(self.rng, count)
            self.deals.deal(pending, decks, self.rng.integers(self.players, size=count))
            if self._bots_by_name:
                self._deal_core(pending)
            self.steps[pending] = 0
            ended = self._play_opponents(pending)
            if not ended.size:
                return
            pending = ended
        raise RulesError("the opponents ended every deal before the learner could act")

    def _play_opponents(self, rows: IntArray) -> IntArray:
        """Opponents play in ``rows`` up to the learner's turn; the rows that ended."""
        deals = self.deals
        ended: list[IntArray] = []
        live = rows[deals.phase[rows] != OVER]
        while True:
            waiting = live[deals.seat[live] != self.seats[live]]
            if not waiting.size:
                break
            actions = self._opponent_actions(waiting)
            over = self._step(actions, waiting)
            if over.size:
                ended.append(over)
            live = waiting[deals.phase[waiting] != OVER]
        return np.concatenate(ended) if ended else rows[:0]

    def _step(self, actions: IntArray, rows: IntArray) -> IntArray:
        """Play ``actions`` in ``rows`` (and in their core deals); the rows that ended."""
        if self._bots_by_name:
            decode = self.deals.space.decode
            for row, action in zip(rows.tolist(), actions.tolist(), strict=True):
                core = self._core[row]
                assert core is not None
                core.apply(decode(action))
        return self.deals.step(actions, rows=rows)

    def _deal_core(self, rows: IntArray) -> None:
        """The core deals of ``rows``, dealt from the same decks, and new bots."""
        deals = self.deals
        name = self.opponents
        assert isinstance(name, str)
        for row in rows.tolist():
            cards = [ALL_CARDS[i] for i in deals.deck[row].tolist()]
            dealer = int(deals.dealer[row])
            self._core[row] = Deal.from_deck(self.rules, self.players, dealer, cards)
            learner = int(self.seats[row])
            self._bots[row] = [
                None if seat == learner else make_bot(name, seed=int(self.rng.integers(2**31)))
                for seat in range(self.players)
            ]

    def _opponent_actions(self, rows: IntArray) -> IntArray:
        deals = self.deals
        if self._bots_by_name:
            encode = deals.space.encode
            chosen = np.empty(rows.shape[0], np.int64)
            for i, row in enumerate(rows.tolist()):
                core = self._core[row]
                assert core is not None
                seat = core.current_seat
                assert seat is not None
                bot = self._bots[row][seat]
                assert bot is not None
                action = bot.choose(core.observe(seat), research_legal_actions(core))
                chosen[i] = encode(action)
            return chosen
        if self.opponents == "random":
            return sample_legal(
                deals.legal_low[rows], deals.legal_high[rows], self.rng.random((rows.shape[0],))
            )
        policy = self.opponents
        assert callable(policy)
        seats = deals.seat[rows]
        observations = self.encoder.encode(rows, seats, self.encoder.new_buffer(rows.shape[0]))
        masks = deals.legal_mask(rows)
        actions = np.asarray(policy(observations, masks, seats), np.int64).reshape(-1)
        if actions.shape[0] != rows.shape[0] or not deals.is_legal(actions, rows).all():
            raise IllegalActionError("the opponent policy chose an illegal action")
        return actions

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[FloatArray, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        """Play the learner's action in every deal, then the opponents up to the
        learner's next decision; ``(observations, rewards, terminated, truncated, infos)``."""
        deals = self.deals
        chosen = np.asarray(actions, np.int64).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise IllegalActionError(f"expected {self.num_envs} actions, got {chosen.shape[0]}")
        legal = deals.is_legal(chosen)
        if not legal.all() and self.illegal_action == "raise":
            bad = np.flatnonzero(~legal)[:5].tolist()
            raise IllegalActionError(f"illegal actions in deals {bad}: {chosen[bad].tolist()}")
        rows = self._all[legal]
        ended = [self._step(chosen[legal], rows)]
        ended.append(self._play_opponents(rows))
        done_rows = np.concatenate(ended)
        rewards = np.where(legal, 0.0, self.illegal_reward)
        terminated = np.zeros(self.num_envs, bool)
        terminated[done_rows] = True
        rewards[done_rows] += deals.rewards[done_rows, self.seats[done_rows]]
        self.steps += 1
        truncated = ~terminated & (self.steps >= self.max_steps)
        finished = np.flatnonzero(terminated | truncated)
        final = self._final
        if finished.size:
            final[finished] = self.encoder.encode(
                finished, self.seats[finished], self.encoder.new_buffer(finished.shape[0])
            )
            self._redeal(finished)
        infos = self._infos()
        infos["illegal_action"] = ~legal
        infos["final_obs"] = final
        infos["_final_obs"] = terminated | truncated
        return self._view(), rewards, terminated, truncated, infos

    # -- views -------------------------------------------------------------------------
    def _view(self) -> FloatArray:
        return self._observations.update(self.seats)

    def action_masks(self) -> Int8Array:
        """The learner's legal actions in every deal (int8 ``(num_envs, n)``)."""
        return self.deals.legal_mask(out=self._masks)

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().copy(), "seat": self.seats.copy()}

    def sample_legal_actions(self, rng: np.random.Generator | None = None) -> IntArray:
        """A uniformly random legal action for the learner in every deal."""
        generator = self.rng if rng is None else rng
        return sample_legal(
            self.deals.legal_low, self.deals.legal_high, generator.random(self.num_envs)
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the deals are arrays."""
