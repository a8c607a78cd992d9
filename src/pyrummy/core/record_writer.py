"""Writing game records: the text of a deal or a match (the format is
described in :mod:`pyrummy.core.record`, which reads it back).

The writer needs only what a deal and a match show (:class:`RecordedDeal`,
:class:`RecordedMatch`), so :meth:`Deal.record <pyrummy.core.deal.Deal.record>`
and :meth:`Match.record <pyrummy.core.match.Match.record>` call it directly;
:func:`pyrummy.core.record.emit_record` writes either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Final, Protocol

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.errors import RecordError
from pyrummy.core.fairness import DealFairness
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import Settlement
from pyrummy.core.shuffle import LEGACY_SHUFFLE

__all__ = [
    "FREE_HEADERS",
    "GAME_HEADERS",
    "RecordedDeal",
    "RecordedMatch",
    "Winners",
    "deal_record",
    "format_points",
    "match_record",
    "quote",
]

#: Headers that describe the game, in the order they are written.
GAME_HEADERS: Final = (
    "Game",
    "Rules",
    "Options",
    "Players",
    "Names",
    "Seed",
    "Shuffle",
    "FirstDealer",
)
#: Headers kept as they are and ignored by the game, in the order they are written.
FREE_HEADERS: Final = ("Event", "Site", "Date", "Round", "Time", "Annotator")


class RecordedDeal(Protocol):
    """What a deal's record holds (a :class:`~pyrummy.core.deal.Deal` has it)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def deck(self) -> tuple[Card, ...]: ...
    @property
    def history(self) -> Sequence[tuple[int, Action]]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def shuffle(self) -> str: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def settlement(self) -> Settlement | None: ...


class Winners(Protocol):
    """The standings of a finished match, as far as its record shows them."""

    @property
    def winners(self) -> tuple[int, ...]: ...


class RecordedMatch(Protocol):
    """What a match's record holds (a :class:`~pyrummy.core.match.Match` has it)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def shuffle(self) -> str: ...
    @property
    def deals(self) -> Sequence[RecordedDeal]: ...
    def fairness_of(self, deal_number: int) -> DealFairness | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def totals(self) -> tuple[Fraction, ...]: ...
    @property
    def standings(self) -> Winners: ...


def format_points(value: Fraction) -> str:
    """Points with a sign (``0`` without): ``+12``, ``-17/2``.

    >>> format_points(Fraction(-17, 2)), format_points(Fraction(0)), format_points(Fraction(25))
    ('-17/2', '0', '+25')
    """
    return str(value) if value <= 0 else f"+{value}"


def quote(value: str) -> str:
    """A header value, quoted (``\\"`` and ``\\\\`` escape a quote and a backslash)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def deal_record(
    deal: RecordedDeal,
    headers: Mapping[str, str] | None = None,
    *,
    seed: bool | None = None,
    taken: Sequence[str] | None = None,
) -> str:
    """The text record of one deal (see :func:`pyrummy.core.record.emit_record`).

    ``taken``: the card each ``draw discard`` took, in order; each such line
    then names it in a comment (``0: draw discard  # took 7H``). The card lay
    face up, so naming it hides nothing, and a reader ignores the comment.
    """
    lines = _headers(deal.rules, deal.players, "deal", headers)
    game_seed = _seed_of(deal)
    if game_seed is not None and (seed or (seed is None and deal.is_over)):
        lines.append(f"[Seed {quote(str(game_seed))}]")
    if deal.shuffle != LEGACY_SHUFFLE:
        lines.append(f"[Shuffle {quote(deal.shuffle)}]")
    return _finish(lines, headers, [deal], None, None, seed, None if taken is None else [taken])


def match_record(
    match: RecordedMatch,
    headers: Mapping[str, str] | None = None,
    *,
    seed: bool | None = None,
    taken: Sequence[Sequence[str]] | None = None,
) -> str:
    """The text record of a match (see :func:`pyrummy.core.record.emit_record`);
    ``taken``, per deal, as in :func:`deal_record`."""
    lines = _headers(match.rules, match.players, "match", headers)
    lines.append(f"[Names {quote(', '.join(match.names))}]")
    game_seed = match.seed
    if any(deal.seed is None for deal in match.deals):
        game_seed = None  # a deal set up from given hands: the seed does not deal it
    if game_seed is not None and (seed or (seed is None and match.is_over)):
        lines.append(f"[Seed {quote(str(game_seed))}]")
    if match.shuffle != LEGACY_SHUFFLE:
        lines.append(f"[Shuffle {quote(match.shuffle)}]")
    lines.append(f"[FirstDealer {quote(str(match.first_dealer))}]")
    finished = match if match.is_over else None
    return _finish(lines, headers, match.deals, finished, match, seed, taken)


def _headers(rules: Rules, players: int, game: str, headers: Mapping[str, str] | None) -> list[str]:
    for name, value in (headers or {}).items():
        if name not in FREE_HEADERS:
            raise RecordError(
                f"unknown header {name!r}; free headers are {', '.join(FREE_HEADERS)}"
            )
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise RecordError(f"header {name}: the value must be one line of text")
    lines = [f"[Game {quote(game)}]", f"[Rules {quote(rules.name)}]"]
    if rules.option_text():
        lines.append(f"[Options {quote(rules.option_text())}]")
    lines.append(f"[Players {quote(str(players))}]")
    return lines


def _finish(
    lines: list[str],
    headers: Mapping[str, str] | None,
    deals: Sequence[RecordedDeal],
    finished: RecordedMatch | None,
    match: RecordedMatch | None,
    seed: bool | None,
    taken: Sequence[Sequence[str]] | None,
) -> str:
    extra = dict(headers or {})
    for name in FREE_HEADERS:
        if name in extra:
            lines.append(f"[{name} {quote(extra[name])}]")
    if any(not deal.deck for deal in deals):
        raise RecordError("a sampled deal has no record: its deck order is not known")
    for index, deal in enumerate(deals):
        lines.append("")
        fairness = None if match is None else match.fairness_of(deal.deal_number)
        reveal = bool(seed or (seed is None and deal.is_over))
        cards = taken[index] if taken is not None and index < len(taken) else ()
        lines.extend(_deal_lines(deal, fairness, reveal, cards))
    if finished is not None:
        lines.append("")
        lines.append("Totals: " + " ".join(format_points(t) for t in finished.totals))
        lines.append("Winners: " + " ".join(str(s) for s in finished.standings.winners))
    return "\n".join(lines) + "\n"


def _deal_lines(
    deal: RecordedDeal, fairness: DealFairness | None, reveal: bool, taken: Sequence[str]
) -> Iterator[str]:
    yield f"Deal {deal.deal_number}"
    yield f"Dealer: {deal.dealer}"
    yield "Deck: " + " ".join(str(card) for card in deal.deck)
    if fairness is not None:
        yield f"Commitment: {fairness.commitment}"
        if reveal and fairness.revealed:
            yield f"Reveal: {fairness.seed} {fairness.salt}"
    cards = iter(taken)
    for seat, action in deal.history:
        card = next(cards, None) if action.kind is ActionKind.DRAW_DISCARD else None
        yield f"{seat}: {action}" if card is None else f"{seat}: {action}  # took {card}"
    settlement = deal.settlement
    if settlement is not None:
        yield f"Outcome: {settlement.outcome}"
        yield "Net: " + " ".join(format_points(n) for n in settlement.net)


def _seed_of(deal: RecordedDeal) -> int | None:
    # A deal may be seeded with text (simulations); the Seed header holds numbers only.
    seed: object = deal.seed
    return seed if isinstance(seed, int) else None
