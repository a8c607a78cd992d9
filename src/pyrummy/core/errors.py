"""Narrow error types of the rules core.

Every error is a ``ValueError`` subclass with a precise, human-readable
message, so callers may catch ``ValueError`` broadly or one kind precisely.
"""

from __future__ import annotations


class RummyError(ValueError):
    """Base class of every error the rules core raises on bad input."""


class CardNotationError(RummyError):
    """A card, hand or meld could not be read from text."""


class DuplicateCardError(RummyError):
    """The same card appears twice where cards must be distinct."""


class RulesError(RummyError):
    """An unknown preset, an unknown option, or an option value out of range."""


class IllegalActionError(RummyError):
    """An action that is malformed, out of turn, or not allowed by the rules.

    Raised before anything changes: the state is exactly as it was.
    """


class RecordError(RummyError):
    """A game record that cannot be read or does not replay.

    ``line`` is the 1-based line of the record where the problem is, if known.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
