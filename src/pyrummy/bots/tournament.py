"""Duplicate tournaments between bots, and the statistics that judge them.

**Duplicate deals.** Luck of the cards is the largest noise in rummy, so
every shuffled deck is dealt once for each rotation of the bots over the
seats: with ``n`` seats, deck ``k`` is played ``n`` times, the dealer fixed
(seat ``k mod n``), and in rotation ``r`` entry ``i`` of the bot list sits in
seat ``(i + r) mod n``. Each bot thus holds every hand of every deck once.

**Scores.** A bot scores the net of the deal's settlement for its seat
(points moved or awarded; higher is better, every preset). Per deck, a bot's
*duplicate score* is its mean net over the deck's rotations; the mean per
deal and its 95% confidence interval (Student t) are computed over these
per-deck values, which are independent, so the pairing removes the
hand-luck variance instead of merely averaging it out. Pairwise *margins*
(A − B) are the per-deck differences of the duplicate scores, with their own
interval.

Rotham's six deals differ (4-6 are all-seven deals), so its decks cycle
through deal numbers 1-6 (:func:`deal_number_for`); every other preset plays
each deck as a first deal.

**Determinism.** Every deck's seed and every bot's seed derive from the
tournament seed, the deck number, the rotation and the seat (SHA-256), so a
deck's result does not depend on which process played it: any number of
workers gives the same results. (A bot limited by wall-clock time, such as
``hard`` with a time budget, is the exception: how far it searches depends
on the machine.)

>>> config = TournamentConfig(rules="knock", bots=("simple", "random"), decks=2, seed=1)
>>> config.labels, config.players, config.total_deals
(('simple', 'random'), 2, 4)
>>> [seating(r, 3) for r in range(3)]
[(0, 1, 2), (2, 0, 1), (1, 2, 0)]
>>> round(student_t_quantile(0.975, 4), 4)
2.7764
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from pyrummy.core.deal import new_deal
from pyrummy.core.errors import RummyError
from pyrummy.core.rules import Rules, find_rules

#: Safety net against a bot/engine pair that never ends a deal: no preset
#: comes near it (turn caps are 120-400 turns of a few actions each).
MAX_ACTIONS_PER_DEAL: Final = 20_000
_SEED_DOMAIN: Final = b"pyrummy-tournament"


class TournamentError(RummyError):
    """A tournament that cannot be run as asked (bot list, deck count, workers)."""


# ----------------------------------------------------------------------------
# configuration and schedule


def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed for one part of a tournament, the same on every machine.

    >>> derive_seed(1, "deck", 0) == derive_seed(1, "deck", 0) != derive_seed(1, "deck", 1)
    True
    """
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(_SEED_DOMAIN + b":" + text).digest()[:8], "big") >> 1


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


# ----------------------------------------------------------------------------
# playing


@dataclass(frozen=True)
class DealResult:
    """One deal of a deck: who sat where, and each entry's net."""

    rotation: int
    seats: tuple[int, ...]  # entry index per seat
    net: tuple[Fraction, ...]  # per entry (not per seat)
    winners: tuple[int, ...]  # entry indices
    outcome: str
    actions: int

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        return {
            "rotation": self.rotation,
            "seats": [labels[e] for e in self.seats],
            "net": {labels[e]: float(v) for e, v in enumerate(self.net)},
            "net_exact": {labels[e]: str(v) for e, v in enumerate(self.net)},
            "winners": [labels[e] for e in self.winners],
            "outcome": self.outcome,
            "actions": self.actions,
        }


@dataclass(frozen=True)
class DeckResult:
    """Every rotation of one deck."""

    deck: int
    seed: int
    dealer: int
    deals: tuple[DealResult, ...]
    deal_number: int = 1

    def duplicate_scores(self) -> tuple[float, ...]:
        """Each entry's mean net over the rotations of this deck."""
        entries = len(self.deals[0].net)
        return tuple(
            float(sum((d.net[e] for d in self.deals), Fraction(0)) / len(self.deals))
            for e in range(entries)
        )

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        return {
            "deck": self.deck,
            "seed": self.seed,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "scores": dict(zip(labels, self.duplicate_scores(), strict=True)),
            "deals": [d.to_dict(labels) for d in self.deals],
        }


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


