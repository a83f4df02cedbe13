"""Two-player tables on disk, named by the rules' hash only (beside the solitaire tables of
:mod:`cubilete.solver.cache`): solve once, load in a moment (mapped, not read whole). A table
is a ``.npy`` file (f64, or f32 for large tables) with a ``.json`` beside it (the first
player's value in f64, the tie-break per pair of tie classes, seconds, SHA-256). A stale or unreadable file is solved
again and replaced. Large tables are solved straight into the cache folder, with checkpoints
there: an interrupted solve continues from its last finished level."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np

from cubilete.duel.solve import DuelSolution, Progress, n_tie_classes, solve_joint, table_dtype
from cubilete.duel.space import F64_CELLS, JointSpace, build_joint, table_bytes
from cubilete.duel.streamed import SLICE_CELLS
from cubilete.engine.errors import DuelUnsupportedError
from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Rules
from cubilete.solver.cache import cache_dir
from cubilete.solver.tablestore import TableStore

# bump when the meaning or layout of the two-player tables changes (3: a tie-break hand's first throw
# wins at once, as in the engine; the tie-break per pair of tie classes, "ties")
FORMAT = 3


def duel_key(rules: Rules) -> str:
    """The cache key: the rules' hash and the table format."""
    return hashlib.sha256(f"duel{FORMAT}:{rules_hash(rules)}".encode()).hexdigest()[:20]


def duel_path(rules: Rules) -> Path:
    """Where the two-player table of ``rules`` is stored (its metadata: the same name, ``.json``)."""
    return cache_dir() / f"duel-{duel_key(rules)}.npy"


def _meta(solution: DuelSolution, peak: float | None = None) -> dict[str, object]:
    return {
        "peak_gb": peak,
        "format": FORMAT,
        "key": duel_key(solution.rules),
        "seconds": solution.seconds,
        "tiebreak": solution.tiebreak,
        "ties": np.asarray(solution.ties).tolist(),
        "first_player_wins": solution.first_player_wins,
        "dtype": str(np.asarray(solution.values).dtype),
        "cells": solution.joint.n_cells,
        "sha256": solution.digest,
    }


def _write_meta(solution: DuelSolution, target: Path, peak: float | None = None) -> None:
    meta = target.with_suffix(".json")
    tmp = meta.with_name(meta.name + ".tmp")
    tmp.write_text(json.dumps(_meta(solution, peak)), encoding="utf-8")
    tmp.replace(meta)


def peak_rss_gb() -> float:
    """This process's peak resident memory so far, GB (0 where the platform does not say)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9


def peak_gb(rules: Rules) -> float | None:
    """The peak memory of the process that solved the cached table of ``rules`` (None if unknown:
    recorded for the large tables solved straight into the cache)."""
    try:
        meta = json.loads(duel_path(rules).with_suffix(".json").read_text(encoding="utf-8"))
        return float(meta["peak_gb"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(solution: DuelSolution, path: Path | None = None) -> Path:
    """Write the table and its metadata atomically (the metadata last: it marks the table complete)."""
    target = path or duel_path(solution.rules)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.with_suffix(".json").unlink(missing_ok=True)
    tmp = target.with_name(target.name + ".tmp.npy")
    np.save(tmp, solution.values)
    tmp.replace(target)
    _write_meta(solution, target)
    return target


def load(rules: Rules, path: Path | None = None) -> DuelSolution | None:
    """The cached table of ``rules`` (mapped read-only), or None if absent, stale or unreadable."""
    source = path or duel_path(rules)
    if not source.is_file() or not source.with_suffix(".json").is_file():
        return None
    try:
        meta = json.loads(source.with_suffix(".json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT or meta.get("key") != duel_key(rules):
            return None
        values = np.load(source, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError, json.JSONDecodeError):
        return None
    joint = build_joint(rules)
    ties = np.asarray(meta.get("ties"), dtype=object)
    if ties.shape != (n_tie_classes(joint),) * 2:
        return None
    if values.shape != (joint.n_cells,) or values.dtype != table_dtype(joint.n_cells):
        return None
    return DuelSolution(
        joint, values, float(meta["tiebreak"]), float(meta.get("seconds", 0.0)),
        first=float(meta["first_player_wins"]), sha256=str(meta["sha256"]),
        ties=np.array(meta["ties"], dtype=np.float64),
    )  # fmt: skip


def room_needed(joint: JointSpace) -> tuple[int, int]:
    """(disk, memory) bytes a solve straight into the cache needs beyond the joint space itself: the
    table and the checkpoint's f64 levels on disk; the f64 levels held while solving in memory."""
    level_cells = np.diff(joint.row_off[joint.level_ptr])
    biggest = int(level_cells.max(initial=0))
    if joint.streamed:
        levels, memory = joint.read_cells + biggest, joint.read_cells + min(SLICE_CELLS, joint.n_cells)
    else:
        levels, memory = joint.work_cells + biggest, joint.work_cells
    return table_bytes(joint.n_cells) + levels * 8, memory * 8


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux's MemAvailable; None where unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _on_disk(path: Path) -> int:
    """Bytes a file takes on the disk (a table file is created sparse: its holes take none yet)."""
    st = path.stat()
    blocks = getattr(st, "st_blocks", None)
    return st.st_size if blocks is None else min(st.st_size, blocks * 512)


