"""Group commit for a database server: one writer thread, one connection, many tables' writes per transaction.

With PostgreSQL each accepted action used to be one transaction in a worker thread of its own:
a pool checkout, BEGIN, two statements, COMMIT and its WAL flush, then a hop back to the event loop,
for every action. Under 500 players the server's threads and the database's backends fought over
the CPU (benchmarks/README.md). Here the writes of every table queue for one thread, which takes all
that are waiting (up to ``max_batch``), runs them in one transaction and commits once; each caller's
future completes only after that commit, so "committed before broadcast" holds as before (the room
awaits :meth:`GroupWriter.run` under its lock, then broadcasts).

A write that fails (a version conflict, a refused statement) must not take the others down: the batch
is rolled back and each of its writes runs again in a transaction of its own, so exactly the failing
ones fail. ``synchronous_commit`` stays on: a commit acknowledged is on disk.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cubilete.store.webdb import WebStore

log = logging.getLogger("cubilete.store")
Job = tuple[Callable[..., None], tuple[Any, ...], "concurrent.futures.Future[None]"]


class GroupWriter:
    """The store's writes, batched into shared transactions by one thread (started on first use)."""

    def __init__(self, store: WebStore, max_batch: int = 64) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.transactions = 0  # committed batches (the tests and benchmarks read it)
        self.writes = 0  # writes committed in them

    def submit(self, write: Callable[..., None], *args: Any) -> concurrent.futures.Future[None]:
        """Queue ``write(*args)`` (a :class:`WebStore` write method); the future completes once it is committed
        (or fails with the write's own error)."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the store's writer is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="cubilete-writer", daemon=True)
                self._thread.start()
            self._queue.put((write, args, future))
        return future

    async def run(self, write: Callable[..., None], *args: Any) -> None:
        """``write(*args)``, committed (with whatever other writes were waiting) before this returns."""
        await asyncio.wrap_future(self.submit(write, *args))

    def close(self) -> None:
        """Finish the writes already queued, then stop the thread."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join()
            log.info("group commit: %d writes in %d transactions", self.writes, self.transactions)

    # --- the writer thread -------------------------------------------------------------------
    def _loop(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._write(batch)

    def _write(self, batch: list[Job]) -> None:
        live = [job for job in batch if job[2].set_running_or_notify_cancel()]
        if not live:
            return
        try:
            with self.store.batch():
                for write, args, _ in live:
                    write(*args)
        except Exception:  # one of them was refused (or the commit failed): each alone, so only it fails
            if len(live) > 1:
                log.info("a batch of %d writes failed; writing them one by one", len(live))
            for write, args, future in live:
                try:
                    write(*args)
                except BaseException as exc:
                    future.set_exception(exc)
                else:
                    self.transactions += 1
                    self.writes += 1
                    future.set_result(None)
            return
        self.transactions += 1
        self.writes += len(live)
        for _, _, future in live:
            future.set_result(None)
