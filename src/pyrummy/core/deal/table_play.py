"""The meld phase (melding games): melds, lay-offs, joker exchanges, undo, and
the discard that ends the turn.

Every table play is checked against the rulings of the taken discard (it may
not be the last card left) and of all-seven deals (the cards left must
still all meld, with at most one over to discard), and saves an undo
snapshot. The legal actions, the reasons a play is refused and what each
play does are here side by side; the discard itself is
:func:`pyrummy.core.deal.discard.discard`.
"""

from __future__ import annotations

from pyrummy.core.actions import UNDO, Action, ActionKind
from pyrummy.core.cards import ALL_CARDS, Card
from pyrummy.core.deal.discard import discard_allowed
from pyrummy.core.deal.meld_search import coverage, layoff_fits, meld_numbers, meld_of, swap_fits
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.tables import DISCARD_TABLES, card_actions, layoff_actions, swap_actions
from pyrummy.core.deal.turns import go_out
from pyrummy.core.deal.undo import save_table
from pyrummy.core.errors import RummyError
from pyrummy.core.melds import Meld, check_meld, extend_meld, swap_joker
from pyrummy.core.messages import Message, show_cards
from pyrummy.core.patterns import card_numbers
from pyrummy.core.table import TableMeld

__all__ = [
    "layoff",
    "legal_actions",
    "meld",
    "meld_allowed",
    "meld_problem",
    "problem",
    "swap",
]


def legal_actions(deal: DealState) -> tuple[Action, ...]:
    """Undo, the discards, the melds, the lay-offs and the joker exchanges, in
    number order, each filtered by the rulings."""
    seat = deal._seat
    hand = deal._hands[seat]
    rules = deal.rules
    result: list[Action] = [UNDO] if deal._undo else []
    if discard_allowed(deal, hand):
        options = hand if deal._taken is None else hand & ~(1 << deal._taken)
        result += card_actions(DISCARD_TABLES, options)
    space = deal._space
    melds_allowed = meld_allowed(deal)  # always in all-seven deals
    melds = meld_numbers(space, hand) if melds_allowed else []
    # All-seven deals ask, for every candidate, whether the cards left
    # can still be melded: one memo for the whole hand answers them all.
    coverable = (
        coverage([mask for _, mask in melds], rules.last_discard_required)
        if deal._all_seven
        else None
    )

    taken_bit = 0 if deal._taken is None else 1 << deal._taken
    empty_ok = not rules.last_discard_required

    def may_remove(removed: int) -> bool:
        """May ``removed`` leave the hand by meld or lay-off? (See
        :func:`removal_problem`, which says why not.)"""
        left = hand & ~removed
        if not left:
            return empty_ok
        if left == taken_bit:
            return False
        return coverable is None or coverable(left)

    if melds_allowed:
        numbers = [number for number, mask in melds if may_remove(mask)]
        numbers.sort()
        result += map(space.meld_at, numbers)
    layoffs, swaps = table_fits(deal) if deal._table else ((), ())
    if layoffs and not (rules.layoff_after_own_meld and not deal._own_meld[seat]):
        reachable = 0
        for mask in layoffs:
            reachable |= mask
        for i in card_numbers(hand & reachable):
            bit = 1 << i
            if may_remove(bit):
                actions = layoff_actions(i)
                result += [actions[target] for target, mask in enumerate(layoffs) if mask & bit]
    if swaps:
        reachable = 0
        for mask in swaps:
            reachable |= mask
        # Card by card, then table meld by table meld: the encoding order.
        for i in card_numbers(hand & reachable):
            bit = 1 << i
            actions = swap_actions(i)
            result += [actions[target] for target, mask in enumerate(swaps) if mask & bit]
    return tuple(result)


