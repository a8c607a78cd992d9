"""Facts declared in Python that the page needs without asking the server,
written into generated JavaScript modules under ``web/static/js/``.

* ``meld_facts.js``: the page explains an invalid meld at once, with no
  request (``meldcheck.js``), so it needs the core's meld limits, its ace
  rules from strictest to loosest, the ranks as they are shown, and the very
  sentences the core says (``core/messages.py``, English and Russian). The
  page's checks are compared with the core's ``explain_meld`` on every
  three-card choice of a slice of the deck (``tests/web/test_web_meldcheck.py``).
* ``game_facts.js``: the display-name rule the server applies
  (:func:`pyrummy.server.schemas.clean_name`), checked on the page before a
  request, with the figures its message says; the longest chat message; the
  bot difficulties people choose from and the server's default
  (:mod:`pyrummy.bots.registry`). Small: the lobby loads it first.
* ``rules_figures.js``: every preset's options (:data:`pyrummy.core.rules.PRESETS`),
  which the rules pages' text (``rules_text.js``) fills in, so that a
  preset's number is written once.

They are declared once, in Python, and this module writes them out; a test
fails when a file is stale.

    python -m pyrummy.server.page_facts          # write the modules
    python -m pyrummy.server.page_facts --check  # exit 1 if one is stale
"""

from __future__ import annotations

import argparse
import json
import sys
import typing
from importlib import resources
from pathlib import Path
from typing import Final, get_args

from pyrummy.bots.registry import DIFFICULTIES
from pyrummy.core.cards import RANKS
from pyrummy.core.messages import CATALOGUE
from pyrummy.core.patterns import MAX_RUN, MAX_SET, MIN_MELD
from pyrummy.core.rules import PRESETS, AceRule, Rules, option_names
from pyrummy.server.schemas import CHAT_MAX, NAME_FORBIDDEN, NAME_MAX
from pyrummy.server.tables import DEFAULT_BOT

#: Where the page's modules live, inside the package's static files.
MELD_FACTS: Final = Path("web", "static", "js", "meld_facts.js")
GAME_FACTS: Final = Path("web", "static", "js", "game_facts.js")
RULES_FIGURES: Final = Path("web", "static", "js", "rules_figures.js")
#: The catalogue's keys the page's meld check says (``meld.*``).
_PREFIX: Final = "meld."


def meld_facts() -> dict[str, object]:
    """The facts, as plain data (what the module exports, by name)."""
    return {
        "MIN_MELD": MIN_MELD,
        "MAX_SET": MAX_SET,
        "MAX_RUN": MAX_RUN,
        # Strictest first: a run that breaks one rule is named by the first looser rule it keeps.
        "ACE_ORDER": list(get_args(AceRule)),
        "RANK_DISPLAY": [rank.display for rank in RANKS],
        "WORDS": {
            lang: {
                key.removeprefix(_PREFIX): text
                for key, text in templates.items()
                if key.startswith(_PREFIX)
            }
            for lang, templates in CATALOGUE.items()
        },
    }


def meld_facts_module() -> str:
    """The JavaScript module of the meld facts."""
    return _module(
        [
            "// Generated from the rules core by `python -m pyrummy.server.page_facts`: do not edit.",
            "// The meld limits, the ace rules from strictest to loosest, the ranks as shown and",
            "// the core's sentences saying why cards are not a meld (core/messages.py), for meldcheck.js.",
        ],
        meld_facts(),
    )


def name_rule_source() -> str:
    r"""The display-name rule as a JavaScript regular expression (flag ``u``):
    what :func:`~pyrummy.server.schemas.clean_name` accepts once spaces are
    trimmed. ``\p{C}`` is Unicode's "other" category, which ``clean_name``
    refuses by ``unicodedata.category``; ``{1,N}`` counts code points, as
    Python's ``len`` does.

    >>> print(name_rule_source())
    /^[^,"\\\[\]<>\p{C}]{1,24}$/u
    """
    # Inside a class under flag u only these may (and must) be escaped here.
    forbidden = "".join("\\" + ch if ch in "\\[]^-/" else ch for ch in NAME_FORBIDDEN)
    return f"/^[^{forbidden}\\p{{C}}]{{1,{NAME_MAX}}}$/u"


