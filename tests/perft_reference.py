"""Independent legal-move counts for the positions of tests/data/perft.json.

Written from the rules pages (docs/rules/common.md §5-7, knock.md §2-3,
gin.md §2), not from the engine: this file imports nothing of pyrummy. It
knows only what the positions of the perft file need: Knock Rummy and Gin
turns while the stock is not empty.

- A turn starts with `draw stock` and `draw discard` (the pile is never
  empty here).
- After a draw the player gives back one card of the hand: `discard C` or
  `knock C`, for every card C but the one just taken from the pile. Knock
  Rummy allows the knock at any deadwood; Gin only when the least deadwood
  of the ten cards left is at most 10 (ace low, J Q K 10).
- After `draw discard`, `undo` puts the card back (the turn starts again).
- A discard passes the turn to the left; a knock ends the deal (no action).

The least deadwood is found by brute force: every set of disjoint melds
(3-4 cards of a rank; 3+ cards of a suit in sequence, ace low).
Perft(n) counts the action sequences of length n; a sequence that reaches
the end of the deal earlier counts nothing (as in chess perft).

Run it to print the counts: ``python tests/perft_reference.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

PERFT_FILE = Path(__file__).resolve().parent / "data" / "perft.json"
RANKS = "A23456789TJQK"
SUITS = "SHDC"
GIN_KNOCK_LIMIT = 10

Card = tuple[int, int]  # (rank 0-12, suit 0-3)


def card(text: str) -> Card:
    return RANKS.index(text[0]), SUITS.index(text[1])


def cards(text: str) -> frozenset[Card]:
    return frozenset(card(token) for token in text.split())


def value(one: Card) -> int:
    return min(one[0] + 1, 10)


def is_meld(group: tuple[Card, ...]) -> bool:
    if len(group) < 3:
        return False
    if len({rank for rank, _ in group}) == 1:
        return True
    if len({suit for _, suit in group}) != 1:
        return False
    ranks = sorted(rank for rank, _ in group)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def least_deadwood(hand: frozenset[Card]) -> int:
    """Brute force: the hand's lowest card is deadwood or in some meld with higher cards."""
    if not hand:
        return 0
    ordered = sorted(hand)
    lowest, rest = ordered[0], ordered[1:]
    best = value(lowest) + least_deadwood(frozenset(rest))
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            if is_meld((lowest, *others)):
                best = min(best, least_deadwood(hand - {lowest, *others}))
    return best


@dataclass(frozen=True)
class Position:
    game: str  # "knock" or "gin"
    hands: tuple[frozenset[Card], ...]
    pile: tuple[Card, ...]  # bottom first
    stock: tuple[Card, ...]  # top first (only the known top cards)
    seat: int
    drawn: bool = False
    taken: Card | None = None  # the card taken from the pile this turn
    over: bool = False


def actions(position: Position) -> list[tuple[str, Card | None]]:
    if position.over:
        return []
    if not position.drawn:
        return [("draw stock", None), ("draw discard", None)]
    hand = position.hands[position.seat]
    found: list[tuple[str, Card | None]] = []
    for one in sorted(hand):
        if one == position.taken:
            continue
        found.append(("discard", one))
        if position.game == "knock" or least_deadwood(hand - {one}) <= GIN_KNOCK_LIMIT:
            found.append(("knock", one))
    if position.taken is not None:
        found.append(("undo", None))
    return found


def play(position: Position, action: tuple[str, Card | None]) -> Position:
    kind, one = action
    seat = position.seat
    hands = list(position.hands)
    if kind == "draw stock":
        hands[seat] = hands[seat] | {position.stock[0]}
        return replace(position, hands=tuple(hands), stock=position.stock[1:], drawn=True)
    if kind == "draw discard":
        top = position.pile[-1]
        hands[seat] = hands[seat] | {top}
        return replace(position, hands=tuple(hands), pile=position.pile[:-1], drawn=True, taken=top)
    if kind == "undo":
        assert position.taken is not None
        hands[seat] = hands[seat] - {position.taken}
        pile = (*position.pile, position.taken)
        return replace(position, hands=tuple(hands), pile=pile, drawn=False, taken=None)
    assert one is not None
    hands[seat] = hands[seat] - {one}
    if kind == "knock":
        return replace(position, hands=tuple(hands), over=True)
    return replace(
        position,
        hands=tuple(hands),
        pile=(*position.pile, one),
        seat=(seat + 1) % len(hands),
        drawn=False,
        taken=None,
    )


def perft(position: Position, depth: int) -> int:
    if depth == 1:
        return len(actions(position))
    return sum(perft(play(position, action), depth - 1) for action in actions(position))


def parse_action(text: str) -> tuple[str, Card | None]:
    words = text.split()
    if words[0] in ("discard", "knock"):
        return words[0], card(words[1])
    return " ".join(words), None


def position_of(entry: dict[str, object]) -> Position:
    hands = entry["hands"]
    assert isinstance(hands, list)
    dealer = entry["dealer"]
    assert isinstance(dealer, int)
    stock = entry["stock"]
    assert isinstance(stock, str)
    upcard = entry["upcard"]
    assert isinstance(upcard, str)
    given = [*" ".join(hands).split(), upcard, *stock.split()]
    assert len(set(given)) == len(given), "a card is given twice"
    position = Position(
        game=str(entry["rules"]),
        hands=tuple(cards(hand) for hand in hands),
        pile=(card(upcard),),
        stock=tuple(card(token) for token in stock.split()),
        seat=(dealer + 1) % len(hands),  # the player to the dealer's left starts
    )
    actions_given = entry.get("actions", [])
    assert isinstance(actions_given, list)
    for text in actions_given:
        position = play(position, parse_action(text))
    return position


def counts(entry: dict[str, object]) -> dict[str, int]:
    position = position_of(entry)
    depths = entry["perft"]
    assert isinstance(depths, dict)
    return {depth: perft(position, int(depth)) for depth in depths}


if __name__ == "__main__":
    for entry in json.loads(PERFT_FILE.read_text())["positions"]:
        print(entry["name"], counts(entry))
