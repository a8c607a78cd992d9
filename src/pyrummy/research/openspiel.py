"""Every preset as an OpenSpiel Python game, registered on import.

``import pyrummy.research.openspiel`` registers ``pyrummy_knock``,
``pyrummy_knock_target``, ``pyrummy_rummy``, ``pyrummy_basic``,
``pyrummy_block``, ``pyrummy_rotham`` and ``pyrummy_gin`` (the preset name
with ``-`` as ``_``). Parameters: ``players`` (default: the preset's
minimum), ``dealer`` (default 0) and ``turn_cap`` (default: the preset's; a
deal that reaches it ends as the rules say). A game is one deal.

- **Chance.** The shuffle is a sequence of chance nodes: the k-th chance
  outcome is the card at position k of the deck (uniform over the cards not
  yet placed), 52 of them (55 with jokers); the deck is then dealt by
  :meth:`~pyrummy.core.deal.Deal.from_deck`. Nothing random is left after
  that (a shuffled stock rebuild is seeded from the deck), so the action
  history alone fixes the state: ``clone``, serialization and replay agree,
  and OpenSpiel's MCTS and IS-MCTS can sample the deal like any chance node.
  One chance node with a seed would be shorter but is no good here: its
  outcome set (every seed) is far too large for ``chance_outcomes()``.
- **Actions** are the core's integer action space (``docs/actions.md``);
  ``undo`` is never legal (see :func:`~pyrummy.nn.encoding.research_legal_actions`).
- **Returns** (terminal only): :func:`~pyrummy.nn.encoding.deal_rewards`,
  zero-sum; the bounds are :func:`~pyrummy.nn.encoding.reward_bound`.
- **Observations.** ``observation_tensor`` is the encoding of
  :mod:`pyrummy.research.encoding` (version 1) of the seat's own
  :class:`~pyrummy.core.observation.Observation`; ``observation_string`` is
  the same view as text. ``information_state_string`` (perfect recall) is
  the seat's hand, the cards it drew from the stock in order, and the public
  move list; with the move list those determine everything the seat has
  seen.
- **Resampling.** ``resample_from_infostate(player, sampler)`` re-deals the
  cards ``player`` cannot see with
  :func:`~pyrummy.core.sampling.sample_deal`, seeded from
  ``sampler``. The new state has the same information state for ``player``;
  it has no OpenSpiel history (the deck behind it is unknown), and the other
  seats' private draw lists are unknown (shown as ``?``).

>>> import pyspiel
>>> game = pyspiel.load_game("pyrummy_knock(players=3)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 108, 52)
>>> state = game.new_initial_state()
>>> for card in range(52):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(1, ['draw stock', 'draw discard'])
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from typing import Any, Final

import numpy as np
import pyspiel

from pyrummy.core.actions import ActionKind, ActionSpace, action_space
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.families import family_of
from pyrummy.core.observation import Observation
from pyrummy.core.rules import PRESETS, Rules, find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.research.deal_encoding import encode_seat, legal_action_ids
from pyrummy.research.encoding import (
    deal_rewards,
    observation_blocks,
    reward_bound,
)
from pyrummy.research.render import render_deal

PREFIX: Final = "pyrummy_"
_PRIVATE_DRAWS: Final = (ActionKind.DRAW_STOCK, ActionKind.DECLINE)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


def game_name(preset: str) -> str:
    """The OpenSpiel short name of a preset.

    >>> game_name("knock-target")
    'pyrummy_knock_target'
    """
    return PREFIX + preset.replace("-", "_")


@lru_cache(maxsize=64)
def _setup(preset: str, players: int, turn_cap: int) -> tuple[Rules, ActionSpace]:
    rules = find_rules(preset, turn_cap=turn_cap)
    rules.check_players(players)
    return rules, action_space(rules)


def max_game_length(rules: Rules, players: int) -> int:
    """An upper bound on the player actions of one deal (chance nodes excluded).

    A deal has at most ``rules.turn_cap`` turns. A knock or gin turn is two
    actions (draw or decline, then discard or knock); a melding turn is a
    draw, at most one meld, lay-off or joker exchange (at most 3 exchanges
    between two cards leaving the hand) per card, and a discard.
    """
    return rules.turn_cap * family_of(rules).max_actions_per_turn(rules, players)


class DealBox:
    """A deal held by a state: deep-copied with :meth:`~pyrummy.core.deal.Deal.clone`, pickled as a deal.

    OpenSpiel clones a Python state by deep-copying its attributes and
    serializes it by pickling them; a deal pickles the fields its state
    declares (:class:`~pyrummy.core.deal.state.DealState`), leaving out the
    action space (large, and shared) and the caches.
    """

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> DealBox:
        return DealBox(self.deal.clone())

    def __getstate__(self) -> Deal:
        return self.deal  # pickled by its own declaration (DealState)

    def __setstate__(self, state: Deal) -> None:
        self.deal = state


class RummyGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a preset (see the module docstring)."""

    def __init__(self, preset: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = find_rules(preset)
        players = int(params.get("players", rules.min_players))
        dealer = int(params.get("dealer", 0))
        turn_cap = int(params.get("turn_cap", rules.turn_cap))
        rules, space = _setup(rules.name, players, turn_cap)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0-{players - 1}, not {dealer}")
        bound = reward_bound(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=rules.deck_size,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_game_length(rules, players),
        )
        super().__init__(
            _game_type(rules.name),
            info,
            {"players": players, "dealer": dealer, "turn_cap": turn_cap},
        )
        self.preset = rules.name
        self.players = players
        self.dealer = dealer
        self.turn_cap = turn_cap
        #: What every state of this game keys its rules by.
        self.state_key = (rules.name, players, dealer, turn_cap)

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RummyObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        # OpenSpiel's own observer (made with a type) copies every entry of
        # ``dict`` at each call: it gets the tensor as one entry.
        return RummyObserver(self.players, perfect_recall, named=iig_obs_type is None)


class RummyState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance nodes) or played."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        # OpenSpiel makes a new initial state at every observation_tensor
        # call (for the tensor's shape): this stays short.
        key = self._key = game.state_key
        self._deck: list[int] = []
        self._box: DealBox | None = None
        #: Per seat: the cards it drew from the stock, in order (None: unknown).
        self._draws: list[list[int] | None] = [[] for _ in range(key[1])]

    # -- helpers ----------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return _setup(self._key[0], self._key[1], self._key[3])[0]

    @property
    def space(self) -> ActionSpace:
        return _setup(self._key[0], self._key[1], self._key[3])[1]

    @property
    def deal(self) -> Deal | None:
        """The deal once dealt (None during the chance nodes of the shuffle)."""
        return None if self._box is None else self._box.deal

    # -- OpenSpiel API ------------------------------------------------------------
    def current_player(self) -> int:
        box = self._box  # OpenSpiel asks several times a step: no property here
        if box is None:
            return _CHANCE
        deal = box.deal
        if deal.is_over:
            return _TERMINAL
        seat = deal.current_seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.deal
        if deal is None or deal.is_over or player != deal.current_seat:
            return []
        return legal_action_ids(deal)[1]  # sorted: the deal lists them by number

    def chance_outcomes(self) -> list[tuple[int, float]]:
        placed = 0
        for card in self._deck:
            placed |= 1 << card
        size = self.rules.deck_size
        probability = 1.0 / (size - len(self._deck))
        return [(card, probability) for card in range(size) if not placed >> card & 1]

    def _apply_action(self, action: int) -> None:
        box = self._box
        if box is None:
            self._place(int(action))
            return
        deal = box.deal
        chosen = deal.action_space.decode(int(action))
        if chosen.kind not in _PRIVATE_DRAWS:
            deal.apply(chosen)
            return
        seat = deal.current_seat
        assert seat is not None
        before = deal.hands(seat).mask
        deal.apply(chosen)
        log = self._draws[seat]
        if log is not None:
            drawn = deal.hands(seat).mask & ~before
            while drawn:
                low = drawn & -drawn
                log.append(low.bit_length() - 1)
                drawn ^= low

    def _place(self, card: int) -> None:
        if card in self._deck or not 0 <= card < self.rules.deck_size:
            raise ValueError(f"card {card} cannot be dealt now")
        self._deck.append(card)
        if len(self._deck) == self.rules.deck_size:
            players, dealer = self._key[1], self._key[2]
            cards = [ALL_CARDS[i] for i in self._deck]
            self._box = DealBox(Deal.from_deck(self.rules, players, dealer, cards))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {ALL_CARDS[action]}"
        return str(self.space.decode(int(action)))

    def is_terminal(self) -> bool:
        deal = self.deal
        return deal is not None and deal.is_over

    def returns(self) -> list[float]:
        deal = self.deal
        if deal is None or deal.settlement is None:
            return [0.0] * self._key[1]
        return list(deal_rewards(deal.settlement, self.rules))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RummyState:
        """A state with ``player_id``'s information state and the hidden cards re-dealt."""
        deal = self.deal
        if deal is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        sampled = sample_deal(deal.observe(player_id), rng)
        state: RummyState = self.get_game().new_initial_state()
        state._deck = []
        state._box = DealBox(sampled)
        state._draws = [
            (list(log) if log is not None else None) if seat == player_id else None
            for seat, log in enumerate(self._draws)
        ]
        return state

    def __str__(self) -> str:
        deal = self.deal
        if deal is None:
            return "dealing: " + " ".join(str(ALL_CARDS[i]) for i in self._deck)
        moves = "; ".join(f"{seat}: {action}" for seat, action in deal.history)
        return f"{render_deal(deal)}\nmoves: {moves}"


