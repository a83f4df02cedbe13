"""Group commit for a database server: one writer thread, one connection, many tables' writes per transaction.

With PostgreSQL each accepted action used to be one transaction in a worker thread of its own:
a pool checkout, BEGIN, two statements, COMMIT and its WAL flush, then a hop back to the event loop,
for every action. Under 500 players the server's threads and the database's backends fought over
the CPU (benchmarks/README.md). Here the writes of every table queue for a writer thread, which takes all
that are waiting (up to ``max_batch``), runs them in one transaction on its own connection (psycopg's
pipeline: one round trip for the statements and the commit) and commits once; each caller's
future completes only after that commit, so "committed before broadcast" holds as before (the room
awaits :meth:`GroupWriter.run` under its lock, then broadcasts).

A write that fails (a version conflict, a refused statement) must not take the others down: the batch
is rolled back and each of its writes runs again in a transaction of its own, so exactly the failing
ones fail. A write that is expected to fail now and then (a write method marked ``alone``: a seat taken
while another process seats someone else at the same table) gets a transaction of its own from the start.
``synchronous_commit`` stays on: a commit acknowledged is on disk.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from cubilete.store.webdb import WebStore

log = logging.getLogger("cubilete.store")
# who waits for a write: a thread (a concurrent future) or a coroutine (its loop and an asyncio future)
Target: TypeAlias = "concurrent.futures.Future[None] | tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]"
Job: TypeAlias = tuple[Callable[..., None], tuple[Any, ...], Target]


def _settle_in_loop(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """In the event loop: complete the futures of a batch's writes (one wake-up of the loop a batch)."""
    for future, exc in done:
        if future.done():  # its coroutine was cancelled: the write stands all the same
            continue
        if exc is None:
            future.set_result(None)
        else:
            future.set_exception(exc)


class GroupWriter:
    """The store's writes, batched into shared transactions by ``threads`` threads (started on first use),
    each with a connection of its own. While one batch waits for the database, the next gathers and goes
    out on another thread. A caller waits for its write before it queues the next write of the same table
    (the room does, under its lock), so two threads never hold writes of one table."""

    def __init__(self, store: WebStore, max_batch: int = 64, threads: int = 2) -> None:
        self.store = store
        self.max_batch = max_batch
        self.threads = max(1, threads)
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._started: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._stats_lock = threading.Lock()
        self._closed = False
        self.transactions = 0  # committed transactions (the tests and benchmarks read them)
        self.writes = 0  # writes committed in them

    def submit(self, write: Callable[..., None], *args: Any) -> concurrent.futures.Future[None]:
        """Queue ``write(*args)`` (a :class:`WebStore` write method); the future completes once it is committed
        (or fails with the write's own error)."""
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._put((write, args, future))
        return future

    async def run(self, write: Callable[..., None], *args: Any) -> None:
        """``write(*args)``, committed (with whatever other writes were waiting) before this returns."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._put((write, args, (loop, future)))
        await future

    def _put(self, job: Job) -> None:
        with self._lock:  # only submitters and close() take it: the writer threads never do
            if self._closed:
                raise RuntimeError("the store's writer is closed")
            if not self._started:
                for i in range(self.threads):
                    thread = threading.Thread(target=self._loop, name=f"cubilete-writer-{i}", daemon=True)
                    thread.start()
                    self._started.append(thread)
            self._queue.put(job)

    def close(self) -> None:
        """Finish the writes already queued, then stop the threads."""
        with self._lock:
            self._closed = True
            threads = list(self._started)
        for _ in threads:
            self._queue.put(None)
        for thread in threads:
            thread.join()
        if threads:
            log.info("group commit: %d writes in %d transactions", self.writes, self.transactions)

    def _count(self, transactions: int, writes: int) -> None:
        with self._stats_lock:
            self.transactions += transactions
            self.writes += writes

    # --- the writer threads ------------------------------------------------------------------
    def _loop(self) -> None:
        conn: Connection | None = None
        stop = False
        try:
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
                conn = self._write(batch, conn)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()

    def _write(self, batch: list[Job], conn: Connection | None) -> Connection | None:
        """Commit ``batch`` on ``conn`` (opened if None); the connection to use next (None after a failure:
        a fresh one is opened, checked by the pool, for the next batch)."""
        live = [job for job in batch if not isinstance(job[2], concurrent.futures.Future)
                or job[2].set_running_or_notify_cancel()]  # fmt: skip
        if not live:
            return conn
        together = [job for job in live if not getattr(job[0], "alone", False)]
        for group in ([together] if together else []) + [[job] for job in live if getattr(job[0], "alone", False)]:
            conn = self._commit(group, conn)
        return conn

    def _commit(self, live: list[Job], conn: Connection | None) -> Connection | None:
        """One transaction for ``live``; see :meth:`_write`."""
        done: list[tuple[Target, BaseException | None]] = []
        try:
            if conn is None:
                conn = self.store.engine.connect()
            with self.store.batch(conn):
                for write, args, _ in live:
                    write(*args)
        except Exception:  # one of them was refused (or the connection failed): each alone, so only it fails
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
            conn = None
            if len(live) > 1:
                log.info("a batch of %d writes failed; writing them one by one", len(live))
            for write, args, target in live:
                try:
                    write(*args)
                except BaseException as exc:
                    done.append((target, exc))
                else:
                    self._count(1, 1)
                    done.append((target, None))
        else:
            self._count(1, len(live))
            done = [(target, None) for _, _, target in live]
        _settle(done)
        return conn


def _settle(done: list[tuple[Target, BaseException | None]]) -> None:
    """Tell every waiter how its write went: threads at once, each event loop with one call for all its writes."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
    for target, exc in done:
        if isinstance(target, concurrent.futures.Future):
            if exc is None:
                target.set_result(None)
            else:
                target.set_exception(exc)
        else:
            loop, future = target
            loops.setdefault(loop, []).append((future, exc))
    for loop, items in loops.items():
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_in_loop, items)
