"""Differential test: the ``gin-openspiel`` preset against OpenSpiel's own ``gin_rummy``.

Seeded games are played in both engines at once from the same deal: the
chance outcomes OpenSpiel asks for are read from one shuffled deck, which is
also our deck (OpenSpiel's player 0 is our non-dealer, the starter). At every
decision the legal moves of the two engines are mapped onto each other and
compared as sets:

- first up-card and draw: 52 ``draw discard``, 53 ``draw stock``, 54 ``decline``;
- discard: a card number is ``discard C``; 55 (Knock), followed by the card
  OpenSpiel then asks for, is ``knock C`` (the knock cards are read from a
  clone of the OpenSpiel state that has knocked);
- the wall: OpenSpiel asks the next player to pass or knock; our deal has ended.

Our ``undo`` (a person taking back a draw from the pile before discarding)
is left out: it is no move of the game, and the research environments never
offer it.

A position may differ only by a difference that the rules keep from
OpenSpiel's (:func:`documented_differences`: none for ``gin-openspiel``,
whose options ``discard_taken``, ``pile_draw_limit`` and ``wall_knock``
remove them; docs/rules/gin-standard.md §8); those positions are counted,
every other difference fails the test, and each documented one must show. The move played is drawn from the moves
both engines allow: half of the games draw it from OpenSpiel's list, half
from ours (the two directions), with a bias towards knocking and towards the
discard that leaves the least deadwood, so that many deals reach a showdown.

The showdown is a choice in OpenSpiel (each player lays their own melds and
lay-offs) and arranged for the players in ours: the OpenSpiel players lay the
knocker's melds and the defender's lay-offs and melds that our settlement
chose, every one of which must be legal there, and then the two scores must
agree: OpenSpiel's return of seat 0 is our net of seat 0 less that of seat 1.

That it can fail is tested too: a deal one stock card off, and the preset
with one rule changed (a tie undercutting, a lay-off on gin, another knock
limit, wall or draw limit), are each caught.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import pyspiel
import pytest

from pyrummy.core.actions import DECLINE, DISCARDS, DRAW_DISCARD, DRAW_STOCK, Action
from pyrummy.core.actions import ActionKind as Kind
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal import Deal
from pyrummy.core.phases import EndReason
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import deadwood_without_each
from pyrummy.research.openspiel_gin import (
    GIN_RULES,
    card_from_openspiel,
    card_to_openspiel,
    meld_numbers,
)

GAME: Final = pyspiel.load_game("gin_rummy")
RULES: Final = find_rules("gin-openspiel")

DRAW_UPCARD: Final = 52
DRAW_STOCK_ACTION: Final = 53
PASS: Final = 54
KNOCK: Final = 55
MAX_MELD: Final = 5  # OpenSpiel numbers melds of 3 to 5 cards

#: The differences between OpenSpiel's rules and ours that an option of
#: ours removes (docs/rules/gin-standard.md §8): each is counted where it shows.
TAKEN_BACK: Final = "OpenSpiel lets the upcard just taken be discarded"
TAKEN_KNOCK: Final = "OpenSpiel lets the upcard just taken be the knock card"
WALL_KNOCK: Final = "OpenSpiel lets the player at the wall take the upcard to knock"
DRAW_LIMIT: Final = "OpenSpiel ends the deal drawn at the 50th upcard drawn"
OPENSPIEL_DRAW_LIMIT: Final = 50
#: ``gin-openspiel`` without the options that follow OpenSpiel: our plain
#: rulings, to show that each option removes its difference and no other.
WITHOUT_OPTIONS: Final = RULES.with_options(
    discard_taken=False, pile_draw_limit=0, wall_knock=False
)


def documented_differences(rules: Rules) -> set[str]:
    """The differences ``rules`` keep from OpenSpiel's: the only ones a
    position may show, and each must show."""
    found = set()
    if not rules.discard_taken:
        found |= {TAKEN_BACK, TAKEN_KNOCK}
    if not rules.wall_knock:
        found.add(WALL_KNOCK)
    if rules.pile_draw_limit != OPENSPIEL_DRAW_LIMIT:
        found.add(DRAW_LIMIT)
    return found


_OURS_BY_NUMBER: Final = {DRAW_UPCARD: DRAW_DISCARD, DRAW_STOCK_ACTION: DRAW_STOCK, PASS: DECLINE}

GAMES: Final = 2000  # 1000 in each direction
GAMES_WITHOUT_OPTIONS: Final = 600
SEED: Final = 20261205


class Mismatch(AssertionError):
    """A position where the engines differ in a way docs/rules/gin-standard.md §8 does not list."""


@dataclass
class Tally:
    """What the games measured."""

    games: int = 0
    decisions: int = 0
    #: Positions where the legal moves differ, by documented difference.
    differing: Counter[str] = field(default_factory=Counter)
    #: Games whose play stopped at a documented difference (their scores are
    #: then not compared), by difference.
    stopped: Counter[str] = field(default_factory=Counter)
    #: How each compared game ended (our outcome, or "wall").
    endings: Counter[str] = field(default_factory=Counter)
    scores_compared: int = 0
    melds_laid: int = 0
    layoffs_laid: int = 0


def openspiel_deal(deck: list[int]) -> Any:
    """OpenSpiel's state after the deal from ``deck`` (OpenSpiel card numbers)."""
    state = GAME.new_initial_state()
    for card in deck[:21]:
        state.apply_action(card)
    return state


