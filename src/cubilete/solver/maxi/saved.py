"""Maxi Yatzy WITH saved throws: the bank of saved throws capped at ``cap``, with certified lower
and upper bounds on the true (uncapped) optimum, solved layer by layer like :mod:`cubilete.solver.maxi.layered`.

* ``bound="lower"``: throws saved beyond ``cap`` are lost. Every policy of that game can be played
  in the real one (the real player holds at least as many throws and ignores the extra), so its
  optimum is a lower bound; it is the exact optimum once ``cap`` is out of reach.
* ``bound="upper"``: the same induction, but a turn start with ``cap + e`` saved is valued by a
  proven over-estimate (:func:`cubilete.solver.maxi.saved_kernels.over_estimate`; proof in docs/generated/OPTIMAL.md).

The table ``V[mask, bank, upper]`` (float32 on disk, memory-mapped; float64 for the tests) is
``cap + 1`` times the no-saved table (Maxi: 356 MB per bank); float32 values are rounded down
(lower) or up (upper) so the stored bounds stay bounds. Checkpoints after every block of sheets;
a run resumes where it stopped (``cubilete solve --rules maxi-yatzy --cap K --bound lower --resume``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi.layered import (
    BLOCK,
    MEMORY_LIMIT,
    LayeredTables,
    Progress,
    check_layered,
    digest,
    layered_tables,
    layers,
    peak_rss_now,
    reachable_states,
    read_progress,
    write_progress,
)
from cubilete.solver.maxi.saved_block import Bound as Bound
from cubilete.solver.maxi.saved_block import plain_rules, saved_tables, solve_saved_masks

FORMAT = 1  # bump when the layout or meaning of the files changes
BOUNDS: tuple[Bound, ...] = ("lower", "upper")
PRICES: tuple[float, ...] = ()  # default: no priced games (they tighten small caps only, at 10x the time)
SOME_PRICES = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # points per throw: the priced games tried in docs/generated/OPTIMAL.md
ITERATIONS = 400  # value-iteration steps per turn of a priced game, at most


def check_saved(rules: Rules, cap: int) -> None:
    """Raise :class:`SolverUnsupportedError` if ``rules`` (with saved throws) and ``cap`` can't be solved here."""
    if not rules.carry_over_throws:
        raise SolverUnsupportedError(f"{rules.name}: no saved throws (use the layered solver)")
    if cap < 0:
        raise SolverUnsupportedError(f"the cap on saved throws must be 0 or more, not {cap}")
    check_layered(plain_rules(rules))
    if saved_bytes(rules, cap) > MEMORY_LIMIT:
        raise SolverUnsupportedError(
            f"{rules.name}: a table of {saved_bytes(rules, cap):,} bytes (cap {cap}) is larger than "
            f"{MEMORY_LIMIT >> 30} GB"
        )


def useful_cap(rules: Rules) -> int:
    """The largest bank that can occur at a turn start: a cap this large loses nothing (the exact game)."""
    return (rules.throws - 1) * (rules.turns - 1)


def saved_bytes(rules: Rules, cap: int, dtype: npt.DTypeLike = np.float32) -> int:
    """Bytes of one bound's table on disk."""
    t = layered_tables(plain_rules(rules))
    return (1 << t.n_slots) * (cap + 1) * t.n_upper * np.dtype(dtype).itemsize


@dataclass(frozen=True)
class SavedSolution:
    """A finished (or loaded) capped solve: one bound."""

    rules: Rules
    cap: int
    bound: Bound
    values: npt.NDArray[np.floating]  # V[mask, bank, upper]: expected points to come (memory-mapped)
    seconds: float
    cpu_seconds: float
    sha256: str
    peak_rss: int
    directory: Path | None

    @property
    def expected_score(self) -> float:
        """The bound on the optimal expected final score of a whole game."""
        return float(self.values[0, 0, 0])


def default_dir(rules: Rules, cap: int, bound: Bound) -> Path:
    """Where the table of one bound lives: next to the solver's cache, named by the rules' hash."""
    from cubilete.solver.cache import cache_dir, table_key

    return cache_dir() / f"saved-{table_key(rules)}-cap{cap}-{bound}"


def _key(rules: Rules, cap: int, bound: Bound, dtype: npt.DTypeLike, prices: Sequence[float] = ()) -> str:
    from cubilete.solver.cache import table_key

    priced = ":" + ",".join(repr(float(p)) for p in prices) if bound == "upper" else ""
    return f"{FORMAT}:{table_key(rules)}:{cap}:{bound}:{np.dtype(dtype).name}{priced}"


