"""The points ledger: every score of a deal written as a :class:`Transfer`.

A transfer either *moves* points from one seat to another (Knock Rummy,
pay-per-point: what one gains another loses, so the ledger sums to zero), or
*awards* points to one seat from nobody (``payer=None``: Rummy, Basic, Block,
Gin, where only the winner scores). A negative award is a penalty (the
``penalty`` scoring of docs/rules/basic.md §4), so a higher net is always better.

Amounts are exact :class:`fractions.Fraction` values: shared winnings are
split exactly (17/2, 5/3), never rounded. Reasons are short English keys
(:data:`REASONS`) that a front end may translate.

>>> ledger = Ledger()
>>> ledger.add(Transfer(0, 1, Fraction(17, 2), "difference"))
>>> ledger.add(Transfer(None, 2, Fraction(25), "block difference"))
>>> ledger.net(3)
(Fraction(-17, 2), Fraction(17, 2), Fraction(25, 1))
>>> ledger.total_for(1)
Fraction(17, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

from pyrummy.core.errors import RummyError

#: The reasons a deal's settlement writes; front ends translate these keys.
REASONS: Final = (
    "difference",
    "knock penalty",
    "rum bonus",
    "gin bonus",
    "undercut bonus",
    "out",
    "rummy bonus",
    "block difference",
    "penalty",
    "big gin bonus",
    "spade double",
    "game bonus",
    "line bonus",
    "shutout",
)


class LedgerError(RummyError):
    """A transfer that makes no sense (paying oneself, a non-positive move)."""


class TransferReason(StrEnum):
    """Why points move in a transfer; each member equals its text form.

    >>> TransferReason.KNOCK_PENALTY == "knock penalty"
    True
    """

    DIFFERENCE = "difference"
    KNOCK_PENALTY = "knock penalty"
    RUM_BONUS = "rum bonus"
    GIN_BONUS = "gin bonus"
    UNDERCUT_BONUS = "undercut bonus"
    OUT = "out"
    RUMMY_BONUS = "rummy bonus"
    PENALTY = "penalty"
    BLOCK_DIFFERENCE = "block difference"
    #: Standard gin: 11 cards all melded (docs/rules/gin-standard.md §4).
    BIG_GIN_BONUS = "big gin bonus"
    #: Oklahoma: a spade first up-card doubles the deal's score.
    SPADE_DOUBLE = "spade double"
    #: At the match's end: the winner's game bonus, every player's line bonus
    #: per deal won, the shutout doubling the winner's game score.
    GAME_BONUS = "game bonus"
    LINE_BONUS = "line bonus"
    SHUTOUT = "shutout"

    def __repr__(self) -> str:  # pasteable: a Transfer takes the plain text too
        return repr(self.value)


@dataclass(frozen=True, init=False)
class Transfer:
    """``amount`` points from ``payer`` to ``payee`` for ``reason``.

    ``payer=None`` awards the points (nobody loses them). Moves must be
    positive; an award may be negative (penalty points). The amount may be
    given as an ``int`` and the reason as its text: they are stored as a
    ``Fraction`` and a :class:`TransferReason`.

    >>> Transfer(0, 1, 15, "difference")
    Transfer(payer=0, payee=1, amount=Fraction(15, 1), reason='difference')
    >>> Transfer(1, 1, 3, "difference")
    Traceback (most recent call last):
    ...
    pyrummy.core.ledger.LedgerError: seat 1 cannot pay itself
    """

    payer: int | None
    payee: int
    amount: Fraction
    reason: TransferReason

    def __init__(
        self,
        payer: int | None,
        payee: int,
        amount: int | Fraction,
        reason: TransferReason | str,
    ) -> None:
        if type(reason) is not TransferReason:
            try:
                reason = TransferReason(reason)
            except ValueError:
                raise LedgerError(f"{reason!r} is not a transfer reason") from None
        if type(amount) is not Fraction:
            # bool is an int to Python, never an amount of points.
            if isinstance(amount, bool) or not isinstance(amount, int | Fraction):
                raise LedgerError(f"amount {amount!r} is not a whole number or a Fraction")
            amount = Fraction(amount)
        if payee < 0 or (payer is not None and payer < 0):
            raise LedgerError("seats are numbered from 0")
        if payer == payee:
            raise LedgerError(f"seat {payee} cannot pay itself")
        if payer is not None and amount.numerator <= 0:
            raise LedgerError(f"seat {payer} cannot pay {amount}: a move is positive")
        # Frozen: the fields are set past the dataclass's guard, once, here.
        object.__setattr__(self, "payer", payer)
        object.__setattr__(self, "payee", payee)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "reason", reason)

    def to_dict(self) -> dict[str, object]:
        """JSON-able form; the amount as an exact fraction string (``"17/2"``)."""
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": str(self.amount),
            "reason": str(self.reason),
        }


@dataclass
class Ledger:
    """An ordered list of transfers, with per-seat totals.

    Two ledgers are equal when they hold the same transfers in the same order.
    """

    transfers: list[Transfer] = field(default_factory=list)

    def add(self, transfer: Transfer) -> None:
        self.transfers.append(transfer)

    def extend(self, other: Ledger | Iterable[Transfer]) -> None:
        """Append every transfer of ``other`` (a ledger or transfers)."""
        self.transfers.extend(other.transfers if isinstance(other, Ledger) else other)

    def __iter__(self) -> Iterator[Transfer]:
        return iter(self.transfers)

    def __len__(self) -> int:
        return len(self.transfers)

    def total_for(self, seat: int) -> Fraction:
        """What ``seat`` gained (received and awarded) minus what it paid."""
        total = Fraction(0)
        for transfer in self.transfers:
            if transfer.payee == seat:
                total += transfer.amount
            if transfer.payer == seat:
                total -= transfer.amount
        return total

    def net(self, players: int) -> tuple[Fraction, ...]:
        """Totals of seats ``0 .. players-1``; refuses a transfer to a seat beyond.

        >>> Ledger([Transfer(0, 1, 3, "difference")]).net(1)
        Traceback (most recent call last):
        ...
        pyrummy.core.ledger.LedgerError: the ledger names seat 1 but there are 1 players
        """
        totals = [Fraction(0)] * players
        for transfer in self.transfers:
            for seat in (transfer.payer, transfer.payee):
                if seat is not None and seat >= players:
                    raise LedgerError(
                        f"the ledger names seat {seat} but there are {players} players"
                    )
            totals[transfer.payee] += transfer.amount
            if transfer.payer is not None:
                totals[transfer.payer] -= transfer.amount
        return tuple(totals)

    def to_dict(self) -> dict[str, object]:
        return {"transfers": [t.to_dict() for t in self.transfers]}
