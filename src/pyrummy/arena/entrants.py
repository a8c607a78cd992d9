"""Who plays in an arena: entrant names, and one entrant's bot during a board.

An entrant is named by a short text (its label in results and ladders):

=========================  ==================================================
``random`` … ``hard``      our bots (:func:`pyrummy.bots.make_bot`); options
                           after ``+``: ``hard+rollouts=16+wait_for_gin=0``
                           (``hard`` searches 32 re-deals by default, as in
                           ``pyrummy tournament``: the same work, and so the
                           same moves, on every machine)
``openspiel:simple``       OpenSpiel's simple gin rummy bot (C++, as shipped)
``openspiel:ismcts``       OpenSpiel's information-set MCTS
                           (``open_spiel.python.algorithms.ismcts``) with a
                           random-rollout evaluator;
                           ``openspiel:ismcts+simulations=100`` (default 40)
``rlcard:gin-rule``        RLCard's ``GinRummyNoviceRuleAgent`` (``pip install
                           rlcard``; not a dependency of pyrummy)
``cmd:PROGRAM ARGS``       a program speaking the line protocol
                           (:mod:`pyrummy.arena.protocol`)
=========================  ==================================================

OpenSpiel's bots play only OpenSpiel's own gin (game ``openspiel-gin``);
RLCard's agent plays the gin games; our bots and programs play every game.

>>> spec = parse_entrant("hard+rollouts=16")
>>> spec.kind, spec.name, dict(spec.options)
('bot', 'hard', {'rollouts': 16})
>>> parse_entrant("cmd:node examples/arena_bot.js").name
'node examples/arena_bot.js'
"""

from __future__ import annotations

import ast
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from pyrummy.arena.errors import ArenaError
from pyrummy.arena.protocol import Fault, ProcessBot, split_command
from pyrummy.bots import BOT_NAMES, make_bot
from pyrummy.bots.base import Bot, BotError
from pyrummy.core.actions import Action
from pyrummy.core.families import family_of
from pyrummy.core.observation import Observation
from pyrummy.extras import missing_modules

if TYPE_CHECKING:
    from pyrummy.arena.games import Game

#: Re-deals per decision of our hard bot unless its options say otherwise.
DEFAULT_HARD_ROLLOUTS: Final = 32
#: Simulations per decision of OpenSpiel's ISMCTS unless told otherwise.
OPENSPIEL_BOTS: Final = ("openspiel:simple", "openspiel:ismcts")
RLCARD_BOTS: Final = ("rlcard:gin-rule",)


@dataclass(frozen=True)
class EntrantSpec:
    """An entrant as named: its kind, the bot or program, its options."""

    text: str
    kind: str  # "bot", "openspiel", "rlcard" or "cmd"
    name: str
    options: Mapping[str, object] = field(default_factory=dict)


