"""The first hint without compiling: numpy versions of the solve and of the advisor's query, used while
numba's kernels are not compiled yet (a fresh install, a wiped numba cache).

Compiling :func:`cubilete.solver.kernels.solve_layer` and :func:`cubilete.solver.query.options` (and
:func:`~cubilete.solver.query.judge`, the review's batched query) takes
about 35 s of CPU; solving Generala (4,096 sheet states) in numpy takes about a second, and one query a
few milliseconds. So on first use, for small rule sets, the solve and the queries run here while one
niced process (:func:`main`) compiles the kernels into numba's on-disk cache;
once it is done, the compiled kernels take over (in this process at the next query, and in every later
one).

The arithmetic is the kernels' own, operation by operation in the same order (sums of the six
one-die extensions left to right, then times 1/6; the first-roll average hand by hand; maxima in any
order), over arrays of states instead of one state at a time: the values are bit for bit those of
the compiled kernels (``tests/solver/test_firstrun.py`` compares them).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from cubilete.solver import kernels, query
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.kernels import NEG
from cubilete.solver.tables import KernelTables

# the largest value table (sheets x flags x upper totals) solved in numpy while the kernels compile:
# Generala's 4,096 states take about a second; Yahtzee's 1M would take minutes, longer than compiling
SMALL_STATES = 1 << 15
# "auto": numpy until the kernels are compiled; "numba": always the kernels; "numpy": always numpy where it can
MODE_ENV = "CUBILETE_FIRST_RUN"
BATCH_CELLS = 1 << 21  # states x keeps x upper totals per numpy batch (16 MiB of float64)

COMPILE = "from cubilete.solver.firstrun import main; main(exclusive=True)"  # what the compiling process runs

_LOCK = threading.Lock()
_READY: dict[str, bool] = {}
_CHILD: subprocess.Popen[bytes] | None = None
_CHECKED: dict[str, float] = {}  # when numba's cache was last looked at, per kernel family
_SEEN_DONE: dict[str, bool] = {}  # looked again after the compiling process ended


def mode() -> str:
    """``auto`` (default), ``numba`` or ``numpy``, from ``$CUBILETE_FIRST_RUN``."""
    value = os.environ.get(MODE_ENV, "auto").strip().lower()
    return value if value in ("numba", "numpy") else "auto"


def _on_disk(kernel: Any) -> bool:
    """True if the kernel is compiled in this process or numba's cache holds it for today's source."""
    if kernel.overloads:
        return True
    cache = getattr(kernel, "_cache", None)
    try:
        index = cache._cache_file._load_index()  # type: ignore[union-attr]
        codegen = kernel.targetctx.codegen()
        return any(cache._index_key(key[0], codegen) == key for key in index)  # type: ignore[union-attr]
    except Exception:  # another numba's internals: then assume not compiled
        return False


def compiled(what: str) -> bool:
    """True once the kernels of ``what`` ("solve" or "query") are compiled (here or in numba's cache).

    While this process's compiling process runs, the answer is no without looking; after it ends, and
    every few seconds without one, numba's cache index is read again (a few milliseconds)."""
    if _READY.get(what):
        return True
    with _LOCK:
        now = time.monotonic()
        if what in _READY:
            running = _CHILD is not None and _CHILD.poll() is None
            just_done = _CHILD is not None and not running and not _SEEN_DONE.get(what)
            if running or (not just_done and now - _CHECKED.get(what, 0.0) < 5.0):
                return False
            _SEEN_DONE[what] = _CHILD is not None and not running
        _CHECKED[what] = now
        if what == "solve":
            ready = _on_disk(kernels.solve_layer)
        else:
            ready = _on_disk(query.options) and _on_disk(query.sub_keeps) and _on_disk(query.judge)
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


def compile_in_background() -> None:
    """Start (once per process) a niced process that compiles the kernels into numba's cache."""
    global _CHILD
    with _LOCK:
        if _CHILD is not None or os.environ.get("CUBILETE_NO_BACKGROUND_COMPILE") or os.name != "posix":
            return
        env = dict(os.environ, **{MODE_ENV: "numba"})
        try:
            _CHILD = subprocess.Popen(
                [sys.executable, "-c", COMPILE],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env, start_new_session=True, preexec_fn=_nice,
            )  # fmt: skip
        except (OSError, ValueError):
            _CHILD = None


def _nice() -> None:  # pragma: no cover - runs in the child
    os.nice(10)


def background_process() -> subprocess.Popen[bytes] | None:
    """The compiling process started by this one, if any."""
    return _CHILD


# --- the solve ---------------------------------------------------------------------------------------


def best_scores(T: KernelTables, mk: IntArray, fl: IntArray, V: FloatArray, first: int) -> FloatArray:
    """out[b, h, u]: :func:`kernels.best_scores` for the states (mk[b], fl[b]) at every upper total."""
    n_hands = T.first_roll.shape[0]
    n_upper = V.shape[2]
    n_slots = T.req.shape[0]
    out = np.full((mk.shape[0], n_hands, n_upper), NEG)
    u = np.arange(n_upper)
    thr = T.threshold
    plain = T.equal_face == 0
    bits0 = T.usable[mk, 0]

    def upper_values(reward: FloatArray, p: IntArray, m1: IntArray, f1: IntArray) -> FloatArray:
        """reward + V[m1, f1, min(thr, u + p)], plus the bonus where u < thr <= u + p; shapes (B, X)."""
        up = u[None, None, :] + p[:, :, None]
        val: FloatArray = reward[:, :, None] + V[m1[:, None, None], f1[:, None, None], np.minimum(thr, up)]
        return np.where((u[None, None, :] < thr) & (thr <= up), val + T.upper_bonus, val)

    for j in range(n_slots):  # hands not of one face: the kernels' per-slot shortcut
        use = (bits0 >> j) & 1 == 1
        if not use.any():
            continue
        r = T.req[j]
        blocked = (fl >> T.flag_bit[r]) & 1 == 0 if r >= 0 else np.zeros(mk.shape[0], dtype=np.bool_)
        m1 = mk | (1 << j)
        m0 = m1 | T.closes[j]
        f1 = fl | (1 << T.flag_bit[j]) if T.flag_bit[j] >= 0 else fl
        p = np.where(blocked[:, None], 0, T.pts[first, j][None, :])
        if T.is_upper[j] == 1 and n_upper > 1:
            val = upper_values(p.astype(np.float64), p, m1, f1)
        else:
            val = p[:, :, None] + V[m1, f1][:, None, :]
        val = np.where((p == 0)[:, :, None], (0.0 + V[m0, fl])[:, None, :], val)
        np.maximum(out, np.where((use[:, None] & plain[None, :])[:, :, None], val, NEG), out=out)

    xs = T.extra_slot
    joker_on = (mk >> xs) & 1 == 1 if (T.joker and xs >= 0) else np.zeros(mk.shape[0], dtype=np.bool_)
    if xs >= 0 and T.flag_bit[xs] >= 0:
        extra_holds = (fl >> T.flag_bit[xs]) & 1 == 1
    else:
        extra_holds = np.zeros(mk.shape[0], dtype=np.bool_)
    for h in np.nonzero(~plain)[0]:  # hands of one face: the general path (jokers, extra bonuses)
        face = int(T.equal_face[h])
        fbits = T.usable[mk, face]
        row = np.full((mk.shape[0], 1, n_upper), NEG)
        us = T.upper_slot_of_face[face - 1]
        used = (mk >> us) & 1 if us >= 0 else np.zeros(mk.shape[0], dtype=np.int64)
        for j in range(n_slots):
            use = (fbits >> j) & 1 == 1
            if not use.any():
                continue
            p = np.where(joker_on, T.jpts[first, j, face - 1][used], T.pts[first, j, h])
            r = T.req[j]
            if r >= 0:
                p = np.where((fl >> T.flag_bit[r]) & 1 == 0, 0, p)
            nmask = np.where(p == 0, mk | (1 << j) | T.closes[j], mk | (1 << j))
            nfl = np.where(p > 0, fl | (1 << T.flag_bit[j]), fl) if T.flag_bit[j] >= 0 else fl
            reward = p.astype(np.float64)
            if T.ebonus_ok[j] == 1:
                reward = np.where(extra_holds, reward + T.extra_bonus, reward)
            if T.is_upper[j] == 1 and n_upper > 1:
                val = upper_values(reward[:, None], p[:, None], nmask, nfl)
            else:
                val = reward[:, None, None] + V[nmask, nfl][:, None, :]
            np.maximum(row, np.where(use[:, None, None], val, NEG), out=row)
        out[:, h] = row[:, 0]
    return out


def _levels(T: KernelTables) -> list[IntArray]:
    """The keeps smaller than a hand grouped by size, largest first (the order the recursion needs)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    # keeps are numbered by size, largest first; a keep's extension (add) has one die more
    depth = np.zeros(n_keeps, dtype=np.int64)
    for k in range(n_hands, n_keeps):
        depth[k] = depth[T.add[k, 0]] + 1
    return [np.nonzero(depth == d)[0] for d in range(1, int(depth.max()) + 1)]


def keep_values(T: KernelTables, E: FloatArray, levels: list[IntArray]) -> tuple[FloatArray, FloatArray]:
    """(K, M) of :func:`kernels.keep_values` for a batch: K[b, k, u] and the closure M."""
    n_hands = E.shape[1]
    K = np.empty((E.shape[0], T.add.shape[0], E.shape[2]))
    K[:, :n_hands] = E
    sixth = 1.0 / 6.0
    for idx in levels:
        add = T.add[idx]
        acc = 0.0 + K[:, add[:, 0]]
        for f in range(1, 6):
            acc += K[:, add[:, f]]
        K[:, idx] = acc * sixth
    M = np.empty_like(K)
    for idx in reversed(levels):  # smallest keeps first: their sub-keeps are done
        best = K[:, idx].copy()
        for f in range(6):
            r = T.remove[idx, f]
            ok = r >= 0
            if ok.any():
                best[:, ok] = np.maximum(best[:, ok], M[:, r[ok]])
        M[:, idx] = best
    return K, M


def improve(T: KernelTables, S: FloatArray, M: FloatArray) -> FloatArray:
    """:func:`kernels.improve_with_rethrow`: max(score now, best sub-keep thrown again), per hand."""
    E = S.copy()
    rem = T.remove[: S.shape[1]]
    for f in range(6):
        r = rem[:, f]
        ok = r >= 0
        if ok.any():
            E[:, ok] = np.maximum(E[:, ok], M[:, r[ok]])
    return E


def turn(
    T: KernelTables, mk: IntArray, fl: IntArray, V: FloatArray, keeps: bool = False
) -> tuple[FloatArray, dict[int, FloatArray]]:
    """:func:`kernels.turn_values` for a batch of states: (out[b, u], {t: Ks[b, keep, u]} if ``keeps``)."""
    if T.locked:
        raise ValueError("locked holds are solved by the compiled kernels only")
    S23 = best_scores(T, mk, fl, V, 0)
    S1 = best_scores(T, mk, fl, V, 1) if T.servida else S23
    Ks: dict[int, FloatArray] = {}
    if T.throws == 1:
        E = S1
    else:
        levels = _levels(T)
        E = S23
        for t in range(T.throws, 1, -1):
            K, M = keep_values(T, E, levels)
            if keeps:
                Ks[t] = K
            E = improve(T, S1 if t == 2 else S23, M)
    out = np.zeros((mk.shape[0], V.shape[2]))
    for h in range(E.shape[1]):
        out += T.first_roll[h] * E[:, h]
    return out, Ks


def solve_layer(T: KernelTables, masks: IntArray, V: FloatArray) -> None:
    """:func:`kernels.solve_layer` in numpy: fill V for every state of one layer, in batches."""
    n_slots = T.req.shape[0]
    flag_slots = [j for j in range(n_slots) if T.flag_bit[j] >= 0]
    mk_list: list[int] = []
    fl_list: list[int] = []
    for mask in masks.tolist():
        if bin(mask).count("1") >= T.rounds:
            continue  # terminal: nothing more to score
        flag_ok = 0
        for j in flag_slots:
            if (mask >> j) & 1:
                flag_ok |= 1 << int(T.flag_bit[j])
        for f in range(1 << T.n_flags):
            if not f & ~flag_ok:
                mk_list.append(mask)
                fl_list.append(f)
    if not mk_list:
        return
    mk_all = np.array(mk_list, dtype=np.int64)
    fl_all = np.array(fl_list, dtype=np.int64)
    batch = max(1, BATCH_CELLS // (T.add.shape[0] * V.shape[2]))
    for start in range(0, mk_all.shape[0], batch):
        mk, fl = mk_all[start : start + batch], fl_all[start : start + batch]
        out, _ = turn(T, mk, fl, V)
        V[mk, fl] = np.where(T.reach[mk] == 1, out, 0.0)


def layer_kernel(T: KernelTables, n_states: int) -> Callable[[KernelTables, IntArray, FloatArray], None]:
    """The layer solver to use now: the compiled kernel, or numpy while it is not compiled."""
    return solve_layer if use_numpy("solve", T, n_states) else kernels.solve_layer


# --- the advisor's query -----------------------------------------------------------------------------


def sub_keeps(remove: IntArray, h: int, n_keeps: int) -> IntArray:
    """:func:`query.sub_keeps` in Python: the distinct proper sub-multisets of hand h, ascending."""
    seen = np.zeros(n_keeps, dtype=np.bool_)
    stack = [int(r) for r in remove[h] if r >= 0]
    for r in stack:
        seen[r] = True
    while stack:
        k = stack.pop()
        for r in remove[k].tolist():
            if r >= 0 and not seen[r]:
                seen[r] = True
                stack.append(r)
    return np.nonzero(seen)[0].astype(np.int64)


def options(
    T: KernelTables, V: FloatArray, mask: int, fl: int, u: int, h: int, throw: int, so_far: int, Ks: FloatArray,
    fill: int, keeps: IntArray, out: FloatArray,
) -> int:  # fmt: skip
    """:func:`query.options` in numpy: the same rows, the same values, the same order."""
    if fill > 0:
        _, turn_ks = turn(T, np.array([mask]), np.array([fl]), V, keeps=True)
        for t, K in turn_ks.items():
            if t >= fill:
                Ks[t] = K[0, :, u]
    n_upper = V.shape[2]
    first = 1 if throw == 1 else 0
    xs = T.extra_slot
    joker_on = bool(T.joker and xs >= 0 and (mask >> xs) & 1 == 1)
    extra_holds = bool(xs >= 0 and T.flag_bit[xs] >= 0 and (fl >> int(T.flag_bit[xs])) & 1 == 1)
    face = int(T.equal_face[h])
    bits = int(T.usable[mask, face])
    n_slots = T.req.shape[0]
    values: list[float] = []
    rows: list[tuple[int, int, int]] = []
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        if face > 0 and joker_on:
            us = int(T.upper_slot_of_face[face - 1])
            used = 1 if us >= 0 and (mask >> us) & 1 == 1 else 0
            p = int(T.jpts[first, j, face - 1, used])
        else:
            p = int(T.pts[first, j, h])
        r = int(T.req[j])
        if r >= 0 and (fl >> int(T.flag_bit[r])) & 1 == 0:
            p = 0
        nmask = mask | (1 << j)
        if p == 0:
            nmask |= int(T.closes[j])
        nfl = fl | (1 << int(T.flag_bit[j])) if T.flag_bit[j] >= 0 and p > 0 else fl
        bonus = T.extra_bonus if face > 0 and extra_holds and T.ebonus_ok[j] == 1 else 0
        nu = u
        if T.is_upper[j] == 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                bonus += T.upper_bonus
        future = float(V[nmask, nfl, nu]) if bin(nmask).count("1") < T.rounds else 0.0
        rows.append((0, j, p))
        values.append((so_far + p + bonus) + future)
    for k in keeps.tolist():
        rows.append((1, k, 0))
        values.append(so_far + float(Ks[throw + 1, k]))
    n = len(rows)
    order = np.argsort(-np.array(values), kind="mergesort")  # stable, as the kernel's
    for i, o in enumerate(order.tolist()):
        out[i, 0], out[i, 1], out[i, 2] = rows[o]
        out[i, 3] = values[o]
    return n


def judge(
    T: KernelTables, V: FloatArray, keep_list: IntArray, keep_at: IntArray, sit: IntArray, out: FloatArray
) -> None:
    """:func:`query.judge` in numpy: each decision by :func:`options`, the turn's keep values shared alike."""
    n_keeps = T.add.shape[0]
    rows = np.empty((T.req.shape[0] + n_keeps, 4))
    Ks = np.empty((T.throws + 1, n_keeps))
    last: tuple[int, int, int] | None = None
    filled = 0
    for i, (mask, fl, u, h, throw, so_far, kind, number) in enumerate(sit.tolist()):
        fill = 0
        keeps = keep_list[:0]
        if throw < T.throws:
            keeps = keep_list[keep_at[h] : keep_at[h + 1]]
            if last != (mask, fl, u) or filled == 0 or filled > throw + 1:
                fill = filled = throw + 1
                last = (mask, fl, u)
        n = options(T, V, mask, fl, u, h, throw, so_far, Ks, fill, keeps, rows)
        out[i, :3] = 0.0
        for r in range(n):
            if rows[r, 0] == kind and rows[r, 1] == number:
                out[i, :3] = (1.0, rows[r, 2], rows[r, 3])
                break
        out[i, 3:] = rows[0]


class QueryEntry:
    """The advisor's query (or another kernel of :mod:`~cubilete.solver.query`): numpy while the compiled
    one is not ready, then the compiled entry point."""

    def __init__(self, make: Callable[[], Callable[..., Any]], fallback: Callable[..., Any] = options) -> None:
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
    T: KernelTables, n_states: int, make: Callable[[], Callable[..., Any]], fallback: Callable[..., Any] = options
) -> Callable[..., Any]:
    """A query kernel for these tables: ``make()`` (the compiled one) or a :class:`QueryEntry` that runs
    ``fallback`` (its numpy twin) until the kernels are compiled."""
    if not use_numpy("query", T, n_states):
        return make()
    return QueryEntry(make, fallback)


