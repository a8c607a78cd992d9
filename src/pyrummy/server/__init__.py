"""The web game's server: FastAPI app, storage and the live tables."""

from pyrummy.server.app import Settings, create_app

__all__ = ["Settings", "create_app"]
