"""A match: a sequence of deals under one preset, played to the preset's end.

The match speaks the same verbs as a deal (``current_seat``,
``legal_actions()``, ``apply()``, ``observe()``), so ``while not m.is_over:
m.apply(...)`` plays a whole match: when a deal ends and the match goes on,
the next deal starts at once, dealt by the seat to the left of the last
dealer (docs/rules/common.md §5).

How a match ends is the preset's ``rules.match_end``:

* ``dealer_round`` (knock): one deal per player, each player deals once;
* ``target`` (knock-target, rummy, basic, block, gin): after the deal in
  which someone's total reaches ``rules.target``;
* ``deals`` (rotham): ``rules.deals`` deals;
* ``penalty_limit``: after the deal in which someone's penalty total reaches
  ``rules.target``. Penalties are negative awards in the ledger, so that is
  a total of ``-target`` or less. ``basic`` with ``scoring=penalty`` and the
  default ``match_end=target`` ends this way too (docs/rules/basic.md §4: "when someone
  reaches 100 the lowest total wins").
* ``scoring=pay_per_point`` with the default ``match_end=target`` plays a
  fixed number of deals instead (seed 004: «Сеанс будет длиться определенное
  количество раздач, а не разыгрываться до целевого счета»): ``rules.deals``
  deals, or one round of dealers (each player deals once) when ``deals`` is
  0, the default. ``match_end=penalty_limit`` still applies if chosen.

In every case the highest total wins, and players tied on the highest share
the win (:attr:`Standings.winners`).

Randomness: with a ``seed``, the first dealer and every deal's seed are
derived from it (SHA-256, so the same on every machine and Python version);
without one, both come from :class:`random.SystemRandom` (the operating
system's randomness, as ``secrets`` uses) and no seed is
kept anywhere, so nothing in memory predicts a deal before it is dealt.

>>> m = new_match("knock", players=3, seed=7)
>>> m.first_dealer, m.deal.dealer, m.deal_number
(1, 1, 1)
>>> import random
>>> rng = random.Random(0)
>>> while not m.is_over:
...     m.apply(rng.choice(m.legal_actions()))
>>> len(m.finished_deals), [d.dealer for d in m.finished_deals]
(3, [1, 2, 0])
>>> sum(m.totals)  # knock moves points between players: the ledger sums to zero
Fraction(0, 1)
>>> m.standings.winners == tuple(s for s in range(3) if m.totals[s] == max(m.totals))
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from pyrummy.core.actions import Action
from pyrummy.core.cards import Card
from pyrummy.core.deal import Deal, HandsLike, new_deal
from pyrummy.core.errors import (
    IllegalActionError,
    RulesError,
    RummyError,
    SetupError,
    StoredActionError,
)
from pyrummy.core.fairness import DealFairness, deal_salt, is_hex64
from pyrummy.core.families import family_of
from pyrummy.core.ledger import Ledger, Transfer
from pyrummy.core.observation import Observation
from pyrummy.core.record_writer import match_record
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.seeds import derive_seed
from pyrummy.core.settlement import settle_match_end
from pyrummy.core.shuffle import LEGACY_SHUFFLE, check_shuffle

#: Characters a player name may not hold: the record's ``Names`` header lists
#: the names separated by commas inside one quoted value.
_NAME_FORBIDDEN: Final = frozenset(',"\\\n\r\t[]')
_SEED_DOMAIN: Final = "pyrummy-match"


@dataclass(frozen=True)
class Standings:
    """The seats ordered by total, best first (ties keep seat order).

    ``winners`` are the seats tied on the highest total: the match winners
    once the match is over, the leaders before.

    >>> s = Standings.from_totals((Fraction(3), Fraction(-5), Fraction(3)))
    >>> s.order, s.winners
    ((0, 2, 1), (0, 2))
    """

    order: tuple[int, ...]
    totals: tuple[Fraction, ...]
    winners: tuple[int, ...]

    @classmethod
    def from_totals(cls, totals: Sequence[Fraction]) -> Standings:
        totals = tuple(totals)
        order = tuple(sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat)))
        best = max(totals)
        winners = tuple(seat for seat in range(len(totals)) if totals[seat] == best)
        return cls(order=order, totals=totals, winners=winners)

    def to_dict(self) -> dict[str, object]:
        return {
            "order": list(self.order),
            "totals": [str(t) for t in self.totals],
            "winners": list(self.winners),
        }


def match_end_of(rules: Rules) -> str:
    """The ending that applies (:attr:`~pyrummy.core.rules.Rules.ending`): ``penalty`` scoring to a
    target is a penalty limit, ``pay_per_point`` a fixed number of deals.

    >>> match_end_of(find_rules("basic")), match_end_of(find_rules("basic", scoring="penalty"))
    ('target', 'penalty_limit')
    >>> match_end_of(find_rules("basic", scoring="pay_per_point", deals=5))
    'deals'
    """
    return rules.ending


def check_ending(rules: Rules) -> None:
    """Refuse an ending that can never come: a penalty limit where points are only won.

    >>> check_ending(find_rules("gin", match_end="penalty_limit"))
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.RulesError: match_end=penalty_limit needs scores that can fall (knock rules, scoring=penalty or pay_per_point)
    """
    if match_end_of(rules) != "penalty_limit":
        return
    if not family_of(rules).scores_can_fall(rules):
        raise RulesError(
            "match_end=penalty_limit needs scores that can fall "
            "(knock rules, scoring=penalty or pay_per_point)"
        )


def deal_seed(match_seed: int, deal_number: int) -> int:
    """The seed of deal ``deal_number`` (from 1) of a match seeded ``match_seed``.

    >>> deal_seed(7, 1) == deal_seed(7, 1) != deal_seed(7, 2)
    True
    """
    return derive_seed(_SEED_DOMAIN, match_seed, deal_number, bits=64)


def _first_dealer_from_seed(match_seed: int, players: int) -> int:
    return deal_seed(match_seed, 0) % players


def check_names(names: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """Player names, one per seat (``Seat 1`` ... when not given), validated.

    >>> check_names(None, 2)
    ('Seat 1', 'Seat 2')
    >>> check_names(["Ann", "Bob, Jr"], 2)
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.RulesError: name 'Bob, Jr': a name may not contain commas, quotes, backslashes, brackets, tabs or line breaks
    """
    if names is None:
        return tuple(f"Seat {seat + 1}" for seat in range(players))
    if isinstance(names, str):
        raise RulesError("names: expected one name per seat, not one string")
    result = tuple(names)
    if len(result) != players:
        raise RulesError(f"names: {len(result)} names for {players} players")
    for name in result:
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise RulesError(f"name {name!r}: a name is non-empty text without outer spaces")
        if _NAME_FORBIDDEN & set(name):
            raise RulesError(
                f"name {name!r}: a name may not contain commas, quotes, backslashes, "
                "brackets, tabs or line breaks"
            )
    return result


class Match:
    """A sequence of deals, their cumulative ledger and the standings.

    Build one with :func:`new_match`. ``deal`` is the deal being played (the
    last one once the match is over); ``finished_deals`` are the deals that
    have ended, in order.
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        first_dealer: int,
        names: tuple[str, ...],
        seed: int | None,
        shuffle: str = LEGACY_SHUFFLE,
        salt: str | None = None,
    ) -> None:
        rules.check_players(players)
        if not 0 <= first_dealer < players:
            raise RulesError(f"dealer {first_dealer} is not a seat of {players} players")
        self.rules: Final = rules
        self.players: Final = players
        self.first_dealer: Final = first_dealer
        self.names: Final = names
        self.seed: Final = seed
        #: The shuffle every deal's seed deals by (:mod:`pyrummy.core.shuffle`).
        self.shuffle: Final = shuffle
        #: The match's secret salt (:mod:`pyrummy.core.fairness`): with a seed,
        #: every deal is committed to before it is played.
        self.salt: Final = salt
        #: Each deal's commitment and its seed and salt, by deal number
        #: (secret until the deal ends: see :meth:`fairness_of`).
        self.fairness: dict[int, DealFairness] = {}
        self.ending: Final = match_end_of(rules)
        self.finished_deals: list[Deal] = []
        self.ledger = Ledger()
        self._totals: tuple[Fraction, ...] = (Fraction(0),) * players
        self._over = False
        #: The bonuses written when the match ended (game, line, shutout).
        self.match_bonuses: tuple[Transfer, ...] = ()
        self.deal: Deal = self._deal_for(1)

    # -- the deals ------------------------------------------------------------
    @property
    def deal_number(self) -> int:
        """The number (from 1) of the current deal."""
        return len(self.finished_deals) + (0 if self._over else 1)

    def dealer_of(self, deal_number: int) -> int:
        """The dealer of deal ``deal_number``: the deal passes to the left."""
        return (self.first_dealer + deal_number - 1) % self.players

    def deal_seed_of(self, deal_number: int) -> int | None:
        """The seed of deal ``deal_number``, or None for an unseeded match."""
        return None if self.seed is None else deal_seed(self.seed, deal_number)

    def _deal_for(self, deal_number: int) -> Deal:
        seed = self.deal_seed_of(deal_number)
        if seed is not None and self.salt is not None:
            self.fairness[deal_number] = DealFairness.make(
                self.shuffle, seed, deal_salt(self.salt, deal_number)
            )
        return new_deal(
            self.rules,
            players=self.players,
            seed=seed,
            dealer=self.dealer_of(deal_number),
            deal_number=deal_number,
            shuffle=self.shuffle,
        )

    def fairness_of(self, deal_number: int) -> DealFairness | None:
        """Deal ``deal_number``'s commitment, with its seed and salt (None:
        the deal is not committed to: no salt, no seed, or dealt by hand).

        The seed and salt are secret until that deal is over: what a player
        may see before is :meth:`DealFairness.sealed`.

        >>> m = new_match("gin", players=2, seed=4, shuffle="sha256-fy-1", salt="ab" * 32)
        >>> fair = m.fairness_of(1)
        >>> fair.problem() is None and fair.seed == m.deal_seed_of(1) == m.deal.seed
        True
        """
        return self.fairness.get(deal_number)

    def use_deal(self, deal: Deal) -> None:
        """Play ``deal`` as the current deal instead of the one the match dealt:
        a deal whose deck comes from elsewhere (a record's ``Deck:`` line, a
        position set up with ``hands``).

        The deal must be fresh, with the dealer, players and rules this match
        expects; otherwise :class:`IllegalActionError` and nothing changes.
        """
        number = self.deal_number
        if self._over:
            raise IllegalActionError("the match is over")
        if deal.history:
            raise IllegalActionError("a replacement deal must not have started")
        if deal.dealer != self.dealer_of(number) or deal.players != self.players:
            raise IllegalActionError(
                f"deal {number} is dealt by seat {self.dealer_of(number)}, not {deal.dealer}"
            )
        if deal.rules != self.rules:
            raise IllegalActionError("a replacement deal must be played under the match rules")
        self.fairness.pop(number, None)
        self.deal = deal

    # -- the verbs of a deal ----------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None once the match is over."""
        return None if self._over else self.deal.current_seat

    def legal_actions(self) -> list[Action]:
        return [] if self._over else self.deal.legal_actions()

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` to the current deal; a finished deal is settled at once.

        ``seat``, if given, must be the seat to play (as in :meth:`Deal.apply <pyrummy.core.deal.Deal.apply>`).
        Raises :class:`IllegalActionError` (nothing changes) when the match is
        over or the deal refuses the action.
        """
        if self._over:
            raise IllegalActionError("the match is over: no more actions")
        self.deal.apply(action, seat=seat)
        if self.deal.is_over:
            self._finish_deal()

    def replay(self, actions: Iterable[StoredAction]) -> None:
        """Apply stored ``actions`` in order (:func:`replay_actions`): a match
        rebuilt from its stored actions (a server's table, a saved game) is
        :func:`new_match` with the stored seed and dealer, then this.

        >>> m = new_match("knock", players=2, seed=3, dealer=0)
        >>> m.replay(["draw stock", "draw stock"])
        Traceback (most recent call last):
        ...
        pyrummy.core.errors.StoredActionError: stored action 2 ('draw stock'): you have already drawn a card this turn
        """
        replay_actions(self, actions)

    def _finish_deal(self) -> None:
        settlement = self.deal.settlement
        assert settlement is not None, "a finished deal has a settlement"
        self.finished_deals.append(self.deal)
        self.ledger.extend(settlement.transfers)
        self._totals = tuple(t + n for t, n in zip(self._totals, settlement.net, strict=True))
        if self._ends_now():
            self._over = True
            self._add_match_bonuses()
        else:
            self.deal = self._deal_for(len(self.finished_deals) + 1)

    def _add_match_bonuses(self) -> None:
        """The bonuses of the match's end (:func:`~pyrummy.core.settlement.settle_match_end`)."""
        rules = self.rules
        if not (rules.game_bonus or rules.line_bonus or rules.shutout_double):
            return
        won = [0] * self.players
        for deal in self.finished_deals:
            result = deal.settlement
            assert result is not None
            for seat in result.winners:
                if result.net[seat] > 0:
                    won[seat] += 1
        bonuses = settle_match_end(rules, self._totals, won)
        self.match_bonuses = bonuses
        self.ledger.extend(bonuses)
        added = Ledger(list(bonuses)).net(self.players)
        self._totals = tuple(t + n for t, n in zip(self._totals, added, strict=True))

    def _ends_now(self) -> bool:
        played = len(self.finished_deals)
        if self.ending == "dealer_round":
            return played >= self.players
        if self.ending == "deals":
            return played >= self.rules.deals
        if self.ending == "penalty_limit":
            return min(self._totals) <= -self.rules.target
        return max(self._totals) >= self.rules.target

    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` (None: a spectator) may know of the current deal, with the
        match totals (of the finished deals) as ``scores``."""
        view = self.deal.observe(seat)
        # As dataclasses.replace, without the frozen __init__ (one
        # object.__setattr__ per field, see Observation.of): the server
        # builds a view at every action of every table.
        scored = object.__new__(type(view))
        scored.__dict__.update(view.__dict__)
        scored.__dict__["scores"] = self._totals
        return scored

    # -- results ----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def totals(self) -> tuple[Fraction, ...]:
        """Every seat's net total over the finished deals."""
        return self._totals

    @property
    def standings(self) -> Standings:
        return Standings.from_totals(self._totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats sharing the highest total (the leaders while the match goes on)."""
        return self.standings.winners

    @property
    def deals(self) -> list[Deal]:
        """Every deal so far, the current one last (once over: the finished deals)."""
        return list(self.finished_deals) if self._over else [*self.finished_deals, self.deal]

    def clone(self) -> Match:
        """An independent copy: applying actions to it leaves this match unchanged."""
        copy = Match.__new__(Match)
        copy.__dict__.update(self.__dict__)
        copy.finished_deals = list(self.finished_deals)
        copy.fairness = dict(self.fairness)
        copy.ledger = Ledger(list(self.ledger.transfers))
        copy.deal = self.deal if self._over else self.deal.clone()
        return copy

    def record(
        self, *, seed: bool | None = None, taken: Sequence[Sequence[str]] | None = None
    ) -> str:
        """The text record of the match (see :mod:`pyrummy.core.record`);
        ``taken``: per deal, the card each ``draw discard`` took, named in
        comments (:func:`~pyrummy.core.record_writer.match_record`)."""
        return match_record(self, seed=seed, taken=taken)

    def __repr__(self) -> str:
        state = "over" if self._over else f"deal {self.deal_number}"
        return f"<Match {self.rules.name} {self.players} players, {state}>"


#: A stored action: its text (or :class:`Action`), or ``(seat, action)`` when
#: the seat that played it was stored too (then it is checked).
StoredAction = Action | str | tuple[int, Action | str]


def replay_actions(
    game: Match | Deal, actions: Iterable[StoredAction], *, one_deal: bool = False
) -> None:
    """Apply stored ``actions`` to ``game`` in order: the one loop that
    rebuilds a game from what was stored (records, server tables).

    An action given with its seat must come from the seat to play. With
    ``one_deal``, the actions belong to the deal being played: one past the
    end of that deal is refused instead of being played in the match's next
    deal. The first action refused raises :class:`StoredActionError` with its
    place (from 1) and why; the actions before it stay applied.

    >>> m = new_match("knock", players=2, seed=3, dealer=0)
    >>> replay_actions(m, [(0, "draw stock"), (0, "discard 2C")])
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.StoredActionError: stored action 1 ('draw stock'): seat 0 is not to play: seat 1 is
    """
    first_deal = game.deal if isinstance(game, Match) else game
    for index, stored in enumerate(actions, start=1):
        seat, action = stored if isinstance(stored, tuple) else (None, stored)
        # A match moves on to its next deal by itself; one_deal holds it to the first.
        deal = game.deal if isinstance(game, Match) and not one_deal else first_deal
        if deal.is_over and (one_deal or not isinstance(game, Match)):
            raise StoredActionError(index, str(action), "after the end of the deal")
        if seat is not None and seat != deal.current_seat:
            raise StoredActionError(
                index, str(action), f"seat {seat} is not to play: seat {deal.current_seat} is"
            )
        try:
            game.apply(action)
        except RummyError as exc:
            raise StoredActionError(
                index, str(action), str(exc), getattr(exc, "reason", None)
            ) from None


def new_match(
    rules: str | Rules = "knock",
    players: int = 4,
    seed: int | None = None,
    dealer: int | None = None,
    names: Sequence[str] | None = None,
    *,
    hands: HandsLike | None = None,
    upcard: str | Card | None = None,
    stock: str | Iterable[Card] | None = None,
    shuffle: str = LEGACY_SHUFFLE,
    salt: str | None = None,
    **options: object,
) -> Match:
    """A new match, its first deal dealt.

    ``dealer`` is the first dealer (random from the seed when not given;
    for ``rummy`` the person in seat 0 plays first, so the first dealer is
    the seat to their right, ``players - 1``). ``options`` change the rules
    (validated by :func:`pyrummy.core.rules.find_rules`).

    ``hands`` (with ``upcard`` and ``stock``) sets up the first deal as
    :func:`~pyrummy.core.deal.new_deal` does; the deals after it are
    shuffled as usual. The record of such a match keeps every deck and no
    ``Seed`` header.

    ``shuffle`` names how a seed shuffles (:mod:`pyrummy.core.shuffle`);
    ``salt`` (64 hex digits, secret) commits the match to each deal before it
    is played (:mod:`pyrummy.core.fairness`, :meth:`Match.fairness_of`).

    >>> m = new_match("gin", players=2, seed=1, dealer=1, hands=[
    ...     "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"], upcard="KC")
    >>> str(m.deal.hands(0)), m.deal.discard_pile, m.current_seat
    ('AS 2S 3S 4S 5S 6S 7S 8S 9S TS', (Card('KC'),), 0)

    >>> new_match("rummy", players=3, seed=1).deal.dealer
    2
    >>> new_match("gin", players=3)
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.RulesError: gin is for 2-2 players, not 3
    """
    resolved = find_rules(rules, **options)
    check_ending(resolved)
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"players: expected a whole number, got {players!r}")
    resolved.check_players(players)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise RulesError(f"seed: expected a whole number >= 0, got {seed!r}")
    if dealer is None:
        if resolved.name == "rummy":
            dealer = players - 1
        elif seed is None:
            dealer = random.SystemRandom().randrange(players)
        else:
            dealer = _first_dealer_from_seed(seed, players)
    elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise RulesError(f"dealer {dealer!r} is not a seat of {players} players")
    try:
        check_shuffle(shuffle)
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    if salt is not None and not is_hex64(salt):
        raise RulesError("salt: expected 64 lowercase hex digits")
    match = Match(resolved, players, dealer, check_names(names, players), seed, shuffle, salt)
    if hands is not None:
        match.use_deal(
            new_deal(
                resolved,
                players=players,
                seed=match.deal_seed_of(1),
                dealer=dealer,
                hands=hands,
                upcard=upcard,
                stock=stock,
                shuffle=shuffle,
            )
        )
    elif upcard is not None or stock is not None:
        raise SetupError("upcard and stock set up a position: give the hands too")
    return match
