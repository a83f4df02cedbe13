"""The exact two-player solve: P(win) for every joint position, by backward induction over levels.

Objective: the probability of winning (a shared win counts one half). Instant wins end the
game at once; a tie at the end goes to tie-break rounds (or is shared) as the rules say.

Every value is computed in f64 from f64 values: a level reads only the ``span`` levels after
it, so those are held in f64 in a buffer that slides level by level (the most memory a solve
needs: :attr:`JointSpace.work_cells` values). Each finished level is copied into the table,
f64 up to :data:`~cubilete.duel.space.F64_CELLS` values and f32 above (in memory, or written
to a file); the first player's value is kept in f64 beside it. With a checkpoint folder each
finished level is also written there in f64, so an interrupted solve continues from the last
finished level.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cubilete.duel import kernels, streamed
from cubilete.duel.space import F64_CELLS, JointSpace, build_joint, tie_shared
from cubilete.duel.streamed import NpyWriter, slide
from cubilete.duel.tiebreak import first_player_tiebreak
from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Rules
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.tables import KernelTables, kernel_tables

Progress = Callable[[int, int], None]


@dataclass(eq=False)
class DuelSolution:
    """``values[row_off[r] + i]`` = P(mover wins) in row r with the mover's lead ``i - (R_mover + 1)``."""

    joint: JointSpace
    values: FloatArray  # f64, or f32 for large tables (then often a read-only map of the file)
    tiebreak: float  # P(the first player wins the tie-break rounds), 0.5 if ties are shared (no box scratched)
    seconds: float = 0.0
    first: float | None = None  # P(first player wins) as solved, in f64 (None: read it from the table)
    sha256: str | None = None  # the table's digest if known
    ties: FloatArray | None = None  # ties[a, b]: the tie-break's ``tiebreak`` by the players' tie classes

    def __post_init__(self) -> None:
        if self.ties is None:
            self.ties = np.full((n_tie_classes(self.joint),) * 2, self.tiebreak)

    @property
    def rules(self) -> Rules:
        """The rules solved."""
        return self.joint.rules

    @cached_property
    def tables(self) -> KernelTables:
        """The solitaire kernels' tables."""
        return kernel_tables(self.joint.space)

    @cached_property
    def duel_tables(self) -> kernels.DuelTables:
        """The joint kernels' tables."""
        assert self.ties is not None
        return duel_tables(self.joint, self.ties)

    def tiebreak_between(self, first_sheet: int, second_sheet: int) -> float:
        """P(the first player wins the tie-break rounds) with these final sheets (their instant wins)."""
        assert self.ties is not None
        classes = tie_classes(self.joint)
        return float(self.ties[classes[first_sheet], classes[second_sheet]])

    @property
    def empty_sheet(self) -> int:
        """The sheet number of an empty sheet."""
        return int(self.joint.sheet_id[0, 0, 0])

    @property
    def first_player_wins(self) -> float:
        """P(the player who moves first wins) under optimal play by both."""
        if self.first is not None:
            return self.first
        e = self.empty_sheet
        return self.joint.value(self.values, self.joint.row_of(True, e, e), 0)

    def win_probability(self, mover_first: bool, mover_sheet: int, other_sheet: int, lead: int) -> float:
        """P(mover wins) at the start of the mover's turn."""
        row = self.joint.row_of(mover_first, mover_sheet, other_sheet)
        if row < 0:
            raise ValueError("that joint position cannot occur (turn counts do not fit the turn order)")
        return self.joint.value(self.values, row, lead)

    @property
    def digest(self) -> str:
        """SHA-256 of the value table (its bytes as stored: f64, or f32 for large tables; C order)."""
        if self.sha256 is None:
            self.sha256 = table_digest(self.values)
        return self.sha256


