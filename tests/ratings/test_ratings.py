"""Ratings of simulated players of known strength: the order comes out right and
the intervals cover as often as they claim.

Two kinds of players whose true strength is known:

* **model players**: each has a true rating, and a match's order is drawn from
  the Plackett-Luce model the ratings assume (two to four players, people
  and anchored bots mixed), so the truth is exact and many players fit in a
  second;
* **bots as newcomers**: the real bots (and a fixed policy) play real matches
  of Knock Rummy as if they were new people, against the anchored bots; their
  true rating is their anchor, measured apart (``anchors.json``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pytest

from pyrummy.ratings import (
    PROVISIONAL_MATCHES,
    Rating,
    Seat,
    anchor_rating,
    mu_of,
    newcomer,
    places_of,
    rate_match,
)
from pyrummy.ratings.anchor_play import MatchTask, play_match
from pyrummy.ratings.anchors import anchors_of
from pyrummy.ratings.scale import BETA, points_of


@dataclass
class ModelPlayer:
    truth: float  # true rating, in points
    rating: Rating
    fixed: bool = False


def model_order(players: list[ModelPlayer], rng: random.Random) -> list[int]:
    """A match's places drawn from the Plackett-Luce model at the true strengths."""
    c = math.sqrt(len(players) * BETA * BETA)
    left = list(range(len(players)))
    places = [0] * len(players)
    for place in range(1, len(players) + 1):
        weights = [math.exp(mu_of(players[i].truth) / c) for i in left]
        chosen = rng.choices(left, weights)[0]
        places[chosen] = place
        left.remove(chosen)
    return places


def play_model_matches(
    people: list[ModelPlayer], bots: list[ModelPlayer], matches: int, seed: int
) -> None:
    rng = random.Random(seed)
    for _ in range(matches):
        for person in people:
            size = rng.choice((2, 2, 3, 4))
            others = rng.sample([p for p in people if p is not person] + bots, size - 1)
            table = [person, *others]
            after = rate_match([Seat(p.rating, p.fixed) for p in table], model_order(table, rng))
            for player, rating in zip(table, after, strict=True):
                player.rating = rating


def test_model_players_are_ordered_and_covered() -> None:
    bots = [
        ModelPlayer(points, Rating(mu_of(points), 0.5), fixed=True)
        for points in (700.0, 1000.0, 1100.0, 1300.0)
    ]
    rng = random.Random(5)
    # Spread players (every 250 points) whose order must come out exactly,
    # and a crowd drawn from the range whose intervals are counted.
    spread = [ModelPlayer(points, newcomer()) for points in (600.0, 850.0, 1100.0, 1350.0, 1600.0)]
    crowd = [ModelPlayer(rng.uniform(700.0, 1400.0), newcomer()) for _ in range(120)]
    play_model_matches(spread + crowd, bots, matches=60, seed=7)
    ratings = [p.rating.points for p in spread]
    assert ratings == sorted(ratings), ratings
    everyone = spread + crowd
    covered = sum(p.rating.low <= p.truth <= p.rating.high for p in everyone) / len(everyone)
    # 95% intervals: with 125 players the share covered is 95% ± 4% (two s.d.)
    assert 0.91 <= covered <= 1.0, covered
    # and they are not wide for nothing: under half a newcomer's (±614)
    widths = [p.rating.high - p.rating.low for p in everyone]
    newcomer_width = newcomer().high - newcomer().low
    assert max(widths) < newcomer_width / 2, max(widths)
    assert all(not p.rating.provisional for p in everyone)


def test_newcomers_intervals_cover_after_their_provisional_matches() -> None:
    bots = [ModelPlayer(p, Rating(mu_of(p), 0.5), fixed=True) for p in (700.0, 1000.0, 1300.0)]
    rng = random.Random(11)
    people = [ModelPlayer(rng.uniform(600.0, 1500.0), newcomer()) for _ in range(200)]
    play_model_matches(people, bots, matches=PROVISIONAL_MATCHES, seed=13)
    covered = sum(p.rating.low <= p.truth <= p.rating.high for p in people) / len(people)
    assert 0.9 <= covered <= 1.0, covered
    assert all(p.rating.matches >= PROVISIONAL_MATCHES for p in people)
    assert not any(p.rating.provisional for p in people)


def test_bots_as_newcomers_find_their_anchors_in_real_matches() -> None:
    anchors = anchors_of("knock")
    if not {"random", "simple", "medium"} <= set(anchors):
        pytest.fail("anchors.json has no Knock Rummy anchors for random, simple and medium")
    opponents = ["random", "simple", "medium"]
    newcomers = {name: newcomer() for name in ("random", "simple", "medium")}
    for k in range(36):
        for name in newcomers:
            opponent = opponents[k % len(opponents)]
            mine = k % 2
            players = (name, opponent) if mine == 0 else (opponent, name)
            outcome = play_match(MatchTask("knock", players, seed=1000 * k + len(name)))
            seats = [
                Seat(newcomers[name])
                if seat == mine
                else Seat(anchor_rating("knock", opponent), fixed=True)
                for seat in range(2)
            ]
            newcomers[name] = rate_match(seats, outcome.places)[mine]
    points = {name: rating.points for name, rating in newcomers.items()}
    assert points["random"] < points["simple"], points
    assert points["random"] < points["medium"], points
    for name, rating in newcomers.items():
        truth = anchors[name]
        # the interval (widened by the anchor's own error) holds the anchor
        margin = 2 * truth.error
        assert rating.low - margin <= truth.points <= rating.high + margin, (name, rating, truth)


def test_places_and_hostile_input() -> None:
    assert places_of([5, 5, 1]) == [1, 1, 3]
    assert places_of([5, 1], left=[0]) == [2, 1]
    with pytest.raises(ValueError):
        rate_match([Seat(newcomer())], [1])
    with pytest.raises(ValueError):
        rate_match([Seat(newcomer()), Seat(newcomer())], [1])
    fixed = Seat(Rating(mu_of(1200.0), 0.5), fixed=True)
    assert rate_match([fixed, fixed], [1, 2]) == [fixed.rating, fixed.rating]
    # a win moves a newcomer up, a loss down, and a tie with an equal leaves the mean
    win, loss = rate_match([Seat(newcomer()), Seat(newcomer())], [1, 2])
    assert win.points > 1000 > loss.points
    tie_a, tie_b = rate_match([Seat(newcomer()), Seat(newcomer())], [1, 1])
    assert tie_a.points == pytest.approx(1000) and tie_b.points == pytest.approx(1000)
    assert points_of(newcomer().mu) == 1000
