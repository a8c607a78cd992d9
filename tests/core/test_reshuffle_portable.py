"""A stock rebuilt by shuffling (``stock_end=shuffle``) follows the deal's shuffle.

Under the portable ``sha256-fy-1`` the rebuilt stock is the documented one
(docs/fair-deals.md, "A rebuilt stock"), recomputed here from the text alone
with ``hashlib``: the pile turned face down, shuffled by the stream of
``refill R DECK``. A second rebuild uses its own number. Deals of the older
``python-mt`` shuffle rebuild exactly as before (Python's generator seeded
from the deck). Replays by record and by ``Deal.from_deck`` rebuild the same
stock (the server's tracker of pile takes: tests/server/test_pile_takes_reshuffle.py).
"""

from __future__ import annotations

import hashlib
import random
import struct

from deal_helpers import draw_and_throw_back
from pyrummy.core.cards import Card
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.phases import Phase
from pyrummy.core.record import parse_record
from pyrummy.core.shuffle import LEGACY_SHUFFLE, PORTABLE_SHUFFLE

SEED = 6


def documented_refill(pile: tuple[Card, ...], deck: tuple[Card, ...], rebuild: int) -> list[Card]:
    """The new stock, top first, by docs/fair-deals.md steps 2, 3, 5 and 7."""
    seed = "refill " + str(rebuild) + " " + " ".join(str(card) for card in deck)
    words: list[int] = []
    block = 0

    def fair_below(n: int) -> int:
        nonlocal block
        limit = 2**32 - (2**32 % n)
        while True:
            if not words:
                digest = hashlib.sha256(f"pyrummy-shuffle:{seed}:{block}".encode()).digest()
                words.extend(struct.unpack(">8I", digest))
                block += 1
            word = words.pop(0)
            if word < limit:
                return word % n

    cards = list(pile)  # bottom first: the new stock's top first
    for i in range(len(cards) - 1, 0, -1):
        j = fair_below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def run_dry(shuffle: str) -> tuple[Deal, tuple[Card, ...]]:
    """A Basic Rummy deal whose stock has just run out (the pile not yet turned)."""
    deal = new_deal("basic", 2, seed=SEED, stock_end="shuffle", shuffle=shuffle)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE and not deal.stock
    return deal, deal.discard_pile


def decline_and_throw_back(deal: Deal) -> None:
    """Decline the pile: it is rebuilt into the stock, whose top the decliner
    draws and then gives back."""
    seat = deal.current_seat
    assert seat is not None
    before = deal.hands(seat)
    deal.apply("decline")
    (drawn,) = deal.hands(seat) - before
    deal.apply(f"discard {drawn}")


def test_the_portable_rebuild_is_the_documented_one() -> None:
    deal, pile = run_dry(PORTABLE_SHUFFLE)
    deal.apply("decline")  # the pile is turned and shuffled; the decliner draws its top
    rebuilt = documented_refill(pile, deal.deck, 1)
    assert rebuilt != list(pile)  # shuffled indeed
    assert list(deal.stock) == rebuilt[1:]
    # Hidden from the players: the rebuilt stock's order is no public knowledge.
    assert deal.observe(0).public_stock is None and deal.observe(0).recycled_stock


def test_a_second_rebuild_takes_its_own_number() -> None:
    deal, _ = run_dry(PORTABLE_SHUFFLE)
    decline_and_throw_back(deal)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE and not deal.stock
    pile = deal.discard_pile
    deal.apply("decline")
    assert list(deal.stock) == documented_refill(pile, deal.deck, 2)[1:]
    assert list(deal.stock) != documented_refill(pile, deal.deck, 1)[1:]


def test_the_older_shuffle_rebuilds_as_before() -> None:
    deal, pile = run_dry(LEGACY_SHUFFLE)
    deal.apply("decline")
    stock = [card.index for card in reversed(pile)]  # the top at the end, as the deal keeps it
    random.Random("pyrummy-refill " + " ".join(map(str, deal.deck))).shuffle(stock)
    assert list(deal.stock) == [Card.from_index(i) for i in reversed(stock)][1:]
    assert list(deal.stock) != documented_refill(pile, deal.deck, 1)[1:]


def test_replays_rebuild_the_same_stock() -> None:
    deal, _ = run_dry(PORTABLE_SHUFFLE)
    decline_and_throw_back(deal)
    draw_and_throw_back(deal, 3)
    # The record (its Shuffle header) and a deal from the deck with its shuffle.
    replayed = parse_record(deal.record())
    assert isinstance(replayed, Deal) and replayed.stock == deal.stock
    from_deck = Deal.from_deck(deal.rules, 2, deal.dealer, deal.deck, shuffle=PORTABLE_SHUFFLE)
    for seat, action in deal.history:
        from_deck.apply(action, seat)
    assert from_deck.stock == deal.stock