def our_deal(deck: list[int], rules: Rules = RULES) -> Deal:
    """Our deal of the same cards: OpenSpiel's player 0 gets the first ten and
    plays first, so it is our starter and player 1 our dealer; the 21st card
    is the up-card and the rest is the stock in the order it is drawn."""
    cards = [card_from_openspiel(n) for n in deck]
    order = [card for pair in zip(cards[:10], cards[10:20], strict=True) for card in pair]
    return Deal.from_deck(rules, 2, 1, order + cards[20:])


def _names(actions: Iterable[Action]) -> list[str]:
    return sorted(str(a) for a in actions)


def _describe(state: Any, deal: Deal, problem: str) -> str:
    return (
        f"{problem}\nOpenSpiel:{state}\nours: {deal!r} history {_names(a for _, a in deal.history)}"
    )


class DualGame:
    """One game played in both engines at once, compared at every decision."""

    def __init__(
        self, deck: list[int], rng: random.Random, from_openspiel: bool, rules: Rules = RULES
    ) -> None:
        self.deck = deck
        self.next_card = 21
        self.rules = rules
        self.state = openspiel_deal(deck)
        self.deal = our_deal(deck, rules)
        self.rng = rng
        self.from_openspiel = from_openspiel
        self.taken: Card | None = None  # the upcard taken this turn
        self.wall_knock = False  # a knock at the wall was played

    def fail(self, problem: str) -> Mismatch:
        return Mismatch(_describe(self.state, self.deal, problem))

    # -- one decision -------------------------------------------------------
    def compare_and_play(self, tally: Tally) -> str | None:
        """Compare the decision OpenSpiel asks for with ours and play one move
        in both; the documented difference that stopped the game, if any."""
        state, deal = self.state, self.deal
        phase = str(state.current_phase()).rsplit(".", 1)[-1]
        legal = list(state.legal_actions())
        tally.decisions += 1
        if phase == "WALL":
            return self._wall(legal, tally)
        player = state.current_player()
        if deal.is_over or deal.current_seat != player:
            raise self.fail(f"OpenSpiel asks player {player} in {phase}; ours is at {deal!r}")
        # Undo (a person's take-back of a draw from the pile) is no move of
        # the game: the research environments never offer it.
        ours = [a for a in deal.legal_actions() if a.kind is not Kind.UNDO]
        if phase in ("FIRST_UPCARD", "DRAW"):
            mapped = {_OURS_BY_NUMBER[n] for n in legal}
            if mapped != set(ours):
                raise self.fail(f"draw: OpenSpiel {legal} against ours {_names(ours)}")
            return self._draw(legal, ours)
        if phase == "DISCARD":
            return self._discard(legal, ours, tally)
        raise self.fail(f"OpenSpiel asks for a {phase} decision before any knock of ours")

    def _draw(self, legal: list[int], ours: list[Action]) -> str | None:
        if self.from_openspiel:
            number = self.rng.choice(legal)
        else:
            choice = self.rng.choice(ours)
            number = next(n for n in legal if _OURS_BY_NUMBER[n] == choice)
        action = _OURS_BY_NUMBER[number]
        self.taken = self.deal.discard_pile[-1] if action == DRAW_DISCARD else None
        self.state.apply_action(number)
        self.deal.apply(action)
        if self.state.is_terminal() != self.deal.is_over:
            if self.state.is_terminal():  # OpenSpiel's limit on upcard draws
                return DRAW_LIMIT
            raise self.fail("our deal ended at a draw and OpenSpiel's did not")
        if number == DRAW_STOCK_ACTION:
            self._deal_stock_card()
        return None

    def _deal_stock_card(self) -> None:
        if not self.state.is_chance_node():
            raise self.fail("OpenSpiel deals no card after a stock draw")
        card = self.deck[self.next_card]
        self.next_card += 1
        self.state.apply_action(card)
        drawn = self.deal.history[-1]
        if card_from_openspiel(card) not in self.deal.hands(drawn[0]):
            raise self.fail(f"the stock card {card_from_openspiel(card)} is not the one we drew")

    def _discard(self, legal: list[int], ours: list[Action], tally: Tally) -> str | None:
        deal, taken = self.deal, self.taken
        their_cards = {card_from_openspiel(n) for n in legal if n < DRAW_UPCARD}
        our_discards = {a.cards[0] for a in ours if a.kind is Kind.DISCARD}
        our_knocks = {a.cards[0] for a in ours if a.kind is Kind.KNOCK}
        if {a.kind for a in ours} - {Kind.DISCARD, Kind.KNOCK}:
            raise self.fail(f"ours offers more than discards and knocks: {_names(ours)}")
        extra = their_cards - our_discards
        if extra:
            if extra != {taken} or taken in our_discards or self.rules.discard_taken:
                raise self.fail(f"discards: OpenSpiel {sorted(their_cards)} ours {_names(ours)}")
            tally.differing[TAKEN_BACK] += 1
        if our_discards - their_cards:
            raise self.fail(f"we offer discards OpenSpiel does not: {our_discards - their_cards}")
        their_knocks: set[Card] = set()
        if KNOCK in legal:
            knocked = self.state.clone()
            knocked.apply_action(KNOCK)
            their_knocks = {card_from_openspiel(n) for n in knocked.legal_actions()}
        self._compare_knocks(their_knocks, our_knocks, tally)
        action = self._pick_give_back(ours, legal)
        seat = deal.current_seat
        assert seat is not None
        self.taken = None
        if action.kind is Kind.KNOCK:
            self.state.apply_action(KNOCK)
            self.state.apply_action(card_to_openspiel(action.cards[0]))
            deal.apply(action)
            self._showdown(seat, tally)
            return None
        self.state.apply_action(card_to_openspiel(action.cards[0]))
        deal.apply(action)
        return None

    def _compare_knocks(self, theirs: set[Card], ours: set[Card], tally: Tally) -> None:
        """The knock cards agree, but for the card just taken without ``discard_taken``."""
        extra = theirs - ours
        if extra:
            if extra != {self.taken} or self.rules.discard_taken:
                raise self.fail(f"knocks: OpenSpiel {sorted(theirs)} ours {sorted(ours)}")
            tally.differing[TAKEN_KNOCK] += 1
        if ours - theirs:
            raise self.fail(f"we offer knocks OpenSpiel does not: {ours - theirs}")

    def _pick_give_back(self, ours: list[Action], legal: list[int]) -> Action:
        """The discard or knock played: a knock half of the times one is
        legal; else the least-deadwood discard (not the card just taken) half
        of the times; else any move, drawn from OpenSpiel's list (its moves
        we also allow) or ours."""
        rng = self.rng
        knocks = [a for a in ours if a.kind is Kind.KNOCK]
        if knocks and rng.random() < 0.5:
            return rng.choice(knocks)
        discards = [a for a in ours if a.kind is Kind.DISCARD]
        if rng.random() < 0.5:
            seat = self.deal.current_seat
            assert seat is not None
            without = deadwood_without_each(self.deal.hands(seat).mask)
            kept = [a for a in discards if a.cards[0] != self.taken] or discards
            return min(kept, key=lambda a: (without[a.cards[0].index], a.cards[0].index))
        if not self.from_openspiel:
            return rng.choice(ours)
        allowed = {card_to_openspiel(a.cards[0]) for a in discards}
        number = rng.choice([n for n in legal if n in allowed or (n == KNOCK and knocks)])
        if number == KNOCK:
            return rng.choice(knocks)
        return DISCARDS[card_from_openspiel(number).index]

    # -- the end --------------------------------------------------------------
    def _wall(self, legal: list[int], tally: Tally) -> str | None:
        """OpenSpiel's wall: pass, or take the upcard to knock (``wall_knock``:
        ``decline`` or ``draw discard`` and a knock; without it our deal has
        ended drawn)."""
        if legal not in ([PASS], [PASS, KNOCK]):
            raise self.fail(f"the wall: {legal}")
        deal = self.deal
        if not self.rules.wall_knock:
            if not deal.is_over or deal.end_reason is not EndReason.WALL:
                raise self.fail("OpenSpiel is at the wall and our deal is not over by it")
            if KNOCK in legal:
                tally.differing[WALL_KNOCK] += 1
            self.state.apply_action(PASS)
            return None
        player = self.state.current_player()
        if deal.is_over or deal.current_seat != player:
            raise self.fail(f"OpenSpiel's player {player} is at the wall; ours is at {deal!r}")
        ours = [a for a in deal.legal_actions() if a.kind is not Kind.UNDO]
        expected = {DECLINE} | ({DRAW_DISCARD} if KNOCK in legal else set())
        if set(ours) != expected:
            if set(ours) != {DECLINE} or not self._knocks_only_with_the_upcard():
                raise self.fail(f"the wall: OpenSpiel {legal} against ours {_names(ours)}")
            tally.differing[TAKEN_KNOCK] += 1
            legal = [PASS]
        if KNOCK not in legal or self.rng.random() < 0.5:
            self.state.apply_action(PASS)
            deal.apply(DECLINE)
            return None
        self.taken = deal.discard_pile[-1]
        self.wall_knock = True
        self.state.apply_action(KNOCK)
        deal.apply(DRAW_DISCARD)
        ours = [a for a in deal.legal_actions() if a.kind is not Kind.UNDO]
        if any(a.kind is not Kind.KNOCK for a in ours):
            raise self.fail(f"at the wall we offer more than knocks: {_names(ours)}")
        their_knocks = {card_from_openspiel(n) for n in self.state.legal_actions()}
        self._compare_knocks(their_knocks, {a.cards[0] for a in ours}, tally)
        action = self.rng.choice(ours)
        self.state.apply_action(card_to_openspiel(action.cards[0]))
        deal.apply(action)
        self._showdown(player, tally)
        return None

    def _knocks_only_with_the_upcard(self) -> bool:
        """At the wall: is OpenSpiel's knock possible only with the upcard as
        the knock card (ours forbids that without ``discard_taken``)?"""
        knocked = self.state.clone()
        knocked.apply_action(KNOCK)
        upcard = card_to_openspiel(self.deal.discard_pile[-1])
        return not self.rules.discard_taken and list(knocked.legal_actions()) == [upcard]

    def _showdown(self, knocker: int, tally: Tally) -> None:
        """Lay our settlement's melds and lay-offs in OpenSpiel, each legal there."""
        state, settlement = self.state, self.deal.settlement
        assert settlement is not None and settlement.knocker == knocker
        self._lay(settlement.hands[knocker].melds, tally)
        self._play(PASS, "the knocker's pass")
        defender = 1 - knocker
        if state.current_player() != defender:
            raise self.fail("OpenSpiel does not ask the defender after the knocker's melds")
        if not state.finished_layoffs():
            for card, _ in settlement.layoffs:
                self._play(card_to_openspiel(card), f"the lay-off {card}")
                tally.layoffs_laid += 1
            self._play(PASS, "the end of the lay-offs")
        elif settlement.layoffs:
            raise self.fail("OpenSpiel allows no lay-offs where ours laid some off")
        self._lay(settlement.hands[defender].melds, tally)
        self._play(PASS, "the defender's pass")

    def _lay(self, melds: Iterable[CardSet], tally: Tally) -> None:
        numbers = meld_numbers()
        for meld in melds:
            cards = sorted(meld, key=lambda card: card.index)
            chunks = [cards]
            if len(cards) > MAX_MELD:  # only a run is this long: two runs of 3-5
                first = max(3, len(cards) - MAX_MELD)
                chunks = [cards[:first], cards[first:]]
            for chunk in chunks:
                self._play(numbers[CardSet(chunk).mask], f"the meld {CardSet(chunk)}")
                tally.melds_laid += 1

    def _play(self, number: int, what: str) -> None:
        if number not in self.state.legal_actions():
            raise self.fail(f"OpenSpiel refuses {what} ({number})")
        self.state.apply_action(number)

    def scores(self) -> tuple[float, float]:
        """OpenSpiel's return of seat 0 and ours (net of seat 0 less seat 1)."""
        settlement = self.deal.settlement
        assert settlement is not None
        ours = settlement.net[0] - settlement.net[1]
        return float(self.state.returns()[0]), float(ours)