class RummyObserver:
    """OpenSpiel observer: the version-1 tensor and text views of one seat.

    ``blocks`` are the named views of the tensor (``hand``, ``drawn``, ...);
    ``dict`` holds them too when ``named`` (an observer made from Python with
    ``make_observation(game)``), else the whole tensor as ``observation``:
    OpenSpiel's ``state.observation_tensor()`` copies each entry of ``dict``
    twice a call, which one entry makes cheap (the values are the same).
    """

    def __init__(self, players: int, perfect_recall: bool, named: bool = True) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        self.blocks: dict[str, np.ndarray] = {}
        if perfect_recall:
            return
        blocks = observation_blocks(players)
        self.tensor = np.zeros(sum(size for _, size, _ in blocks), np.float32)
        start = 0
        for name, size, shape in blocks:
            self.blocks[name] = self.tensor[start : start + size].reshape(shape)
            start += size
        self.dict = dict(self.blocks) if named else {"observation": self.tensor}

    def set_from(self, state: RummyState, player: int) -> None:
        if self.tensor is None:
            return
        box = state._box
        if box is None:
            self.tensor.fill(0.0)
            return
        encode_seat(box.deal, player, out=self.tensor)

    def string_from(self, state: RummyState, player: int) -> str:
        deal = state.deal
        if deal is None:
            return f"p{player} dealing {len(state._deck)}/{state.rules.deck_size}"
        observation = deal.observe(player)
        if not self.perfect_recall:
            return observation_text(observation)
        log = state._draws[player]
        drawn = "?" if log is None else " ".join(str(ALL_CARDS[i]) for i in log)
        moves = " ".join(f"{seat}:{action};" for seat, action in observation.history)
        lines = [
            f"p{player} dealer {observation.dealer} {observation.phase.value}",
            f"hand: {observation.hand}",
            f"stock draws: {drawn}",
            f"moves: {moves}",
        ]
        if observation.is_over and observation.revealed_hands is not None:
            lines.append("shown: " + " | ".join(str(h) for h in observation.revealed_hands))
        return "\n".join(lines)


