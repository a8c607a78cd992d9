"""Events written to a WebSocket in the publisher's turn of the loop (server/eager.py)."""

from __future__ import annotations

import asyncio

import pytest

from pyrummy.server.eager import start_now
from pyrummy.server.tables import LiveTable, Subscriber


class FakeSocket:
    """A connection's send: synchronous unless ``gate`` is set (the socket asks to wait)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.sent.append(text)


async def broken_send(text: str) -> None:
    raise RuntimeError("the socket is closed")


def deliver(subscriber: Subscriber, message: str) -> None:
    # LiveTable.deliver uses nothing of the table but the subscriber set.
    table = LiveTable.__new__(LiveTable)
    table.subscribers = {subscriber}
    table.deliver(subscriber, message)


def test_start_now_runs_a_coroutine_that_never_waits_to_its_end() -> None:
    async def main() -> None:
        socket = FakeSocket()
        assert start_now(socket.send_text("a")) is None
        assert socket.sent == ["a"]

    asyncio.run(main())


def test_start_now_hands_the_rest_to_a_task_and_keeps_its_result() -> None:
    async def main() -> None:
        gate = asyncio.Event()

        async def waits() -> int:
            await gate.wait()
            await asyncio.sleep(0)
            return 7

        task = start_now(waits())
        assert task is not None and not task.done()
        gate.set()
        assert await task == 7

    asyncio.run(main())


def test_start_now_passes_cancellation_into_the_coroutine() -> None:
    async def main() -> None:
        cleaned: list[str] = []

        async def waits() -> None:
            try:
                await asyncio.Event().wait()
            finally:
                cleaned.append("finally")

        task = start_now(waits())
        assert task is not None
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert cleaned == ["finally"]

    asyncio.run(main())


def test_an_idle_connection_gets_the_message_at_once_not_queued() -> None:
    async def main() -> None:
        socket = FakeSocket()
        subscriber = Subscriber(0)
        subscriber.send_now = socket.send_text
        deliver(subscriber, "e1")
        assert socket.sent == ["e1"] and subscriber.queue.empty()

    asyncio.run(main())


def test_messages_stay_in_order_when_the_socket_asks_to_wait() -> None:
    async def main() -> None:
        socket = FakeSocket()
        socket.gate = asyncio.Event()
        subscriber = Subscriber(0)
        subscriber.send_now = socket.send_text
        deliver(subscriber, "e1")  # starts, then waits for the socket
        assert socket.sent == [] and subscriber.send_now is None
        deliver(subscriber, "e2")  # so this one queues behind it
        assert subscriber.queue.qsize() == 1
        socket.gate.set()
        # The connection: takes the next message only after the first went out.
        message = await subscriber.queue.get()
        await subscriber.sending_done()
        assert socket.sent == ["e1"]
        assert isinstance(message, str)
        await socket.send_text(message)
        assert socket.sent == ["e1", "e2"]

    asyncio.run(main())


def test_a_queued_message_keeps_later_ones_behind_it() -> None:
    async def main() -> None:
        socket = FakeSocket()
        subscriber = Subscriber(0)
        subscriber.send_now = socket.send_text
        subscriber.queue.put_nowait("e1")  # not yet taken by the connection
        deliver(subscriber, "e2")
        assert socket.sent == [] and subscriber.queue.qsize() == 2

    asyncio.run(main())


def test_a_broken_socket_stops_writes_at_once() -> None:
    async def main() -> None:
        subscriber = Subscriber(0)
        subscriber.send_now = broken_send
        deliver(subscriber, "e1")
        assert subscriber.send_now is None
        deliver(subscriber, "e2")  # queued: the connection's reader ends it
        assert subscriber.queue.qsize() == 1

    asyncio.run(main())


def test_two_started_now_may_wait_for_the_same_future() -> None:
    """Both tasks take the shared future over (the first one to run used to
    clear its "awaited" mark, and the second failed with a RuntimeError)."""

    async def scenario() -> list[int]:
        shared: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def wait_for_it() -> int:
            return await shared

        first, second = start_now(wait_for_it()), start_now(wait_for_it())
        assert first is not None and second is not None
        await asyncio.sleep(0)
        shared.set_result(7)
        return list(await asyncio.gather(first, second))

    assert asyncio.run(scenario()) == [7, 7]
