"""Tables kept in memory, one policy for all of them: least recently used out, past a number of tables or of bytes,
the newest always kept (it is in use). Each kind of table has its store (solved tables, win tables, target tables,
two-player tables); :func:`clear_tables` empties every one (the tables stay on disk and load again).

>>> store = TableStore("example", max_items=2)
>>> for key in "abc":
...     _ = store.get_or_make(key, key.upper)
>>> sorted(store.keys()), len(store)
(['b', 'c'], 2)
>>> store.clear(); len(store)
0
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_STORES: weakref.WeakSet[TableStore[object, object]] = weakref.WeakSet()


class TableStore(Generic[K, V]):
    """One kind of table in memory: ``get_or_make`` loads or builds a table once per key. A table being made
    holds back only the callers asking for that key: a long solve of one rule set never makes a caller of
    another rule set (a hint, a loaded table) wait behind it."""

    def __init__(
        self, name: str, *, max_items: int | None = None, max_bytes: int | Callable[[], int] | None = None,
        size: Callable[[V], int] | None = None,
    ) -> None:  # fmt: skip
        self.name = name
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.size = size
        self.lock = threading.RLock()  # guards the tables kept (held for a lookup, never while a table is made)
        self._making: dict[K, threading.RLock] = {}  # per key being made: one make of a key at a time
        self._tables: OrderedDict[K, V] = OrderedDict()  # least recently used first
        # counts the tables that left or were replaced: a caller that keeps a table it got here (a hot path
        # that skips the lock) may use it while the count is what it was when it got it
        self.generation = 0
        _STORES.add(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def __iter__(self) -> Iterator[K]:
        return self.keys()

    def keys(self) -> Iterator[K]:
        """The keys of the tables kept, least recently used first."""
        return iter(list(self._tables))

    def values(self) -> Iterator[V]:
        """The tables kept, least recently used first."""
        return iter(list(self._tables.values()))

    def get(self, key: K) -> V | None:
        """The table kept under ``key`` (now the most recently used), or None."""
        with self.lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def put(self, key: K, table: V) -> V:
        """Keep ``table`` as the most recently used; the least recently used leave past the limits."""
        with self.lock:
            if self._tables.get(key, table) is not table:
                self.generation += 1
            self._tables[key] = table
            self._tables.move_to_end(key)
            self._evict()
            return table

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The table under ``key``, made by ``make()`` (load or build) the first time it is asked; callers of
        the same key wait for that one make, callers of other keys do not."""
        table = self.get(key)
        if table is not None:
            return table
        with self.lock:
            making = self._making.setdefault(key, threading.RLock())
        try:
            with making:
                table = self.get(key)
                return table if table is not None else self.put(key, make())
        finally:
            with self.lock:  # the table is kept now (or make failed): later callers need no lock of their own
                if self._making.get(key) is making:
                    del self._making[key]

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Forget the table under ``key`` (returned, else ``default``)."""
        with self.lock:
            self.generation += 1
            return self._tables.pop(key, default)

    def clear(self) -> None:
        """Forget every table of this store."""
        with self.lock:
            self.generation += 1
            self._tables.clear()

    def _evict(self) -> None:
        while len(self._tables) > 1 and self._over():
            self.generation += 1
            self._tables.popitem(last=False)

    def _over(self) -> bool:
        if self.max_items is not None and len(self._tables) > self.max_items:
            return True
        if self.max_bytes is None or self.size is None:
            return False
        budget = self.max_bytes() if callable(self.max_bytes) else self.max_bytes
        return sum(self.size(t) for t in self._tables.values()) > budget


def clear_tables() -> None:
    """Empty every table store of this process (tests, or a server freeing memory)."""
    for store in list(_STORES):
        store.clear()