def parse_entrant(text: str) -> EntrantSpec:
    """Read an entrant's name (see the module docstring); bad names raise :class:`ArenaError`."""
    stripped = text.strip()
    if stripped.startswith("cmd:"):
        command = stripped[4:].strip()
        if not command:
            raise ArenaError(f"entrant {text!r}: cmd: needs a program to run")
        return EntrantSpec(stripped, "cmd", command)
    name, *pairs = stripped.split("+")
    name = name.strip().lower()
    options: dict[str, object] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise ArenaError(f"entrant {text!r}: an option is written name=value, not {pair!r}")
        try:
            options[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            options[key.strip()] = value.strip()
    if name in OPENSPIEL_BOTS:
        allowed = {"openspiel:simple": set(), "openspiel:ismcts": {"simulations", "uct_c"}}[name]
        unknown = set(options) - allowed
        if unknown:
            raise ArenaError(f"entrant {text!r}: {name} takes no option {sorted(unknown)[0]!r}")
        return EntrantSpec(stripped, "openspiel", name, options)
    if name in RLCARD_BOTS:
        if options:
            raise ArenaError(f"entrant {text!r}: {name} takes no options")
        return EntrantSpec(stripped, "rlcard", name, options)
    if name not in BOT_NAMES:
        raise ArenaError(
            f"unknown entrant {text!r}: our bots ({', '.join(BOT_NAMES)}), "
            f"{', '.join(OPENSPIEL_BOTS + RLCARD_BOTS)} or cmd:PROGRAM"
        )
    try:
        make_bot(name, seed=0, **_bot_options(name, options))
    except BotError as error:
        raise ArenaError(f"entrant {text!r}: {error}") from None
    return EntrantSpec(stripped, "bot", name, options)


def _bot_options(name: str, options: Mapping[str, object]) -> dict[str, object]:
    chosen = dict(options)
    if name == "hard" and "rollouts" not in chosen and "time_budget" not in chosen:
        chosen["rollouts"] = DEFAULT_HARD_ROLLOUTS
    return chosen


def check_entrant(spec: EntrantSpec, game: Game) -> None:
    """Refuse an entrant that cannot play ``game`` or whose library is missing."""
    if spec.kind == "openspiel" and not game.openspiel:
        raise ArenaError(f"{spec.text} plays only OpenSpiel's own gin: use --game openspiel-gin")
    if spec.kind == "cmd":
        program = split_command(spec.name)[0]
        if shutil.which(program) is None:
            raise ArenaError(
                f"{spec.text}: no program {program!r} to run (not found or not executable)"
            )
    if spec.kind == "rlcard":
        if family_of(game.rules).showdown != "gin":
            raise ArenaError(f"{spec.text} plays only gin games, not {game.name}")
        if missing_modules(["rlcard"]):
            raise ArenaError(
                f"{spec.text} needs RLCard, a benchmark peer that pyrummy does not "
                "install: pip install rlcard==1.2.0"
            )


@dataclass
class Tally:
    """One entrant's decisions in one board: how many, how long, what went wrong."""

    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    late: int = 0
    faults: list[Fault] = field(default_factory=list)

    def add(self, seconds: float, limit: float) -> None:
        self.decisions += 1
        self.seconds += seconds
        self.slowest = max(self.slowest, seconds)
        self.late += seconds > limit

    def to_dict(self) -> dict[str, object]:
        return {
            "decisions": self.decisions,
            "seconds": round(self.seconds, 4),
            "slowest": round(self.slowest, 4),
            "late": self.late,
            "faults": [fault.to_dict() for fault in self.faults],
        }


class _TimedBot:
    """Our interface around a bot, timing every decision into a tally."""

    def __init__(self, bot: Bot, tally: Tally, limit: float) -> None:
        self.bot = bot
        self.name = bot.name
        self.tally = tally
        self.limit = limit

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        started = time.perf_counter()
        action = self.bot.choose(observation, legal_actions)
        self.tally.add(time.perf_counter() - started, self.limit)
        return action


class _TimedOpenSpielBot:
    """A ``pyspiel.Bot``-like object (``step(state)``) timed into a tally."""

    def __init__(self, bot: Any, tally: Tally, limit: float) -> None:
        self.bot = bot
        self.tally = tally
        self.limit = limit

    def step(self, state: Any) -> int:
        started = time.perf_counter()
        action = int(self.bot.step(state))
        self.tally.add(time.perf_counter() - started, self.limit)
        return action


class Player:
    """One entrant during one board (the same deck dealt twice, seats swapped).

    An in-process bot is made afresh for each deal from the deal's seed; it
    cannot be interrupted, so a decision over the time limit is counted as
    *late* and stands. A program (``cmd:``) lives for the whole board and
    its time limit is enforced (:mod:`pyrummy.arena.protocol`).
    """

    def __init__(self, spec: EntrantSpec, game: Game, time_limit: float) -> None:
        self.spec = spec
        self.game = game
        self.time_limit = time_limit
        self.tally = Tally()
        self._process: ProcessBot | None = None
        if spec.kind == "cmd":
            self._process = ProcessBot(
                spec.name,
                game.rules,
                time_limit,
                game.name,
                label=spec.text,
                on_decision=lambda seconds: self.tally.add(seconds, time_limit),
            )

    @property
    def label(self) -> str:
        """The entrant as written on the command line."""
        return self.spec.text

    def bot(self, seat: int, seed: int, players: int) -> Bot:
        """Our-interface bot for one deal in ``seat``."""
        if self._process is not None:
            self._process.start_deal(seat, seed, players)
            return self._process
        if self.spec.kind == "rlcard":
            from pyrummy.arena.peers import RLCardGinRuleBot

            return _TimedBot(RLCardGinRuleBot(seed, self.game.rules), self.tally, self.time_limit)
        if self.spec.kind != "bot":
            raise ArenaError(f"{self.spec.text} cannot play {self.game.name}")
        made = make_bot(
            self.spec.name, seed=seed, **_bot_options(self.spec.name, self.spec.options)
        )
        return _TimedBot(made, self.tally, self.time_limit)

    def openspiel_bot(self, game: Any, player: int, seed: int) -> Any:
        """A bot with ``step(state)`` for OpenSpiel's gin, as ``player``."""
        if self.spec.kind == "openspiel":
            from pyrummy.arena.peers import make_openspiel_bot

            made = make_openspiel_bot(self.spec.name, self.spec.options, game, player, seed)
            return _TimedOpenSpielBot(made, self.tally, self.time_limit)
        from pyrummy.research.openspiel_gin import PyrummyGinBot

        return PyrummyGinBot(self.bot(player, seed, 2), player)

    def end_deal(self, observation: Observation | None, points: Sequence[float]) -> None:
        """The deal is over: a program hears the result (``points`` per seat)."""
        if self._process is not None:
            self._process.end_deal(observation, points)

    def close(self) -> None:
        """End the board: collect a program's faults and let it exit."""
        if self._process is not None:
            self.tally.faults.extend(self._process.faults)
            self._process.close()
