"""Group commit (store/writer.py) on both databases: the writes waiting from many tables share one transaction,
each table's writes stay in order, a caller resumes only after the commit, and a refused write fails alone."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import Future

import pytest
from tests.web.loops import run_alone

from cubilete.engine.errors import StoreError
from cubilete.store.webdb import SeatRow, TableRow, WebStore
from cubilete.store.writer import GroupWriter

WAIT = 30.0  # seconds a test waits for the writer thread before failing


@pytest.fixture
def store(db_url: str) -> Iterator[WebStore]:
    s = WebStore(db_url)
    s.migrate()
    for i in range(10):
        s.create_table(TableRow(f"t{i}", 0.0, "generala", "{}", "seed", "c", None, False, "playing", 0, None,
                                (SeatRow(0, "human", None, "Ana", None, None),)))
    yield s
    s.close()


class Hold:
    """A write that blocks the writer thread until released (it writes nothing)."""

    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()

    def __call__(self) -> None:
        self.started.set()
        assert self.release.wait(WAIT)


def append(store: WebStore, writer: GroupWriter, table: str, version: int) -> Future[None]:
    """Queue the table's move from ``version - 1`` to ``version``."""
    return writer.submit(store.append_action, table, version, version, 0, f'{{"roll": [{version % 5}]}}')


def test_waiting_writes_share_one_transaction_and_keep_each_tables_order(store: WebStore) -> None:
    writer = GroupWriter(store, threads=1)  # one thread: the batches are exactly what queued behind the hold
    hold = Hold()
    first = writer.submit(hold)
    assert hold.started.wait(WAIT)  # the writer is busy: what follows queues up
    futures = [append(store, writer, f"t{i}", v) for v in (1, 2, 3) for i in range(10)]
    hold.release.set()
    first.result(WAIT)
    for f in futures:
        f.result(WAIT)  # any refusal (a table's writes out of order) raises here
    writer.close()
    assert (writer.transactions, writer.writes) == (2, 31)  # the hold alone, then the 30 writes together
    for i in range(10):
        row = store.load_table(f"t{i}")
        assert row is not None and row.version == 3
        assert [json for _, json in row.actions] == ['{"roll": [1]}', '{"roll": [2]}', '{"roll": [3]}']


def test_a_caller_resumes_only_after_its_write_is_committed(store: WebStore) -> None:
    writer = GroupWriter(store, threads=1)  # one thread: the batches are exactly what queued behind the hold
    gate, inside = Hold(), Hold()
    writer.submit(gate)
    assert gate.started.wait(WAIT)
    mine = append(store, writer, "t1", 1)
    writer.submit(inside)  # same batch as mine, after it: holds the transaction open
    gate.release.set()
    assert inside.started.wait(WAIT)  # my write has run, its transaction is not committed yet
    assert not mine.done()
    row = store.load_table("t1")  # another connection does not see it
    assert row is not None and row.version == 0 and row.actions == ()
    inside.release.set()
    mine.result(WAIT)
    row = store.load_table("t1")
    assert row is not None and row.version == 1 and len(row.actions) == 1
    writer.close()


def test_a_refused_write_fails_alone_and_the_rest_of_its_batch_is_committed(
        store: WebStore, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="psycopg")
    writer = GroupWriter(store, threads=1)  # one thread: the batches are exactly what queued behind the hold
    hold = Hold()
    writer.submit(hold)
    assert hold.started.wait(WAIT)
    stale = append(store, writer, "t7", 4)  # t7 is at version 0: a second writer's move, refused
    good = [append(store, writer, f"t{i}", 1) for i in range(5)]
    duplicate = writer.submit(store.append_action, "t2", 1, 1, 0, "{}")  # t2's version 1 is already taken
    hold.release.set()
    for f in good:
        f.result(WAIT)
    with pytest.raises(StoreError, match="not at version 3"):
        stale.result(WAIT)
    with pytest.raises(StoreError):
        duplicate.result(WAIT)
    writer.close()
    for i in range(5):
        row = store.load_table(f"t{i}")
        assert row is not None and row.version == 1 and len(row.actions) == 1
    row = store.load_table("t7")
    assert row is not None and row.version == 0 and row.actions == ()
    assert not [r for r in caplog.records if "error ignored" in r.getMessage()]


