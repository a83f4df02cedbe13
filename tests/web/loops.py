"""Run a coroutine to the end from a synchronous test, whatever the test thread holds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_alone(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(make())`` in a thread of its own: the browser tests' sync Playwright leaves an event
    loop running in the test thread, and ``asyncio.run`` refuses to start inside it."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()