def play_deck(config: TournamentConfig, deck: int) -> DeckResult:
    """Play deck ``deck`` once per rotation of the bots over the seats."""
    from pyrummy.bots import make_bot  # here, not at the top: pyrummy.bots may import us

    rules = config.resolved_rules()
    players = config.players
    seed = derive_seed(config.seed, "deck", deck)
    dealer = deck % players
    deal_number = deal_number_for(deck, rules)
    deals = []
    for rotation in range(players):
        seats = seating(rotation, players)
        bots = [
            make_bot(
                config.bots[entry],
                seed=derive_seed(config.seed, "bot", deck, rotation, seat),
                **dict(config.bot_options.get(config.bots[entry], {})),
            )
            for seat, entry in enumerate(seats)
        ]
        deal = new_deal(
            rules,
            players=players,
            seed=seed,
            dealer=dealer,
            deal_number=deal_number,
        )
        actions = 0
        while not deal.is_over:
            seat = deal.current_seat
            if seat is None:  # pragma: no cover - a deal not over has a seat to act
                break
            action = bots[seat].choose(deal.observe(seat), deal.legal_actions())
            deal.apply(action)
            actions += 1
            if actions > MAX_ACTIONS_PER_DEAL:
                raise TournamentError(
                    f"deck {deck} rotation {rotation}: no end after {actions} actions"
                )
        settlement = deal.settlement
        assert settlement is not None, "a finished deal has a settlement"
        net = [Fraction(0)] * players
        for seat, entry in enumerate(seats):
            net[entry] = Fraction(settlement.net[seat])
        deals.append(
            DealResult(
                rotation=rotation,
                seats=seats,
                net=tuple(net),
                winners=tuple(sorted(seats[s] for s in settlement.winners)),
                outcome=settlement.outcome,
                actions=actions,
            )
        )
    return DeckResult(
        deck=deck, seed=seed, dealer=dealer, deals=tuple(deals), deal_number=deal_number
    )


def play_decks(config: TournamentConfig, decks: Sequence[int]) -> list[DeckResult]:
    """Play several decks in order (one unit of work for a worker process)."""
    return [play_deck(config, deck) for deck in decks]


