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

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.errors import RummyError
from pyrummy.core.observation import Observation
from pyrummy.core.sampling import sample_deal

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

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


Config = TypeVar("Config", bound="DataclassInstance")


def configured(config: Config, options: Mapping[str, object], bot: str) -> Config:
    """``config`` (a frozen dataclass) with ``options`` replacing its fields.

    A name that is not one of its fields raises :class:`BotError` naming the
    bot, so ``make_bot("simple", depth=3)`` says what is wrong.

    >>> from pyrummy.bots.simple import SimpleConfig
    >>> configured(SimpleConfig(), {"knock_threshold": 3}, "simple").knock_threshold
    3
    >>> configured(SimpleConfig(), {"depth": 3}, "simple")
    Traceback (most recent call last):
    ...
    pyrummy.bots.base.BotError: bot 'simple' does not take the option(s): depth
    """
    names = {field.name for field in dataclasses.fields(config)}
    unknown = sorted(set(options) - names)
    if unknown:
        raise BotError(f"bot {bot!r} does not take the option(s): {', '.join(unknown)}")
    changes: dict[str, Any] = dict(options)
    return dataclasses.replace(config, **changes)


def any_but_undo(legal_actions: Sequence[Action]) -> Action:
    """The first legal action that is not an undo (a bot never undoes)."""
    others = [a for a in legal_actions if a.kind is not ActionKind.UNDO]
    return (others or list(legal_actions))[0]


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


def big_gin_of(legal_actions: Iterable[Action]) -> Action | None:
    """``big gin`` when it is legal: going out with all 11 cards melded
    scores at least what any knock of the same hand would, so every bot
    takes it.

    >>> from pyrummy.core.actions import parse_action
    >>> big_gin_of([parse_action("knock 7C"), parse_action("big gin")])
    Action('big gin')
    """
    return first_of_kind(legal_actions, ActionKind.BIG_GIN)


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
