"""The web game's server: FastAPI app, storage and the live tables.

Needs the ``web`` extra (``pip install 'pyrummy[web]'``).
"""

from pyrummy.extras import require

require("web")

from pyrummy.server.app import Settings, create_app  # noqa: E402  (after the check)

__all__ = ["Settings", "create_app"]
