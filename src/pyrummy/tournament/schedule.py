"""What a tournament plays: its configuration, the seats of each rotation, the seeds.

>>> config = TournamentConfig(rules="knock", bots=("simple", "random"), decks=2, seed=1)
>>> config.labels, config.players, config.total_deals
(('simple', 'random'), 2, 4)
>>> [seating(r, 3) for r in range(3)]
[(0, 1, 2), (2, 0, 1), (1, 2, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from pyrummy.core import seeds
from pyrummy.core.errors import RummyError
from pyrummy.core.rules import Rules, find_rules

_SEED_DOMAIN: Final = "pyrummy-tournament"


class TournamentError(RummyError):
    """A tournament that cannot be run as asked (bot list, deck count, workers)."""


def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed for one part of a tournament, the same on every machine
    (:func:`pyrummy.core.seeds.derive_seed` in the ``pyrummy-tournament`` domain).

    >>> derive_seed(1, "deck", 0)
    4401661282921650385
    """
    return seeds.derive_seed(_SEED_DOMAIN, seed, *parts)


def seating(rotation: int, players: int) -> tuple[int, ...]:
    """For each seat, the index of the bot-list entry sitting there.

    In rotation ``r`` entry ``i`` sits in seat ``(i + r) mod n``.

    >>> seating(1, 4)
    (3, 0, 1, 2)
    """
    return tuple((seat - rotation) % players for seat in range(players))


def decks_for_deals(deals: int, players: int) -> int:
    """Decks needed for at least ``deals`` deals, ``players`` deals per deck.

    >>> decks_for_deals(2000, 3), decks_for_deals(2001, 3), decks_for_deals(1, 2)
    (667, 667, 1)
    """
    if deals < 1:
        raise TournamentError(f"deals: need at least 1, got {deals}")
    return -(-deals // players)


def entry_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """Unique labels for the entries: a name used twice becomes ``name#1``, ``name#2``.

    >>> entry_labels(["hard", "simple", "hard"])
    ('hard#1', 'simple', 'hard#2')
    """
    counts = {name: bots.count(name) for name in bots}
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        if counts[name] == 1:
            labels.append(name)
        else:
            seen[name] = seen.get(name, 0) + 1
            labels.append(f"{name}#{seen[name]}")
    return tuple(labels)


@dataclass(frozen=True)
class TournamentConfig:
    """What to play: the preset (and options), one bot name per seat, the decks.

    ``bot_options`` maps a bot name to keyword arguments of
    :func:`pyrummy.bots.make_bot` (e.g. ``{"hard": {"budget": 0.05}}``).
    """

    rules: str
    bots: tuple[str, ...]
    decks: int
    seed: int
    options: Mapping[str, object] = field(default_factory=dict)
    bot_options: Mapping[str, Mapping[str, object]] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def labels(self) -> tuple[str, ...]:
        return entry_labels(self.bots)

    @property
    def total_deals(self) -> int:
        return self.decks * self.players

    def resolved_rules(self) -> Rules:
        return find_rules(self.rules, **self.options)

    def validate(self, known_bots: Iterable[str] | None = None) -> None:
        """Refuse a configuration that cannot be played, with a precise message."""
        rules = self.resolved_rules()
        if len(self.bots) < 2:
            raise TournamentError("bots: a tournament needs at least 2 bots, one per seat")
        if not rules.min_players <= self.players <= rules.max_players:
            raise TournamentError(
                f"{rules.name} is for {rules.min_players}-{rules.max_players} players, "
                f"not {self.players}"
            )
        if known_bots is not None:
            known = list(known_bots)
            for name in self.bots:
                if name not in known:
                    raise TournamentError(
                        f"unknown bot {name!r}; bots are: {', '.join(sorted(known))}"
                    )
        if self.decks < 1:
            raise TournamentError(f"decks: need at least 1, got {self.decks}")
        if self.seed < 0:
            raise TournamentError(f"seed: need a whole number >= 0, got {self.seed}")

    def to_dict(self) -> dict[str, object]:
        return {
            "rules": self.resolved_rules().name,
            "options": {k: _jsonable(v) for k, v in self.options.items()},
            "players": self.players,
            "bots": list(self.bots),
            "labels": list(self.labels),
            "decks": self.decks,
            "deals": self.total_deals,
            "seed": self.seed,
            "bot_options": {
                name: {k: _jsonable(v) for k, v in kw.items()}
                for name, kw in self.bot_options.items()
            },
        }


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return str(value)


def deal_number_for(deck: int, rules: Rules) -> int:
    """The deal number deck ``deck`` is played as: 1, except in a match of a
    fixed number of deals (Rotham: 6), where the decks cycle through them, so
    the deals with their own rules (Rotham's all-seven deals 4-6) are played too.

    >>> [deal_number_for(k, find_rules("rotham")) for k in range(8)]
    [1, 2, 3, 4, 5, 6, 1, 2]
    >>> deal_number_for(5, find_rules("knock"))
    1
    """
    if rules.match_end == "deals" and rules.deals > 0:
        return deck % rules.deals + 1
    return 1
