"""The documentation's examples run: README's Python blocks and the site's doctests.

README.md's ```python blocks are executed as they are written, and a line
that promises a value in a comment (``deadwood("...")  # 14``) must keep it. The site's
pages (docs/**/*.md) hold ```pycon blocks, which are doctests: each page's
blocks run in order in one namespace, and their printed output must match.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(?P<lang>[\w{}-]*)[^\n]*\n(?P<body>.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def code_blocks(path: Path, lang: str) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == lang]


README_BLOCKS = code_blocks(ROOT / "README.md", "python")
DOC_PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)
PAGES_WITH_EXAMPLES = [p for p in DOC_PAGES if code_blocks(p, "pycon")]


def test_readme_and_docs_have_examples() -> None:
    # The extraction itself must find something, or the tests below prove nothing.
    assert len(README_BLOCKS) >= 2
    assert {p.name for p in PAGES_WITH_EXAMPLES} >= {"getting-started.md", "knock.md", "gin.md"}


# A README line `expression  # 14` promises a value: the test checks it.
PROMISE = re.compile(r"^(?P<expr>[^#\s][^#]*?)\s+#\s*(?P<value>-?\d+)\s*$")


def with_promises_checked(source: str) -> tuple[str, int]:
    lines = []
    promises = 0
    for line in source.splitlines():
        match = PROMISE.match(line)
        if match:
            promises += 1
            expr, value = match["expr"], match["value"]
            line = f"assert ({expr}) == {value}, {expr!r} + ' is not ' + {value!r}"
        lines.append(line)
    return "\n".join(lines) + "\n", promises


def test_readme_promises_are_read() -> None:
    checked, promises = with_promises_checked(README_BLOCKS[0])
    assert promises >= 1
    assert "assert (pyrummy.best_arrangement(" in checked


@pytest.mark.parametrize("index", range(len(README_BLOCKS)))
def test_readme_python_block_runs(index: int) -> None:
    source, _ = with_promises_checked(README_BLOCKS[index])
    namespace: dict[str, object] = {"__name__": f"readme_block_{index}"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, f"README.md python block {index + 1}", "exec"), namespace)


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_page_examples(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    name = str(page.relative_to(ROOT))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, object] = {"__name__": name}
    report = io.StringIO()
    examples = 0
    for block in FENCE.finditer(text):
        if block["lang"] != "pycon":
            continue
        first_line = text.count("\n", 0, block.start("body"))
        test = parser.get_doctest(block["body"], namespace, name, str(page), first_line)
        examples += len(test.examples)
        runner.run(test, out=report.write, clear_globs=False)
        namespace = test.globs  # a DocTest runs in a copy: the next block continues from it
    assert examples, f"{name} has pycon blocks without examples"
    assert runner.failures == 0, report.getvalue()


# Docstrings cite the rules pages as "docs/rules/knock.md §6" (or, after a
# first citation, "gin.md §4"); every such citation must name a real section.
CITATION = re.compile(
    r"(?<![\w/])(?:docs/rules/)?(?P<page>[a-z][\w-]*)\.md §(?P<first>\d+)(?:-§(?P<last>\d+))?"
)
DOC_PATH = re.compile(r"docs/[\w/.-]+?\.md")


def source_files() -> list[Path]:
    return sorted((ROOT / "src" / "pyrummy").rglob("*.py"))


def test_docstring_citations_name_real_sections() -> None:
    rules = ROOT / "docs" / "rules"
    cited = 0
    for path in source_files():
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            page = rules / f"{match['page']}.md"
            assert page.exists(), f"{path.name} cites {match[0]}: no page {page.name}"
            headings = set(re.findall(r"^## (\d+)\. ", page.read_text(encoding="utf-8"), re.M))
            for number in range(int(match["first"]), int(match["last"] or match["first"]) + 1):
                assert str(number) in headings, f"{path.name} cites {match[0]}: no §{number}"
            cited += 1
    assert cited >= 15


def test_docstrings_name_existing_docs_and_no_missing_spec() -> None:
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text, f"{path} cites RULES.md, which is not in the repository"
        for doc in DOC_PATH.findall(text):
            assert (ROOT / doc).exists(), f"{path.name} names {doc}, which does not exist"


def test_every_core_module_has_an_api_page() -> None:
    modules = {p.stem for p in (ROOT / "src" / "pyrummy" / "core").glob("*.py")} - {"__init__"}
    index = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    for module in sorted(modules):
        page = ROOT / "docs" / "api" / f"core-{module}.md"
        assert page.exists(), f"pyrummy.core.{module} has no page in docs/api/"
        assert f"automodule:: pyrummy.core.{module}\n" in page.read_text(encoding="utf-8")
        assert f"core-{module}\n" in index, f"docs/api/index.md does not list core-{module}"


def test_every_module_of_the_deal_package_is_on_its_api_page() -> None:
    package = ROOT / "src" / "pyrummy" / "core" / "deal"
    page = (ROOT / "docs" / "api" / "core-deal.md").read_text(encoding="utf-8")
    modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
    assert modules
    for module in sorted(modules):
        assert f"automodule:: pyrummy.core.deal.{module}\n" in page, module


def test_every_research_module_has_an_api_page() -> None:
    modules = {p.stem for p in (ROOT / "src" / "pyrummy" / "research").glob("*.py")} - {"__init__"}
    index = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    assert modules
    for module in sorted(modules):
        page = ROOT / "docs" / "api" / f"research-{module}.md"
        assert page.exists(), f"pyrummy.research.{module} has no page in docs/api/"
        assert f"automodule:: pyrummy.research.{module}\n" in page.read_text(encoding="utf-8")
        assert f"research-{module}\n" in index, f"docs/api/index.md does not list research-{module}"


def test_every_module_of_the_tournament_is_on_its_api_page() -> None:
    package = ROOT / "src" / "pyrummy" / "tournament"
    page = (ROOT / "docs" / "api" / "tournament.md").read_text(encoding="utf-8")
    index = (ROOT / "docs" / "api" / "index.md").read_text(encoding="utf-8")
    modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
    assert modules and "tournament\n" in index
    assert "automodule:: pyrummy.tournament\n" in page
    for module in sorted(modules):
        assert f"automodule:: pyrummy.tournament.{module}\n" in page, module


# The README is for users: what the project is, how to install and use it.
# Measured results live in benchmarks/results/ (each with its date, command
# and machine), their history in git and CHANGELOG.md.
README_MAX_LINES = 250
DATED = re.compile(
    r"\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
    r"|\b\d{1,2}:\d{2}(?::\d{2})? ?UTC\b|\bsession \d+",
)


def dated_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if DATED.search(line)]


def test_the_readme_is_short_and_holds_no_dated_measurement() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    assert dated_lines(text) == []


def test_the_dated_measurement_check_finds_dates() -> None:
    found = dated_lines(
        "SQLite, 1 process (2 Dec 05:33)\nmeasured 29 November\nat 07:14 UTC\n"
        "since session 27\nknock 2-5 players, 25 rum bonus, 1.35 ms per action\n"
    )
    assert len(found) == 4


# Relative links in the repository's own Markdown files (README, CONTRIBUTING,
# the changelog, the benchmarks' pages) name files that exist.
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
REPOSITORY_PAGES = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "CHANGELOG.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "benchmarks" / "results").glob("*.md")),
]


@pytest.mark.parametrize("page", REPOSITORY_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_page_links_resolve(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for match in LINK.finditer(text):
        target = match["target"].split("#", 1)[0]
        if not target or "://" in target or target.startswith("mailto:"):
            continue
        if not (page.parent / target).exists():
            broken.append(match["target"])
    assert broken == []


# README images: PyPI shows only absolute image URLs, and the project has no
# public home yet, so the one place that decides is pyproject.toml's
# [project.urls] "Source": once it names the repository, every image must be
# a raw URL under it (of a file in the repository); until then, a path in the
# repository (which Git hosts and the docs site show) and never a made-up URL.
IMAGE = re.compile(r"!\[[^\]]*\]\((?P<url>[^)\s]+)\)")


def readme_image_rule(source: str | None, url: str) -> str | None:
    """Why ``url`` breaks the rule for README images (None: it keeps it)."""
    if source is None:
        if "://" in url:
            return f"{url}: no public URL in [project.urls] yet, so use a repository path"
        path = url
    else:
        prefix = f"{source.rstrip('/')}/raw/HEAD/"
        if not url.startswith(prefix):
            return f"{url}: PyPI needs an absolute URL under {prefix}"
        path = url.removeprefix(prefix)
    return None if (ROOT / path).is_file() else f"{url}: no file {path} in the repository"


def test_readme_images_follow_the_projects_public_url() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    source = project.get("urls", {}).get("Source")
    images = IMAGE.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert images, "the README shows the game"
    assert [problem for url in images if (problem := readme_image_rule(source, url))] == []


def test_the_readme_image_rule_refuses_what_pypi_cannot_show() -> None:
    home = "https://example.org/pyrummy"
    png = "docs/images/table-1280x800-en.png"
    assert readme_image_rule(None, png) is None
    assert readme_image_rule(None, f"{home}/raw/HEAD/{png}") is not None
    assert readme_image_rule(None, "docs/no-such-picture.png") is not None
    assert readme_image_rule(home, f"{home}/raw/HEAD/{png}") is None
    assert readme_image_rule(home, png) is not None