def _ending(game: DualGame) -> str:
    """How a compared deal ended: the outcome of a knock (at the wall or
    not), ``wall``, or which of OpenSpiel's draws (our end reasons
    ``pile_limit`` and ``thrown_back``)."""
    deal = game.deal
    settlement = deal.settlement
    assert settlement is not None
    if deal.end_reason is EndReason.KNOCK:
        return ("wall " if game.wall_knock else "") + str(settlement.outcome)
    if deal.end_reason is EndReason.PILE_LIMIT:
        assert deal.history[-1][1] == DRAW_DISCARD
        return "pile draw limit"
    if deal.end_reason is EndReason.THROWN_BACK:
        assert deal.history[-1][1] != DRAW_DISCARD
        return "thrown back twice"
    return str(deal.end_reason)


def play_games(games: int, seed: int, rules: Rules = RULES) -> Tally:
    """Play ``games`` seeded games in both engines, comparing them (see the module)."""
    tally = Tally()
    rng = random.Random(seed)
    for number in range(games):
        deck = list(range(52))
        rng.shuffle(deck)
        game = DualGame(deck, rng, number % 2 == 0, rules)
        stopped: str | None = None
        while not game.state.is_terminal() and stopped is None:
            stopped = game.compare_and_play(tally)
        tally.games += 1
        if stopped is not None:
            tally.stopped[stopped] += 1
            continue
        if not game.deal.is_over:
            raise game.fail("OpenSpiel's game is over and ours is not")
        openspiel_score, our_score = game.scores()
        if openspiel_score != our_score:
            raise game.fail(f"scores: OpenSpiel {openspiel_score}, ours {our_score}")
        settlement = game.deal.settlement
        assert settlement is not None
        tally.endings[_ending(game)] += 1
        tally.scores_compared += 1
    return tally


