"""Print the test files and doctest modules that need nothing but the core.

A test file counts as core when everything it imports is the standard
library, pytest, hypothesis, or the dependency-free part of pyrummy (the
core, the bots, :mod:`pyrummy.extras`, the package itself), counting
imports made inside functions too. ``make test-pythons`` runs these on every
Python version the machine has, in venvs that hold no other package: the
proof that ``pip install pyrummy`` needs no dependency.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIRD_PARTY_ALLOWED = {"pytest", "hypothesis", "_pytest"}
PYRUMMY_ALLOWED = ("pyrummy.core", "pyrummy.bots", "pyrummy.extras")
# Every module under tests/ by its name: the helpers at the top, and test
# modules one folder down that others of their folder import.
LOCAL_TEST_MODULES = {path.stem: path for path in (ROOT / "tests").rglob("*.py")}
# Tests of the layers may run their scripts in a subprocess, which imports cannot show.
LAYER_TEST_PREFIXES = (
    "test_research",
    "test_server",
    "test_web",
    "test_cli",
    "test_play",
    "test_docs",  # runs the README's examples, research ones included
    "test_load",  # drives benchmarks/load.py (aiohttp, the web extra)
)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _allowed(module: str, seen: set[Path]) -> bool:
    top = module.split(".")[0]
    if module == "pyrummy":
        return True
    if module.startswith(PYRUMMY_ALLOWED):
        return True
    if top == "pyrummy":
        return False
    if top in LOCAL_TEST_MODULES:  # a helper module beside the tests: check it too
        return _is_core(LOCAL_TEST_MODULES[top], seen)
    return top in THIRD_PARTY_ALLOWED or top in sys.stdlib_module_names


def _is_core(path: Path, seen: set[Path] | None = None) -> bool:
    seen = set() if seen is None else seen
    if path in seen:
        return True
    seen.add(path)
    return all(_allowed(module, seen) for module in _imported_modules(path))


def core_test_paths() -> list[str]:
    """Test files and source folders (for doctests) that need only the core."""
    tests = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if not path.name.startswith(LAYER_TEST_PREFIXES) and _is_core(path)
    )
    return [*tests, "src/pyrummy/core", "src/pyrummy/extras.py"]


if __name__ == "__main__":
    print("\n".join(core_test_paths()))
