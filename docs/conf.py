"""Sphinx configuration of the pyrummy documentation site (``make docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent / "src"))

import pyrummy  # noqa: E402

project = "pyrummy"
author = "the pyrummy developers"
copyright = "2026, the pyrummy developers"
release = version = pyrummy.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    "rules_options",
    "public_api",
    "reexports",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]

myst_enable_extensions = ["colon_fence", "deflist"]
# Headings become link targets, so pages can cite "knock.md#settlement".
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"pyrummy {release}"

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autoclass_content = "class"

# Every cross-reference must resolve (nitpicky), except names that belong to
# the standard library or third-party packages: the site is built offline, so
# there is no intersphinx inventory to link them to.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(fractions|random|collections\.abc|typing|enum|dataclasses|pathlib|secrets)\..*"),
    (r"py:.*", r"(Fraction|Random|Iterable|Iterator|Sequence|Mapping|Callable|Enum|IntEnum)"),
    (r"py:.*", r"(numpy|np|gymnasium|pettingzoo|pyspiel|matplotlib|torch)\..*"),
    # type variables of generic functions (autodoc names them as classes)
    (r"py:class", r"pyrummy\..*\.(Config|TaskT|ResultT)"),
]
