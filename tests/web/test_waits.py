"""web/waits.py: a loop waiting on an event stops when cancelled in the same instant the event is set (3.11's
``asyncio.wait_for`` swallowed that cancel and a server's shutdown hung on the lobby's loop), and the time
limits still run out."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest

from cubilete.web.waits import wait_event, within

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: another test's plugin may leave a loop running on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _cancel_as_the_event_comes() -> str:
    event = asyncio.Event()
    rounds = 0

    async def loop() -> None:
        nonlocal rounds
        while True:
            await wait_event(event, 60)
            event.clear()
            rounds += 1

    task = asyncio.create_task(loop())
    for _ in range(3):
        await asyncio.sleep(0)  # the loop is waiting
    event.set()
    await asyncio.sleep(0)  # the event's waiter is done, the loop not yet resumed
    task.cancel()
    try:
        await asyncio.wait_for(asyncio.shield(task), 30)
    except asyncio.CancelledError:
        return "stopped"
    except TimeoutError:
        task.cancel()
        return f"still looping after {rounds} rounds"
    return "returned"


def test_a_cancel_in_the_same_instant_as_the_event_stops_the_loop() -> None:
    assert run(_cancel_as_the_event_comes()) == "stopped"


def test_the_time_limits_run_out() -> None:
    async def both() -> tuple[bool, bool]:
        never = asyncio.Event()
        late = await wait_event(never, 0.01)
        set_one = asyncio.Event()
        set_one.set()
        return late, await wait_event(set_one, 0.01)

    assert run(both()) == (False, True)

    async def slow() -> None:
        await within(asyncio.sleep(60), 0.01)

    with pytest.raises(TimeoutError):
        run(slow())
