"""What the played decks say about the bots: means, totals, wins, margins."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pyrummy.bots import BOT_NAMES
from pyrummy.tournament.play import DeckResult, ProgressCallback, run_decks
from pyrummy.tournament.schedule import TournamentConfig
from pyrummy.tournament.stats import Estimate, mean_ci


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
    ray_address: str | None = None,
) -> TournamentResult:
    """Validate ``config``, play every deck (over ``workers`` processes) and
    summarize. ``known_bots`` (default: :data:`pyrummy.bots.BOT_NAMES`)
    are the names accepted; ``ray_address`` plays the decks on a Ray cluster
    (:mod:`pyrummy.tournament.runner`), with the same results."""
    config.validate(BOT_NAMES if known_bots is None else known_bots)
    return summarize(config, run_decks(config, workers, progress, ray_address))
