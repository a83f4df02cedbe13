"""The two-player solve of a table whose levels do not fit in memory together (Brazilian General).

The in-memory solve holds a level and the ``span`` levels it reads in one f64 buffer (General: 14.8 GB).
Here only the levels read are held, in f64 (:attr:`JointSpace.read_cells` values; General: 7.5 GB); a
level is computed a slice of rows at a time into a small f64 buffer, each slice written to the table
(f32 above :data:`~cubilete.duel.space.F64_CELLS` values) and in f64 to the checkpoint folder, from
where it is read back as the input of the next level. Every value is computed from the same f64 values
in the same order as in memory, so the table is the same bit for bit: an f32 value lies within 2^-24
(6e-8) of its f64 value, relative, and no rounding is carried from one level to the next.
A stopped solve continues from its last finished level (the levels it reads are in the folder).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba import njit

from cubilete.duel import kernels
from cubilete.duel.space import JointSpace
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.tables import KernelTables

SLICE_CELLS = 1 << 25  # values of a level computed at once (f64: 268 MB)

Write = Callable[[int, FloatArray], None]
Moves = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray]


class NpyWriter:
    """A ``.npy`` file written piece by piece at given cells (never held in memory)."""

    def __init__(self, path: Path, cells: int, dtype: type[np.floating], fresh: bool) -> None:
        self.dtype = np.dtype(dtype)
        if fresh or not path.is_file():
            header = np.lib.format.open_memmap(path, mode="w+", dtype=self.dtype, shape=(cells,))
            del header
        self.at = path.stat().st_size - cells * self.dtype.itemsize  # the header's length
        self.file = path.open("r+b")

    def write(self, cell: int, values: FloatArray, chunk: int = 1 << 22) -> None:
        """Write values from ``cell`` on (converted a chunk at a time: no copy of a whole level)."""
        self.file.seek(self.at + cell * self.dtype.itemsize)
        for a in range(0, len(values), chunk):
            self.file.write(values[a : a + chunk].astype(self.dtype).tobytes())

    def close(self) -> None:
        self.file.close()


@njit(cache=True)
def slide(buf: FloatArray, shift: int, n: int) -> None:
    """buf[:n] = buf[shift : shift + n] (overlapping, forward; numpy would copy through a temporary)."""
    for i in range(n):
        buf[i] = buf[shift + i]


def level_path(folder: Path, i: int) -> Path:
    """The f64 file of finished level i in a checkpoint folder."""
    return folder / f"level-{i:03d}.npy"


def read_level(path: Path, out: FloatArray, chunk: int = 1 << 24) -> None:
    """Fill ``out`` from an f64 ``.npy`` file of its length, a chunk at a time (not mapped: the pages
    do not stay in this process)."""
    with path.open("rb") as f:
        major, _ = np.lib.format.read_magic(f)
        read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(f)
        if shape != out.shape or dtype != np.float64:
            raise ValueError(f"{path.name}: {shape} {dtype}, expected {out.shape} float64")
        view = out.data.cast("B")
        for a in range(0, len(view), chunk * 8):
            part = view[a : a + chunk * 8]
            if f.readinto(part) != len(part):
                raise ValueError(f"{path.name} is cut short")


def resume_point(folder: Path, joint: JointSpace, key: str) -> int:
    """The last finished level of a streamed solve in ``folder`` (-1: start afresh)."""
    try:
        state = json.loads((folder / "state.json").read_text())
        if state.get("key") != key or not state.get("streamed"):
            return -1
        done = int(state["done"])
    except (OSError, ValueError, KeyError, json.JSONDecodeError):
        return -1
    lc = joint.row_off[joint.level_ptr]
    for i in range(max(0, done + 1 - joint.span), done + 1):
        path = level_path(folder, i)
        if not path.is_file() or path.stat().st_size < (lc[i + 1] - lc[i]) * 8:
            return -1
    return done


def _mark_done(folder: Path, joint: JointSpace, key: str, i: int) -> None:
    state = folder / "state.json"
    state.with_suffix(".tmp").write_text(json.dumps({"key": key, "done": i, "streamed": True}))
    state.with_suffix(".tmp").replace(state)
    for old in folder.glob("level-*.npy"):  # keep only the levels the next one reads
        k = old.name[6:9]
        if k.isdigit() and int(k) <= i - joint.span:
            old.unlink(missing_ok=True)


def _slices(row_off: IntArray, lo: int, hi: int, cells: int) -> list[tuple[int, int]]:
    """Rows lo..hi-1 cut into runs of at most ``cells`` values (a wider row alone)."""
    out = []
    a = lo
    while a < hi:
        b = int(np.searchsorted(row_off, row_off[a] + cells, side="right")) - 1
        b = min(max(b, a + 1), hi)
        out.append((a, b))
        a = b
    return out


def solve_levels(
    joint: JointSpace,
    T: KernelTables,
    D: kernels.DuelTables,
    moves: Moves | None,
    write: Write,
    folder: Path,
    key: str,
    done: int,
    progress: Callable[[int, int], None] | None,
    block: int,
    chunks: int,
) -> float:
    """Solve the levels after ``done`` (their rows to ``write``, each level also to ``folder`` in f64);
    P(the first player wins) from the empty sheets, in f64."""
    lc = joint.row_off[joint.level_ptr]
    levels = len(lc) - 1
    span = joint.span
    widths = np.diff(joint.row_off)
    buf = np.zeros(max(1, joint.read_cells))  # the levels read: from lc[max(0, i - span)]
    out = np.zeros(max(int(widths.max(initial=1)), min(SLICE_CELLS, joint.n_cells)))
    voff = int(lc[max(0, done + 1 - span)])
    for k in range(max(0, done + 1 - span), done + 1):  # a continued solve reads its last levels back
        read_level(level_path(folder, k), buf[lc[k] - voff : lc[k + 1] - voff])
    e = int(joint.sheet_id[0, 0, 0])
    r0 = joint.row_of(True, e, e)
    first = float("nan")
    for i in range(done + 1, levels):
        lo, hi = int(joint.level_ptr[i]), int(joint.level_ptr[i + 1])
        tmp = folder / f"level-{i:03d}.tmp.npy"
        level = NpyWriter(tmp, int(lc[i + 1] - lc[i]), np.float64, fresh=True)
        for a, b in _slices(joint.row_off, lo, hi, SLICE_CELLS):
            ooff = int(joint.row_off[a])
            part = out[: int(joint.row_off[b]) - ooff]
            n = min(chunks, b - a)
            if moves is not None:
                kernels.solve_level_blocked(T, D, *moves, buf, voff, part, ooff, a, b, n, block)
            else:
                kernels.solve_level(T, D, buf, voff, part, ooff, a, b, n, int(widths[a:b].max()))
            write(ooff, part)
            level.write(ooff - int(lc[i]), part)
            if a <= r0 < b:
                first = float(part[joint.row_off[r0] - ooff + joint.lead_index(r0, 0)])
        level.close()
        tmp.replace(level_path(folder, i))
        _mark_done(folder, joint, key, i)
        if i + 1 < levels:  # the window of level i + 1: drop the levels it no longer reads, add level i
            new_off = int(lc[max(0, i + 1 - span)])
            keep = int(lc[i] - new_off)
            slide(buf, new_off - voff, keep)
            voff = new_off
            read_level(level_path(folder, i), buf[lc[i] - voff : lc[i + 1] - voff])
        if progress is not None:
            progress(i + 1, levels)
    if first != first:  # every level was done before: the empty sheets' row is in the last level's file
        last = np.load(level_path(folder, levels - 1), mmap_mode="r")
        first = float(last[joint.row_off[r0] - lc[levels - 1] + joint.lead_index(r0, 0)])
    return first
