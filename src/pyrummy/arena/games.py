"""The games an arena plays: one of our presets, or OpenSpiel's own gin.

A game is a parameter of the arena: ``--game knock`` (any preset, with
``-o`` options) is played by our engine; ``--game openspiel-gin`` is
OpenSpiel's C++ ``gin_rummy`` with its default parameters (knock card 10,
gin bonus 25, undercut bonus 25, the wall, the first-upcard pass), so that
OpenSpiel's bots play under their own rules. Our bots, programs and
RLCard's agent play it through :class:`pyrummy.research.openspiel_gin.PyrummyGinBot`,
which shows them the deal under our preset of OpenSpiel's rules,
``gin-openspiel`` (:data:`~pyrummy.research.openspiel_gin.GIN_RULES`), and
plays the showdown for them.

Every deal is for two seats; :meth:`Game.play_deal` returns each seat's
*points*, zero-sum: the settlement's net where a preset moves points
between the players (Knock Rummy), the difference of the two nets where it
only awards them (Gin), OpenSpiel's returns in OpenSpiel's gin.

>>> game = find_game("knock")
>>> game.name, game.rules.name, game.openspiel
('knock', 'knock', False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Final, Protocol

from pyrummy.arena.errors import ArenaError
from pyrummy.bots.base import Bot
from pyrummy.core.deal import new_deal
from pyrummy.core.errors import RummyError
from pyrummy.core.families import family_of
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.seeds import bot_seed
from pyrummy.extras import require
from pyrummy.tournament.play import MAX_ACTIONS_PER_DEAL
from pyrummy.tournament.schedule import deal_number_for

#: The name of OpenSpiel's own gin as an arena game.
OPENSPIEL_GIN: Final = "openspiel-gin"
_OPENSPIEL_ALIASES: Final = (OPENSPIEL_GIN, "openspiel:gin_rummy", "openspiel-gin-rummy")
# OpenSpiel's gin actions used to tell how a deal ended.
_KNOCK_ACTION: Final = 55


class Seat(Protocol):
    """What a game asks of a player (:class:`pyrummy.arena.entrants.Player`)."""

    @property
    def label(self) -> str:
        """The entrant as written on the command line, for messages."""
        ...

    def bot(self, seat: int, seed: int, players: int) -> Bot: ...

    def openspiel_bot(self, game: Any, player: int, seed: int) -> Any: ...

    def end_deal(self, observation: Observation | None, points: Sequence[float]) -> None: ...


@dataclass(frozen=True)
class DealOutcome:
    """One deal: each seat's zero-sum points, the settlement's nets, how it ended."""

    points: tuple[float, ...]
    net: tuple[str, ...]
    outcome: str
    actions: int


class Game:
    """A two-seat game the arena can deal (see the module docstring)."""

    name: str
    rules: Rules
    openspiel: bool = False

    def play_deal(self, players: Sequence[Seat], seed: int, dealer: int, deck: int) -> DealOutcome:
        raise NotImplementedError

    def describe(self) -> str:
        """The game and its rules in words, for ladders and progress lines."""
        raise NotImplementedError


class PresetGame(Game):
    """One of our presets (with options), played by our engine."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.name = rules.name

    def describe(self) -> str:
        options = self.rules.option_text()
        return f"{self.rules.title or self.rules.name} (pyrummy {self.rules.name}" + (
            f" {options})" if options else ")"
        )

    def play_deal(self, players: Sequence[Seat], seed: int, dealer: int, deck: int) -> DealOutcome:
        rules = self.rules
        deal = new_deal(
            rules, players=2, seed=seed, dealer=dealer, deal_number=deal_number_for(deck, rules)
        )
        bots = [player.bot(seat, bot_seed(seed, seat), 2) for seat, player in enumerate(players)]
        actions = 0
        while not deal.is_over:
            seat = deal.current_seat
            if seat is None:  # pragma: no cover - a deal not over has a seat to act
                break
            deal.apply(bots[seat].choose(deal.observe(seat), deal.legal_actions()))
            actions += 1
            if actions > MAX_ACTIONS_PER_DEAL:
                raise ArenaError(f"deck {deck}: no end after {actions} actions")
        settlement = deal.settlement
        assert settlement is not None, "a finished deal has a settlement"
        net = tuple(Fraction(value) for value in settlement.net)
        points = zero_sum_points(net, rules)
        for seat, player in enumerate(players):
            player.end_deal(deal.observe(seat), points)
        return DealOutcome(points, tuple(str(v) for v in net), str(settlement.outcome), actions)


