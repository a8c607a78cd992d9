"""Sphinx directive ``public-api``: every name of ``pyrummy.__all__``, linked.

Each name becomes a cross-reference to the object where it is defined
(``pyrummy.Card`` → ``pyrummy.core.cards.Card``). The site is built
nitpicky, so a public name that the API reference does not document is a
warning, and ``make docs`` fails on warnings.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import pyrummy

#: Module-level values have no ``__module__``: where each is defined.
VALUES = {"PRESETS": "pyrummy.core.rules.PRESETS"}


def target_of(name: str) -> str:
    if name in VALUES:
        return VALUES[name]
    obj = getattr(pyrummy, name)
    return f"{obj.__module__}.{obj.__qualname__}"


class PublicApiDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        items = nodes.bullet_list()
        for name in sorted(pyrummy.__all__, key=str.lower):
            target = target_of(name)
            ref = addnodes.pending_xref(
                "", refdomain="py", reftype="obj", reftarget=target, refexplicit=True
            )
            ref += nodes.literal(name, name)
            paragraph = nodes.paragraph("", "", ref, nodes.Text(" — "))
            paragraph += nodes.literal(target, target)
            items += nodes.list_item("", paragraph)
        return [items]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("public-api", PublicApiDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
