"""The message catalogue: completeness in every language, rendering, errors."""

from __future__ import annotations

import re

import pytest

from pyrummy.core.cards import Card, CardSet
from pyrummy.core.errors import RummyError
from pyrummy.core.messages import (
    CATALOGUE,
    LANGUAGES,
    Message,
    MessageError,
    render,
    show_cards,
    template_params,
)

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def test_languages_are_english_and_russian() -> None:
    assert LANGUAGES == ("en", "ru")
    assert set(CATALOGUE) == set(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang: str) -> None:
    assert set(CATALOGUE[lang]) == set(CATALOGUE["en"])


@pytest.mark.parametrize("key", sorted(CATALOGUE["en"]))
def test_templates_use_the_same_parameters_in_every_language(key: str) -> None:
    used = {lang: template_params(CATALOGUE[lang][key]) for lang in LANGUAGES}
    assert used["ru"] == used["en"], key


@pytest.mark.parametrize("key", sorted(CATALOGUE["en"]))
def test_every_template_renders_with_its_parameters(key: str) -> None:
    params = {name: f"<{name}>" for name in template_params(CATALOGUE["en"][key])}
    for lang in LANGUAGES:
        text = render(Message(key, params), lang)
        for value in params.values():
            assert value in text
        assert "{" not in text and "}" not in text


@pytest.mark.parametrize("key", sorted(CATALOGUE["ru"]))
def test_russian_templates_are_russian(key: str) -> None:
    assert CYRILLIC.search(CATALOGUE["ru"][key]), key
    assert not CYRILLIC.search(CATALOGUE["en"][key]), key


def test_russian_uses_the_words_of_source_001() -> None:
    russian = " ".join(CATALOGUE["ru"].values())
    for word in ("сет", "стрит", "комбинаци", "подклад", "сброс", "выклад"):
        assert word in russian, word


def test_action_keys_cover_the_deal_engine_reasons() -> None:
    needed = {
        "action.not_your_turn",
        "action.draw_first",
        "action.already_drew",
        "action.not_in_hand",
        "action.taken_discard_back",
        "action.taken_discard_knock",
        "action.taken_discard_last",
        "action.one_meld_per_turn",
        "action.layoff_before_meld",
        "action.layoff_no_fit",
        "action.no_such_meld",
        "action.stock_empty",
        "action.discard_empty",
        "action.knock_limit",
        "action.no_knock",
        "action.must_discard_out",
        "action.nothing_to_undo",
        "action.stock_draw_final",
        "action.deal_over",
        "action.all_seven",
        "action.joker_mismatch",
        "action.unknown",
    }
    assert needed <= set(CATALOGUE["en"])


def test_render_fills_parameters() -> None:
    message = Message.of("action.knock_limit", limit="10", deadwood="14")
    assert render(message) == "you may knock only with 10 or less deadwood; you would have 14"
    assert render(message, "ru") == (
        "стучать можно, только если остаток не больше 10; у вас остался бы 14"
    )
    assert str(message) == render(message, "en")
    assert message.render("ru") == render(message, "ru")


def test_unknown_key_language_and_missing_parameter_are_clear_errors() -> None:
    with pytest.raises(MessageError, match="unknown message key 'nope'"):
        render(Message("nope"))
    with pytest.raises(MessageError, match="unknown language 'de'; languages are: en, ru"):
        render(Message("meld.too_few"), "de")
    with pytest.raises(MessageError, match="needs parameter"):
        render(Message("meld.duplicate"))
    assert issubclass(MessageError, RummyError)
    assert issubclass(MessageError, ValueError)


def test_message_is_immutable_hashable_and_compares_by_value() -> None:
    params = {"card": "7♥"}
    message = Message("meld.duplicate", params)
    params["card"] = "8♥"
    assert message.params["card"] == "7♥"
    assert message == Message.of("meld.duplicate", card="7♥")
    assert message != Message.of("meld.duplicate", card="8♥")
    assert len({message, Message.of("meld.duplicate", card="7♥")}) == 1
    with pytest.raises(TypeError):
        message.params["card"] = "9♥"  # type: ignore[index]


def test_show_cards_uses_symbols_and_ten() -> None:
    assert show_cards("TS JH QD KC") == "10♠ J♥ Q♦ K♣"
    assert show_cards([Card("9H"), Card("AS")]) == "9♥ A♠"
    assert show_cards(CardSet("AS 2S")) == "A♠ 2♠"
    assert show_cards(Card("X3")) == "🃏3"


def test_a_message_parameter_renders_in_the_same_language() -> None:
    inner = Message.of("meld.gap", cards="5♥ 7♥", missing="6♥")
    outer = Message.of("action.invalid_meld", reason=inner)
    assert render(outer) == "that is not a meld: 5♥ 7♥: 6♥ is missing"
    assert render(outer, "ru") == "это не комбинация: 5♥ 7♥: не хватает 6♥"
    assert outer == Message.of("action.invalid_meld", reason=inner)
    assert len({outer, Message.of("action.invalid_meld", reason=inner)}) == 1


def test_parameters_must_be_text() -> None:
    with pytest.raises(MessageError, match="parameter seat must be text"):
        Message.of("action.not_your_turn", seat=2)  # type: ignore[arg-type]
