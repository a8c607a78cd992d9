"""Narrow error types of the rules core.

Every error is a ``ValueError`` subclass with a precise, human-readable
message, so callers may catch ``ValueError`` broadly or one kind precisely.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Reason(Protocol):
    """Why an action was refused, as a catalogue entry that renders in any language.

    :class:`pyrummy.core.messages.Message` is the one kind there is; errors
    name it by what it offers, as the catalogue sits above this module
    (it renders cards, whose errors are declared here).
    """

    @property
    def key(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...

    def render(self, lang: str = "en") -> str: ...


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
    ``reason`` is the catalogue message saying why (render it in any
    language), or None when only the English text is known.
    """

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class StoredActionError(IllegalActionError):
    """A stored action (a record's line, a server table's action) that the game
    refuses while it is rebuilt from its actions: see
    :func:`pyrummy.core.match.replay_actions`.

    ``index`` is the action's place among those replayed (from 1), ``action``
    its text, ``refusal`` why it was refused (the engine's sentence, or that
    it came out of turn or after its deal had ended). The actions before it
    stay applied.
    """

    def __init__(self, index: int, action: str, refusal: str, reason: Reason | None = None) -> None:
        super().__init__(f"stored action {index} ({action!r}): {refusal}", reason)
        self.index = index
        self.action = action
        self.refusal = refusal


class RecordError(RummyError):
    """A game record that cannot be read or does not replay.

    ``line`` is the 1-based line of the record where the problem is, if known.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class SetupError(RummyError):
    """A position given to ``new_deal(hands=...)`` (or a record's ``Hands:``)
    that cannot be dealt under the rules."""


class HandSizeError(SetupError):
    """Too many or too few hands, or a seat given the wrong number of cards."""


class CardNotInDeckError(SetupError):
    """A card that this preset's deck does not hold (a joker outside Rotham)."""


class CardGivenTwiceError(SetupError, DuplicateCardError):
    """The same card given to two places (two hands, a hand and the upcard...)."""