def solve_saved(
    rules: Rules,
    cap: int,
    bound: Bound,
    directory: Path | None = None,
    dtype: npt.DTypeLike = np.float32,
    resume: bool = True,
    progress: Progress | None = None,
    block: int = BLOCK,
    stop_after: int | None = None,
    prices: Sequence[float] = PRICES,
    iterations: int = ITERATIONS,
    dask: Any = None,
) -> SavedSolution | None:
    """Solve one bound of ``rules`` with the bank capped at ``cap`` into ``directory``, layer by layer.

    As :func:`cubilete.solver.maxi.layered.solve_layered`: ``resume`` goes on from the last checkpoint of a
    matching run; ``stop_after`` blocks ends the call early with None, the work so far saved. The upper
    bound also solves, sheet by sheet in the same pass, the games where throws are unlimited but cost
    each of ``prices`` (at most ``iterations`` value-iteration steps per turn; fewer only loosen it).
    ``dask`` (a ``distributed.Client``) splits each layer's blocks over its workers
    (:mod:`cubilete.solver.maxi.cluster`): the same table, byte for byte, and the same checkpoints.
    """
    if bound not in BOUNDS:
        raise ValueError(f"bound must be 'lower' or 'upper', not {bound!r}")
    check_saved(rules, cap)
    t, maxpts = saved_tables(rules)
    folder = directory or default_dir(rules, cap, bound)
    folder.mkdir(parents=True, exist_ok=True)
    prices = tuple(prices) if bound == "upper" else ()
    if any(not p > 0 for p in prices):
        raise ValueError(f"prices of a throw must be positive, not {prices}")
    key = _key(rules, cap, bound, dtype, prices)
    path = folder / "values.npy"
    shape = (1 << t.n_slots, cap + 1, t.n_upper)
    priced_shape = (len(prices), 1 << t.n_slots, 1, t.n_upper)
    state = read_progress(folder) if resume else None
    if state is not None and (state.get("key") != key or not path.is_file()):
        state = None
    if state is None:
        path.unlink(missing_ok=True)
        values = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=shape)
        del values
        priced = np.lib.format.open_memmap(folder / "priced.npy", mode="w+", dtype=dtype, shape=priced_shape)
        del priced
        state = {"key": key, "rules": rules.name, "cap": cap, "bound": bound, "shape": list(shape),
                 "dtype": np.dtype(dtype).name, "layer": 0, "block": 0, "block_size": block, "done": False,
                 "seconds": 0.0, "cpu_seconds": 0.0, "peak_rss": 0}  # fmt: skip
        write_progress(folder, state)
    values = np.lib.format.open_memmap(path, mode="r+")
    block = int(state.get("block_size", BLOCK))
    all_layers = layers(t.n_slots)
    total = 1 << t.n_slots
    done_sheets = sum(m.size for m in all_layers[: int(state["layer"])]) + int(state["block"]) * block
    seconds, cpu = float(state["seconds"]), float(state.get("cpu_seconds", 0.0))
    blocks_run = 0
    if dask is None:
        run_layer: LayerRunner = _serial_runner(t, maxpts, folder, cap, bound, prices, iterations)
    else:
        from cubilete.solver.maxi.cluster import Job, dask_runner

        run_layer = dask_runner(dask, Job(rules, cap, bound, str(folder), prices, iterations))
    for li in range(int(state["layer"]), len(all_layers)):
        masks = all_layers[li]
        first = int(state["block"]) if li == int(state["layer"]) else 0
        n_blocks = (masks.size + block - 1) // block
        last = n_blocks if stop_after is None else min(n_blocks, first + max(0, stop_after - blocks_run))
        mark = time.perf_counter()

        def checkpoint(bi: int, sheets: int, block_cpu: float, li: int = li) -> None:
            nonlocal seconds, cpu, blocks_run, done_sheets, mark
            now = time.perf_counter()
            seconds += now - mark
            mark = now
            cpu += block_cpu
            blocks_run += 1
            done_sheets += sheets
            state.update(layer=li, block=bi + 1, seconds=seconds, cpu_seconds=cpu,
                         peak_rss=max(int(state["peak_rss"]), peak_rss_now()))  # fmt: skip
            write_progress(folder, state)
            if progress is not None:
                progress(min(done_sheets, total), total)

        run_layer(masks, first, last, block, checkpoint)
        if last < n_blocks:
            return None
        state.update(layer=li + 1, block=0)
        write_progress(folder, state)
    if dask is not None:  # the workers wrote the rows: read them through a fresh map
        values = np.lib.format.open_memmap(path, mode="r+")
    if not state.get("done"):
        state.update(done=True, sha256=digest(values), peak_rss=max(int(state["peak_rss"]), peak_rss_now()))
        write_progress(folder, state)
    return _solution(rules, cap, bound, values, state, folder)


Checkpoint = Callable[[int, int, float], None]  # (block finished, its sheets, CPU seconds spent on it)
LayerRunner = Callable[[npt.NDArray[np.int64], int, int, int, Checkpoint], None]
"""Solve blocks ``first`` to ``last - 1`` of a layer's masks (blocks of ``block`` sheets), calling the
checkpoint once per block, in block order, after the block's rows are on disk."""