@pytest.fixture(scope="module")
def tally() -> Tally:
    return play_games(GAMES, SEED)


def test_every_position_agrees_but_for_the_documented_differences(tally: Tally) -> None:
    # play_games raises at the first undocumented difference; here: every
    # documented one shows (else docs/rules/gin-standard.md §8 is stale).
    assert tally.games == GAMES
    assert tally.decisions > 50 * GAMES
    assert set(tally.differing) | set(tally.stopped) == documented_differences(RULES)


def test_the_scores_agree_and_the_showdowns_are_legal_in_openspiel(tally: Tally) -> None:
    assert tally.scores_compared == GAMES - sum(tally.stopped.values())
    assert {"wall", "knock", "gin", "undercut", "tie"} <= set(tally.endings)
    assert {"wall knock", "pile draw limit", "thrown back twice"} <= set(tally.endings)
    assert tally.melds_laid > GAMES and tally.layoffs_laid > GAMES // 10


def test_the_openspiel_options_remove_exactly_their_differences() -> None:
    """Without ``discard_taken``, ``pile_draw_limit`` and ``wall_knock`` the
    positions differ by exactly the differences those options remove."""
    found = play_games(GAMES_WITHOUT_OPTIONS, SEED + 1, WITHOUT_OPTIONS)
    assert set(found.differing) | set(found.stopped) == documented_differences(WITHOUT_OPTIONS)
    assert found.scores_compared == GAMES_WITHOUT_OPTIONS - sum(found.stopped.values())


@pytest.mark.parametrize(
    "changed",
    [
        {"tie_undercuts": True},
        {"layoff_on_gin": True},
        {"knock_limit": 9},
        {"wall_cards": 3},
        {"pile_draw_limit": 49},
    ],
    ids=lambda options: " ".join(f"{k}={v}" for k, v in options.items()),
)
def test_a_rule_changed_in_our_preset_is_caught(changed: dict[str, object]) -> None:
    with pytest.raises(Mismatch):
        play_games(GAMES, SEED, RULES.with_options(**changed))


def test_the_openspiel_adapter_shows_our_bots_the_preset() -> None:
    assert GIN_RULES is RULES


def test_a_difference_the_documents_do_not_list_fails() -> None:
    """The comparison can fail: a deal whose stock is one card off is caught."""
    rng = random.Random(SEED)
    deck = list(range(52))
    rng.shuffle(deck)
    game = DualGame(deck, rng, from_openspiel=True)
    game.deck = [*deck[:21], *deck[22:], deck[21]]  # OpenSpiel deals another stock card
    with pytest.raises(Mismatch, match="stock card"):
        while not game.state.is_terminal():
            game.compare_and_play(Tally())