def zero_sum_points(net: Sequence[Fraction], rules: Rules) -> tuple[float, ...]:
    """Each of two seats' points: the net where the preset moves points, else
    the difference of the nets (what one seat gained over the other).

    >>> zero_sum_points([Fraction(25), Fraction(0)], find_rules("gin"))
    (25.0, -25.0)
    >>> zero_sum_points([Fraction(-3), Fraction(3)], find_rules("knock"))
    (-3.0, 3.0)
    """
    if family_of(rules).moves_points(rules):
        return tuple(float(value) for value in net)
    first, second = net
    return (float(first - second), float(second - first))


@cache
def _openspiel_game() -> Any:
    require("research", ["pyspiel"])
    import pyspiel

    return pyspiel.load_game("gin_rummy")


class OpenSpielGinGame(Game):
    """OpenSpiel's ``gin_rummy`` with its defaults, dealt from the deck's seed.

    The chance outcomes (the deal and every stock card) are drawn by a
    ``random.Random(seed)`` used for nothing else; a stock card is drawn
    from the cards not yet dealt, whatever the players did, so both seatings
    of a deck see the same cards in the same order.
    """

    openspiel = True

    def __init__(self) -> None:
        from pyrummy.research.openspiel_gin import GIN_RULES

        self.name = OPENSPIEL_GIN
        self.rules = GIN_RULES
        self.parameters = dict(_openspiel_game().get_parameters())

    def describe(self) -> str:
        shown = ", ".join(f"{key} {value}" for key, value in sorted(self.parameters.items()))
        return f"OpenSpiel's gin_rummy ({shown})"

    def play_deal(self, players: Sequence[Seat], seed: int, dealer: int, deck: int) -> DealOutcome:
        game = _openspiel_game()
        rng = random.Random(seed)
        bots = [
            player.openspiel_bot(game, seat, bot_seed(seed, seat))
            for seat, player in enumerate(players)
        ]
        state = game.new_initial_state()
        actions = 0
        knocker: int | None = None
        knocker_deadwood: int | None = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            seat = state.current_player()
            action = int(bots[seat].step(state))
            if action not in state.legal_actions():
                raise ArenaError(f"{players[seat].label} played an illegal OpenSpiel action")
            if action == _KNOCK_ACTION and knocker is None:
                knocker = seat
            state.apply_action(action)
            actions += 1
            if knocker is not None and knocker_deadwood is None and seat != knocker:
                knocker_deadwood = int(state.deadwood()[knocker])  # the showdown is laid
            if actions > MAX_ACTIONS_PER_DEAL:
                raise ArenaError(f"deck {deck}: no end after {actions} actions")
        returns = tuple(float(value) for value in state.returns())
        for player in players:
            player.end_deal(None, returns)
        if knocker is None:
            outcome = "wall"
        elif returns[knocker] < 0:
            outcome = "undercut"
        elif knocker_deadwood == 0:
            outcome = "gin"
        else:
            outcome = "knock"
        return DealOutcome(returns, tuple(str(v) for v in returns), outcome, actions)


def find_game(name: str, options: Mapping[str, object] | None = None) -> Game:
    """The game called ``name``: ``openspiel-gin`` or one of our presets with ``options``."""
    key = name.strip().lower()
    if key in _OPENSPIEL_ALIASES:
        if options:
            raise ArenaError(f"{OPENSPIEL_GIN} is played with OpenSpiel's defaults: no -o options")
        return OpenSpielGinGame()
    try:
        rules = find_rules(key, **dict(options or {}))
        rules.check_players(2)
    except RummyError as error:
        raise ArenaError(f"--game {name}: {error}") from None
    return PresetGame(rules)