def preset_figures(rules: Rules) -> dict[str, object]:
    """A preset's options, as JSON, and the size of its deck: the figures the
    rules pages say."""
    figures: dict[str, object] = {name: _jsonable(getattr(rules, name)) for name in option_names()}
    figures["deck_size"] = rules.deck_size
    return figures


def game_facts() -> dict[str, object]:
    """The game facts, as plain data (what the module exports, by name)."""
    return {
        "NAME_MAX": NAME_MAX,
        "NAME_FORBIDDEN": NAME_FORBIDDEN,
        # What the pages' messages about the rule fill in: {max} and {chars}.
        "NAME_TEXT": {"max": NAME_MAX, "chars": " ".join(NAME_FORBIDDEN)},
        "CHAT_MAX": CHAT_MAX,
        "DIFFICULTIES": list(DIFFICULTIES),
        # The bot each difficulty is, the other way round: a rated bot's name
        # (``simple``) shown as the difficulty people chose (Easy).
        "DIFFICULTY_OF_BOT": {bot: name for name, bot in DIFFICULTIES.items()},
        "DEFAULT_BOT": DEFAULT_BOT,
    }


def game_facts_module() -> str:
    """The JavaScript module of the game facts."""
    text = _module(
        [
            "// Generated by `python -m pyrummy.server.page_facts`: do not edit.",
            "// The display-name rule and the longest chat message (server/schemas.py), and the",
            "// bot difficulties people choose from (bots/registry.py), for the pages.",
        ],
        game_facts(),
    )
    return text + f"export const NAME_RULE = {name_rule_source()};\n"


def rules_figures_module() -> str:
    """The JavaScript module of every preset's figures, by preset name."""
    return _module(
        [
            "// Generated from the rules core by `python -m pyrummy.server.page_facts`: do not edit.",
            "// Every preset's options and deck size (core/rules.py), which rules_text.js fills in.",
        ],
        {"PRESET_FIGURES": {name: preset_figures(rules) for name, rules in PRESETS.items()}},
    )


def _module(header: list[str], facts: dict[str, object]) -> str:
    lines = [*header, ""]
    for name, value in facts.items():
        lines.append(f"export const {name} = {_json(value)};")
    return "\n".join(lines) + "\n"


def _json(value: object) -> str:
    """JSON for the module: a table (rows of numbers, flags and lists, such as
    the presets' figures) one row a line; other dicts indented; the rest on one line."""
    if isinstance(value, dict) and _is_table(value):
        rows = ",\n".join(
            f"  {json.dumps(key, ensure_ascii=False)}: {json.dumps(row, ensure_ascii=False)}"
            for key, row in value.items()
        )
        return "{\n" + rows + "\n}"
    return json.dumps(value, ensure_ascii=False, indent=2 if isinstance(value, dict) else None)


def _is_table(value: dict[object, object]) -> bool:
    rows = list(value.values())
    if not rows or not all(isinstance(row, dict) for row in rows):
        return False
    cells = [cell for row in rows for cell in typing.cast(dict[str, object], row).values()]
    return not any(isinstance(cell, dict) for cell in cells) and not all(
        isinstance(cell, str) for cell in cells
    )


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


#: Each generated module's place in the package and how its text is made.
MODULES: Final = {
    MELD_FACTS: meld_facts_module,
    GAME_FACTS: game_facts_module,
    RULES_FIGURES: rules_figures_module,
}


def module_path(relative: Path = MELD_FACTS) -> Path:
    """A generated module's path in the installed package."""
    return Path(str(resources.files("pyrummy"))) / relative


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the page's facts from the Python code.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = False
    for relative, make in MODULES.items():
        path, text = module_path(relative), make()
        if not args.check:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path} is stale: run python -m pyrummy.server.page_facts", file=sys.stderr)
            stale = True
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
