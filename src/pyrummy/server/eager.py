"""Run a coroutine at once, in the caller's turn of the event loop, as far as it goes.

Why: a table's event used to reach each WebSocket through a queue read by
the connection's own task, so it left one turn of the event loop after the
action's HTTP reply; under load a turn is everything else that became ready
meanwhile (other tables' requests, a collection of the garbage collector),
and the event's p99 was about 20 ms behind the reply's. Writing a WebSocket
frame is synchronous as long as the socket takes it (uvicorn's send only
waits when the transport asked it to pause), so the publisher can write the
frame itself: :func:`start_now` runs the send to its end when nothing in it
waits, and hands the rest to a task when something does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")


class _Rest:
    """The rest of a coroutine that already ran up to its first wait (``waiting_on``)."""

    def __init__(self, coroutine: Coroutine[Any, Any, T], waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, Any, Any]:
        # Hand what the coroutine yielded (a future, or None for a bare
        # yield) to the task driving this, then pass the task's answers back
        # in: the task sees the coroutine's own waits, exactly as if it had
        # run it from the start.
        waiting_on = self.waiting_on
        # The task sees the future as a coroutine's await (see start_now).
        if getattr(waiting_on, "_asyncio_future_blocking", None) is not None:
            waiting_on._asyncio_future_blocking = True
        while True:
            try:
                answer = yield waiting_on
            except BaseException as exc:  # cancellation and the like go in too
                try:
                    waiting_on = self.coroutine.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting_on = self.coroutine.send(answer)
                except StopIteration as done:
                    return done.value


async def _finish(rest: _Rest) -> Any:
    return await rest


def start_now(coroutine: Coroutine[Any, Any, Any]) -> asyncio.Task[Any] | None:
    """Run ``coroutine`` now until it finishes (None) or first waits: then a
    task finishes it (returned; its failure is kept in the task). An exception
    raised before any wait propagates to the caller.

    >>> async def quick() -> None:
    ...     pass
    >>> start_now(quick()) is None
    True
    """
    try:
        waiting_on = coroutine.send(None)
    except StopIteration:
        return None
    # A future yielded by an await is marked until a task takes it; until
    # then another await of it raises ("await wasn't used with future":
    # two appends started now, both waiting for the pool's opening). The
    # mark is set again when the task takes it (_Rest).
    if getattr(waiting_on, "_asyncio_future_blocking", None):
        waiting_on._asyncio_future_blocking = False
    task = asyncio.get_running_loop().create_task(_finish(_Rest(coroutine, waiting_on)))
    # Whoever does not await it (the connection ended meanwhile) must not
    # leave a "Task exception was never retrieved" in the log.
    task.add_done_callback(_retrieve)
    return task


def _retrieve(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()
