"""A round that a server process runs in the background from start-up to shutdown."""

from __future__ import annotations

import asyncio
import contextlib


class BackgroundRound:
    """Runs :meth:`_forever` as one task of the running loop between
    :meth:`start` and :meth:`stop` (the rooms' keeper, the quick match)."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _forever(self) -> None:
        raise NotImplementedError
