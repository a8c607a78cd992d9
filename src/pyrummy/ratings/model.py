"""A player's rating, a finished match's places, and one match's update.

The update is the Weng-Lin Bayesian approximation in openskill's
Plackett-Luce model: it takes 2-6 players at once, each on their own, ranked
by where they finished (ties share a place), and moves each ``mu`` by how
surprising the order was given everybody's ratings, shrinking ``sigma`` as
evidence comes in. openskill's small additive ``tau`` (25/300 a match)
keeps ``sigma`` from reaching zero, so a rating keeps following a player who
improves.

**Fixed seats.** The bots play at their anchors (:mod:`pyrummy.ratings.anchors`)
with the anchors' small uncertainty and are never updated: a person's result
against a bot moves only the person, on the bots' scale.

**Newcomers** start at the Easy bot's rating (1000 points, ``mu`` 25) with
openskill's prior uncertainty ``sigma`` 25/3 (about ±480 points at 95%), so
their first matches, against bots or people, place them on the scale quickly.

**Provisional** until :data:`PROVISIONAL_MATCHES` rated matches: by then a
player who plays two-player matches against opponents of known rating has
an interval of about ±200 points (see docs/ratings.md).

>>> from pyrummy.ratings.scale import mu_of
>>> ann, bot = newcomer(), Rating(mu_of(1200.0), 0.5, 0)
>>> after = rate_match([Seat(ann), Seat(bot, fixed=True)], places=[1, 2])
>>> after[0].points > ann.points, after[1] == bot, after[0].matches
(True, True, 1)
>>> places_of([10, 30, 30, -5], left=[1])
[2, 4, 1, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Final

from openskill.models import PlackettLuce

from pyrummy.ratings.scale import BETA, MU_AT_ANCHOR, points_of

#: Rated matches a rating stays provisional for.
PROVISIONAL_MATCHES: Final = 10
#: A newcomer's uncertainty (openskill's default prior, 25/3).
NEWCOMER_SIGMA: Final = 25.0 / 3.0
#: The confidence a rating's interval claims, and its half-width in ``sigma``.
#: Not the normal 1.96: when people play people, each update treats the
#: others' ratings as better known than they are, and ``mu ± 1.96·sigma``
#: held the true rating only 84-88% of the time in simulation (against
#: anchored bots alone, 98%). 2.5 ``sigma`` holds it 95-100% of the time in
#: both (tests/ratings/test_ratings.py checks it).
CONFIDENCE: Final = 0.95
Z: Final = 2.5

_MODEL: Final = PlackettLuce(mu=MU_AT_ANCHOR, sigma=NEWCOMER_SIGMA, beta=BETA)


@dataclass(frozen=True)
class Rating:
    """A skill ``mu`` with its uncertainty ``sigma`` (model units) after ``matches`` rated matches."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def points(self) -> float:
        """The rating people read (see :mod:`pyrummy.ratings.scale`)."""
        return points_of(self.mu)

    @property
    def low(self) -> float:
        """The bottom of the interval (:data:`CONFIDENCE`, see :data:`Z`), in points."""
        return points_of(self.mu - Z * self.sigma)

    @property
    def high(self) -> float:
        """The top of the interval, in points."""
        return points_of(self.mu + Z * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES

    def to_dict(self) -> dict[str, object]:
        """What a page shows: whole points, the interval, provisional or not."""
        return {
            "rating": round(self.points),
            "low": round(self.low),
            "high": round(self.high),
            "matches": self.matches,
            "provisional": self.provisional,
        }


def newcomer() -> Rating:
    """The rating of a player's first rated match in a game."""
    return Rating(MU_AT_ANCHOR, NEWCOMER_SIGMA, 0)


@dataclass(frozen=True)
class Seat:
    """One seat of a rated match: its rating before, and whether it stays fixed (a bot)."""

    rating: Rating
    fixed: bool = field(default=False)


def places_of(totals: Sequence[Fraction | int | float], left: Sequence[int] = ()) -> list[int]:
    """Each seat's place (1 = first; tied totals share a place) from the
    match's totals; the seats in ``left`` (people who left the match) come
    after everyone who stayed, whatever their seat's bot scored."""
    gone = set(left)

    def key(seat: int) -> tuple[int, Fraction | int | float]:
        return (1 if seat in gone else 0, -totals[seat])

    keys = [key(seat) for seat in range(len(totals))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def rate_match(seats: Sequence[Seat], places: Sequence[int]) -> list[Rating]:
    """Every seat's rating after a match in which it finished at ``places``
    (1 = first, equal numbers for ties); fixed seats come back unchanged,
    the others one match older."""
    if len(seats) != len(places) or not 2 <= len(seats) <= 8:
        raise ValueError(f"a rated match has 2-8 seats and one place each, not {len(places)}")
    if all(seat.fixed for seat in seats):
        return [seat.rating for seat in seats]
    teams = [[_MODEL.rating(mu=seat.rating.mu, sigma=seat.rating.sigma)] for seat in seats]
    updated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [
        seat.rating
        if seat.fixed
        else replace(
            seat.rating,
            mu=float(team[0].mu),
            sigma=float(team[0].sigma),
            matches=seat.rating.matches + 1,
        )
        for seat, team in zip(seats, updated, strict=True)
    ]
