"""The one bot interface, and helpers every bot shares.

A bot sees exactly what its seat may know: an
:class:`~pyrummy.core.observation.Observation` and the legal actions. It never
receives the deal itself, so a built-in bot, a remote bot and a learning
agent are interchangeable: whatever calls ``choose`` passes
``deal.observe(seat)`` and ``deal.legal_actions()`` and applies the answer.

A bot always answers with one of the actions it was given (never a new
``Action`` it built itself), so it cannot make an illegal move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.errors import RummyError
from pyrummy.core.observation import Observation
from pyrummy.core.sampling import sample_deal

if TYPE_CHECKING:
    from pyrummy.core.cards import Card
    from pyrummy.core.deal import Deal

#: Kinds that start a turn: the choice of where the card comes from.
DRAW_KINDS = frozenset({ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD, ActionKind.DECLINE})
#: Kinds that end a turn by giving a card back.
GIVE_BACK_KINDS = frozenset({ActionKind.DISCARD, ActionKind.KNOCK})


class BotError(RummyError):
    """A bot was asked something it cannot answer (no legal action, bad option)."""


class UnknownBotError(BotError):
    """``make_bot`` was given a name it does not know; the message lists the names."""


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action for one seat from what that seat may know.

    ``choose`` must return one of ``legal_actions`` (they are never empty when
    a bot is asked). Bots take their randomness from a seeded
    :class:`random.Random` given in their constructor, so the same seed and
    the same observations give the same answers.
    """

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


def require_actions(legal_actions: Sequence[Action]) -> None:
    """Refuse an empty list: a bot is only asked when its seat must act."""
    if not legal_actions:
        raise BotError("a bot was asked to act with no legal actions")


def seat_of(observation: Observation) -> int:
    """The observing seat; a spectator's view cannot be played from."""
    if observation.seat is None:
        raise BotError("a bot plays a seat: it was given a spectator's observation")
    return observation.seat


def of_kind(legal_actions: Iterable[Action], *kinds: ActionKind) -> list[Action]:
    """The actions of the given kinds, in the order given.

    >>> from pyrummy.core.actions import parse_action
    >>> legal = [parse_action(t) for t in ("discard 7H", "knock 7H", "discard KS")]
    >>> [str(a) for a in of_kind(legal, ActionKind.DISCARD)]
    ['discard 7H', 'discard KS']
    >>> is_draw_decision(legal), is_draw_decision([parse_action("decline")])
    (False, True)
    """
    wanted = frozenset(kinds)
    return [action for action in legal_actions if action.kind in wanted]


def first_of_kind(legal_actions: Iterable[Action], kind: ActionKind) -> Action | None:
    """The first action of this kind, or None."""
    for action in legal_actions:
        if action.kind is kind:
            return action
    return None


def is_draw_decision(legal_actions: Iterable[Action]) -> bool:
    """True when the choice is where this turn's card comes from (or to decline it)."""
    return any(action.kind in DRAW_KINDS for action in legal_actions)


def sample_or_none(observation: Observation, rng: random.Random) -> Deal | None:
    """A consistent re-deal for search, or None where the view allows none.

    ``pyrummy.core.sampling.sample_deal`` documents a limit (a shuffled rebuild of the
    stock); a bot in a live game must still answer, so a search that cannot
    sample falls back to the bot's heuristic instead of failing the game.
    """
    try:
        return sample_deal(observation, rng)
    except (RummyError, IndexError):
        return None


def discard_of(give_backs: Iterable[Action], card: Card) -> Action | None:
    """The face-up discard of ``card`` among ``give_backs`` (None: not among them)."""
    for action in give_backs:
        if action.kind is ActionKind.DISCARD and action.cards[0] == card:
            return action
    return None
