"""The page's local meld check (meldcheck.js) says exactly what the core's
explain_meld says, for every three-card choice of a slice of the deck, in
both languages and under every ace rule. The module runs in node, as the
browser would run it (it touches no DOM). Its limits and sentences come
from the core, in a generated module (meld_facts.js) that must be current."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from pyrummy.core.melds import explain_meld
from pyrummy.core.messages import CATALOGUE
from pyrummy.core.rules import find_rules
from pyrummy.server.page_facts import main as page_facts_main
from pyrummy.server.page_facts import meld_facts, meld_facts_module, module_path
from web_helpers import run_node

MELDCHECK = (
    Path(__file__).resolve().parents[2] / "src/pyrummy/web/static/js/meldcheck.js"
).as_uri()
# Low, middle and high ranks in three suits, plus the jokers: runs, sets,
# gaps, mixed suits and the ace at both ends all occur among the triples.
CARDS = ["AS", "2S", "3S", "6S", "QS", "KS", "AH", "2H", "3H", "KH", "2C", "6C", "AC", "X1", "X2"]
ACES = ["low", "high_or_low", "around_the_corner"]


def page_explanations(hands: list[list[str]]) -> dict[str, str | None]:
    script = (
        f"import {{ explainMeld }} from {json.dumps(MELDCHECK)};\n"
        f"const hands = {json.dumps(hands)};\n"
        f"const aces = {json.dumps(ACES)};\n"
        "const out = {};\n"
        "for (const hand of hands) for (const ace of aces) for (const lang of ['en', 'ru'])\n"
        "  out[`${hand.join(' ')}|${ace}|${lang}`] = explainMeld(hand, ace, lang);\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    found: dict[str, str | None] = run_node(script)
    return found


def test_page_and_core_explain_melds_alike() -> None:
    hands = [list(trio) for trio in itertools.combinations(CARDS, 3)]
    page = page_explanations(hands)
    differences = []
    for hand in hands:
        for ace in ACES:
            rules = find_rules("basic", ace=ace)
            for lang in ("en", "ru"):
                # Jokers included: both write one as 🃏1.
                core = explain_meld(" ".join(hand), rules, lang)
                shown = page[f"{' '.join(hand)}|{ace}|{lang}"]
                if shown != core:
                    differences.append((hand, ace, lang, core, shown))
    assert differences == []


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (
            "2S 6S AC",
            "2♠ 6♠ A♣: neither a set (ranks differ) nor a run (not in sequence, suits differ)",
        ),
        ("7H 8S 9H", "suits differ: a run is one suit"),
    ],
)
def test_the_reason_names_the_real_problem(cards: str, reason: str) -> None:
    assert explain_meld(cards) == reason
    assert page_explanations([cards.split()])[f"{cards}|low|en"] == reason


def test_the_page_s_meld_facts_are_generated_from_the_core() -> None:
    # The file in the package is exactly what the core makes now...
    assert module_path().read_text(encoding="utf-8") == meld_facts_module()
    assert page_facts_main(["--check"]) == 0
    # ...and it holds every meld sentence of the core, in both languages.
    facts = meld_facts()
    for lang, templates in CATALOGUE.items():
        words = facts["WORDS"][lang]  # type: ignore[index]
        assert {f"meld.{key}" for key in words} == {k for k in templates if k.startswith("meld.")}
    # meldcheck.js writes none of them itself.
    source = Path(MELDCHECK.removeprefix("file://")).read_text(encoding="utf-8")
    assert "const WORDS" not in source and "a meld needs" not in source
    assert 'from "./meld_facts.js"' in source


def test_a_stale_module_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / "meld_facts.js"
    stale.write_text(meld_facts_module().replace("at least 3 cards", "at least 4 cards"))
    monkeypatch.setattr(
        "pyrummy.server.page_facts.module_path", lambda relative: tmp_path / relative.name
    )
    assert page_facts_main(["--check"]) == 1
    assert page_facts_main([]) == 0
    assert stale.read_text(encoding="utf-8") == meld_facts_module()
    assert page_facts_main(["--check"]) == 0