def test_a_refusal_early_in_a_long_batch_is_handled_quietly(store: WebStore, caplog: pytest.LogCaptureFixture) -> None:
    """The refused statement's error comes back while the batch's later statements are still being sent (psycopg
    reads results as it goes); the aborted pipeline is ended where the refusal is handled, not left for psycopg
    to complain about in the log at every conflict."""
    caplog.set_level(logging.WARNING, logger="psycopg")
    writer = GroupWriter(store, threads=1, max_batch=64)
    hold = Hold()
    writer.submit(hold)
    assert hold.started.wait(WAIT)
    stale = append(store, writer, "t7", 4)
    good = [append(store, writer, f"t{i}", v) for v in range(1, 11) for i in range(5)]
    hold.release.set()
    for f in good:
        f.result(WAIT)
    with pytest.raises(StoreError):
        stale.result(WAIT)
    writer.close()
    assert [store.load_table(f"t{i}").version for i in range(5)] == [10] * 5  # type: ignore[union-attr]
    assert not [r for r in caplog.records if "error ignored" in r.getMessage()]


def test_close_finishes_the_queued_writes_and_refuses_new_ones(store: WebStore) -> None:
    writer = GroupWriter(store, threads=1)  # one thread: the batches are exactly what queued behind the hold
    futures = [append(store, writer, "t3", v) for v in range(1, 6)]
    writer.close()
    assert all(f.done() and f.exception() is None for f in futures)
    with pytest.raises(RuntimeError, match="closed"):
        append(store, writer, "t3", 6)
    row = store.load_table("t3")
    assert row is not None and row.version == 5


def test_two_writer_threads_commit_every_tables_moves_in_order(store: WebStore) -> None:
    """The server's way: each table waits for its write before the next; ten tables write at once."""
    import asyncio

    writer = GroupWriter(store, threads=2)

    async def table(i: int) -> None:
        for version in range(1, 21):
            await writer.run(store.append_action, f"t{i}", version, version, 0, f'{{"roll": [{version % 5}]}}')

    async def everyone() -> None:
        await asyncio.gather(*(table(i) for i in range(10)))

    run_alone(everyone)
    writer.close()
    assert writer.writes == 200 and writer.transactions <= 200
    for i in range(10):
        row = store.load_table(f"t{i}")
        assert row is not None and row.version == 20
        assert [json for _, json in row.actions] == [f'{{"roll": [{v % 5}]}}' for v in range(1, 21)]


def test_a_refused_seat_goes_alone_and_takes_no_other_write_down(
        store: WebStore, caplog: pytest.LogCaptureFixture) -> None:
    """A seat is the write that two processes of a site refuse each other now and then: it gets a transaction of
    its own, so its refusal never sends the batch it came with back to be written one by one."""
    caplog.set_level(logging.INFO, logger="cubilete.store")
    writer = GroupWriter(store, threads=1)
    hold = Hold()
    writer.submit(hold)
    assert hold.started.wait(WAIT)
    good = [append(store, writer, f"t{i}", 1) for i in range(5)]
    seat = writer.submit(store.sit, "t7", 3, SeatRow(1, "human", None, "Bea", None, None), "playing")  # t7 is at 0
    hold.release.set()
    for f in good:
        f.result(WAIT)
    with pytest.raises(StoreError, match="not at version 2"):
        seat.result(WAIT)
    writer.close()
    assert writer.transactions == 2 and writer.writes == 6  # the hold; the five moves together
    assert not [r for r in caplog.records if "one by one" in r.getMessage()]
