"""What an arena plays: the entrants, the game, the boards and their seeds.

Every pair of entrants meets on every deck; a *board* is one pair on one
deck, dealt twice with the seats swapped (duplicate), so each entrant of
the pair holds each hand once. Deck ``k``'s seed derives from the arena's
seed and ``k`` only, so every pair plays the same decks; a bot's seed
derives from its deal's seed and its seat (as in ``pyrummy tournament``).
A board's result therefore depends on nothing but the configuration and
its pair and deck: any number of workers, a Ray cluster or a resumed run
gives the same results (bots limited by wall-clock time excepted).

Boards are listed deck by deck (every pair on deck 0, then deck 1...), so an
interrupted run has met every pair about equally often.

>>> config = ArenaConfig(game="knock", entrants=("simple", "random", "medium"), decks=2, seed=1)
>>> config.pairs()
[(0, 1), (0, 2), (1, 2)]
>>> [(board.deck, board.pair) for board in config.boards()][:4]
[(0, (0, 1)), (0, (0, 2)), (0, (1, 2)), (1, (0, 1))]
>>> config.deals
12
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from pyrummy.arena.entrants import EntrantSpec, check_entrant, parse_entrant
from pyrummy.arena.errors import ArenaError
from pyrummy.arena.games import Game, find_game
from pyrummy.core import seeds

_SEED_DOMAIN: Final = "pyrummy-arena"
#: Seconds per decision unless told otherwise.
DEFAULT_TIME_LIMIT: Final = 5.0


def deck_seed(seed: int, deck: int) -> int:
    """The seed of deck ``deck`` of an arena seeded ``seed`` (63 bits, SHA-256).

    >>> deck_seed(1, 0) == deck_seed(1, 0) != deck_seed(1, 1)
    True
    """
    return seeds.derive_seed(_SEED_DOMAIN, seed, "deck", deck)


@dataclass(frozen=True)
class Board:
    """One pair of entrants (indices into the entrant list) on one deck."""

    deck: int
    pair: tuple[int, int]


@dataclass(frozen=True)
class ArenaConfig:
    """The game (a preset and options, or ``openspiel-gin``), the entrants,
    the number of decks, the seed and the time limit per decision."""

    game: str
    entrants: tuple[str, ...]
    decks: int
    seed: int
    options: Mapping[str, object] = field(default_factory=dict)
    time_limit: float = DEFAULT_TIME_LIMIT

    def resolved_game(self) -> Game:
        return find_game(self.game, self.options)

    def specs(self) -> tuple[EntrantSpec, ...]:
        return tuple(parse_entrant(text) for text in self.entrants)

    def pairs(self) -> list[tuple[int, int]]:
        n = len(self.entrants)
        return [(a, b) for a in range(n) for b in range(a + 1, n)]

    def boards(self) -> list[Board]:
        return [Board(deck, pair) for deck in range(self.decks) for pair in self.pairs()]

    @property
    def deals(self) -> int:
        return 2 * self.decks * len(self.pairs())

    def validate(self) -> None:
        """Refuse what cannot be played, with a precise message."""
        if len(self.entrants) < 2:
            raise ArenaError("an arena needs at least 2 entrants")
        if len(set(self.entrants)) != len(self.entrants):
            raise ArenaError(f"an entrant is named twice in {', '.join(self.entrants)}")
        if self.decks < 1:
            raise ArenaError(f"decks: need at least 1, got {self.decks}")
        if self.seed < 0:
            raise ArenaError(f"seed: need a whole number >= 0, got {self.seed}")
        if not self.time_limit > 0:
            raise ArenaError(f"time limit: need seconds above 0, got {self.time_limit}")
        game = self.resolved_game()
        for spec in self.specs():
            check_entrant(spec, game)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "options": {key: _jsonable(value) for key, value in self.options.items()},
            "entrants": list(self.entrants),
            "decks": self.decks,
            "seed": self.seed,
            "time_limit": self.time_limit,
        }

    @classmethod
    def from_dict(cls, document: Mapping[str, object]) -> ArenaConfig:
        entrants = document["entrants"]
        options = document.get("options") or {}
        decks, seed, time_limit = document["decks"], document["seed"], document["time_limit"]
        if not (
            isinstance(entrants, list)
            and isinstance(options, dict)
            and isinstance(decks, int)
            and isinstance(seed, int)
            and isinstance(time_limit, int | float)
        ):
            raise ArenaError("the results file's configuration is not one this arena wrote")
        return cls(
            game=str(document["game"]),
            entrants=tuple(str(e) for e in entrants),
            decks=decks,
            seed=seed,
            options=options,
            time_limit=float(time_limit),
        )

    def same_play(self, other: ArenaConfig) -> list[str]:
        """The settings that differ from ``other`` and would change the
        boards' results: every setting but the number of decks, and the
        entrants unless ``other``'s come first in the same order (new ones
        added at the end, which only adds pairs).

        >>> old = ArenaConfig(game="knock", entrants=("simple", "random"), decks=2, seed=1)
        >>> grown = ArenaConfig(game="knock", entrants=("simple", "random", "medium"), decks=3, seed=1)
        >>> grown.same_play(old), old.same_play(grown)
        ([], ['entrants'])
        """
        mine, theirs = self.to_dict(), other.to_dict()
        kept = self.entrants[: len(other.entrants)] == other.entrants
        return [
            key
            for key in mine
            if key != "decks" and (not kept if key == "entrants" else mine[key] != theirs[key])
        ]


def _jsonable(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return str(value)
