"""Facts of the rules core that the page needs without asking the server,
written into a generated JavaScript module (``web/static/js/meld_facts.js``).

The page explains an invalid meld at once, with no request (``meldcheck.js``),
so it needs the core's meld limits, its ace rules from strictest to
loosest, the ranks as they are shown, and the very sentences the core says
(``core/messages.py``, English and Russian). They are declared once, in
Python, and this module writes them out; ``tests/web/test_web_meldcheck.py``
fails when the file is stale, and the page's checks are compared with the
core's ``explain_meld`` on every three-card choice of a slice of the deck.

    python -m pyrummy.server.page_facts          # write the module
    python -m pyrummy.server.page_facts --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Final, get_args

from pyrummy.core.cards import RANKS
from pyrummy.core.messages import CATALOGUE
from pyrummy.core.patterns import MAX_RUN, MAX_SET, MIN_MELD
from pyrummy.core.rules import AceRule

#: Where the page's module lives, inside the package's static files.
MELD_FACTS: Final = Path("web", "static", "js", "meld_facts.js")
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
    """The JavaScript module's text."""
    lines = [
        "// Generated from the rules core by `python -m pyrummy.server.page_facts`: do not edit.",
        "// The meld limits, the ace rules from strictest to loosest, the ranks as shown and",
        "// the core's sentences saying why cards are not a meld (core/messages.py), for meldcheck.js.",
        "",
    ]
    for name, value in meld_facts().items():
        text = json.dumps(value, ensure_ascii=False, indent=2 if isinstance(value, dict) else None)
        lines.append(f"export const {name} = {text};")
    return "\n".join(lines) + "\n"


def module_path() -> Path:
    """The generated module's path in the installed package."""
    return Path(str(resources.files("pyrummy"))) / MELD_FACTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the page's meld facts from the core.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    path, text = module_path(), meld_facts_module()
    if args.check:
        stale = not path.exists() or path.read_text(encoding="utf-8") != text
        if stale:
            print(f"{path} is stale: run python -m pyrummy.server.page_facts", file=sys.stderr)
        return 1 if stale else 0
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