def table_digest(values: np.ndarray, chunk: int = 1 << 24) -> str:
    """SHA-256 of a table's bytes, read in chunks (a mapped file is read from the file, not through the
    map: its pages would stay in this process, 22.7 GB of them for General)."""
    h = hashlib.sha256()
    if isinstance(values, np.memmap) and values.filename is not None and values.flags.c_contiguous:
        size = values.size * values.itemsize
        with open(values.filename, "rb") as f:
            f.seek(values.offset)
            while size > 0:
                part = f.read(min(size, chunk * 8))
                if not part:
                    raise ValueError(f"{values.filename} is cut short")
                h.update(part)
                size -= len(part)
        return h.hexdigest()
    for a in range(0, len(values), chunk):
        h.update(np.ascontiguousarray(values[a : a + chunk]).tobytes())
    return h.hexdigest()


def table_dtype(cells: int) -> type[np.floating]:
    """The table's float type: f64 up to :data:`F64_CELLS` values, f32 above."""
    return np.float64 if cells <= F64_CELLS else np.float32


def n_tie_classes(joint: JointSpace) -> int:
    """How many tie classes a final sheet can be in: one bit per instant-win box."""
    return 1 << len(joint.iw_slot)


def tie_classes(joint: JointSpace) -> IntArray:
    """Each sheet's tie class: bit w set if instant-win box w can still win at once in a tie-break
    hand (as :func:`cubilete.engine.rules.scoring.instant_win`: it wins after a scratch, or it is open
    or holds points)."""
    sp = joint.space
    out = np.zeros(len(joint.sheet_mask), dtype=np.int64)
    for w, j in enumerate(joint.iw_slot):
        if joint.rules.boxes[int(j)].win_after_scratch:
            live = np.ones(len(out), dtype=np.int64)
        else:
            live = ((joint.sheet_mask >> j) & 1 == 0) | ((joint.sheet_fl >> int(sp.flag_bit[j])) & 1 == 1)
        out |= live.astype(np.int64) << w
    return out


def class_hands(joint: JointSpace, c: int) -> npt.NDArray[np.bool_]:
    """The hands whose first throw wins at once for a player of tie class ``c``."""
    out = np.zeros(joint.iw_hand.shape[1], dtype=bool)
    for w in range(len(joint.iw_slot)):
        if (c >> w) & 1:
            out |= joint.iw_hand[w] == 1
    return out


def tiebreak_table(joint: JointSpace, T: KernelTables) -> FloatArray:
    """ties[a, b] = P(the first player, of tie class a, wins the tie-break rounds against class b)."""
    n = n_tie_classes(joint)
    if tie_shared(joint.rules):
        return np.full((n, n), 0.5)
    wins = [class_hands(joint, c) for c in range(n)]
    return np.array([[first_player_tiebreak(joint.rules, T, first_wins=wins[a], second_wins=wins[b])
                      for b in range(n)] for a in range(n)])  # fmt: skip


def duel_tables(joint: JointSpace, ties: FloatArray | float) -> kernels.DuelTables:
    """Pack the joint space for the kernels; ``ties`` as :func:`tiebreak_table` (a number: every class)."""
    sp = joint.space
    n = n_tie_classes(joint)
    W = np.full((n, n), ties) if isinstance(ties, float) else np.asarray(ties, dtype=np.float64)
    # tie[m, a * n + b]: P(mover wins) after a final tie, the mover first (m = 0) or second, of class a
    tie = np.stack([W.ravel(), (1.0 - W.T).ravel()])
    # -1: the box wins at once even scratched (Bozó's General de boca)
    iw_flag = np.array([-1 if joint.rules.boxes[int(j)].win_after_scratch else sp.flag_bit[j] for j in joint.iw_slot],
                       dtype=np.int64)  # fmt: skip
    return kernels.DuelTables(
        joint.sheet_mask, joint.sheet_fl, joint.sheet_u, joint.sheet_R, joint.sheet_done, joint.sheet_id,
        joint.pair_row, joint.row_m, joint.row_s, joint.row_o, joint.row_lo, joint.row_off, joint.iw_slot,
        joint.iw_hand, iw_flag, tie, servida_hands(joint), tie_classes(joint),
    )  # fmt: skip


