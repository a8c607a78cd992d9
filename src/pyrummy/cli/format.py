"""Formatting helpers shared by the CLI commands.

Points are exact fractions: :func:`exact` writes them for machines
(``17/2``), :func:`amount_text` for people (``8½``, ``17/3``). Cards are shown
with suit symbols (``10♥``), hearts and diamonds in red on a terminal.
Transfers of one payer to one payee are merged into one line with their
reasons (:func:`transfer_lines`).

>>> amount_text(Fraction(17, 2)), amount_text(Fraction(-1, 2)), amount_text(Fraction(17, 3))
('8½', '-½', '17/3')
>>> exact(Fraction(-17, 2)), signed(Fraction(15)), signed(Fraction(0))
('-17/2', '+15', '0')
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from pyrummy.core.cards import Card, CardSet
from pyrummy.core.ledger import Transfer
from pyrummy.core.solver import Arrangement

_RED_SUITS = frozenset("♥♦")


def exact(amount: Fraction | int) -> str:
    """The exact machine form: ``15``, ``-17/2``."""
    return str(Fraction(amount))


def amount_text(amount: Fraction | int) -> str:
    """For people: whole numbers plain, halves as ``8½``, other fractions ``17/3``."""
    value = Fraction(amount)
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator == 2:
        whole = abs(value.numerator) // 2
        sign = "-" if value < 0 else ""
        return f"{sign}{whole if whole else ''}½"
    return str(value)


def signed(amount: Fraction | int) -> str:
    """``amount_text`` with a ``+`` on gains (``0`` stays bare)."""
    text = amount_text(amount)
    return f"+{text}" if amount > 0 else text


def cards_text(cards: Iterable[Card]) -> Text:
    """Cards with suit symbols, red suits coloured (no style off a terminal)."""
    text = Text()
    for position, card in enumerate(cards):
        if position:
            text.append(" ")
        shown = card.pretty()
        text.append(shown, style="red" if shown[-1] in _RED_SUITS else "")
    return text


def melds_text(melds: Sequence[CardSet]) -> Text:
    """Melds in brackets: ``[4♥ 5♥ 6♥] [Q♠ Q♦ Q♣]``."""
    text = Text()
    for position, meld in enumerate(melds):
        if position:
            text.append(" ")
        text.append("[")
        text.append_text(cards_text(meld))
        text.append("]")
    return text


def arrangement_table(
    rows: Sequence[tuple[str, Arrangement, int]], count_label: str = "deadwood"
) -> Table:
    """One row per hand: its label, melds, unmatched cards and count."""
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("seat")
    table.add_column("melds")
    table.add_column("unmatched")
    table.add_column(count_label, justify="right")
    for label, arrangement, count in rows:
        table.add_row(
            label,
            melds_text(arrangement.melds) or Text("-"),
            cards_text(arrangement.deadwood_cards) or Text("-"),
            str(count),
        )
    return table


def transfer_lines(transfers: Sequence[Transfer], seat_name: str = "seat {}") -> list[str]:
    """One line per payer and payee, reasons merged in order of appearance.

    >>> from pyrummy.core.ledger import Transfer
    >>> for line in transfer_lines([
    ...     Transfer(0, 1, 5, "difference"),
    ...     Transfer(0, 1, 10, "knock penalty"),
    ...     Transfer(2, 1, Fraction(3, 2), "difference"),
    ...     Transfer(None, 1, 20, "gin bonus"),
    ... ]):
    ...     print(line)
    seat 0 pays seat 1 15 (difference 5 + knock penalty 10)
    seat 2 pays seat 1 1½ (difference)
    seat 1 scores 20 (gin bonus)
    """
    merged: dict[tuple[int | None, int], dict[str, Fraction]] = {}
    for transfer in transfers:
        reasons = merged.setdefault((transfer.payer, transfer.payee), {})
        reasons[transfer.reason] = reasons.get(transfer.reason, Fraction(0)) + transfer.amount
    lines = []
    for (payer, payee), reasons in merged.items():
        total = sum(reasons.values(), Fraction(0))
        if len(reasons) == 1:
            why = next(iter(reasons))
        else:
            why = " + ".join(
                f"{reason} {amount_text(amount)}" for reason, amount in reasons.items()
            )
        who = seat_name.format(payee)
        if payer is None:
            lines.append(f"{who} scores {amount_text(total)} ({why})")
        else:
            lines.append(f"{seat_name.format(payer)} pays {who} {amount_text(total)} ({why})")
    return lines


def net_line(net: Sequence[Fraction], seat_name: str = "seat {}") -> str:
    """``seat 0 -15, seat 1 +15``."""
    return ", ".join(f"{seat_name.format(seat)} {signed(value)}" for seat, value in enumerate(net))


def console() -> Console:
    """A console on the current stdout (so redirection and test capture work)."""
    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def show(*renderables: RenderableType | str) -> None:
    out = console()
    for renderable in renderables:
        out.print(renderable)
