"""What a line typed at the play prompt means.

Short keys first, then the full text form of actions
(:func:`pyrummy.core.actions.parse_action`):

====================  ==========================================================
``s`` / ``d``         draw from the stock / take the top discard
``n``                 decline the discard (when the stock is empty); gin:
                      pass the first up-card, or at the wall (``wall_knock``)
``3`` or ``7h``       discard the 3rd card of your hand as shown / the 7♥
``k 7h`` ``k3``       knock with that card; ``k`` alone: the card leaving the
                      least deadwood
``m 7h 8h 9h``        meld those cards (positions work too: ``m 1 2 3``);
                      ``m`` alone lists the melds you can make; Rotham:
                      ``m run x1 5h x2`` names a run (one card and jokers
                      are a set otherwise)
``l 9h 2``            lay off 9♥ on table meld 2 (``l 9h`` when it fits one
                      meld only); ``l`` alone lists the lay-offs
``j 5h 1``            swap 5♥ for the joker in table meld 1
``u``                 undo this turn's melds and lay-offs
``?`` ``r`` ``q``     help, show the table again, quit
====================  ==========================================================

>>> from pyrummy.core.cards import Card
>>> hand = [Card("7H"), Card("8H"), Card("9H"), Card("KS")]
>>> str(interpret("4", [], hand, "knock").action)
'discard KS'
>>> str(interpret("m 1 3 2", [], hand, "rummy").action)
'meld 7H 9H 8H'
>>> interpret("?", [], hand, "knock").kind
'help'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import Card, CardSet, parse_card
from pyrummy.core.errors import CardNotationError, IllegalActionError, RummyError
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood

CommandKind = Literal["action", "help", "quit", "show", "list"]


class InputError(RummyError):
    """A line at the prompt that names no action (bad card, bad position...)."""


@dataclass(frozen=True)
class Command:
    """What the player asked for: an action, or a request to the front end.

    ``kind == "list"`` asks to list the legal actions of ``list_kind``.
    """

    kind: CommandKind
    action: Action | None = None
    list_kind: ActionKind | None = None


_HELP = {"?", "h", "help"}
_QUIT = {"q", "quit", "exit"}
_SHOW = {"", "r", "look", "show"}
_SIMPLE_KEYS = {
    "s": ActionKind.DRAW_STOCK,
    "d": ActionKind.DRAW_DISCARD,
    "n": ActionKind.DECLINE,
    "u": ActionKind.UNDO,
}


def interpret(
    text: str, legal: Sequence[Action], hand_order: Sequence[Card], rules: Rules | str
) -> Command:
    """The command ``text`` asks for.

    ``legal`` are the legal actions (used to complete short forms such as
    ``k`` or ``l 9h``), ``hand_order`` the hand as shown (positions count
    from 1). An action is returned even when it is illegal: the engine says
    why. Raises :class:`InputError` or the notation error for unreadable text.
    """
    words = text.strip().split()
    head = words[0].lower() if words else ""
    rest = words[1:]
    if head in _SHOW and not rest:
        return Command("show")
    if head in _HELP and not rest:
        return Command("help")
    if head in _QUIT and not rest:
        return Command("quit")
    if head in _SIMPLE_KEYS and not rest:
        return Command("action", Action(_SIMPLE_KEYS[head]))
    if len(words) == 1 and head.isdigit():
        return Command("action", Action(ActionKind.DISCARD, (_card(head, hand_order),)))
    if len(words) == 1 and _is_card(head):  # before "k...": "kh" is the king of hearts
        return Command("action", Action(ActionKind.DISCARD, (parse_card(head),)))
    if head.startswith("k") and head != "knock":
        return _knock(head[1:], rest, legal, hand_order, rules)
    if head == "m":
        if not rest:
            return _only_or_list(legal, ActionKind.MELD)
        run = rest[0].lower() == "run"
        cards = tuple(_card(word, hand_order) for word in rest[int(run) :])
        return Command("action", _matching_meld(cards, legal, run))
    if head in ("l", "j"):
        kind = ActionKind.LAYOFF if head == "l" else ActionKind.SWAP_JOKER
        return _targeted(kind, rest, legal, hand_order)
    action = parse_action(text)
    if action.kind is ActionKind.MELD:
        action = _matching_meld(action.cards, legal, action.run)
    return Command("action", action)


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardNotationError:
        return False
    return True


def _card(word: str, hand_order: Sequence[Card]) -> Card:
    """A card named by its text (``7h``) or its position in the hand (``3``)."""
    if word.isdigit():
        position = int(word)
        if not 1 <= position <= len(hand_order):
            raise InputError(
                f"there is no card {position}: your hand has {len(hand_order)} cards "
                f"(1-{len(hand_order)})"
            )
        return hand_order[position - 1]
    return parse_card(word)


def _of_kind(legal: Sequence[Action], kind: ActionKind) -> list[Action]:
    return [action for action in legal if action.kind is kind]


def _only_or_list(legal: Sequence[Action], kind: ActionKind) -> Command:
    choices = _of_kind(legal, kind)
    if len(choices) == 1:
        return Command("action", choices[0])
    return Command("list", list_kind=kind)


def _matching_meld(cards: tuple[Card, ...], legal: Sequence[Action], run: bool = False) -> Action:
    """The legal meld of exactly these cards (any order) when there is one
    only; else the meld as typed, which the engine reads by its order (where
    jokers stand) and ``run`` (one real card and jokers named a run)."""
    wanted = CardSet(cards)
    matches = [
        action for action in _of_kind(legal, ActionKind.MELD) if CardSet(action.cards) == wanted
    ]
    if len(matches) == 1 and not run:
        return matches[0]
    return Action(ActionKind.MELD, cards, run=run)


def _knock(
    glued: str,
    rest: list[str],
    legal: Sequence[Action],
    hand_order: Sequence[Card],
    rules: Rules | str,
) -> Command:
    words = ([glued] if glued else []) + rest
    if len(words) > 1:
        raise InputError("knock with one card, like 'k 7h' or 'k 3'")
    if words:
        return Command("action", Action(ActionKind.KNOCK, (_card(words[0], hand_order),)))
    knocks = _of_kind(legal, ActionKind.KNOCK)
    if not knocks:
        raise IllegalActionError("you cannot knock now")
    return Command("action", best_knock(knocks, hand_order, rules))


def best_knock(knocks: Sequence[Action], hand: Sequence[Card], rules: Rules | str) -> Action:
    """The knock leaving the least deadwood (ties: the highest card goes).

    >>> from pyrummy.core.actions import parse_action
    >>> hand = [Card(c) for c in "7H 8H 9H KS 2C".split()]
    >>> str(best_knock([parse_action("knock KS"), parse_action("knock 2C")], hand, "knock"))
    'knock KS'
    """
    cards = CardSet(hand)

    def left(action: Action) -> tuple[int, int]:
        return deadwood(cards - CardSet(action.cards), rules), -action.card.points

    return min(knocks, key=left)


def _targeted(
    kind: ActionKind, rest: list[str], legal: Sequence[Action], hand_order: Sequence[Card]
) -> Command:
    example = "l 9h 2" if kind is ActionKind.LAYOFF else "j 5h 1"
    if not rest:
        return _only_or_list(legal, kind)
    if len(rest) > 2 or (len(rest) == 2 and not rest[1].isdigit()):
        raise InputError(f"give a card and a table meld number, like {example!r}")
    card = _card(rest[0], hand_order)
    if len(rest) == 2:
        return Command("action", Action(kind, (card,), int(rest[1])))
    fits = [action for action in _of_kind(legal, kind) if action.card == card]
    if len(fits) == 1:
        return Command("action", fits[0])
    if not fits:
        raise IllegalActionError(
            f"{card.pretty()} fits no meld on the table"
            if kind is ActionKind.LAYOFF
            else f"{card.pretty()} frees no joker on the table"
        )
    targets = ", ".join(str(action.target) for action in fits)
    raise InputError(
        f"{card.pretty()} fits melds {targets}: say which, like '{example.split()[0]} "
        f"{card} {fits[0].target}'"
    )