def servida_hands(joint: JointSpace) -> IntArray:
    """1 for the hands some box pays differently on the first throw (their first-throw scores are computed)."""
    sp = joint.space
    differ = (sp.pts[0] != sp.pts[1]).any(axis=0)
    if sp.joker:
        for face in range(1, 7):
            if (sp.jpts[0, :, face - 1] != sp.jpts[1, :, face - 1]).any():
                differ |= sp.dice.all_equal_face == face
    out: IntArray = differ.astype(np.int64)
    return out


def solve_joint(
    joint: JointSpace,
    progress: Progress | None = None,
    out: Path | None = None,
    checkpoint: Path | None = None,
    blocked: bool = True,
    block: int = kernels.BLOCK,
    stream: bool | None = None,
) -> DuelSolution:
    """Backward induction over every level of the joint space.

    ``out``: write the table to this ``.npy`` file (the solution maps it) instead of memory;
    ``checkpoint``: a folder for the levels still read (f64) and the progress, so a solve
    stopped part-way continues there (the folder is removed at the end); ``blocked=False``
    runs the reference kernel (one row at a time; rules with locked holds always do), ``block`` is
    the most leads the blocked kernel takes at once. ``stream`` (default: if the levels do not fit in
    memory together, :attr:`JointSpace.streamed`) solves level by level through the checkpoint folder
    (:mod:`cubilete.duel.streamed`; needs ``out`` and ``checkpoint``): the same table.
    """
    start = time.perf_counter()
    T = kernel_tables(joint.space)
    ties = tiebreak_table(joint, T)
    tb = float(ties[-1, -1])  # every instant-win box still live: the usual end
    D = duel_tables(joint, ties)
    blocked = blocked and not T.locked
    moves = kernels.sheet_moves(T, D) if blocked else None
    dtype = table_dtype(joint.n_cells)
    widths = np.diff(joint.row_off)
    chunks = max(1, 4 * (os.cpu_count() or 1))
    if joint.streamed if stream is None else stream:
        if out is None or checkpoint is None:
            raise ValueError("a streamed solve writes its table to a file and its levels to a checkpoint folder")
        checkpoint.mkdir(parents=True, exist_ok=True)
        key = _ckpt_key(joint)
        done = streamed.resume_point(checkpoint, joint, key) if out.is_file() else -1
        writer = NpyWriter(out, joint.n_cells, dtype, fresh=done < 0)
        try:
            first = streamed.solve_levels(
                joint, T, D, moves, writer.write, checkpoint, key, done, progress, block, chunks
            )
        finally:
            writer.close()
        _clear(checkpoint)
        return DuelSolution(joint, np.load(out, mmap_mode="r"), tb, time.perf_counter() - start, first=first, ties=ties)
    levels = len(joint.level_ptr) - 1
    lc = joint.row_off[joint.level_ptr]  # first cell of each level
    span = joint.span
    buf = np.zeros(max(1, joint.work_cells))
    if checkpoint is not None:
        checkpoint.mkdir(parents=True, exist_ok=True)
    done = _resume(checkpoint, joint, buf) if checkpoint is not None else -1
    if done >= 0 and not (out if out is not None else checkpoint / "table.npy").is_file():  # type: ignore[operator]
        done = -1  # the table written so far is gone: start afresh
    values: FloatArray | None = None
    table: NpyWriter | None = None
    if out is None:
        values = np.zeros(joint.n_cells, dtype=dtype)
        if done >= 0:  # the table so far is in the checkpoint's file
            values[: lc[done + 1]] = np.load(checkpoint / "table.npy", mmap_mode="r")[: lc[done + 1]]  # type: ignore[operator]
    else:
        table = NpyWriter(out, joint.n_cells, dtype, fresh=done < 0)
    if checkpoint is not None and out is None:
        table = NpyWriter(checkpoint / "table.npy", joint.n_cells, dtype, fresh=done < 0)
    voff = int(lc[max(0, done - span)]) if done >= 0 else 0
    for i in range(done + 1, levels):
        new_off = int(lc[max(0, i - span)])
        if new_off > voff:
            slide(buf, new_off - voff, int(lc[i] - new_off))
            voff = new_off
        lo, hi = int(joint.level_ptr[i]), int(joint.level_ptr[i + 1])
        if hi > lo:
            n = min(chunks, hi - lo)
            if moves is not None:
                kernels.solve_level_blocked(T, D, *moves, buf, voff, buf, voff, lo, hi, n, block)
            else:
                kernels.solve_level(T, D, buf, voff, buf, voff, lo, hi, n, int(widths[lo:hi].max()))
        level = buf[lc[i] - voff : lc[i + 1] - voff]
        if values is not None:
            values[lc[i] : lc[i + 1]] = level
        if table is not None:
            table.write(int(lc[i]), level)
        if checkpoint is not None:
            _save_level(checkpoint, joint, i, level)
        if progress is not None:
            progress(i + 1, levels)
    e = int(joint.sheet_id[0, 0, 0])
    r0 = joint.row_of(True, e, e)
    first = float(buf[joint.row_off[r0] - voff + joint.lead_index(r0, 0)])
    if table is not None:
        table.close()
    if checkpoint is not None:
        _clear(checkpoint)
    if values is None:
        assert out is not None
        values = np.load(out, mmap_mode="r")
    return DuelSolution(joint, values, tb, time.perf_counter() - start, first=first, ties=ties)