def sub_keeps_of(T: KernelTables, n_states: int) -> Callable[[IntArray, int, int], IntArray]:
    """:func:`query.sub_keeps` (compiled) or :func:`sub_keeps` (not yet)."""
    return sub_keeps if use_numpy("query", T, n_states) else query.sub_keeps


def _lock_path() -> Path:
    """One lock file per numba cache folder (and per package folder, where numba's default cache lives)."""
    where = f"{os.environ.get('NUMBA_CACHE_DIR', '')}|{Path(__file__).resolve().parent}"
    return Path(tempfile.gettempdir()) / f"cubilete-compile-{hashlib.sha256(where.encode()).hexdigest()[:16]}.lock"


def main(exclusive: bool = False) -> int:
    """Compile the solve and the query into numba's cache (solving a two-box Generala: instant).

    With ``exclusive`` (the background process) nothing is done if another process is compiling
    into the same cache already: several first runs at once compile once."""
    os.environ[MODE_ENV] = "numba"
    if exclusive:
        import fcntl  # POSIX; the background compile starts only there (preexec_fn)

        lock = open(_lock_path(), "a")  # noqa: SIM115 - held until this process ends
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0
    from cubilete.engine.rules import find_rules
    from cubilete.solver.advisor import advise, judge
    from cubilete.solver.solve import solve

    rules = find_rules("generala")
    tiny = solve(rules.replace(name="tiny", boxes=rules.boxes[:2]))
    advise(tiny, [None, None], (1, 1, 2, 2, 3), throw=2)
    judge(tiny, [([None, None], (1, 1, 2, 2, 3), 2, 0, "keep", (1, 1))])  # the review's batched query
    return 0
