"""The rules pages' text (js/rules_text.js) takes every figure of the rules
from the presets (js/rules_figures.js, generated from core/rules.py) and the
meld limits from the core: a number in the prose is a placeholder, unless it
is a worked example, a card or a value the core fixes for every preset. The
text is rendered in node, as the page renders it."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from pyrummy.core.rules import PRESETS
from pyrummy.server.app import static_dir
from pyrummy.server.page_facts import preset_figures
from web_helpers import run_node

JS = static_dir() / "js"
LANGUAGES = ("en", "ru")
#: The FAQ's one figure of the page's own (advice.js), passed by pages.js.
FAQ_EXTRA = {"RISKY_DEADWOOD": 10}

#: The numbers the prose may write itself, per game (both languages), and why:
#: none of them is a preset's figure.
LITERALS: dict[str, set[int]] = {
    # card values of core/values.py (ace 1, 2-10 face value, court cards 10)
    # and the worked example's deadwood
    "common": {1, 2, 10, 14},
    # a rum is a deadwood of 0; the worked example's deadwoods and payments
    "knock": {0, 3, 8, 17, 20},
    "knock-target": {2, 3, 5, 7, 9},
    # "an ace only goes below a 2"
    "rummy": {2},
    # the options' own values: going_rummy=plus10, a high ace's 15 (core/rules.py)
    "basic": {10, 15},
    # the worked example
    "block": {1, 6, 7, 9, 15, 21, 25},
    # a joker's value (core/values.py); deals are numbered from 1
    "rotham": {1, 15},
    "gin": set(),
    "gin-standard": set(),
    "gin-openspiel": set(),
    # "below a 2"; the average deadwood of a dealt hand, a measurement
    "faq": {2, 57},
}
#: Cards and ranks written as such: 7♠, A-2-3, A 2 3 … 10 J Q K, K-A-2, fractions.
CARD_NOTATION = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|A 2 3 … 10 J Q K|A-2-3|K-A-2|8½|17/3")
PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def texts_module() -> str:
    return json.dumps((JS / "rules_text.js").as_uri())


def templates() -> dict[str, Any]:
    script = (
        f"import {{ RULES, FAQ }} from {texts_module()};\n"
        "process.stdout.write(JSON.stringify({ RULES, FAQ }));\n"
    )
    found: dict[str, Any] = run_node(script)
    return found


def rendered(figures: dict[str, dict[str, object]] | None = None) -> dict[str, Any]:
    """Every language's rules and FAQ as the page shows them, with these figures."""
    chosen = "undefined" if figures is None else json.dumps(figures)
    script = (
        f"import {{ rulesText, faqText }} from {texts_module()};\n"
        f"const figures = {chosen};\n"
        f"const extra = {json.dumps(FAQ_EXTRA)};\n"
        "const out = {};\n"
        f"for (const lang of {json.dumps(list(LANGUAGES))})\n"
        "  out[lang] = { rules: rulesText(lang, figures), faq: faqText(lang, extra, figures) };\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    found: dict[str, Any] = run_node(script)
    return found


def texts_by_game(language: dict[str, Any], key: str = "rules") -> dict[str, str]:
    """One string per game (and "faq"), every section's title and text."""
    games = {
        game: " ".join(f"{title} {text}" for title, text in rules["sections"])
        for game, rules in language[key].items()
    }
    games["faq"] = " ".join(f"{q} {a}" for q, a in language["faq"])
    return games


def test_every_game_has_its_rules_and_the_order_lists_every_preset() -> None:
    raw = templates()
    for language in LANGUAGES:
        assert set(raw["RULES"][language]) == {"common", *PRESETS}, language
    script = (
        f"import {{ GAME_ORDER }} from {texts_module()};\n"
        "process.stdout.write(JSON.stringify(GAME_ORDER));\n"
    )
    assert sorted(run_node(script)) == sorted(PRESETS)


def test_every_number_in_the_prose_is_a_placeholder_or_not_a_rules_figure() -> None:
    raw = templates()
    for language in LANGUAGES:
        games = {game: rules["sections"] for game, rules in raw["RULES"][language].items()}
        games["faq"] = raw["FAQ"][language]
        for game, sections in games.items():
            for _title, text in sections:
                bare = CARD_NOTATION.sub(" ", PLACEHOLDER.sub(" ", text))
                numbers = {int(n) for n in re.findall(r"\d+", bare)}
                assert numbers <= LITERALS[game], (language, game, numbers - LITERALS[game], text)


def test_both_languages_state_the_same_figures() -> None:
    raw = templates()
    for game, english in raw["RULES"]["en"].items():
        russian = raw["RULES"]["ru"][game]
        assert len(english["sections"]) == len(russian["sections"]), game
        for (_, en_text), (_, ru_text) in zip(
            english["sections"], russian["sections"], strict=True
        ):
            figures = Counter(PLACEHOLDER.findall(en_text))
            assert figures == Counter(PLACEHOLDER.findall(ru_text)), (game, en_text)
    for (_, en_answer), (_, ru_answer) in zip(raw["FAQ"]["en"], raw["FAQ"]["ru"], strict=True):
        assert Counter(PLACEHOLDER.findall(en_answer)) == Counter(PLACEHOLDER.findall(ru_answer))


def test_the_page_shows_each_preset_s_own_figures() -> None:
    shown = rendered()
    for language in LANGUAGES:
        games = texts_by_game(shown[language])
        for game, text in games.items():
            assert "{" not in text and "undefined" not in text and "NaN" not in text, (game, text)
        # A few figures, read in the page's words.
        knock, gin, standard = PRESETS["knock"], PRESETS["gin"], PRESETS["gin-standard"]
        assert f"{knock.min_players}-{knock.max_players}" in games["knock"]
        assert f"+ {knock.rum_bonus}" in games["knock"]
        assert f" {gin.knock_limit} " in games["gin"]
        assert f"{standard.big_gin_bonus} +" in games["gin-standard"]
        assert str(PRESETS["rotham"].deck_size) in games["rotham"]


def test_changing_a_preset_s_figures_changes_the_text() -> None:
    # Every whole-number figure of every preset gets a value of its own that
    # no text writes; every figure a game's text names must then show it.
    figures: dict[str, dict[str, object]] = {}
    changed: dict[str, dict[str, int]] = {}
    serial = 900
    for name, rules in PRESETS.items():
        figures[name] = preset_figures(rules)
        changed[name] = {}
        for field, value in figures[name].items():
            if isinstance(value, int) and not isinstance(value, bool) and field != "min_players":
                serial += 7
                figures[name][field] = changed[name][field] = serial
    raw = templates()
    shown = rendered(figures)
    for language in LANGUAGES:
        games = texts_by_game(shown[language])
        for game, rules in raw["RULES"][language].items():
            own = game if game in PRESETS else None
            for _title, text in rules["sections"]:
                for inside in PLACEHOLDER.findall(text):
                    preset, _, field = inside.rpartition(".")
                    preset = preset or own or ""
                    if preset in changed and field in changed[preset]:
                        assert str(changed[preset][field]) in games[game], (language, game, inside)
        # The knock example's arithmetic follows the penalty.
        penalty = changed["knock"]["knock_penalty"]
        assert f"8 − 3 + {penalty} = {8 - 3 + penalty}" in games["knock"]
        assert str(changed["knock"]["knock_penalty"]) in games["faq"]
        # No text still says an old figure where the preset's is meant.
        assert f"+ {PRESETS['knock'].rum_bonus}," not in games["knock"]
        assert f"Game to {PRESETS['gin'].target}" not in games["gin"]