def check_room(joint: JointSpace, folder: Path) -> None:
    """Raise :class:`DuelUnsupportedError` naming the GB needed if the disk at ``folder`` or the memory is
    short for solving ``joint`` into it (what a stopped solve left there counts as written)."""
    disk, memory = room_needed(joint)
    target = duel_path(joint.rules)
    files = [f for pattern in (f"{target.stem}.*", f"{target.stem}.levels/*") for f in folder.glob(pattern)]
    written = sum(_on_disk(f) for f in files if f.is_file())
    free = shutil.disk_usage(folder).free
    if disk - written > free:
        raise DuelUnsupportedError(
            f"{joint.rules.name}: solving the two-player table needs {(disk - written) / 1e9:.1f} GB free on the "
            f"disk at {folder}, and {free / 1e9:.1f} GB are free"
        )
    available = available_memory()
    if available is not None and memory > available:
        raise DuelUnsupportedError(
            f"{joint.rules.name}: solving the two-player table needs {memory / 1e9:.1f} GB of memory, and "
            f"{available / 1e9:.1f} GB are available"
        )


def solve_and_save(joint: JointSpace, progress: Progress | None = None) -> DuelSolution:
    """Solve and store in the cache: a large table straight into its file, with checkpoints beside it
    (a solve that was stopped continues; refused first if the disk or memory is short: :func:`check_room`);
    a small one in memory, then saved (if the folder is writable)."""
    target = duel_path(joint.rules)
    if joint.n_cells <= F64_CELLS:
        solution = solve_joint(joint, progress)
        with contextlib.suppress(OSError):  # a read-only cache folder only costs a new solve next time
            save(solution)
        return solution
    target.parent.mkdir(parents=True, exist_ok=True)
    check_room(joint, target.parent)
    target.with_suffix(".json").unlink(missing_ok=True)
    partial = target.with_name(target.name + ".part.npy")
    checkpoint = target.with_name(target.stem + ".levels")
    solution = solve_joint(joint, progress, out=partial, checkpoint=checkpoint)
    partial.replace(target)
    solution.values = np.load(target, mmap_mode="r")
    _write_meta(solution, target, peak_rss_gb())  # the solving process's peak (large tables are solved alone)
    return solution


def load_or_solve(rules: Rules, progress: Progress | None = None, use_cache: bool = True) -> tuple[DuelSolution, bool]:
    """The table from the cache (True) or solved now and saved (False)."""
    if use_cache:
        cached = load(rules)
        if cached is not None:
            return cached, True
    return solve_and_save(build_joint(rules), progress), False


_SHARED: TableStore[Rules, DuelSolution] = TableStore("two-player tables")


def shared_duel(rules: Rules) -> DuelSolution:
    """The two-player table of ``rules``, loaded (or solved) once per process for every caller.

    Only tables of up to :data:`~cubilete.duel.space.F64_CELLS` values are solved here (minutes at
    most); a larger one (Generala's) must be in the cache: solved once by ``cubilete solve
    --players 2``. Otherwise :class:`DuelUnsupportedError` (callers fall back, as for refused rules).
    """

    def make() -> DuelSolution:
        solution = load(rules)
        if solution is None:
            cells = build_joint(rules, count_only=True, check=True).n_cells  # sized without its index (General: 1 GB)
            if cells > F64_CELLS:
                raise DuelUnsupportedError(
                    f"{rules.name}: the two-player table ({cells:,} values) is not solved yet; solve it "
                    f"once with `cubilete solve --rules {rules.name} --players 2`"
                )
            solution = solve_and_save(build_joint(rules))
        return solution

    return _SHARED.get_or_make(rules, make)
