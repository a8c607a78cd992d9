"""The message catalogue: every user-facing explanation, in English and Russian.

A :class:`Message` is a catalogue key plus string parameters; :func:`render`
turns it into text in one of :data:`LANGUAGES`. The core never builds
user-facing sentences itself: invalid melds and illegal actions carry a
``Message``, and front ends choose the language.

Cards in parameters are shown for display (``7♥ 10♦``); :func:`show_cards`
makes that text from cards or from the notation.

>>> message = Message.of("meld.gap", cards=show_cards("5H 7H"), missing=show_cards("6H"))
>>> render(message)
'5♥ 7♥: 6♥ is missing'
>>> render(message, "ru")
'5♥ 7♥: не хватает 6♥'
>>> render(Message.of("action.not_in_hand", card=show_cards("TD")))
'10♦ is not in your hand'
>>> render(Message.of("meld.no_such_key"))
Traceback (most recent call last):
...
pyrummy.core.messages.MessageError: unknown message key 'meld.no_such_key'

Keys and their parameters (every key exists in every language, with the same
parameters):

- ``meld.*`` — why cards are not a meld (see :mod:`pyrummy.core.melds`).
- ``action.*`` — why an action is illegal (the deal engine).
- ``kind.*`` — the names of the meld kinds.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Union

from pyrummy.core.cards import Card, CardSet, parse_card_list
from pyrummy.core.errors import RummyError

LANGUAGES: Final = ("en", "ru")


class MessageError(RummyError):
    """An unknown message key or language, or parameters that do not fit the template."""


Param = Union[str, "Message"]


@dataclass(frozen=True)
class Message:
    """A catalogue key and its parameters; ``str()`` is the English text.

    Equal messages hash equally, so messages can be collected in sets. A
    parameter may itself be a message: it is rendered in the same language.

    >>> a = Message("meld.duplicate", {"card": "7♥"})
    >>> a == Message.of("meld.duplicate", card="7♥"), len({a, Message.of("meld.duplicate", card="7♥")})
    (True, 1)
    >>> str(a)
    '7♥ appears twice'
    >>> Message.of("action.invalid_meld", reason=Message.of("meld.run_too_few")).render("ru")
    'это не комбинация: в стрите должно быть не меньше 3 карт'
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, value in self.params.items():
            if not isinstance(value, str | Message):
                raise MessageError(
                    f"message {self.key!r}: parameter {name} must be text, not {value!r}"
                )
        # A private read-only copy: the caller's dict may change later.
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    @classmethod
    def of(cls, key: str, **params: Param) -> Message:
        return cls(key, params)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items()))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.key == other.key and dict(self.params) == dict(other.params)

    def render(self, lang: str = "en") -> str:
        return render(self, lang)

    def __str__(self) -> str:
        return render(self, "en")

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {dict(self.params)!r})"


def show_cards(cards: Card | Iterable[Card] | str) -> str:
    """Cards for display, in the given order: suit symbols, ``10`` for ``T``.

    >>> show_cards("TH JH QH"), show_cards(Card("AS")), show_cards("X1")
    ('10♥ J♥ Q♥', 'A♠', '🃏1')
    """
    if isinstance(cards, Card):
        return cards.pretty()
    if isinstance(cards, str):
        cards = parse_card_list(cards)
    elif isinstance(cards, CardSet):
        cards = list(cards)
    return " ".join(card.pretty() for card in cards)


def render(message: Message, lang: str = "en") -> str:
    """The text of ``message`` in ``lang`` (``en`` or ``ru``)."""
    templates = CATALOGUE.get(lang)
    if templates is None:
        raise MessageError(f"unknown language {lang!r}; languages are: {', '.join(LANGUAGES)}")
    template = templates.get(message.key)
    if template is None:
        raise MessageError(f"unknown message key {message.key!r}")
    needed = template_params(template)
    missing = needed - set(message.params)
    if missing:
        raise MessageError(
            f"message {message.key!r} needs parameter(s) {', '.join(sorted(missing))}"
        )
    return template.format_map(
        {
            name: render(value, lang) if isinstance(value, Message) else value
            for name, value in message.params.items()
        }
    )


