"""Optional layers and the extra that installs each one.

``pip install pyrummy`` installs the rules core and the bots, which need
nothing but Python. Every layer above them names its extra here, so that a
missing library gives one clear sentence instead of a bare ``ImportError``:

>>> require("core", [])
>>> import pytest
>>> with pytest.raises(MissingExtraError) as excinfo:
...     require("web", ["a_module_that_is_not_installed"])
>>> print(excinfo.value)
this needs pyrummy's 'web' extra (a_module_that_is_not_installed is missing): pip install 'pyrummy[web]'
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Final

#: The importable modules each extra brings, as pyproject.toml declares them.
EXTRA_MODULES: Final[dict[str, tuple[str, ...]]] = {
    "cli": ("rich",),
    "plot": ("matplotlib",),
    "tournament": ("rich", "matplotlib", "scipy"),
    "web": ("fastapi", "uvicorn", "pydantic", "sqlalchemy", "openskill"),
    "research": ("pettingzoo", "gymnasium", "numpy", "pyspiel"),
    "ray": ("ray",),
}


class MissingExtraError(ImportError):
    """A layer was used whose optional dependencies are not installed."""

    def __init__(self, extra: str, missing: Sequence[str]) -> None:
        self.extra = extra
        self.missing = tuple(missing)
        super().__init__(
            f"this needs pyrummy's {extra!r} extra ({', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing): pip install 'pyrummy[{extra}]'"
        )


def missing_modules(modules: Sequence[str]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    return [name for name in modules if importlib.util.find_spec(name) is None]


def require(extra: str, modules: Sequence[str] | None = None) -> None:
    """Raise :class:`MissingExtraError` unless every module of ``extra`` imports.

    ``modules`` defaults to :data:`EXTRA_MODULES` ``[extra]``.
    """
    names = EXTRA_MODULES.get(extra, ()) if modules is None else modules
    missing = missing_modules(names)
    if missing:
        raise MissingExtraError(extra, missing)
