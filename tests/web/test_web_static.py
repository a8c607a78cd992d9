"""The page's own files: message catalogues complete in both languages, every
key the scripts use defined, nothing fetched from the internet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyrummy.server.app import static_dir

STATIC = static_dir()
SCRIPTS = sorted((STATIC / "js").glob("*.js"))


#: Scripts holding a catalogue: i18n.js, and features adding theirs (addTexts).
CATALOGUES = ("i18n.js", "room.js", "quick.js", "table_text.js", "profile.js", "gin_text.js")


def catalogue_keys(language: str) -> set[str]:
    keys: set[str] = set()
    for name in CATALOGUES:
        text = (STATIC / "js" / name).read_text(encoding="utf-8")
        start = text.index(f"  {language}: {{")
        end = text.index("\n  },", start)
        keys |= set(re.findall(r'^\s+"([^"]+)":', text[start:end], flags=re.MULTILINE))
    return keys


# Grammatical forms a language may need and another not: Russian verbs agree
# with "Вы" (".you"), plural forms differ (".one", ".few"); t() falls back to
# the base key, which every language has.
FORMS = re.compile(r"\.(you|one|few|many)$")


def test_both_languages_have_the_same_keys() -> None:
    english, russian = catalogue_keys("en"), catalogue_keys("ru")
    assert len(english) > 150
    # A form is a key whose base key (without the suffix) is in the same catalogue.
    base_en = {k for k in english if not (FORMS.search(k) and FORMS.sub("", k) in english)}
    base_ru = {k for k in russian if not (FORMS.search(k) and FORMS.sub("", k) in russian)}
    assert base_en - base_ru == set()
    assert base_ru - base_en == set()


def used_keys() -> set[str]:
    keys: set[str] = set()
    for script in SCRIPTS:
        keys |= set(re.findall(r'\bt\("([a-zA-Z][\w.\- ]*)"', script.read_text(encoding="utf-8")))
    return keys


def test_every_key_the_scripts_use_is_defined() -> None:
    used = used_keys()
    assert len(used) > 100
    assert used - catalogue_keys("en") == set()


@pytest.mark.parametrize(
    "prefix", ["outcome.", "reason.", "game.", "blurb.", "difficulty.", "table.hiddenMelds."]
)
def test_keys_built_at_run_time_exist(prefix: str) -> None:
    from pyrummy.core.ledger import REASONS
    from pyrummy.core.rules import PRESETS
    from pyrummy.server.tables import WEB_BOTS

    expected = {
        "reason.": {f"reason.{r}" for r in REASONS},
        "game.": {f"game.{name}" for name in PRESETS},
        "blurb.": {f"blurb.{name}" for name in PRESETS},
        # Every bot a table may seat has a label in both languages.
        "difficulty.": {f"difficulty.{b}" for b in WEB_BOTS},
        "table.hiddenMelds.": {f"table.hiddenMelds.{f}" for f in ("knock", "gin")},
        "outcome.": {
            f"outcome.{o}"
            for o in (
                "rum",
                "knocker-lowest",
                "knocker-tied",
                "knocker-beaten",
                "no-knocker",
                "gin",
                "undercut",
                "knock",
                "out",
                "rummy",
                "draw",
                "block",
            )
        },
    }[prefix]
    assert expected <= catalogue_keys("en")


def test_nothing_is_loaded_from_the_internet() -> None:
    for path in [
        *SCRIPTS,
        *(STATIC / name for name in ("index.html", "style.css", "table.css", "room.css")),
    ]:
        text = path.read_text(encoding="utf-8")
        external = re.findall(
            r"""(?:src|href|import|url)\s*[=(]?\s*["']?(https?://[^"')\s]+)""", text
        )
        assert external == [], (path.name, external)
        assert "@import" not in text


def test_scripts_import_only_local_modules() -> None:
    for script in SCRIPTS:
        for target in re.findall(r'from\s+"([^"]+)"', script.read_text(encoding="utf-8")):
            assert target.startswith("./"), (script.name, target)
            assert (STATIC / "js" / target[2:]).is_file(), (script.name, target)


def test_rules_and_faq_exist_in_both_languages() -> None:
    text = (STATIC / "js" / "rules_text.js").read_text(encoding="utf-8")
    for preset in ("knock", "knock-target", "rummy", "basic", "block", "rotham", "gin"):
        key = f'"{preset}": {{' if "-" in preset else f"{preset}: {{"
        assert text.count(key) == 2, preset  # once in en, once in ru
    assert text.count("FAQ") >= 1


def test_static_files_are_packaged_where_the_server_looks() -> None:
    assert (STATIC / "index.html").is_file()
    assert Path(STATIC).parts[-2:] == ("web", "static")


def test_the_page_asks_the_family_s_capabilities_not_its_name() -> None:
    # What a game can do (melds on the table, knocks, how a deal nobody won
    # ends) comes from /api/presets and each table's rules ("capabilities",
    # declared by the family's policy); the page never compares family names.
    comparison = re.compile(r"family\s*[!=]==|\[data-family")
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(Path(STATIC).rglob("*"))
        if path.suffix in (".js", ".css", ".html")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if comparison.search(line)
    ]
    assert offenders == []
