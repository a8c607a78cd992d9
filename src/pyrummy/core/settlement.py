"""Settling a deal: who pays or scores what, written as ledger transfers.

One entry point per way a deal ends:

- :func:`settle` — a showdown: Knock Rummy (docs/rules/knock.md §6), Gin (gin.md §4), or
  the no-winner end of a melding game such as Block (block.md §2);
- :func:`settle_going_out` — someone went out in a melding game (§4, §5);
- :func:`settle_no_winner` — a melding deal ended with nobody out;
- :func:`settle_draw` — a drawn deal (the gin wall, a capped deal): nobody
  scores.

Every result is a :class:`Settlement`. Its ``net`` is what each seat gains
in the deal under the preset's scoring: for the transfer presets (``knock``,
``knock-target``, ``scoring=pay_per_point``) it sums to zero; for the award
presets only the winners gain; under ``scoring=penalty`` each loser's net is
minus their penalty points, so a higher net is always better.

Outcomes: ``rum``, ``knocker-lowest``, ``knocker-tied``, ``knocker-beaten``,
``no-knocker`` (knock); ``knock``, ``undercut``, ``gin``, ``big-gin``, ``tie`` (gin); ``out``,
``rummy`` (going out, ``rummy`` when a going-rummy bonus applied); ``block``
(nobody out, the lowest hand collects); ``penalty`` (nobody out, penalty
scoring); ``draw``.

Rulings where the sources are silent (also in docs/rules/gin.md §3, basic.md §4):

- Gin, the knocker's arrangement: least deadwood first; among arrangements
  with equal deadwood, the one that leaves the defender the *highest*
  deadwood after the defender's best lay-offs (the fewest useful lay-off
  chances, which is why a knocker picks it); then the arrangement whose
  sorted meld masks are smallest, so the choice is deterministic.
- Gin, the defender: the defender's own melds and lay-offs are chosen
  together (every disjoint choice of lay-offs per knocker meld, chains and
  the fourth card of a set included, the rest solved exactly). Among equal
  results the fewest laid-off cards, then the lowest cards, are preferred.
- Going rummy under ``pay_per_point``: ``double`` makes each loser pay twice;
  ``plus10`` is 10 in all, shared equally among the losers. Under
  ``penalty``: ``double`` doubles each loser's penalty; ``plus10`` awards the
  winner 10 (10 fewer penalty points).

>>> result = settle(["4H 5H 6H QC QD QS 8D", "AS AH AD 7C 8C 9C 3H"], knocker=0)
>>> result.outcome, result.winners, [str(a) for a in result.net]
('knocker-beaten', (1,), ['-15', '15'])
>>> settle_no_winner(["6S", "5H KS", "7C", "AS KH QD"], "block").net[0]
Fraction(25, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from pyrummy.core.cards import N_STANDARD, Card, CardSet, CardsLike, parse_card, to_cardset
from pyrummy.core.errors import CardNotationError, DuplicateCardError, RummyError
from pyrummy.core.families import Showdown, family_of
from pyrummy.core.ledger import Ledger, Transfer, TransferReason
from pyrummy.core.melds import Meld, check_meld, extend_meld
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import Arrangement, all_best_arrangements, best_arrangement
from pyrummy.core.values import hand_value

HandLike = CardsLike | Iterable[str]
HandsLike = Sequence[HandLike]


class SettlementError(RummyError):
    """Hands, seats or a winner that cannot be settled as given."""


class Outcome(StrEnum):
    """How a deal was settled; each member equals its text form.

    >>> Outcome.KNOCKER_BEATEN == "knocker-beaten"
    True
    """

    #: Knock Rummy (§2): the knocker has the lowest deadwood alone.
    KNOCKER_LOWEST = "knocker-lowest"
    #: Knock Rummy: the knocker ties the lowest and neither pays nor receives.
    KNOCKER_TIED = "knocker-tied"
    #: Knock Rummy: someone is below the knocker, who pays the knock penalty.
    KNOCKER_BEATEN = "knocker-beaten"
    #: Knock Rummy: the knocker has no deadwood (the rum bonus).
    RUM = "rum"
    #: A knock showdown without a knocker (the stock ran out).
    NO_KNOCKER = "no-knocker"
    #: Gin Rummy: the knocker wins a knock, goes gin, or is undercut.
    KNOCK = "knock"
    GIN = "gin"
    UNDERCUT = "undercut"
    #: Gin with ``big_gin_bonus``: 11 cards all melded, out without a discard.
    BIG_GIN = "big-gin"
    #: Gin with ``tie_undercuts=False``: the defender ties the knocker, nobody scores.
    TIE = "tie"
    #: Melding games: a player went out, or went rummy (all at once).
    OUT = "out"
    RUMMY = "rummy"
    #: Nobody out: the lowest hand collects, or everyone takes a penalty.
    BLOCK = "block"
    PENALTY = "penalty"
    #: Nobody scores (a gin wall, a capped or drawn deal).
    DRAW = "draw"

    def __repr__(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class Settlement:
    """The result of one deal.

    ``hands[i]`` is seat i's arrangement as scored: the best arrangement in
    a showdown; for the gin defender, the cards left after lay-offs (the
    laid-off cards are in ``layoffs``); where the whole hand counts (block,
    going out) no melds and every card as deadwood. ``counts[i]`` is the
    number seat i was scored on (deadwood, deadwood after lay-offs, or hand
    value). ``layoffs`` are ``(card, index of the knocker's meld)`` in the
    order laid off; ``defender_deadwood`` is the gin defender's deadwood
    after lay-offs.
    """

    hands: tuple[Arrangement, ...]
    transfers: tuple[Transfer, ...]
    net: tuple[Fraction, ...]
    winners: tuple[int, ...]
    outcome: Outcome
    knocker: int | None = None
    counts: tuple[int, ...] = ()
    layoffs: tuple[tuple[Card, int], ...] = ()
    defender_deadwood: int | None = None
    rules: str = ""

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def ledger(self) -> Ledger:
        return Ledger(list(self.transfers))

    def to_dict(self) -> dict[str, object]:
        """JSON-able form: cards in notation, amounts as fraction strings."""
        result: dict[str, object] = {
            "rules": self.rules,
            "outcome": str(self.outcome),
            "knocker": self.knocker,
            "winners": list(self.winners),
            "hands": [
                {
                    "seat": seat,
                    "melds": [[str(card) for card in meld] for meld in hand.melds],
                    "deadwood_cards": [str(card) for card in hand.deadwood_cards],
                    "deadwood": hand.deadwood,
                    "count": self.counts[seat] if self.counts else hand.deadwood,
                }
                for seat, hand in enumerate(self.hands)
            ],
            "transfers": [transfer.to_dict() for transfer in self.transfers],
            "net": [str(amount) for amount in self.net],
        }
        if self.defender_deadwood is not None:
            result["layoffs"] = [{"card": str(card), "meld": meld} for card, meld in self.layoffs]
            result["defender_deadwood"] = self.defender_deadwood
        return result


# ---------------------------------------------------------------------------
# validation


def read_hands(hands: HandsLike, rules: Rules) -> tuple[CardSet, ...]:
    """The hands as card sets, checked: a seat count the rules allow, cards
    of the preset's deck, no card in two hands. Any number of cards per hand.

    >>> read_hands(["7H 8H", ["2C", "3C"]], find_rules("knock"))
    (CardSet('7H 8H'), CardSet('2C 3C'))
    >>> read_hands(["7H 8H", "7h"], find_rules("knock"))
    Traceback (most recent call last):
    ...
    pyrummy.core.errors.DuplicateCardError: 7H is in the hands of seat 0 and seat 1
    """
    if isinstance(hands, str | CardSet):
        raise SettlementError("expected one hand per seat, not a single hand")
    hands = list(hands)
    rules.check_players(len(hands))
    result: list[CardSet] = []
    owner: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        try:
            cards = _hand_cards(hand)
        except (CardNotationError, DuplicateCardError) as exc:
            raise type(exc)(f"seat {seat}: {exc}") from None
        for card in cards:
            if card.is_joker and card.index - N_STANDARD >= rules.jokers:
                raise CardNotationError(f"seat {seat}: {card} is not in the {rules.name} deck")
            if card in owner:
                raise DuplicateCardError(
                    f"{card} is in the hands of seat {owner[card]} and seat {seat}"
                )
            owner[card] = seat
        result.append(cards)
    return tuple(result)


def _hand_cards(hand: HandLike) -> CardSet:
    """A hand given as a card set, a string, a mask, or cards or card names."""
    if isinstance(hand, CardSet | str | int):
        return to_cardset(hand)
    return CardSet(parse_card(card) if isinstance(card, str) else card for card in hand)


def _check_seat(seat: object, players: int, role: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise SettlementError(f"{role} must be a seat number, not {seat!r}")
    if not 0 <= seat < players:
        raise SettlementError(f"{role} {seat} is not a seat (seats are 0-{players - 1})")
    return seat


def _whole_hand(cards: CardSet, rules: Rules) -> Arrangement:
    """The hand counted card by card: no melds, every card as deadwood."""
    return Arrangement(melds=(), deadwood_cards=cards, deadwood=hand_value(cards, rules))


def _shares(
    payer: int | None, winners: Sequence[int], amount: int, reason: TransferReason
) -> list[Transfer]:
    """``amount`` split equally among the winners, one transfer per winner."""
    if amount <= 0:
        return []
    share = Fraction(amount, len(winners))
    return [Transfer(payer, winner, share, reason) for winner in winners]


def _lowest(counts: Sequence[int]) -> tuple[int, ...]:
    low = min(counts)
    return tuple(seat for seat, count in enumerate(counts) if count == low)


def _result(
    hands: Sequence[Arrangement],
    transfers: Iterable[Transfer],
    winners: Sequence[int],
    outcome: Outcome,
    rules: Rules,
    *,
    knocker: int | None = None,
    counts: tuple[int, ...] | None = None,
    layoffs: tuple[tuple[Card, int], ...] = (),
    defender_deadwood: int | None = None,
) -> Settlement:
    transfers = tuple(transfers)
    return Settlement(
        hands=tuple(hands),
        transfers=transfers,
        net=Ledger(list(transfers)).net(len(hands)),
        winners=tuple(winners),
        outcome=outcome,
        knocker=knocker,
        counts=counts if counts is not None else tuple(hand.deadwood for hand in hands),
        layoffs=layoffs,
        defender_deadwood=defender_deadwood,
        rules=rules.name,
    )


# ---------------------------------------------------------------------------
# knock rummy (§2, §3)


def knock_transfers(
    deadwoods: Sequence[int], knocker: int | None, rules: Rules | str = "knock"
) -> tuple[list[Transfer], tuple[int, ...], Outcome]:
    """The transfers, winners and outcome of a knock showdown, from deadwoods.

    Follows docs/rules/knock.md §6 (five cases) and knock-target.md §2 (``knock_penalty_mode`` =
    ``each_lower``: the beaten knocker pays the penalty to every opponent
    below them). Each share of a shared amount is its own transfer.

    >>> transfers, winners, outcome = knock_transfers([9, 2, 2, 5], knocker=0)
    >>> outcome, winners
    ('knocker-beaten', (1, 2))
    >>> sorted({(t.payer, t.payee, str(t.amount), t.reason) for t in transfers})[:3]
    [(0, 1, '5', 'knock penalty'), (0, 1, '7/2', 'difference'), (0, 2, '5', 'knock penalty')]
    """
    rules = find_rules(rules)
    players = len(deadwoods)
    if players < 2:
        raise SettlementError("a showdown needs at least 2 hands")
    if any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in deadwoods):
        raise SettlementError(f"deadwoods must be whole numbers >= 0, not {list(deadwoods)}")
    if knocker is not None:
        knocker = _check_seat(knocker, players, "knocker")
    low = min(deadwoods)
    lowest = _lowest(deadwoods)
    transfers: list[Transfer] = []

    def others_pay(winners: tuple[int, ...]) -> None:
        for seat, count in enumerate(deadwoods):
            if seat not in winners:
                transfers.extend(_shares(seat, winners, count - low, TransferReason.DIFFERENCE))

    if knocker is None:
        others_pay(lowest)
        return transfers, lowest, Outcome.NO_KNOCKER
    own = deadwoods[knocker]
    if own == 0:
        for seat, count in enumerate(deadwoods):
            if seat != knocker:
                transfers.extend(_shares(seat, (knocker,), count, TransferReason.DIFFERENCE))
                transfers.extend(
                    _shares(seat, (knocker,), rules.rum_bonus, TransferReason.RUM_BONUS)
                )
        return transfers, (knocker,), Outcome.RUM
    if lowest == (knocker,):
        others_pay(lowest)
        return transfers, lowest, Outcome.KNOCKER_LOWEST
    if own == low:
        # The knocker ties: the other lowest win, the knocker neither pays nor receives.
        winners = tuple(seat for seat in lowest if seat != knocker)
        for seat, count in enumerate(deadwoods):
            if count > low:
                transfers.extend(_shares(seat, winners, count - low, TransferReason.DIFFERENCE))
        return transfers, winners, Outcome.KNOCKER_TIED
    others_pay(lowest)
    if rules.knock_penalty_mode == "each_lower":
        for seat, count in enumerate(deadwoods):
            if count < own:
                transfers.extend(
                    _shares(knocker, (seat,), rules.knock_penalty, TransferReason.KNOCK_PENALTY)
                )
    else:
        transfers.extend(
            _shares(knocker, lowest, rules.knock_penalty, TransferReason.KNOCK_PENALTY)
        )
    return transfers, lowest, Outcome.KNOCKER_BEATEN


def _settle_knock(hands: tuple[CardSet, ...], knocker: int | None, rules: Rules) -> Settlement:
    arrangements = [best_arrangement(hand, rules) for hand in hands]
    transfers, winners, outcome = knock_transfers(
        [a.deadwood for a in arrangements], knocker, rules
    )
    return _result(arrangements, transfers, winners, outcome, rules, knocker=knocker)


# ---------------------------------------------------------------------------
# gin (§8)


@dataclass(frozen=True)
class Defence:
    """The gin defender's best answer to the knocker's melds."""

    arrangement: Arrangement  # of the cards not laid off
    layoffs: tuple[tuple[Card, int], ...]

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood


def layoff_options(meld: Meld, hand: CardSet, rules: Rules) -> list[tuple[Card, ...]]:
    """Every set of cards from ``hand`` that can be laid off on ``meld``,
    each as the order it can be laid off in (chains: 7 then 8 on 4-5-6).
    The empty lay-off comes first.

    >>> meld = check_meld("4H 5H 6H", "gin")
    >>> options = layoff_options(meld, CardSet("7H 8H 3H KS"), find_rules("gin"))
    >>> [" ".join(map(str, seq)) for seq in options]
    ['', '3H', '7H', '3H 7H', '7H 8H', '3H 7H 8H']
    """
    found: dict[int, tuple[Card, ...]] = {0: ()}
    frontier: list[tuple[Meld, int, tuple[Card, ...]]] = [(meld, 0, ())]
    while frontier:
        grown_frontier: list[tuple[Meld, int, tuple[Card, ...]]] = []
        for current, used, order in frontier:
            for card in hand:
                if used & card.bit:
                    continue
                grown = extend_meld(current, card, rules)
                mask = used | card.bit
                if grown is None or mask in found:
                    continue
                found[mask] = (*order, card)
                grown_frontier.append((grown, mask, found[mask]))
        frontier = grown_frontier
    return sorted(found.values(), key=lambda seq: (len(seq), [c.index for c in seq]))


def best_defence(hand: CardsLike, knocker_melds: Sequence[Meld], rules: Rules | str) -> Defence:
    """The defender's least deadwood after laying off on the knocker's melds.

    Own melds and lay-offs are chosen together, exactly: every disjoint
    choice of lay-offs (one option per knocker meld) is tried and the rest of
    the hand is solved with the solver.

    >>> rules = find_rules("gin")
    >>> melds = [check_meld("4H 5H 6H", rules), check_meld("9S 9D 9H", rules)]
    >>> defence = best_defence("7H 8H 9C 3C", melds, rules)
    >>> defence.deadwood, [(str(card), meld) for card, meld in defence.layoffs]
    (3, [('7H', 0), ('8H', 0), ('9C', 1)])
    """
    rules = find_rules(rules)
    cards = to_cardset(hand)
    options = [layoff_options(meld, cards, rules) for meld in knocker_melds]
    solved: dict[int, Arrangement] = {}
    best: tuple[tuple[int, int, tuple[tuple[int, int], ...]], Defence] | None = None
    for choice in itertools.product(*options):
        used = _disjoint_mask(choice)
        if used is None:
            continue
        if used not in solved:
            solved[used] = best_arrangement(CardSet(cards.mask & ~used), rules)
        layoffs = tuple((card, meld) for meld, order in enumerate(choice) for card in order)
        key = (
            solved[used].deadwood,
            len(layoffs),
            tuple(sorted((card.index, meld) for card, meld in layoffs)),
        )
        if best is None or key < best[0]:
            best = (key, Defence(solved[used], layoffs))
    assert best is not None  # the empty lay-off is always an option
    return best[1]


def _disjoint_mask(groups: Iterable[Sequence[Card]]) -> int | None:
    """The cards of all groups as one mask, or None if a card is in two."""
    used = 0
    for group in groups:
        for card in group:
            if used & card.bit:
                return None
            used |= card.bit
    return used


def _no_layoffs(hand: CardSet, rules: Rules) -> Defence:
    return Defence(best_arrangement(hand, rules), ())


def _settle_gin(
    hands: tuple[CardSet, ...],
    knocker: int,
    rules: Rules,
    big_gin: bool = False,
    up_card: int | None = None,
) -> Settlement:
    defender = 1 - knocker
    choices: list[tuple[tuple[int, tuple[int, ...]], Arrangement, Defence]] = []
    for arrangement in all_best_arrangements(hands[knocker], rules):
        if big_gin and arrangement.deadwood:
            raise SettlementError(f"big gin needs every card melded: {hands[knocker]} is not")
        if arrangement.deadwood == 0 and not rules.layoff_on_gin:
            defence = _no_layoffs(hands[defender], rules)
        else:
            melds = [check_meld(meld, rules) for meld in arrangement.melds]
            defence = best_defence(hands[defender], melds, rules)
        order = tuple(sorted(meld.mask for meld in arrangement.melds))
        choices.append(((-defence.deadwood, order), arrangement, defence))
    _, shown, defence = min(choices, key=lambda choice: choice[0])
    own, theirs = shown.deadwood, defence.deadwood
    winners: tuple[int, ...]
    if big_gin:
        outcome, winners = Outcome.BIG_GIN, (knocker,)
        transfers = _shares(None, winners, rules.big_gin_bonus, TransferReason.BIG_GIN_BONUS)
        transfers += _shares(None, winners, theirs, TransferReason.DIFFERENCE)
    elif own == 0:
        outcome, winners = Outcome.GIN, (knocker,)
        transfers = _shares(None, winners, rules.gin_bonus, TransferReason.GIN_BONUS)
        transfers += _shares(None, winners, theirs, TransferReason.DIFFERENCE)
    elif theirs < own or (theirs == own and rules.tie_undercuts):
        outcome, winners = Outcome.UNDERCUT, (defender,)
        transfers = _shares(None, winners, own - theirs, TransferReason.DIFFERENCE)
        transfers += _shares(None, winners, rules.undercut_bonus, TransferReason.UNDERCUT_BONUS)
    elif theirs == own:
        outcome, winners, transfers = Outcome.TIE, (), []
    else:
        outcome, winners = Outcome.KNOCK, (knocker,)
        transfers = _shares(None, winners, theirs - own, TransferReason.DIFFERENCE)
    if rules.doubles_deal(up_card):
        transfers += [
            Transfer(None, t.payee, t.amount, TransferReason.SPADE_DOUBLE) for t in transfers
        ]
    arrangements = [shown, defence.arrangement] if knocker == 0 else [defence.arrangement, shown]
    counts = (own, theirs) if knocker == 0 else (theirs, own)
    return _result(
        arrangements,
        transfers,
        winners,
        outcome,
        rules,
        knocker=knocker,
        counts=counts,
        layoffs=defence.layoffs,
        defender_deadwood=theirs,
    )


# ---------------------------------------------------------------------------
# the lowest hand collects (a deal nobody went out of, 004; pay-per-point too)


def _settle_knock_showdown(
    hands: tuple[CardSet, ...], knocker: int, rules: Rules, big_gin: bool, up_card: int | None
) -> Settlement:
    if big_gin:
        raise SettlementError(f"{rules.name} has no big gin")
    return _settle_knock(hands, knocker, rules)


#: How a knock is scored, by :attr:`FamilyPolicy.showdown <pyrummy.core.families.FamilyPolicy.showdown>`.
_SHOWDOWNS: Final[
    dict[Showdown, Callable[[tuple[CardSet, ...], int, Rules, bool, int | None], Settlement]]
] = {
    "knock": _settle_knock_showdown,
    "gin": _settle_gin,
}


def _lowest_collects(
    hands: tuple[CardSet, ...], rules: Rules, moved: bool
) -> tuple[list[Arrangement], list[Transfer], tuple[int, ...]]:
    shown = [_whole_hand(hand, rules) for hand in hands]
    values = [hand.deadwood for hand in shown]
    winners = _lowest(values)
    low = values[winners[0]]
    if moved:
        transfers = [
            transfer
            for seat, value in enumerate(values)
            for transfer in _shares(seat, winners, value - low, TransferReason.BLOCK_DIFFERENCE)
        ]
    else:
        transfers = _shares(
            None, winners, sum(values) - low * len(values), TransferReason.BLOCK_DIFFERENCE
        )
    return shown, transfers, winners


# ---------------------------------------------------------------------------
# public entry points


def settle(
    hands: HandsLike,
    knocker: int | None,
    rules: Rules | str = "knock",
    *,
    big_gin: bool = False,
    up_card: Card | int | str | None = None,
) -> Settlement:
    """Settle a showdown of these hands (one per seat, from seat 0).

    ``knocker`` is the knocking seat, or None: a knock showdown without a
    knocker (stock exhausted), a drawn gin deal, or the no-winner end of a
    melding game (the lowest whole hand collects or a draw, see
    :func:`settle_no_winner`). Gin: ``big_gin`` says the knocker went out
    with all 11 cards melded (``big_gin_bonus``); ``up_card`` is the deal's
    first up-card, which under ``oklahoma`` doubles the score when a spade.

    >>> rules = find_rules("gin-standard", oklahoma=True)
    >>> result = settle(["4H 5H 6H 9S 9D 9C 2C 3C", "7H 8H 9H KC"], 0, rules, up_card="7S")
    >>> result.outcome, [str(a) for a in result.net]
    ('knock', ['10', '0'])

    >>> [str(a) for a in settle(["", "5S 7D", "3C 9S 2H"], knocker=0).net]
    ['76', '-37', '-39']
    >>> result = settle(["4H 5H 6H 9S 9D 9C 2C 3C", "7H 8H 9H KC"], 0, "gin")
    >>> result.outcome, result.defender_deadwood, [str(a) for a in result.net]
    ('knock', 10, ['5', '0'])
    """
    rules = find_rules(rules)
    cards = read_hands(hands, rules)
    policy = family_of(rules)
    if knocker is not None:
        if policy.showdown is None:
            raise SettlementError(f"{rules.name} has no knocker; settle with knocker=None")
        knocker = _check_seat(knocker, len(cards), "knocker")
        if isinstance(up_card, str):
            up_card = parse_card(up_card)
        up = up_card.index if isinstance(up_card, Card) else up_card
        return _SHOWDOWNS[policy.showdown](cards, knocker, rules, big_gin, up)
    if policy.nobody_out == "no_winner":
        return settle_no_winner(cards, rules)
    if policy.nobody_out == "draw":
        return settle_draw(cards, rules)
    return _settle_knock(cards, None, rules)  # "showdown": every hand shown, no knocker


def settle_draw(hands: HandsLike, rules: Rules | str = "gin") -> Settlement:
    """A drawn deal (gin wall, a capped deal): every hand shown, nobody scores."""
    rules = find_rules(rules)
    cards = read_hands(hands, rules)
    return _result([best_arrangement(hand, rules) for hand in cards], [], (), Outcome.DRAW, rules)


def settle_going_out(
    winner: int, hands_left: HandsLike, rules: Rules | str = "basic", went_rummy: bool = False
) -> Settlement:
    """Settle a melding deal that ``winner`` went out of (docs/rules/rummy.md §7, basic.md §4).

    ``hands_left`` are the cards left in every hand (the winner's is empty);
    ``went_rummy`` says the winner went out in one turn without having
    melded or laid off before.

    >>> result = settle_going_out(1, ["5H KS", "", "AS 2C"], "rummy", went_rummy=True)
    >>> result.outcome, [str(a) for a in result.net]
    ('rummy', ['0', '36', '0'])
    >>> [str(a) for a in settle_going_out(1, ["5H KS", "", "AS 2C"], "basic").net]
    ['0', '18', '0']
    """
    rules = find_rules(rules)
    cards = read_hands(hands_left, rules)
    winner = _check_seat(winner, len(cards), "winner")
    if cards[winner]:
        raise SettlementError(f"seat {winner} went out but still holds {cards[winner]}")
    shown = [_whole_hand(hand, rules) for hand in cards]
    losers = [seat for seat in range(len(cards)) if seat != winner]
    values = {seat: shown[seat].deadwood for seat in losers}
    bonus = rules.going_rummy if went_rummy else "none"
    transfers: list[Transfer] = []
    if rules.scoring == "winner_collects":
        total = sum(values.values())
        transfers += _shares(None, (winner,), total, TransferReason.OUT)
        if bonus == "double":
            transfers += _shares(None, (winner,), total, TransferReason.RUMMY_BONUS)
    elif rules.scoring == "penalty":
        for seat in losers:
            reasons = (
                (TransferReason.PENALTY, TransferReason.RUMMY_BONUS)
                if bonus == "double"
                else (TransferReason.PENALTY,)
            )
            for reason in reasons:
                if values[seat]:
                    transfers.append(Transfer(None, seat, Fraction(-values[seat]), reason))
    else:
        for seat in losers:
            transfers += _shares(seat, (winner,), values[seat], TransferReason.OUT)
            if bonus == "double":
                transfers += _shares(seat, (winner,), values[seat], TransferReason.RUMMY_BONUS)
    if bonus == "plus10":
        if rules.scoring == "pay_per_point":
            share = Fraction(10, len(losers))
            transfers += [
                Transfer(seat, winner, share, TransferReason.RUMMY_BONUS) for seat in losers
            ]
        else:
            transfers += _shares(None, (winner,), 10, TransferReason.RUMMY_BONUS)
    outcome = Outcome.OUT if bonus == "none" else Outcome.RUMMY
    return _result(shown, transfers, (winner,), outcome, rules)


def settle_no_winner(hands_left: HandsLike, rules: Rules | str = "block") -> Settlement:
    """Settle a melding deal that ended with nobody out.

    - ``scoring=penalty``: everybody takes their own hand value as penalty;
    - ``scoring=pay_per_point``: each pays the lowest hand the difference
      (tied lowest share);
    - winner collects, ``nobody_out=lowest_collects`` (``basic``, ``block``,
      ``rotham``): the lowest hand scores the sum of the differences to every
      other hand, tied lowest share. Seed 004 states this for *any* deal that
      ends without anyone going out («Если игра заканчивается без выхода…»),
      not for Block only: the reuse limit and the turn cap end so too;
    - winner collects, ``nobody_out=draw`` (``rummy``, seed 001): a draw,
      everybody 0 (§4).

    >>> [str(a) for a in settle_no_winner(["6S", "5H KS", "7C", "AS KH QD"], "block").net]
    ['25', '0', '0', '0']
    >>> [str(a) for a in settle_no_winner(["6S", "5H KS", "7C"], "basic").net]
    ['10', '0', '0']
    >>> [str(a) for a in settle_no_winner(["6S", "5H KS", "7C"], "rummy").net]
    ['0', '0', '0']
    """
    rules = find_rules(rules)
    cards = read_hands(hands_left, rules)
    if rules.scoring == "penalty":
        shown = [_whole_hand(hand, rules) for hand in cards]
        transfers = [
            Transfer(None, seat, Fraction(-hand.deadwood), TransferReason.PENALTY)
            for seat, hand in enumerate(shown)
            if hand.deadwood
        ]
        return _result(shown, transfers, (), Outcome.PENALTY, rules)
    if rules.scoring == "pay_per_point" or rules.nobody_out == "lowest_collects":
        shown, transfers, winners = _lowest_collects(
            cards, rules, moved=rules.scoring == "pay_per_point"
        )
        return _result(shown, transfers, winners, Outcome.BLOCK, rules)
    return _result([_whole_hand(hand, rules) for hand in cards], [], (), Outcome.DRAW, rules)


def settle_match_end(
    rules: Rules | str, totals: Sequence[Fraction | int], deals_won: Sequence[int]
) -> tuple[Transfer, ...]:
    """The bonuses written when a match ends (docs/rules/gin-standard.md §6).

    ``totals`` are the seats' totals over the match's deals, ``deals_won``
    how many deals each seat won. The winner (the one highest total; none
    when tied) gets ``rules.game_bonus``; every seat ``rules.line_bonus`` per
    deal won; with ``rules.shutout_double``, when no other seat scored, the
    winner's whole game score (the points and both bonuses) once more.

    >>> rules = find_rules("gin-standard")
    >>> [(t.payee, str(t.amount), str(t.reason)) for t in settle_match_end(rules, [112, 0], [4, 0])]
    [(0, '100', 'game bonus'), (0, '100', 'line bonus'), (0, '312', 'shutout')]
    >>> [(t.payee, str(t.amount)) for t in settle_match_end(rules, [104, 60], [3, 2])]
    [(0, '100'), (0, '75'), (1, '50')]
    """
    rules = find_rules(rules)
    if len(totals) != len(deals_won):
        raise SettlementError("one total and one count of deals won per seat")
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    winner = leaders[0] if len(leaders) == 1 else None
    transfers: list[Transfer] = []
    if winner is not None and rules.game_bonus:
        transfers.append(Transfer(None, winner, rules.game_bonus, TransferReason.GAME_BONUS))
    if rules.line_bonus:
        transfers += [
            Transfer(None, seat, rules.line_bonus * won, TransferReason.LINE_BONUS)
            for seat, won in enumerate(deals_won)
            if won
        ]
    others_scored = any(total > 0 for seat, total in enumerate(totals) if seat != winner)
    if winner is not None and rules.shutout_double and not others_scored:
        score = Fraction(totals[winner]) + sum(
            (t.amount for t in transfers if t.payee == winner), Fraction(0)
        )
        if score > 0:
            transfers.append(Transfer(None, winner, score, TransferReason.SHUTOUT))
    return tuple(transfers)
