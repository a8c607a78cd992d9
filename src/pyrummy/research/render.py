"""Plain-text pictures of a deal for research environments (``render_mode="ansi"``).

The picture shows every hand: it is for the person watching an experiment,
not for an agent (agents get their own observation only).

>>> from pyrummy.core.deal import new_deal
>>> print(render_deal(new_deal("gin", players=2, seed=4)).splitlines()[0])
gin, 2 players, dealer 0, turn 1, seat 1 to draw
"""

from __future__ import annotations

from pyrummy.core.cards import CardSet, format_cards
from pyrummy.core.deal import Deal


def render_deal(deal: Deal) -> str:
    """Every hand, the pile, the stock count, the table and the result."""
    if deal.is_over:
        state = "over"
    else:
        state = f"turn {deal.turn}, seat {deal.current_seat} to {deal.phase.value}"
    lines = [f"{deal.rules.name}, {deal.players} players, dealer {deal.dealer}, {state}"]
    for seat in range(deal.players):
        marker = "*" if seat == deal.current_seat else " "
        hand = CardSet(deal.hands(seat)).sorted_by_rank()
        lines.append(f"{marker} seat {seat}: {format_cards(hand, pretty=True)}")
    pile = deal.discard_pile
    top = pile[-1].pretty() if pile else "-"
    lines.append(
        f"  discard pile: {_count(len(pile))}, top {top}; stock: {_count(len(deal.stock))}"
    )
    for number, table_meld in enumerate(deal.table):
        cards = format_cards(table_meld.meld.cards, pretty=True)
        lines.append(f"  meld {number} (seat {table_meld.owner}): {cards}")
    if deal.history:
        seat, action = deal.history[-1]
        lines.append(f"  last: seat {seat} {action}")
    if deal.settlement is not None:
        net = " ".join(str(value) for value in deal.settlement.net)
        lines.append(f"  result: {deal.settlement.outcome}; net {net}")
    return "\n".join(lines)


def render_for_mode(deal: Deal, mode: str | None) -> str | None:
    """What an environment's ``render()`` returns: the text for ``"ansi"``,
    nothing for ``None``; ``"human"`` prints the text and returns nothing."""
    if mode is None:
        return None
    text = render_deal(deal)
    if mode == "human":
        print(text)
        return None
    return text


def _count(cards: int) -> str:
    return f"{cards} card" if cards == 1 else f"{cards} cards"
