"""The text game record: a match or one deal, readable like PGN, replayed exactly.

A record is headers, then one section per deal, then (for a finished match)
the final result::

    [Game "match"]
    [Rules "knock"]
    [Players "3"]
    [Names "Ann, Bob, Cy"]
    [Seed "7"]
    [FirstDealer "1"]

    Deal 1
    Dealer: 1
    Deck: 9C 4D ...
    2: draw stock
    2: discard KS
    0: draw discard
    0: knock 7H
    Outcome: knocker-lowest
    Net: +12 -5 -7

    Deal 2
    ...

    Totals: +3 -1 -2
    Winners: 0

Headers, in this order when present: ``Game`` (``match`` or ``deal``),
``Rules`` (preset name), ``Options`` (the options that differ from the
preset, ``name=value`` words, see :meth:`Rules.option_text`), ``Players``,
``Names`` (match only: comma separated), ``Seed``, ``Shuffle`` (the
shuffle the seeds deal by, :mod:`pyrummy.core.shuffle`; none: ``python-mt``,
the one every record made before the portable shuffle was dealt with),
``FirstDealer`` (match only), then the free headers ``Event``, ``Site``, ``Date``, ``Round``,
``Time``, ``Annotator``, which the record keeps but the game ignores. Header
values are quoted; ``\\"`` and ``\\\\`` escape a quote and a backslash.

A deal section is ``Deal N``, ``Dealer: S``, ``Deck: ...`` (the deck in card
notation, in the order the engine deals it: see :meth:`~pyrummy.core.deal.Deal.from_deck`),
one line per action ``seat: action`` (the action's text form, see
:mod:`pyrummy.core.actions`), and, once the deal is over, ``Outcome:`` and
``Net:`` (every seat's points from this deal, exact fractions with a sign).
Blank lines and lines starting with ``#`` are ignored, and so is a comment
at the end of an action line: the server's records name the card each
``draw discard`` took (``0: draw discard  # took 7H``; it lay face up).

**Fair deals** (docs/fair-deals.md). After its ``Deck:`` line, a deal
committed to before it was played has ``Commitment: <hex>``, and once it is
over ``Reveal: <seed> <salt>`` (:mod:`pyrummy.core.fairness`). Reading
checks that the reveal opens the commitment, that the deck is the one the
revealed seed deals, and, with a ``Seed`` header, that the revealed seed is
the deal's seed of the match.

**Setting up a position by hand.** Instead of the ``Deck:`` line, a deal
section may give the position as a player sees it (what
``new_deal(hands=...)`` takes)::

    Deal 1
    Dealer: 0
    Hands: 7H 8H 9H ... / 2C 3C 4C ...
    Upcard: KS
    Stock: QC JC
    1: draw stock

``Hands:`` lists every seat's cards, seat 0 first, seats separated by
``/``; ``Upcard:`` (optional) starts the discard pile; ``Stock:``
(optional) is the top of the stock, top card first. The cards not given
follow in card order (a record replays without chance: give the whole
stock when its order matters). Such a section cannot be checked against a
``Seed`` header, so the two do not go together. Records written by
:func:`emit_record` always hold the ``Deck:`` line.

Reading a record replays it: every action is applied to the deal built from
the written deck, and the results are recomputed and compared with the
written ones. Anything that does not replay raises :class:`RecordError`
with the 1-based line and the reason.

**Secrecy.** A record holds the deck order, so a record of an unfinished
game tells every hidden card: records are for finished games and for the
server's own storage, never for a player's screen during play. The ``Seed``
header is more dangerous still (a match seed tells the deals to come), so
:func:`emit_record` writes it only once the game is over, unless asked to
(``seed=True``, server-side storage of a seeded game).

>>> from pyrummy.core.match import new_match
>>> import random
>>> m = new_match("knock", players=2, seed=3, names=["Ann", "Bob"])
>>> rng = random.Random(1)
>>> while not m.is_over:
...     m.apply(rng.choice(m.legal_actions()))
>>> text = emit_record(m)
>>> text.splitlines()[:6]
['[Game "match"]', '[Rules "knock"]', '[Players "2"]', '[Names "Ann, Bob"]', '[Seed "3"]', '[FirstDealer "1"]']
>>> again = parse_record(text)
>>> again.totals == m.totals and emit_record(again) == text
True
>>> parse_record(text.replace('[Players "2"]', '[Players "9"]'))
Traceback (most recent call last):
...
pyrummy.core.errors.RecordError: line 3: knock is for 2-5 players, not 9
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from pyrummy.core.cards import Card, parse_card_list
from pyrummy.core.deal import Deal, arrange_deck, new_deal
from pyrummy.core.errors import RecordError, RummyError, StoredActionError
from pyrummy.core.fairness import DealFairness, deck_problem, is_hex64
from pyrummy.core.match import Match, check_ending, check_names, deal_seed, replay_actions
from pyrummy.core.record_writer import (
    FREE_HEADERS,
    GAME_HEADERS,
    deal_record,
    format_points,
    match_record,
)
from pyrummy.core.rules import Rules, find_rules, parse_options
from pyrummy.core.shuffle import LEGACY_SHUFFLE, check_shuffle

__all__ = [
    "FREE_HEADERS",
    "GAME_HEADERS",
    "GameRecord",
    "emit_record",
    "format_points",
    "parse_record",
    "read_record",
]

_HEADER_LINE: Final = re.compile(r'\[([A-Za-z]+)\s+"((?:[^"\\]|\\.)*)"\]')
_ACTION_LINE: Final = re.compile(r"(\d+)\s*:\s*(\S.*)")
_DEAL_LINE: Final = re.compile(r"Deal\s+(\d+)")
_REVEAL_LINE: Final = re.compile(r"(-?\d+)\s+(\S+)")


@dataclass
class GameRecord:
    """A parsed record: the replayed game and its free headers (``Date``, ``Event``...).

    ``emit_record(r.game, r.headers)`` gives back the text that was read
    (up to blank lines, comments and spacing).
    """

    game: Match | Deal
    headers: dict[str, str] = field(default_factory=dict)
    #: Each deal's commitment (and reveal) as the record gives it, by deal number.
    fairness: dict[int, DealFairness] = field(default_factory=dict)


# -- writing ------------------------------------------------------------------


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def emit_record(
    game: Match | Deal,
    headers: Mapping[str, str] | None = None,
    *,
    seed: bool | None = None,
) -> str:
    """The text record of a match or a deal (finished or not: see the secrecy note).

    ``headers`` adds free headers (``Date``, ``Event``, ...). ``seed``: write
    the ``Seed`` header always (True), never (False), or once the game is
    over (None, the default). :mod:`pyrummy.core.record_writer` writes it.
    """
    if isinstance(game, Match):
        return match_record(game, headers, seed=seed)
    return deal_record(game, headers, seed=seed)


# -- what the record needs of a deal ----------------------------------------------


def _deal_from_deck(
    deck: Sequence[Card], rules: Rules, players: int, dealer: int, deal_number: int, shuffle: str
) -> Deal:
    return Deal.from_deck(
        deck,
        rules=rules,
        players=players,
        dealer=dealer,
        deal_number=deal_number,
        shuffle=shuffle,
    )


# -- reading ------------------------------------------------------------------


def parse_record(text: str) -> Match | Deal:
    """Replay a record: the :class:`Match` or :class:`Deal` it describes.

    Raises :class:`RecordError` (with the 1-based line) for anything that
    does not read or does not replay.
    """
    return read_record(text).game


def read_record(text: str) -> GameRecord:
    """Replay a record and keep its free headers."""
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise RecordError("a record is text")
        self.lines = [
            (number, line.strip())
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        self.position = 0
        self.shuffle = LEGACY_SHUFFLE
        self.fairness: dict[int, DealFairness] = {}

    # -- line access ------------------------------------------------------------
    def peek(self) -> tuple[int, str] | None:
        return self.lines[self.position] if self.position < len(self.lines) else None

    def take(self) -> tuple[int, str]:
        line = self.lines[self.position]
        self.position += 1
        return line

    def last_line(self) -> int:
        return self.lines[-1][0] if self.lines else 1

    def expect(self, prefix: str, what: str) -> tuple[int, str]:
        """The next line, which must start with ``prefix``; returns its line and the rest."""
        line = self.peek()
        if line is None:
            raise RecordError(f"the record ends where {what} should be", self.last_line())
        number, content = line
        if not content.startswith(prefix):
            raise RecordError(f"expected {what} ({prefix.strip()!r}), got {content!r}", number)
        self.take()
        return number, content[len(prefix) :].strip()

    # -- the record -------------------------------------------------------------
    def read(self) -> GameRecord:
        headers, lines_of = self.read_headers()
        kind = headers.get("Game")
        if kind is None:
            raise RecordError('missing header [Game "match"] or [Game "deal"]', 1)
        if kind not in ("match", "deal"):
            raise RecordError(f"Game is 'match' or 'deal', not {kind!r}", lines_of["Game"])
        rules = self.read_rules(headers, lines_of)
        players = self.read_int(headers, lines_of, "Players")
        try:
            rules.check_players(players)
        except RummyError as exc:
            raise RecordError(str(exc), lines_of["Players"]) from None
        seed = self.read_int(headers, lines_of, "Seed") if "Seed" in headers else None
        if "Shuffle" in headers:
            try:
                self.shuffle = check_shuffle(headers["Shuffle"])
            except ValueError as exc:
                raise RecordError(str(exc), lines_of["Shuffle"]) from None
        free: dict[str, str] = {n: headers[n] for n in FREE_HEADERS if n in headers}
        if kind == "deal":
            for name in ("Names", "FirstDealer"):
                if name in headers:
                    raise RecordError(f"header {name} belongs to a match record", lines_of[name])
            game: Match | Deal = self.read_single_deal(rules, players, seed)
        else:
            game = self.read_match(headers, lines_of, rules, players, seed)
        return GameRecord(game, free, self.fairness)

    def read_headers(self) -> tuple[dict[str, str], dict[str, int]]:
        headers: dict[str, str] = {}
        lines_of: dict[str, int] = {}
        while (line := self.peek()) is not None and line[1].startswith("["):
            number, content = self.take()
            found = _HEADER_LINE.fullmatch(content)
            if found is None:
                raise RecordError(f'a header is [Name "value"], not {content!r}', number)
            name, value = found.group(1), _unquote(found.group(2))
            if name not in GAME_HEADERS and name not in FREE_HEADERS:
                known = ", ".join(GAME_HEADERS + FREE_HEADERS)
                raise RecordError(f"unknown header {name!r}; headers are {known}", number)
            if name in headers:
                raise RecordError(f"header {name} appears twice", number)
            headers[name] = value
            lines_of[name] = number
        return headers, lines_of

    def read_rules(self, headers: dict[str, str], lines_of: dict[str, int]) -> Rules:
        if "Rules" not in headers:
            raise RecordError("missing header Rules", self.last_line())
        try:
            options = parse_options(headers.get("Options", ""))
        except RummyError as exc:
            raise RecordError(str(exc), lines_of["Options"]) from None
        try:
            rules = find_rules(headers["Rules"])
        except RummyError as exc:
            raise RecordError(str(exc), lines_of["Rules"]) from None
        try:
            rules = rules.with_options(**options)
            check_ending(rules)
        except RummyError as exc:
            raise RecordError(str(exc), lines_of.get("Options", lines_of["Rules"])) from None
        return rules

    def read_int(self, headers: dict[str, str], lines_of: dict[str, int], name: str) -> int:
        if name not in headers:
            raise RecordError(f"missing header {name}", self.last_line())
        value = headers[name]
        if not value.isdigit() or not value.isascii():
            raise RecordError(f"{name} is a whole number >= 0, not {value!r}", lines_of[name])
        return int(value)

    # -- a single deal -------------------------------------------------------
    def read_single_deal(self, rules: Rules, players: int, seed: int | None) -> Deal:
        line = self.peek()
        if line is None:
            raise RecordError("the record has no deal", self.last_line())
        number, content = self.take()
        found = _DEAL_LINE.fullmatch(content)
        if found is None:
            raise RecordError(f"expected 'Deal N', got {content!r}", number)
        deal_number = int(found.group(1))
        if deal_number < 1:
            raise RecordError("deals are numbered from 1", number)
        _, dealer = self.read_dealer(players)
        deck_line, deck = self.read_deck(rules, players, dealer, seed)
        self.read_fairness(deal_number, deck, seed)
        if seed is not None:
            deal = new_deal(
                rules,
                players=players,
                seed=seed,
                dealer=dealer,
                deal_number=deal_number,
                shuffle=self.shuffle,
            )
            self.check_deck(deal, deck, deck_line, "the Seed header")
        else:
            deal = self.build_deal(deck, rules, players, dealer, deal_number, deck_line)
        self.replay(deal)
        self.read_results(deal)
        if (extra := self.peek()) is not None:
            raise RecordError(f"a deal record has one deal; unexpected {extra[1]!r}", extra[0])
        return deal

    def build_deal(
        self,
        deck: list[Card],
        rules: Rules,
        players: int,
        dealer: int,
        deal_number: int,
        line: int,
    ) -> Deal:
        try:
            # The record's shuffle: a stock rebuilt by shuffling follows it too.
            return _deal_from_deck(deck, rules, players, dealer, deal_number, self.shuffle)
        except RummyError as exc:
            raise RecordError(f"the deck cannot be dealt: {exc}", line) from None

    def read_dealer(self, players: int) -> tuple[int, int]:
        number, text = self.expect("Dealer:", "the dealer")
        if not text.isdigit() or not text.isascii() or int(text) >= players:
            raise RecordError(f"the dealer is a seat 0-{players - 1}, not {text!r}", number)
        return number, int(text)

    def read_deck(
        self, rules: Rules, players: int, dealer: int, seed: int | None
    ) -> tuple[int, list[Card]]:
        """The ``Deck:`` line, or the position of ``Hands:`` (``Upcard:``, ``Stock:``)."""
        line = self.peek()
        if line is not None and line[1].startswith("Hands:"):
            return self.read_position(rules, players, dealer, seed)
        number, text = self.expect("Deck:", "the deck")
        try:
            deck = parse_card_list(text)
        except RummyError as exc:
            raise RecordError(f"deck: {exc}", number) from None
        expected = rules.deck_size
        if len(deck) != expected or any(card.index >= expected for card in deck):
            raise RecordError(
                f"the deck is not a permutation of the {expected} cards of {rules.name}: "
                f"{len(deck)} cards",
                number,
            )
        return number, deck

    def read_position(
        self, rules: Rules, players: int, dealer: int, seed: int | None
    ) -> tuple[int, list[Card]]:
        number, hands = self.expect("Hands:", "the hands")
        if seed is not None:
            raise RecordError("a deal set up with Hands: has no seed: drop the Seed header", number)
        given: dict[str, str] = {}
        for prefix in ("Upcard:", "Stock:"):
            line = self.peek()
            if line is not None and line[1].startswith(prefix):
                given[prefix] = self.expect(prefix, prefix)[1]
        upcard = given.get("Upcard:")
        try:
            deck = arrange_deck(
                rules,
                hands.split("/"),
                upcard,
                given.get("Stock:"),
                dealer=dealer,
                players=players,
            )
        except RummyError as exc:
            raise RecordError(f"the position cannot be dealt: {exc}", number) from None
        return number, deck

    def read_fairness(self, deal_number: int, deck: list[Card], seed: int | None) -> None:
        """The deal's ``Commitment:`` and ``Reveal:`` lines, if any, checked
        against each other, the deck and the deal's seed (``seed``, from the
        ``Seed`` header)."""
        line = self.peek()
        if line is not None and line[1].startswith("Reveal:"):
            raise RecordError("a Reveal: line comes after the Commitment: line", line[0])
        if line is None or not line[1].startswith("Commitment:"):
            return
        number, commitment = self.expect("Commitment:", "the commitment")
        if not is_hex64(commitment):
            raise RecordError(
                f"deal {deal_number}: a commitment is 64 lowercase hex digits", number
            )
        fairness = DealFairness(self.shuffle, commitment)
        line = self.peek()
        if line is not None and line[1].startswith("Reveal:"):
            number, text = self.expect("Reveal:", "the reveal")
            found = _REVEAL_LINE.fullmatch(text)
            if found is None or not is_hex64(found.group(2)):
                raise RecordError(
                    f"deal {deal_number}: a reveal is the seed and the salt "
                    "(64 lowercase hex digits)",
                    number,
                )
            fairness = DealFairness(self.shuffle, commitment, int(found.group(1)), found.group(2))
            assert fairness.seed is not None
            problem = fairness.problem() or deck_problem(
                [card.index for card in deck], fairness.seed, self.shuffle
            )
            if problem is None and seed is not None and fairness.seed != seed:
                problem = "the revealed seed is not the deal's seed from the Seed header"
            if problem is not None:
                raise RecordError(f"deal {deal_number}: {problem}", number)
        self.fairness[deal_number] = fairness

    def check_deck(self, deal: Deal, deck: list[Card], line: int, source: str) -> None:
        if list(deal.deck) != deck:
            raise RecordError(f"the deck is not the one {source} deals", line)

    def replay(self, game: Deal | Match) -> None:
        """Apply the action lines that follow to ``game`` (a deal, or the match
        whose current deal they belong to)."""
        lines: list[int] = []
        actions: list[tuple[int, str]] = []
        while (line := self.peek()) is not None:
            found = _ACTION_LINE.fullmatch(line[1])
            if found is None:
                break
            self.take()
            lines.append(line[0])
            # An action line may end with a comment (``# took 7H``: the card a
            # ``draw discard`` took, which the server's records name).
            actions.append((int(found.group(1)), found.group(2).split("#", 1)[0].strip()))
        try:
            replay_actions(game, actions, one_deal=True)
        except StoredActionError as exc:
            raise RecordError(
                f"illegal action {exc.action!r}: {exc.refusal}", lines[exc.index - 1]
            ) from None

    def read_results(self, deal: Deal) -> None:
        line = self.peek()
        settlement = deal.settlement
        if line is None or not line[1].startswith("Outcome:"):
            return
        number, outcome = self.expect("Outcome:", "the outcome")
        if settlement is None:
            raise RecordError("the deal is not over after its actions: no outcome yet", number)
        if outcome != settlement.outcome:
            raise RecordError(
                f"result mismatch: the outcome is {settlement.outcome}, not {outcome}", number
            )
        number, text = self.expect("Net:", "the deal's net points")
        written = self.read_points(text, deal.players, number)
        if written != tuple(settlement.net):
            shown = " ".join(format_points(n) for n in settlement.net)
            raise RecordError(f"result mismatch: the net points are {shown}", number)

    def read_points(self, text: str, players: int, line: int) -> tuple[Fraction, ...]:
        tokens = text.split()
        if len(tokens) != players:
            raise RecordError(f"expected {players} numbers, got {len(tokens)}", line)
        try:
            return tuple(Fraction(token) for token in tokens)
        except (ValueError, ZeroDivisionError):
            raise RecordError(f"points are numbers like +12 or -17/2, not {text!r}", line) from None

    # -- a match ------------------------------------------------------------------
    def read_match(
        self,
        headers: dict[str, str],
        lines_of: dict[str, int],
        rules: Rules,
        players: int,
        seed: int | None,
    ) -> Match:
        first_dealer = self.read_int(headers, lines_of, "FirstDealer")
        if first_dealer >= players:
            raise RecordError(
                f"FirstDealer is a seat 0-{players - 1}, not {first_dealer}",
                lines_of["FirstDealer"],
            )
        names_text = headers.get("Names")
        try:
            names = check_names(None if names_text is None else names_text.split(", "), players)
        except RummyError as exc:
            raise RecordError(str(exc), lines_of["Names"]) from None
        match = Match(rules, players, first_dealer, names, seed, self.shuffle)
        expected_number = 1
        while (line := self.peek()) is not None and _DEAL_LINE.fullmatch(line[1]):
            number, content = self.take()
            found = _DEAL_LINE.fullmatch(content)
            assert found is not None
            if match.is_over:
                raise RecordError("the match is over: no more deals", number)
            if int(found.group(1)) != expected_number:
                raise RecordError(
                    f"expected Deal {expected_number}, got Deal {found.group(1)}", number
                )
            dealer_line, dealer = self.read_dealer(players)
            if dealer != match.dealer_of(expected_number):
                raise RecordError(
                    f"deal {expected_number} is dealt by seat {match.dealer_of(expected_number)}",
                    dealer_line,
                )
            deck_line, deck = self.read_deck(rules, players, dealer, seed)
            self.read_fairness(
                expected_number, deck, None if seed is None else deal_seed(seed, expected_number)
            )
            if seed is not None:
                self.check_deck(match.deal, deck, deck_line, "the Seed header")
            else:
                fresh = self.build_deal(deck, rules, players, dealer, expected_number, deck_line)
                match.use_deal(fresh)
            if expected_number in self.fairness:
                match.fairness[expected_number] = self.fairness[expected_number]
            deal = match.deal
            self.replay(match)
            self.read_results(deal)
            expected_number += 1
        self.read_totals(match)
        if (extra := self.peek()) is not None:
            raise RecordError(f"unexpected line {extra[1]!r}", extra[0])
        return match

    def read_totals(self, match: Match) -> None:
        line = self.peek()
        if line is None or not line[1].startswith("Totals:"):
            if match.is_over and line is not None:
                raise RecordError(f"expected the final Totals, got {line[1]!r}", line[0])
            return
        number, text = self.expect("Totals:", "the totals")
        if not match.is_over:
            raise RecordError("the match is not over after its deals: no totals yet", number)
        written = self.read_points(text, match.players, number)
        if written != match.totals:
            shown = " ".join(format_points(t) for t in match.totals)
            raise RecordError(f"result mismatch: the totals are {shown}", number)
        number, text = self.expect("Winners:", "the winners")
        winners = tuple(text.split())
        actual = tuple(str(s) for s in match.standings.winners)
        if winners != actual:
            raise RecordError(f"result mismatch: the winners are {' '.join(actual)}", number)