def template_params(template: str) -> frozenset[str]:
    """The ``{names}`` a template uses.

    >>> sorted(template_params("{cards}: {missing} is missing"))
    ['cards', 'missing']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


_EN: Final[dict[str, str]] = {
    # -- kinds ------------------------------------------------------------
    "kind.set": "set",
    "kind.run": "run",
    # -- invalid melds ------------------------------------------------------
    "meld.too_few": "a meld needs at least 3 cards",
    "meld.set_too_few": "a set needs at least 3 cards",
    "meld.run_too_few": "a run needs at least 3 cards",
    "meld.duplicate": "{card} appears twice",
    "meld.gap": "{cards}: {missing} is missing",
    "meld.gaps": "{cards}: {missing} are missing",
    "meld.gap_jokers": "{cards}: {missing} are missing, more than the jokers can fill",
    "meld.ace_low": "{ranks} is not a run: the ace is low",
    "meld.no_corner": "{ranks} is not a run: the ace does not go around the corner",
    "meld.ranks_differ": "ranks differ: a set is one rank",
    "meld.suits_differ": "suits differ: a run is one suit",
    "meld.neither": "{cards}: neither a set (ranks differ) nor a run (suits differ)",
    "meld.not_in_sequence": (
        "{cards}: neither a set (ranks differ) nor a run (not in sequence, suits differ)"
    ),
    "meld.set_too_many": "a set has at most 4 cards",
    "meld.run_too_long": "a run has at most 13 cards",
    "meld.jokers_only": "a meld cannot be only jokers",
    # -- illegal actions ----------------------------------------------------
    "action.not_your_turn": "it is not your turn: player {seat} is to play",
    "action.draw_first": "you must draw a card first",
    "action.already_drew": "you have already drawn a card this turn",
    "action.no_draw_first_turn": "the starting player's first turn has no draw",
    "action.not_in_hand": "{card} is not in your hand",
    "action.taken_discard_back": (
        "{card} was taken from the discard pile this turn; it can be discarded on a later turn"
    ),
    "action.taken_discard_knock": (
        "{card} was taken from the discard pile this turn and cannot be the knock card"
    ),
    "action.taken_discard_last": (
        "you may not meld or lay off so that only {card}, taken from the discard pile, "
        "is left in your hand"
    ),
    "action.one_meld_per_turn": "only one meld per turn",
    "action.layoff_before_meld": "you may lay off only after your own first meld",
    "action.layoff_not_allowed": "laying off is not part of this game",
    "action.layoff_no_fit": "{card} does not fit the meld {meld}",
    "action.no_such_meld": "there is no meld {target} on the table",
    "action.stock_empty": "the stock is empty",
    "action.discard_empty": "the discard pile is empty",
    "action.decline_not_allowed": "you may decline the discard only when the stock is empty",
    "action.offer_pending": "the first up-card is offered to you: take it or pass",
    "action.offer_passed": "both players passed the first up-card: draw from the stock",
    "action.wall_knock_only": "at the wall you may take the discard only to knock, or pass",
    "action.no_big_gin": "there is no big gin in this game",
    "action.big_gin_unmelded": "big gin needs all 11 cards melded",
    "action.knock_limit": (
        "you may knock only with {limit} or less deadwood; you would have {deadwood}"
    ),
    "action.no_knock": "you cannot knock in this game",
    "action.must_discard_out": "you must go out by discarding: keep a card to discard",
    "action.must_discard": "discard a card to end your turn",
    "action.nothing_to_undo": "there is nothing to undo",
    "action.stock_draw_final": "a card drawn from the stock cannot be put back",
    "action.deal_over": "the deal is over",
    "action.all_seven": "in this deal you may meld only all seven cards at once",
    "action.joker_mismatch": "{card} is not the card a joker stands for in the meld {meld}",
    "action.no_joker": "the meld {meld} has no joker",
    "action.invalid_meld": "that is not a meld: {reason}",
    "action.unknown": "cannot read the action {text!r}",
    "action.not_legal": "{action} is not possible now",
}

_RU: Final[dict[str, str]] = {
    "kind.set": "сет",
    "kind.run": "стрит",
    "meld.too_few": "в комбинации должно быть не меньше 3 карт",
    "meld.set_too_few": "в сете должно быть не меньше 3 карт",
    "meld.run_too_few": "в стрите должно быть не меньше 3 карт",
    "meld.duplicate": "{card} встречается дважды",
    "meld.gap": "{cards}: не хватает {missing}",
    "meld.gaps": "{cards}: не хватает {missing}",
    "meld.gap_jokers": "{cards}: не хватает {missing}, джокеров на все пропуски не хватит",
    "meld.ace_low": "{ranks} — не стрит: туз здесь только младший",
    "meld.no_corner": "{ranks} — не стрит: через туза стрит не продолжается",
    "meld.ranks_differ": "достоинства разные: в сете все карты одного достоинства",
    "meld.suits_differ": "масти разные: в стрите все карты одной масти",
    "meld.neither": "{cards}: ни сет (достоинства разные), ни стрит (масти разные)",
    "meld.not_in_sequence": (
        "{cards}: ни сет (достоинства разные), ни стрит (не по порядку, масти разные)"
    ),
    "meld.set_too_many": "в сете не больше 4 карт",
    "meld.run_too_long": "в стрите не больше 13 карт",
    "meld.jokers_only": "комбинация не может состоять из одних джокеров",
    "action.not_your_turn": "сейчас не ваш ход: ходит игрок {seat}",
    "action.draw_first": "сначала возьмите карту",
    "action.already_drew": "в этот ход вы уже взяли карту",
    "action.no_draw_first_turn": "в первый ход начинающий игрок карту не берёт",
    "action.not_in_hand": "у вас в руке нет {card}",
    "action.taken_discard_back": (
        "{card} взята из сброса в этот ход; сбросить её можно только в следующий ход"
    ),
    "action.taken_discard_knock": ("{card} взята из сброса в этот ход, ею нельзя стучать"),
    "action.taken_discard_last": (
        "нельзя выкладывать или подкладывать так, чтобы в руке осталась только {card}, "
        "взятая из сброса"
    ),
    "action.one_meld_per_turn": "за ход можно выложить только одну комбинацию",
    "action.layoff_before_meld": "подкладывать можно только после своей первой комбинации",
    "action.layoff_not_allowed": "в этой игре подкладывать нельзя",
    "action.layoff_no_fit": "{card} не подходит к комбинации {meld}",
    "action.no_such_meld": "на столе нет комбинации {target}",
    "action.stock_empty": "колода кончилась",
    "action.discard_empty": "сброс пуст",
    "action.decline_not_allowed": "отказаться от карты из сброса можно, только когда колода пуста",
    "action.offer_pending": "вам предложена первая открытая карта: возьмите её или спасуйте",
    "action.offer_passed": "оба игрока спасовали на первую открытую карту: берите из колоды",
    "action.wall_knock_only": (
        "у стены карту из сброса можно взять, только чтобы постучать, или спасовать"
    ),
    "action.no_big_gin": "в этой игре нет большого джина",
    "action.big_gin_unmelded": "для большого джина все 11 карт должны быть в комбинациях",
    "action.knock_limit": (
        "стучать можно, только если остаток не больше {limit}; у вас остался бы {deadwood}"
    ),
    "action.no_knock": "в этой игре стучать нельзя",
    "action.must_discard_out": "выходить нужно сбросом: оставьте карту, чтобы сбросить",
    "action.must_discard": "чтобы закончить ход, сбросьте карту",
    "action.nothing_to_undo": "отменять нечего",
    "action.stock_draw_final": "карту, взятую из колоды, вернуть нельзя",
    "action.deal_over": "сдача окончена",
    "action.all_seven": "в этой сдаче выкладывать можно только все семь карт сразу",
    "action.joker_mismatch": "{card} — не та карта, которую заменяет джокер в комбинации {meld}",
    "action.no_joker": "в комбинации {meld} нет джокера",
    "action.invalid_meld": "это не комбинация: {reason}",
    "action.unknown": "непонятный ход: «{text}»",
    "action.not_legal": "сейчас так сходить нельзя: {action}",
}

CATALOGUE: Final[dict[str, dict[str, str]]] = {"en": _EN, "ru": _RU}
