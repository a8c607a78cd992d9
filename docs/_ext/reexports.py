"""Resolve cross-references to re-exported and imported names.

Docstrings say :class:`Deal` in a module that imports ``Deal``, or
:func:`pyrummy.bots.make_bot` for a name a package re-exports. Python's
domain looks such names up only where they are written; this handler looks
the object up where it is *defined* (its ``__module__`` and
``__qualname__``) and links there, so each object is documented once and
every reference to it resolves.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def _lookup(dotted: str) -> object | None:
    """The object a dotted name points to, importing its module, or None."""
    parts = dotted.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                obj = getattr(obj, attribute)
        except AttributeError:
            return None
        return obj
    return None


def _definitions(env: BuildEnvironment, target: str, module: str | None) -> list[str]:
    """Where the object named ``target`` (seen from ``module``) is documented."""
    domain = env.get_domain("py")
    known: dict[str, Any] = domain.objects  # type: ignore[attr-defined]
    candidates = [target] if module is None else [f"{module}.{target}", target]
    for name in candidates:
        obj = _lookup(name)
        if obj is None:
            continue
        defined_in = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if isinstance(defined_in, str) and isinstance(qualname, str):
            real = f"{defined_in}.{qualname}"
            if real in known:
                return [real]
        # Values (constants) have no __module__: a documented object of the same
        # name in a submodule of where it was found.
        last = name.rsplit(".", 1)[-1]
        package = name.rsplit(".", 1)[0]
        found = [full for full in known if full.endswith("." + last) and full.startswith(package)]
        if len(found) == 1:
            return found
    return []


def resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: Element
) -> nodes.reference | None:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    module = node.get("py:module")
    found = _definitions(env, target, module)
    if len(found) != 1:
        return None
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", found[0], node, contnode)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