def observation_text(observation: Observation) -> str:
    """A seat's current view as text (OpenSpiel's ``observation_string``).

    >>> from pyrummy.core.deal import new_deal
    >>> print(observation_text(new_deal("gin", 2, seed=4).observe(0)).splitlines()[0])
    p0 dealer 0 turn 1 draw, seat 1 to play
    """
    seat = observation.seat
    to_play = (
        "over" if observation.current_seat is None else f"seat {observation.current_seat} to play"
    )
    lines = [
        f"p{seat} dealer {observation.dealer} turn {observation.turn} "
        f"{observation.phase.value}, {to_play}",
        f"hand: {observation.hand}",
        f"drawn: {observation.drawn_card or '-'}",
        "pile: " + " ".join(str(card) for card in observation.discard_pile),
        f"stock: {observation.stock_count}",
        "hand sizes: " + " ".join(str(n) for n in observation.hand_sizes),
        "taken: " + " | ".join(" ".join(map(str, cards)) for cards in observation.taken_discards),
    ]
    for number, table_meld in enumerate(observation.table):
        lines.append(f"meld {number} ({table_meld.owner}): {table_meld.meld}")
    if observation.settlement is not None:
        net = " ".join(str(n) for n in observation.settlement.net)
        lines.append(f"result: {observation.settlement.outcome} {net}")
    return "\n".join(lines)


@cache
def _game_type(preset: str) -> Any:
    rules = PRESETS[preset]
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"pyrummy {rules.title or preset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": rules.min_players,
            "dealer": 0,
            "turn_cap": rules.turn_cap,
        },
    )


def _game_class(preset: str) -> type[RummyGame]:
    """A subclass fixed to one preset: what OpenSpiel calls with the parameters.

    A class, not a function or callable object: pyspiel keeps the creator
    until the interpreter exits, and releasing any other kind of Python
    object that late aborts the process.
    """

    def __init__(self: RummyGame, params: dict[str, Any] | None = None) -> None:
        RummyGame.__init__(self, preset, params)

    name = "".join(part.title() for part in preset.split("-")) + "Game"
    return type(name, (RummyGame,), {"__init__": __init__, "__module__": __name__})


def register_all() -> list[str]:
    """Register every preset (once); the registered names."""
    known = set(pyspiel.registered_names())
    names = []
    for preset in PRESETS:
        name = game_name(preset)
        if name not in known:
            pyspiel.register_game(_game_type(preset), _game_class(preset))
        names.append(name)
    return names


GAME_NAMES: Final = tuple(register_all())
