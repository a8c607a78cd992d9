"""Playing the decks of a tournament, in one process or over several.

>>> from pyrummy.tournament.schedule import TournamentConfig
>>> deck = play_deck(TournamentConfig("knock", ("simple", "random"), decks=1, seed=1), 0)
>>> [deal.rotation for deal in deck.deals], [deal.seats for deal in deck.deals]
([0, 1], [(0, 1), (1, 0)])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from pyrummy.bots import make_bot
from pyrummy.core.deal import new_deal
from pyrummy.core.seeds import bot_seed
from pyrummy.tournament.runner import run_tasks
from pyrummy.tournament.schedule import (
    TournamentConfig,
    TournamentError,
    deal_number_for,
    derive_seed,
    seating,
)

#: Safety net against a bot/engine pair that never ends a deal: no preset
#: comes near it (turn caps are 120-400 turns of a few actions each).
MAX_ACTIONS_PER_DEAL: Final = 20_000


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


def play_deck(config: TournamentConfig, deck: int) -> DeckResult:
    """Play deck ``deck`` once per rotation of the bots over the seats."""
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
                # As at a server's table: the bot's seed is the game's seed and its
                # seat, so every rotation's bot in a seat draws the same randomness.
                seed=bot_seed(seed, seat),
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
    ray_address: str | None = None,
) -> list[DeckResult]:
    """Play every deck of ``config``; ``progress(n)`` is called as ``n`` more
    deals finish. Results come back in deck order whatever the worker count,
    and are the same on a Ray cluster (``ray_address``, see
    :mod:`pyrummy.tournament.runner`)."""
    if workers < 1:
        raise TournamentError(f"workers: need at least 1, got {workers}")
    # On a cluster the chunks are sized for its CPUs, not for this machine's workers.
    chunks = chunk_decks(config.decks, workers if ray_address is None else max(workers, 16))
    results: dict[int, DeckResult] = {}
    tasks = [(config, chunk) for chunk in chunks]
    for _, chunk_results in run_tasks(_play_chunk, tasks, workers=workers, ray_address=ray_address):
        for deck_result in chunk_results:
            results[deck_result.deck] = deck_result
        if progress is not None:
            progress(len(chunk_results) * config.players)
    return [results[deck] for deck in range(config.decks)]


def _play_chunk(task: tuple[TournamentConfig, list[int]]) -> list[DeckResult]:
    config, decks = task
    return play_decks(config, decks)