def _ckpt_key(joint: JointSpace) -> str:
    return hashlib.sha256(f"{rules_hash(joint.rules)}:{joint.n_rows}:{joint.n_cells}".encode()).hexdigest()[:20]


def _save_level(folder: Path, joint: JointSpace, i: int, level: FloatArray) -> None:
    """Write finished level i (f64), mark it done, drop the levels no longer read."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"level-{i:03d}.tmp.npy"
    np.save(tmp, level)
    tmp.replace(folder / f"level-{i:03d}.npy")
    state = folder / "state.json"
    state.with_suffix(".tmp").write_text(json.dumps({"key": _ckpt_key(joint), "done": i}))
    state.with_suffix(".tmp").replace(state)
    for old in folder.glob("level-*.npy"):
        k = old.name[6:9]
        if k.isdigit() and int(k) < i - joint.span:
            old.unlink(missing_ok=True)


def _resume(folder: Path, joint: JointSpace, buf: FloatArray) -> int:
    """Load the levels a continued solve reads into buf; the last finished level (-1: start afresh)."""
    try:
        state = json.loads((folder / "state.json").read_text())
        if state.get("key") != _ckpt_key(joint):
            return -1
        done = int(state["done"])
        lc = joint.row_off[joint.level_ptr]
        voff = int(lc[max(0, done - joint.span)])
        for i in range(max(0, done - joint.span), done + 1):
            level = np.load(folder / f"level-{i:03d}.npy")
            if level.shape != (lc[i + 1] - lc[i],):
                return -1
            buf[lc[i] - voff : lc[i + 1] - voff] = level
        return done
    except (OSError, ValueError, KeyError, json.JSONDecodeError):
        return -1


def _clear(folder: Path) -> None:
    for f in folder.glob("*"):
        f.unlink(missing_ok=True)
    folder.rmdir()


def solve_duel(rules: Rules, progress: Progress | None = None) -> DuelSolution:
    """Solve the two-player game of ``rules`` exactly (no cache; see :mod:`cubilete.duel.cache`)."""
    return solve_joint(build_joint(rules), progress)
