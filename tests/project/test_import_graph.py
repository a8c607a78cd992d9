"""The import graph of the package has no circle, typing-only imports included.

Import-linter's contracts (``pyproject.toml``) order the layers; this test
finds any circle at all among the modules (grimp ships with import-linter),
imports under ``if TYPE_CHECKING:`` counted: a circle that only the type
checker follows still ties two modules' designs together.
"""

from __future__ import annotations

import grimp


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (Tarjan's
    strongly connected components with more than one module, or a module
    importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(edges[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in edges[module]:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_the_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_package_imports_itself_in_a_circle() -> None:
    graph = grimp.build_graph(
        "pyrummy", include_external_packages=False, exclude_type_checking_imports=False
    )
    edges = {
        module: {target for target in graph.find_modules_directly_imported_by(module)}
        for module in graph.modules
        if module.startswith("pyrummy")
    }
    assert len(edges) > 50
    assert _circles(edges) == []
