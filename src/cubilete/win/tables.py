"""Tables over (state, remaining target): the score distribution under expected-score-optimal
play (``follow``) and the best probability of reaching each target (``target``).

``W[mask, flags, upper, t]`` = P(points still to come >= t) from the start of a turn, for
t = 0 .. L - 1 (L - 1 is the most points any game can still bring). Built by backward
induction with :mod:`cubilete.win.kernels`, cached on disk beside the solver's tables
(file names from the rules' hash only).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Rules
from cubilete.solver.cache import cache_dir, shared_solution, solving_here
from cubilete.solver.combinatorics import FloatArray
from cubilete.solver.solve import Progress, Solution, layers
from cubilete.solver.space import StateSpace, check_solvable
from cubilete.solver.tablestore import TableStore
from cubilete.win import kernels

FORMAT = 2  # bump when the meaning or layout of the tables changes
MAX_CELLS = 60_000_000  # states x targets (float64: 480 MB)
KINDS = ("follow", "target")


def max_points(space: StateSpace) -> int:
    """An upper bound on the points a whole game can still bring from the empty sheet."""
    best = space.pts.max(axis=(0, 2)).astype(np.int64)
    if space.joker:
        best = np.maximum(best, space.jpts.max(axis=(0, 2, 3)))
    per_turn = np.sort(best)[::-1][: space.rounds]
    return int(per_turn.sum()) + space.upper_bonus + space.extra_bonus * space.rounds


def check_tables(rules: Rules) -> None:
    """Raise :class:`SolverUnsupportedError` if the (state x target) tables are too large here."""
    check_solvable(rules)
    from cubilete.solver.space import build_space

    space = build_space(rules)
    cells = space.n_states * (max_points(space) + 1)
    if cells > MAX_CELLS:
        raise SolverUnsupportedError(
            f"{rules.name}: {space.n_states:,} states x {max_points(space) + 1} targets = {cells:,} cells "
            f"is more than the {MAX_CELLS:,} the win tables hold (distributions and target play work "
            "without them; win chances and the win bot need them)"
        )


@functools.lru_cache(maxsize=64)
def tables_fit(rules: Rules) -> bool:
    """True if the (state x target) tables of ``rules`` fit here (:func:`check_tables` passes); False
    where they are only too large (Yahtzee, Yatzy: the forward pass gives their distributions). Raises
    :class:`SolverUnsupportedError` where the rules cannot be solved exactly at all."""
    try:
        check_tables(rules)
    except SolverUnsupportedError:
        check_solvable(rules)
        return False
    return True


@dataclass(eq=False)
class VectorTable:
    """``table[mask, flags, upper, t]`` for one rule set and kind (``follow`` or ``target``)."""

    solution: Solution
    kind: str
    table: FloatArray
    seconds: float = 0.0

    @property
    def space(self) -> StateSpace:
        """The solver's state space."""
        return self.solution.space

    @property
    def width(self) -> int:
        """Number of targets t = 0 .. width - 1."""
        return int(self.table.shape[3])


def build_table(solution: Solution, kind: str, progress: Progress | None = None) -> VectorTable:
    """Backward induction over every layer (no cache); ``progress(layers done, layers)`` after each."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    check_tables(solution.rules)
    start = time.perf_counter()
    space = solution.space
    width = max_points(space) + 1
    W = np.zeros((1 << space.n_slots, 1 << space.n_flags, space.n_upper, width))
    every = list(layers(space.n_slots))
    for done, masks in enumerate(every, 1):
        if masks.size:
            kernels.vec_layer(solution.tables, masks, W, solution.values, kind == "follow")
        if progress is not None:
            progress(done, len(every))
    return VectorTable(solution, kind, W, time.perf_counter() - start)


def table_key(rules: Rules, kind: str) -> str:
    """File key: the rules' hash, the kind and the table format."""
    return hashlib.sha256(f"win{FORMAT}:{kind}:{rules_hash(rules)}".encode()).hexdigest()[:24]


def table_path(rules: Rules, kind: str) -> Path:
    """Where the table is cached (the name holds only the hash)."""
    return cache_dir() / f"win-{table_key(rules, kind)}.npz"


def _load(solution: Solution, kind: str) -> VectorTable | None:
    path = table_path(solution.rules, kind)
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT or meta.get("key") != table_key(solution.rules, kind):
                return None
            table = data["table"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError):
        return None
    space = solution.space
    if table.shape[:3] != (1 << space.n_slots, 1 << space.n_flags, space.n_upper):
        return None
    return VectorTable(solution, kind, table, float(meta.get("seconds", 0.0)))


def _save(vt: VectorTable) -> None:
    path = table_path(vt.solution.rules, vt.kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT, "key": table_key(vt.solution.rules, vt.kind), "seconds": vt.seconds}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), table=vt.table)
    tmp.replace(path)


_SHARED: TableStore[tuple[Rules, str], VectorTable] = TableStore("win tables", size=lambda vt: int(vt.table.nbytes))


def vector_table(rules: Rules, kind: str, progress: Progress | None = None) -> VectorTable:
    """The table of ``rules`` loaded (or built and cached) once per process (``progress``: while building).

    Raises :class:`SolverUnsupportedError` (with the reason) where the rules are too large.
    """

    def make() -> VectorTable:
        check_tables(rules)
        solution = shared_solution(rules)
        vt = _load(solution, kind)
        if vt is None:
            if not solving_here():  # a server builds them in its solving processes, never in itself
                raise SolverUnsupportedError(f"{rules.name}: win tables not built on this server (yet)")
            vt = build_table(solution, kind, progress)
            with contextlib.suppress(OSError):
                _save(vt)
        return vt

    return _SHARED.get_or_make((rules, kind), make)