def _serial_runner(
    t: LayeredTables, maxpts: npt.NDArray[np.int64], folder: Path, cap: int, bound: Bound,
    prices: Sequence[float], iterations: int,
) -> LayerRunner:  # fmt: skip
    values = np.lib.format.open_memmap(folder / "values.npy", mode="r+")
    priced = np.lib.format.open_memmap(folder / "priced.npy", mode="r+")
    lams = np.array(prices, dtype=np.float64)

    def run(masks: npt.NDArray[np.int64], first: int, last: int, block: int, checkpoint: Checkpoint) -> None:
        for bi in range(first, last):
            cpu_start = time.process_time()
            part = masks[bi * block : (bi + 1) * block]
            solve_saved_masks(t, maxpts, part, np.asarray(values), cap, bound, np.asarray(priced), lams, iterations)
            priced.flush()
            values.flush()
            checkpoint(bi, part.size, time.process_time() - cpu_start)

    return run


def _solution(
    rules: Rules, cap: int, bound: Bound, values: npt.NDArray[np.floating], state: dict[str, Any], folder: Path
) -> SavedSolution:
    return SavedSolution(
        rules=rules, cap=cap, bound=bound, values=values, seconds=float(state["seconds"]),
        cpu_seconds=float(state.get("cpu_seconds", 0.0)), sha256=str(state["sha256"]),
        peak_rss=int(state["peak_rss"]), directory=folder,
    )  # fmt: skip


def load_saved(
    rules: Rules,
    cap: int,
    bound: Bound,
    directory: Path | None = None,
    dtype: npt.DTypeLike = np.float32,
    prices: Sequence[float] = PRICES,
) -> SavedSolution | None:
    """A finished table of one bound (memory-mapped read-only), or None."""
    try:
        check_saved(rules, cap)
    except SolverUnsupportedError:
        return None
    folder = directory or default_dir(rules, cap, bound)
    state = read_progress(folder)
    if state is None or state.get("key") != _key(rules, cap, bound, dtype, prices) or not state.get("done"):
        return None
    try:
        values = np.load(folder / "values.npy", mmap_mode="r")
    except (OSError, ValueError):
        return None
    if list(values.shape) != state.get("shape"):
        return None
    return _solution(rules, cap, bound, values, state, folder)


def partial_saved(
    rules: Rules, cap: int, bound: Bound, directory: Path | None = None, prices: Sequence[float] = PRICES
) -> float | None:
    """The share of sheets done by an unfinished run of one bound, or None if there is none."""
    folder = directory or default_dir(rules, cap, bound)
    state = read_progress(folder)
    if state is None or state.get("key") != _key(rules, cap, bound, np.float32, prices) or state.get("done"):
        return None
    all_layers = layers(len(rules.slots))
    layer, blk, size = int(state.get("layer", 0)), int(state.get("block", 0)), int(state.get("block_size", BLOCK))
    done = sum(m.size for m in all_layers[:layer]) + min(
        blk * size, all_layers[layer].size if layer < len(all_layers) else 0
    )
    return float(done) / (1 << len(rules.slots))


@dataclass(frozen=True)
class SavedEstimate:
    """What one bound's solve will cost, timed on a sample of sheets before starting."""

    cap: int
    states: int  # reachable (sheet, upper total) pairs, times the banks
    disk_bytes: int
    seconds: float
    threads: int

    def describe(self) -> str:
        """One line for people."""
        return (
            f"cap {self.cap}: {self.states:,} states, table {self.disk_bytes / 2**30:,.2f} GB on disk "
            f"(memory-mapped), about {self.seconds / 3600:,.1f} h per bound on {self.threads} thread(s) at today's load"
        )


def estimate_saved(rules: Rules, cap: int, bound: Bound = "upper", sample: int = 48, seed: int = 0) -> SavedEstimate:
    """Time the kernel on ``sample`` random sheets with every bank (values are scratch) and extrapolate.

    Sheets with few boxes closed have fewer banks, so this slightly over-estimates."""
    import numba

    check_saved(rules, cap)
    t, maxpts = saved_tables(rules)
    n_masks = 1 << t.n_slots
    rng = np.random.default_rng(seed)
    masks = np.sort(rng.choice(n_masks, size=min(sample, n_masks), replace=False)).astype(np.int64)
    # zero pages are only allocated when touched: the sample's rows and the sheets they write to
    scratch = np.zeros((n_masks, cap + 1, t.n_upper), dtype=np.float32)
    lams = np.array(PRICES if bound == "upper" else (), dtype=np.float64)
    priced = np.zeros((lams.size, n_masks, 1, t.n_upper), dtype=np.float32)
    solve_saved_masks(t, maxpts, masks[:2], scratch, cap, bound, priced, lams, ITERATIONS)  # compile outside the timing
    start = time.perf_counter()
    solve_saved_masks(t, maxpts, masks, scratch, cap, bound, priced, lams, ITERATIONS)
    per_mask = (time.perf_counter() - start) / masks.size
    return SavedEstimate(
        cap=cap,
        states=reachable_states(plain_rules(rules)) * (cap + 1),
        disk_bytes=saved_bytes(rules, cap),
        seconds=per_mask * n_masks,
        threads=numba.get_num_threads(),
    )
