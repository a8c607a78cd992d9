"""The package as users install it: the wheel's contents and metadata, no
dependency for the core, the version in one place, and a clear word when a
layer's extra is missing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import pyrummy
from pyrummy.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (path,) = out.glob("pyrummy-*.whl")
    return zipfile.ZipFile(path)


def test_wheel_holds_the_package_and_its_data(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for expected in (
        "pyrummy/__init__.py",
        "pyrummy/__main__.py",
        "pyrummy/py.typed",
        "pyrummy/core/solver.py",
        "pyrummy/bots/knock_value.json",
        "pyrummy/server/app.py",
        "pyrummy/tournament/__init__.py",
        "pyrummy/tournament/stats.py",
        "pyrummy/web/static/index.html",
    ):
        assert expected in names, expected
    assert any(name.startswith("pyrummy/web/static/js/") for name in names)
    assert not any(name.startswith(("tests/", "benchmarks/", "examples/")) for name in names)
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)


def test_wheel_metadata_core_has_no_dependency(wheel: zipfile.ZipFile) -> None:
    (metadata_name,) = (n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["Version"] == pyrummy.__version__
    requirements = metadata.get_all("Requires-Dist") or []
    assert requirements, "the extras declare their requirements"
    unconditional = [r for r in requirements if "extra ==" not in r]
    assert unconditional == []
    extras = set(metadata.get_all("Provides-Extra") or [])
    assert {"cli", "plot", "tournament", "web", "research", "all"} <= extras
    entry_points = wheel.read(metadata_name.replace("METADATA", "entry_points.txt")).decode()
    assert "pyrummy = pyrummy.cli.main:main" in entry_points


def test_the_web_extra_brings_the_cli_that_serves_it(wheel: zipfile.ZipFile) -> None:
    # `pyrummy serve` is a subcommand of the CLI, which needs the cli extra:
    # `pip install 'pyrummy[web]'` (what `make run` installs) must bring it.
    (metadata_name,) = (n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    web = [r for r in metadata.get_all("Requires-Dist") or [] if 'extra == "web"' in r]
    assert any(r.replace(" ", "").startswith("pyrummy[cli]") for r in web), web
    assert any(r.startswith("fastapi") for r in web), web


def test_importing_the_core_loads_no_third_party_module() -> None:
    code = (
        "import sys, pyrummy\n"
        "deal = pyrummy.new_deal(rules='knock', players=2, seed=1, dealer=0)\n"
        "pyrummy.make_bot('medium', seed=1).choose(deal.observe(deal.current_seat),"
        " deal.legal_actions())\n"
        "heavy = {'rich', 'matplotlib', 'scipy', 'numpy', 'fastapi', 'sqlalchemy', 'pydantic'}\n"
        "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_python_dash_m_and_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pyrummy", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == f"pyrummy {pyrummy.__version__}"
    result = subprocess.run(
        [sys.executable, "-m", "pyrummy", "arrange", "7S 7H 7D 8S 9S", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"deadwood": 14' in result.stdout


def test_command_without_its_extra_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_find_spec = importlib.util.find_spec

    def without_rich(name: str, package: str | None = None) -> object:
        return None if name == "rich" else real_find_spec(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", without_rich)
    assert cli_main.main(["arrange", "7S 7H 7D"]) == 2
    assert "pip install 'pyrummy[cli]'" in capsys.readouterr().err
    assert cli_main.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"pyrummy {pyrummy.__version__}"
