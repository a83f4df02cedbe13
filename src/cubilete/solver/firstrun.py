"""The first hint without compiling: which backend answers now, numba's compiled kernels or their numpy twin.

Compiling :func:`cubilete.solver.kernels.solve_layer` and :func:`cubilete.solver.query.options_packed` (and
:func:`~cubilete.solver.query.judge`, the review's batched query) takes about 35 s of CPU; solving Generala
(4,096 sheet states) in numpy takes about a second, and one query a few milliseconds. So on first use, for small
rule sets, the solve and the queries run in :mod:`~cubilete.solver.numpy_twin` while one niced process
(:mod:`~cubilete.solver.compile_cache`) compiles the kernels into numba's on-disk cache; once it is done, the
compiled kernels take over (in this process at the next query, and in every later one).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from cubilete.solver import compile_cache, kernels, numpy_twin, query
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.compile_cache import MODE_ENV, compile_in_background, on_disk
from cubilete.solver.tables import KernelTables

SMALL_STATES = 1 << 15
# MODE_ENV: "auto": numpy until the kernels are compiled; "numba": always the kernels; "numpy": always numpy

_LOCK = threading.Lock()
_READY: dict[str, bool] = {}
_CHECKED: dict[str, float] = {}  # when numba's cache was last looked at, per kernel family
_SEEN_DONE: dict[str, bool] = {}  # looked again after the compiling process ended


def mode() -> str:
    """``auto`` (default), ``numba`` or ``numpy``, from ``$CUBILETE_FIRST_RUN``."""
    value = os.environ.get(MODE_ENV, "auto").strip().lower()
    return value if value in ("numba", "numpy") else "auto"


def compiled(what: str) -> bool:
    """True once the kernels of ``what`` ("solve" or "query") are compiled (here or in numba's cache).

    While this process's compiling process runs, the answer is no without looking; after it ends, and
    every few seconds without one, numba's cache index is read again (a few milliseconds)."""
    if _READY.get(what):
        return True
    child = compile_cache.background_process()
    with _LOCK:
        now = time.monotonic()
        if what in _READY:
            running = child is not None and child.poll() is None
            just_done = child is not None and not running and not _SEEN_DONE.get(what)
            if running or (not just_done and now - _CHECKED.get(what, 0.0) < 5.0):
                return False
            _SEEN_DONE[what] = child is not None and not running
        _CHECKED[what] = now
        if what == "solve":
            ready = on_disk(kernels.solve_layer)
        else:
            ready = all(on_disk(k) for k in (query.options_packed, query.sub_keeps, query.judge))
        _READY[what] = ready
        return ready


def eligible(T: KernelTables, n_states: int) -> bool:
    """True if numpy may stand in for the kernels on these tables (small, no locked holds)."""
    return not T.locked and n_states <= SMALL_STATES


def use_numpy(what: str, T: KernelTables, n_states: int) -> bool:
    """Whether this solve or query runs in numpy now; starts the background compile when it does."""
    chosen = mode()
    if chosen == "numba" or not eligible(T, n_states):
        return False
    if chosen == "numpy":
        return True
    if compiled(what):
        return False
    compile_in_background()
    return True


def layer_kernel(T: KernelTables, n_states: int) -> Callable[[KernelTables, IntArray, FloatArray], None]:
    """The layer solver to use now: the compiled kernel, or numpy while it is not compiled."""
    return numpy_twin.solve_layer if use_numpy("solve", T, n_states) else kernels.solve_layer


class QueryEntry:
    """The advisor's query (or another kernel of :mod:`~cubilete.solver.query`): numpy while the compiled
    one is not ready, then the compiled entry point."""

    def __init__(
        self, make: Callable[[], Callable[..., Any]], fallback: Callable[..., Any] = numpy_twin.options
    ) -> None:
        self.make = make
        self.fallback = fallback
        self.entry: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        """Run the query (compiled as soon as the kernels are)."""
        if self.entry is None and compiled("query"):
            self.entry = self.make()
        if self.entry is not None:
            return self.entry(*args)
        return self.fallback(*args)


def query_entry(
    T: KernelTables,
    n_states: int,
    make: Callable[[], Callable[..., Any]],
    fallback: Callable[..., Any] = numpy_twin.options,
) -> Callable[..., Any]:
    """A query kernel for these tables: ``make()`` (the compiled one) or a :class:`QueryEntry` that runs
    ``fallback`` (its numpy twin) until the kernels are compiled."""
    if not use_numpy("query", T, n_states):
        return make()
    return QueryEntry(make, fallback)


def sub_keeps_of(T: KernelTables, n_states: int) -> Callable[[IntArray, int, int], IntArray]:
    """:func:`query.sub_keeps` (compiled) or :func:`sub_keeps` (not yet)."""
    return numpy_twin.sub_keeps if use_numpy("query", T, n_states) else query.sub_keeps
