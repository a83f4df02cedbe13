"""The exact two-player solve: P(win) for every joint position, by backward induction over levels.

Objective: the probability of winning (a shared win counts one half). Instant wins end the
game at once; a tie at the end goes to tie-break rounds (or is shared) as the rules say.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from cubilete.duel import kernels
from cubilete.duel.space import JointSpace, build_joint, tie_shared
from cubilete.duel.tiebreak import first_player_tiebreak
from cubilete.rules.model import Rules
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.tables import KernelTables, kernel_tables

Progress = Callable[[int, int], None]


@dataclass(eq=False)
class DuelSolution:
    """``values[row_off[r] + i]`` = P(mover wins) in row r with the mover's lead ``i - (R_mover + 1)``."""

    joint: JointSpace
    values: FloatArray
    tiebreak: float  # P(the first player wins the tie-break rounds), 0.5 if ties are shared
    seconds: float = 0.0

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
        return duel_tables(self.joint, self.tiebreak)

    @property
    def empty_sheet(self) -> int:
        """The sheet number of an empty sheet."""
        return int(self.joint.sheet_id[0, 0, 0])

    @property
    def first_player_wins(self) -> float:
        """P(the player who moves first wins) under optimal play by both."""
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
        """SHA-256 of the value table (float64, C order)."""
        return hashlib.sha256(np.ascontiguousarray(self.values).tobytes()).hexdigest()


def duel_tables(joint: JointSpace, tiebreak: float) -> kernels.DuelTables:
    """Pack the joint space for the kernels."""
    sp = joint.space
    iw_flag = np.array([sp.flag_bit[j] for j in joint.iw_slot], dtype=np.int64)
    return kernels.DuelTables(
        joint.sheet_mask, joint.sheet_fl, joint.sheet_u, joint.sheet_R, joint.sheet_done, joint.sheet_id,
        joint.pair_row, joint.row_m, joint.row_s, joint.row_o, joint.row_off, joint.iw_slot, joint.iw_hand,
        iw_flag, np.array([tiebreak, 1.0 - tiebreak]), servida_hands(joint),
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


def solve_joint(joint: JointSpace, progress: Progress | None = None) -> DuelSolution:
    """Backward induction over every level of the joint space."""
    start = time.perf_counter()
    T = kernel_tables(joint.space)
    tb = 0.5 if tie_shared(joint.rules) else first_player_tiebreak(joint.rules, T)
    D = duel_tables(joint, tb)
    values = np.zeros(joint.n_cells)
    widths = np.diff(joint.row_off)
    chunks = max(1, 4 * (os.cpu_count() or 1))
    levels = len(joint.level_ptr) - 1
    for i in range(levels):
        lo, hi = int(joint.level_ptr[i]), int(joint.level_ptr[i + 1])
        if hi > lo:
            kernels.solve_level(T, D, values, lo, hi, min(chunks, hi - lo), int(widths[lo:hi].max()))
        if progress is not None:
            progress(i + 1, levels)
    return DuelSolution(joint, values, tb, time.perf_counter() - start)


def solve_duel(rules: Rules, progress: Progress | None = None) -> DuelSolution:
    """Solve the two-player game of ``rules`` exactly (no cache; see :mod:`cubilete.duel.cache`)."""
    return solve_joint(build_joint(rules), progress)
