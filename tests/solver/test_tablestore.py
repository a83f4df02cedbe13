"""The one policy of the tables kept in memory (solver/tablestore.py): least recently used out, past a number of
tables or of bytes, the newest always kept; ``clear_tables`` empties every store."""

from __future__ import annotations

import threading

import pytest

from cubilete.solver.tablestore import TableStore, clear_tables


def test_the_least_recently_used_leave_past_the_number_of_tables() -> None:
    store: TableStore[str, str] = TableStore("t", max_items=2)
    store.put("a", "A")
    store.put("b", "B")
    assert store.get("a") == "A"  # a is now the most recently used
    store.put("c", "C")
    assert list(store) == ["a", "c"]


def test_a_byte_budget_read_at_each_put_keeps_the_newest_even_over_it() -> None:
    budget = {"bytes": 10}
    store: TableStore[str, bytes] = TableStore("t", max_bytes=lambda: budget["bytes"], size=len)
    store.put("a", b"12345")
    store.put("b", b"12345")
    assert list(store) == ["a", "b"]
    store.put("c", b"1")
    assert list(store) == ["b", "c"]
    budget["bytes"] = 0
    store.put("d", b"123456")
    assert list(store) == ["d"]


def test_a_table_is_made_once_even_when_two_threads_ask_at_once() -> None:
    store: TableStore[str, int] = TableStore("t")
    made: list[int] = []
    both = threading.Barrier(2, timeout=30)

    def make() -> int:
        made.append(1)
        return len(made)

    def ask() -> None:
        both.wait()
        store.get_or_make("k", make)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert made == [1] and store.get("k") == 1


def test_a_failed_make_keeps_nothing() -> None:
    store: TableStore[str, int] = TableStore("t")

    def fail() -> int:
        raise ValueError("too large")

    with pytest.raises(ValueError, match="too large"):
        store.get_or_make("k", fail)
    assert "k" not in store and len(store) == 0


def test_clear_tables_empties_every_store() -> None:
    one: TableStore[str, int] = TableStore("one")
    two: TableStore[str, int] = TableStore("two")
    one.put("a", 1)
    two.put("b", 2)
    clear_tables()
    assert len(one) == 0 and len(two) == 0


def test_a_key_being_made_holds_back_its_own_callers_only() -> None:
    """A long solve of one rule set (a terminal's background solve, say) must not make a hint for another rule
    set wait behind it; a second caller of the same key waits for the one make and gets its table."""
    store: TableStore[str, str] = TableStore("t")
    started, release = threading.Event(), threading.Event()
    made: list[str] = []

    def slow() -> str:
        made.append("slow")
        started.set()
        assert release.wait(60), "the test never released the slow make"
        return "SLOW"

    got: dict[str, str] = {}
    first = threading.Thread(target=lambda: got.setdefault("first", store.get_or_make("slow", slow)))
    second = threading.Thread(target=lambda: got.setdefault("second", store.get_or_make("slow", slow)))
    first.start()
    assert started.wait(60)
    second.start()
    other = threading.Thread(target=lambda: got.setdefault("other", store.get_or_make("fast", lambda: "FAST")))
    other.start()
    try:
        other.join(60)  # before: it waited behind "slow" (released only below)
        assert got.get("other") == "FAST", "a caller of another key waited behind a make in progress"
        assert "slow" not in store and second.is_alive()  # the same key's caller still waits for the one make
    finally:
        release.set()
        first.join(60)
        second.join(60)
        other.join(60)
    assert got == {"first": "SLOW", "second": "SLOW", "other": "FAST"} and made == ["slow"]


def test_the_generation_counts_tables_that_leave_or_are_replaced_not_reads_or_new_ones() -> None:
    """What a caller keeping a table without the lock checks (coach.advise_hand): it moves when a table leaves."""
    store: TableStore[str, str] = TableStore("t", max_items=2)
    store.put("a", "A")
    store.put("b", "B")
    store.get("a")
    store.get_or_make("b", lambda: "B2")
    assert store.generation == 0
    store.put("b", "B")  # the same table again
    assert store.generation == 0
    store.put("c", "C")  # b leaves (least recently used)
    assert store.generation == 1
    store.put("c", "C2")  # replaced
    assert store.generation == 2
    store.pop("a")
    assert store.generation == 3
    store.clear()
    assert store.generation == 4
