"""The web game's server: FastAPI app, storage and the live tables.

Needs the ``web`` extra (``pip install 'pyrummy[web]'``). ``Settings`` and
``create_app`` are imported when first asked for, so that reading the
settings (``pyrummy serve``'s flags) does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyrummy.extras import require

require("web")

if TYPE_CHECKING:
    from pyrummy.server.app import create_app
    from pyrummy.server.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "Settings":
        from pyrummy.server.settings import Settings

        return Settings
    if name == "create_app":
        from pyrummy.server.app import create_app

        return create_app
    raise AttributeError(name)