def table_fits(deal: DealState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per table meld, the cards that can be laid off on it and (with
    jokers) the cards that can take a joker's place; kept until the
    table changes."""
    fits = deal._table_fits
    if fits is None:
        ace = deal.rules.ace
        melds = [table_meld.meld for table_meld in deal._table]
        layoffs = tuple(layoff_fits(meld, ace) for meld in melds)
        swaps = tuple(swap_fits(meld) for meld in melds) if deal.rules.jokers else ()
        fits = deal._table_fits = (layoffs, swaps)
    return fits


def meld_allowed(deal: DealState) -> bool:
    """May the seat to play meld now (one meld a turn unless ``multiple_melds``
    or an all-seven deal)?"""
    return deal.rules.multiple_melds or deal._all_seven or deal._melds_turn == 0


def _coverable(deal: DealState, left: int) -> bool:
    melds = [mask for _, mask in meld_numbers(deal._space, left)]
    return coverage(melds, deal.rules.last_discard_required)(left)


def removal_problem(deal: DealState, hand: int, removed: int) -> Message | None:
    """Why cards ``removed`` may not leave the hand by meld or lay-off."""
    left = hand & ~removed
    if not left:
        if deal.rules.last_discard_required:
            return Message.of("action.must_discard_out")
        return None
    taken = deal._taken
    if taken is not None and left == 1 << taken:
        return Message.of("action.taken_discard_last", card=ALL_CARDS[taken].pretty())
    if deal._all_seven and not _coverable(deal, left):
        return Message.of("action.all_seven")
    return None


def meld_problem(deal: DealState, action: Action) -> Message | None:
    """Why a meld is refused, if it is."""
    hand = deal._hands[deal._seat]
    missing = [card for card in action.cards if not hand >> card.index & 1]
    if missing:
        return Message.of("action.not_in_hand", card=show_cards(missing))
    try:
        check_meld(action.cards, deal.rules, run=action.run)
    except RummyError as exc:
        return Message.of("action.invalid_meld", reason=str(exc))
    if not meld_allowed(deal):
        return Message.of("action.one_meld_per_turn")
    mask = 0
    for card in action.cards:
        mask |= card.bit
    return removal_problem(deal, hand, mask)


def problem(deal: DealState, kind: ActionKind, card: Card, target: int | None) -> Message | None:
    """Why a lay-off or a joker exchange of ``card`` (in the hand) on table
    meld ``target`` is refused, if it is."""
    if target is None or not 0 <= target < len(deal._table):
        return Message.of("action.no_such_meld", target=str(target))
    seat = deal._seat
    meld = deal._table[target].meld
    if kind is ActionKind.LAYOFF:
        if deal.rules.layoff_after_own_meld and not deal._own_meld[seat]:
            return Message.of("action.layoff_before_meld")
        if extend_meld(meld, card, deal.rules) is None:
            return Message.of("action.layoff_no_fit", card=card.pretty(), meld=meld.pretty())
        return removal_problem(deal, deal._hands[seat], card.bit)
    if not meld.jokers:
        return Message.of("action.no_joker", meld=meld.pretty())
    if swap_joker(meld, card) is None:
        return Message.of("action.joker_mismatch", card=card.pretty(), meld=meld.pretty())
    return None


def meld(deal: DealState, seat: int, action: Action) -> None:
    """``seat`` lays a meld of its own on the table."""
    save_table(deal, seat)
    laid = meld_of(action, deal.rules)
    mask = 0
    for card in action.cards:
        mask |= card.bit
    deal._table.append(TableMeld(seat, laid, (seat,) * len(laid.cards)))
    deal._table_fits = None
    deal._own_meld[seat] = True
    deal._melds_turn += 1
    _remove_to_table(deal, seat, mask)
    if not deal._hands[seat]:
        go_out(deal, seat)


def layoff(deal: DealState, seat: int, action: Action) -> None:
    """``seat`` lays a card off on a table meld."""
    card = action.cards[0]
    target = action.target
    assert target is not None
    save_table(deal, seat)
    extended = extend_meld(deal._table[target].meld, card, deal.rules)
    assert extended is not None
    _replace_table_meld(deal, seat, target, card, extended)
    if not deal._hands[seat]:
        go_out(deal, seat)


def swap(deal: DealState, seat: int, action: Action) -> None:
    """``seat`` puts a real card in a joker's place and takes the joker."""
    card = action.cards[0]
    target = action.target
    assert target is not None
    save_table(deal, seat)
    swapped = swap_joker(deal._table[target].meld, card)
    assert swapped is not None
    new_meld, joker = swapped
    _replace_table_meld(deal, seat, target, card, new_meld)
    deal._hands[seat] |= joker.bit
    deal._public[seat] |= joker.bit


def _remove_to_table(deal: DealState, seat: int, mask: int) -> None:
    deal._hands[seat] &= ~mask
    deal._public[seat] &= ~mask
    deal._taken_held[seat] &= ~mask
    deal._played_turn = True


def _replace_table_meld(deal: DealState, seat: int, target: int, card: Card, new: Meld) -> None:
    """Table meld ``target`` becomes ``new``, with ``card`` from ``seat``'s
    hand in it (each other card still credited to whoever laid it)."""
    old = deal._table[target]
    who = dict(zip(old.meld.cards, old.laid_by, strict=True))
    who[card] = seat
    deal._table[target] = TableMeld(old.owner, new, tuple(who[c] for c in new.cards))
    deal._table_fits = None
    _remove_to_table(deal, seat, card.bit)
