"""Waiting on an event with a time limit, without Python 3.11's ``asyncio.wait_for`` flaw: when a task is
cancelled in the same instant as the event it waits on is set, 3.11's ``wait_for`` returns the event's result
and swallows the cancel, so a loop around it never stops and a shutdown that awaits it hangs (seen in CI).
``asyncio.timeout`` tells the two apart."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def wait_event(event: asyncio.Event, timeout: float | None) -> bool:
    """True when ``event`` is set within ``timeout`` seconds (None: no limit), False when the time ran out."""
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True


async def within(awaitable: Awaitable[T], timeout: float) -> T:
    """``awaitable``'s result, or TimeoutError after ``timeout`` seconds (a cancel is never swallowed)."""
    async with asyncio.timeout(timeout):
        return await awaitable
