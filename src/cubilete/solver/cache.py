"""Solved tables on disk, keyed by a hash of the rules: solve once, load in milliseconds.

The folder is ``$CUBILETE_CACHE_DIR``, else ``$XDG_CACHE_HOME/cubilete/solver``, else
``~/.cache/cubilete/solver``. A file that is unreadable or from another solver version
is solved again and replaced: it is a cache, never the only copy of anything.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import zipfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

import numpy as np

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Rules
from cubilete.solver.solve import Progress, Solution, solve_space
from cubilete.solver.space import build_space, check_solvable
from cubilete.solver.tablestore import TableStore

FORMAT = 2  # bump when the meaning or layout of the tables changes


def cache_dir() -> Path:
    """The folder that holds solved tables."""
    if os.environ.get("CUBILETE_CACHE_DIR"):
        return Path(os.environ["CUBILETE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cubilete" / "solver"


def table_key(rules: Rules) -> str:
    """The cache key of a rule set: the rules' hash and the table format."""
    return hashlib.sha256(f"{FORMAT}:{rules_hash(rules)}".encode()).hexdigest()[:20]


def table_path(rules: Rules) -> Path:
    """Where the tables of ``rules`` are stored: named by the rules' hash only, never by anything a
    profile's author wrote (a rule set's name comes from untrusted text on a public server)."""
    return cache_dir() / f"{table_key(rules)}.npz"


def values_digest(solution: Solution) -> str:
    """SHA-256 of the value table (float64, C order): the same solve gives the same digest."""
    return hashlib.sha256(np.ascontiguousarray(solution.values).tobytes()).hexdigest()


def save(solution: Solution, path: Path | None = None) -> Path:
    """Write the tables atomically."""
    target = path or table_path(solution.rules)
    target.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, "key": table_key(solution.rules), "seconds": solution.seconds}
    arrays: dict[str, object] = {"meta": np.array(json.dumps(meta)), "values": solution.values}
    if solution.second_moments is not None:
        arrays["second_moments"] = solution.second_moments
    # a name of its own per writer: two processes solving the same rules never write into one file
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp.npz")
    try:
        np.savez(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def load(rules: Rules, path: Path | None = None) -> Solution | None:
    """The cached tables of ``rules``, or None if absent, stale or unreadable."""
    source = path or table_path(rules)
    if not source.is_file():
        return None
    try:
        with np.load(source, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT or meta.get("key") != table_key(rules):
                return None
            space = build_space(rules)
            values = data["values"]
            second = data["second_moments"] if "second_moments" in data.files else None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError):
        return None
    if values.shape != (1 << space.n_slots, 1 << space.n_flags, space.n_upper):
        return None
    return Solution(space, values, second, float(meta.get("seconds", 0.0)))


def load_or_solve(rules: Rules, progress: Progress | None = None, moments: bool = True) -> Solution:
    """Load the tables from the cache, or solve (and save) them."""
    cached = load(rules)
    if cached is not None and (cached.second_moments is not None or not moments):
        return cached
    solution = solve_space(build_space(rules), progress, moments)
    with contextlib.suppress(OSError):  # a read-only cache folder only costs a new solve next time
        save(solution)
    return solution


_SOLVE_HERE: ContextVar[bool] = ContextVar("cubilete_solve_here", default=True)


def solving_here() -> bool:
    """False inside :func:`tables_only`: tables may be loaded from disk but not computed here."""
    return _SOLVE_HERE.get()


@contextlib.contextmanager
def tables_only() -> Iterator[None]:
    """Inside this block (this thread or task only), :func:`shared_solution` loads tables already on
    disk and never solves: rules not solved yet raise :class:`SolverUnsupportedError`, so the bots fall
    back to their approximate search. A server solves new rules in its worker processes instead."""
    token = _SOLVE_HERE.set(False)
    try:
        yield
    finally:
        _SOLVE_HERE.reset(token)
# bytes of solved tables kept in memory (``$CUBILETE_SOLVER_MEMORY``, default 1 GiB); the least recently
# used go first (they stay on disk and load again in milliseconds); the one in use is always kept
SHARED_BYTES = int(os.environ.get("CUBILETE_SOLVER_MEMORY") or 1 << 30)


def footprint(solution: Solution) -> int:
    """Bytes a solved table holds in memory: its values and the turn values memoised so far."""
    arrays = [solution.values, *solution.turn_memo.values()]
    if solution.second_moments is not None:
        arrays.append(solution.second_moments)
    return sum(int(a.nbytes) for a in arrays)


_SHARED: TableStore[Rules, Solution] = TableStore("solved tables", max_bytes=lambda: SHARED_BYTES, size=footprint)


def solved_tables() -> TableStore[Rules, Solution]:
    """The store of :func:`shared_solution` (its ``generation`` tells a caller keeping a table whether it left)."""
    return _SHARED


def shared_solution(rules: Rules, progress: Progress | None = None) -> Solution:
    """The tables of ``rules`` loaded (or solved) once per process and shared by every caller
    (bots, coach, advisor apps); raises :class:`SolverUnsupportedError` for rules too large.
    At most :data:`SHARED_BYTES` of tables stay loaded (least recently used out).
    """
    loaded_before = _SHARED.get(rules)  # the usual case, on every advice: no closure, one lock
    if loaded_before is not None:
        return loaded_before

    def make() -> Solution:
        check_solvable(rules)
        if _SOLVE_HERE.get():
            return load_or_solve(rules, progress, moments=False)
        loaded = load(rules)
        if loaded is None:
            raise SolverUnsupportedError(f"{rules.name}: not solved on this server (yet)")
        return loaded

    return _SHARED.get_or_make(rules, make)