def chunk_decks(decks: int, workers: int) -> list[list[int]]:
    """Deck numbers cut into chunks: small enough to balance and to move the
    progress bar, large enough that process hand-offs cost little.

    >>> chunk_decks(10, 1)
    [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]]
    >>> [len(c) for c in chunk_decks(100, 2)]
    [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4]
    """
    size = 1 if workers <= 1 else max(1, min(20, decks // (workers * 6)))
    return [list(range(start, min(start + size, decks))) for start in range(0, decks, size)]


ProgressCallback = Callable[[int], None]


def run_decks(
    config: TournamentConfig,
    workers: int = 1,
    progress: ProgressCallback | None = None,
) -> list[DeckResult]:
    """Play every deck of ``config``; ``progress(n)`` is called as ``n`` more
    deals finish. Results come back in deck order whatever the worker count."""
    if workers < 1:
        raise TournamentError(f"workers: need at least 1, got {workers}")
    chunks = chunk_decks(config.decks, workers)
    results: dict[int, DeckResult] = {}
    if workers == 1:
        for chunk in chunks:
            for deck_result in play_decks(config, chunk):
                results[deck_result.deck] = deck_result
            if progress is not None:
                progress(len(chunk) * config.players)
    else:
        # spawn, not fork: the caller may run threads (a progress bar), and a
        # forked child could inherit one of their locks held.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            pending: set[Future[list[DeckResult]]] = {
                pool.submit(play_decks, config, chunk) for chunk in chunks
            }
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk_results = future.result()
                    for deck_result in chunk_results:
                        results[deck_result.deck] = deck_result
                    if progress is not None:
                        progress(len(chunk_results) * config.players)
    return [results[deck] for deck in range(config.decks)]


# ----------------------------------------------------------------------------
# statistics


def _continued_fraction_beta(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function.

    >>> round(regularized_beta(2.0, 3.0, 0.4), 6)  # 1 - (0.6**4 + 4*0.4*0.6**3)
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction_beta(a, b, x) / a
    return 1.0 - front * _continued_fraction_beta(b, a, 1.0 - x) / b


def student_t_cdf(t: float, dof: float) -> float:
    """P(T <= t) for Student's t with ``dof`` degrees of freedom.

    >>> student_t_cdf(0.0, 3)
    0.5
    """
    tail = 0.5 * regularized_beta(dof / 2.0, 0.5, dof / (dof + t * t))
    return 1.0 - tail if t >= 0 else tail


def student_t_quantile(p: float, dof: float) -> float:
    """The ``p`` quantile of Student's t (bisection on the exact CDF).

    >>> round(student_t_quantile(0.975, 1), 3), round(student_t_quantile(0.975, 10**6), 3)
    (12.706, 1.96)
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if dof <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {dof}")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, dof)
    low, high = 0.0, 1.0
    while student_t_cdf(high, dof) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if student_t_cdf(mid, dof) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its two-sided confidence interval (Student t).

    With fewer than two values the interval is unknown: ``half_width`` is NaN.

    >>> e = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    >>> e.mean, round(e.half_width, 4), round(e.low, 4)
    (3.0, 1.9632, 1.0368)
    """

    mean: float
    half_width: float
    count: int
    stdev: float
    confidence: float = 0.95

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def excludes_zero(self) -> bool:
        """True when the interval lies wholly above or below 0 (a clear result)."""
        return not math.isnan(self.half_width) and (self.low > 0 or self.high < 0)

    def to_dict(self) -> dict[str, object]:
        known = not math.isnan(self.half_width)
        return {
            "mean": self.mean,
            "ci_low": self.low if known else None,
            "ci_high": self.high if known else None,
            "half_width": self.half_width if known else None,
            "stdev": self.stdev if self.count > 1 else None,
            "n": self.count,
            "confidence": self.confidence,
        }


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Mean of ``values`` and its ``confidence`` interval (Student t, n - 1 dof)."""
    if not values:
        raise ValueError("no values")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    count = len(values)
    mean = statistics.fmean(values)
    if count < 2:
        return Estimate(mean, math.nan, count, math.nan, confidence)
    stdev = statistics.stdev(values)
    quantile = student_t_quantile(0.5 + confidence / 2.0, count - 1)
    return Estimate(mean, quantile * stdev / math.sqrt(count), count, stdev, confidence)


# ----------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class EntrySummary:
    """One bot-list entry's results over the whole tournament."""

    label: str
    bot: str
    score: Estimate  # mean net per deal, CI over decks
    total: Fraction
    deals: int
    wins: Fraction  # deals won, a shared win counted as a share

    @property
    def win_rate(self) -> float:
        return float(self.wins / self.deals) if self.deals else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "bot": self.bot,
            **self.score.to_dict(),
            "total": float(self.total),
            "total_exact": str(self.total),
            "deals": self.deals,
            "win_rate": self.win_rate,
        }


@dataclass(frozen=True)
class Margin:
    """Entry ``a`` minus entry ``b``, per deck, as an estimate."""

    a: int
    b: int
    estimate: Estimate

    def to_dict(self, labels: Sequence[str]) -> dict[str, object]:
        return {"a": labels[self.a], "b": labels[self.b], **self.estimate.to_dict()}


@dataclass(frozen=True)
class TournamentResult:
    """The played decks and what they say about the bots."""

    config: TournamentConfig
    decks: tuple[DeckResult, ...]
    entries: tuple[EntrySummary, ...]
    margins: tuple[Margin, ...]

    def cumulative_net(self) -> list[list[float]]:
        """Per entry, its running net total after each deal (decks in order,
        rotations in order within a deck)."""
        running = [Fraction(0)] * self.config.players
        series: list[list[float]] = [[] for _ in range(self.config.players)]
        for deck in self.decks:
            for deal in deck.deals:
                for entry in range(self.config.players):
                    running[entry] += deal.net[entry]
                    series[entry].append(float(running[entry]))
        return series

    def outcomes(self) -> dict[str, int]:
        """How many deals ended each way (``knock``, ``rum``, ``gin``...)."""
        counts: dict[str, int] = {}
        for deck in self.decks:
            for deal in deck.deals:
                counts[deal.outcome] = counts.get(deal.outcome, 0) + 1
        return dict(sorted(counts.items()))

    def to_dict(self, include_decks: bool = True) -> dict[str, object]:
        labels = self.config.labels
        result: dict[str, object] = {
            "config": self.config.to_dict(),
            "method": (
                "duplicate: each deck dealt once per rotation of the bots over the seats; "
                "score = settlement net per deal; CI = Student t over per-deck means"
            ),
            "bots": [e.to_dict() for e in self.entries],
            "margins": [m.to_dict(labels) for m in self.margins],
            "outcomes": self.outcomes(),
        }
        if include_decks:
            result["decks"] = [d.to_dict(labels) for d in self.decks]
        return result


def summarize(
    config: TournamentConfig, decks: Sequence[DeckResult], confidence: float = 0.95
) -> TournamentResult:
    """Per-entry means and pairwise margins, with intervals over the decks."""
    players = config.players
    labels = config.labels
    per_deck = [deck.duplicate_scores() for deck in decks]
    entries = []
    for entry in range(players):
        total = sum((d.net[entry] for deck in decks for d in deck.deals), Fraction(0))
        wins = sum(
            (
                Fraction(1, len(d.winners))
                for deck in decks
                for d in deck.deals
                if entry in d.winners
            ),
            Fraction(0),
        )
        entries.append(
            EntrySummary(
                label=labels[entry],
                bot=config.bots[entry],
                score=mean_ci([scores[entry] for scores in per_deck], confidence),
                total=total,
                deals=sum(len(deck.deals) for deck in decks),
                wins=wins,
            )
        )
    margins = [
        Margin(a, b, mean_ci([s[a] - s[b] for s in per_deck], confidence))
        for a in range(players)
        for b in range(a + 1, players)
    ]
    return TournamentResult(config, tuple(decks), tuple(entries), tuple(margins))


def run_tournament(
    config: TournamentConfig,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    known_bots: Iterable[str] | None = None,
) -> TournamentResult:
    """Validate ``config``, play every deck (over ``workers`` processes) and
    summarize. ``known_bots`` (default: :data:`pyrummy.bots.BOT_NAMES`)
    are the names accepted."""
    if known_bots is None:
        from pyrummy.bots import BOT_NAMES

        known_bots = BOT_NAMES
    config.validate(known_bots)
    return summarize(config, run_decks(config, workers, progress))
