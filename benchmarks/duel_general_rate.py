"""The two-player kernel's speed on Brazilian General's largest level next to Generala's (the peer: the
table already solved and published, docs/WINNING.md), and the whole General solve it predicts.

    NUMBA_NUM_THREADS=1 python benchmarks/duel_general_rate.py [--values 1000000]

Each side solves its first ``--values`` values of its largest level, one after the other in this
process; the levels read hold zeros (the work per value does not depend on them, and the untouched
pages take no memory). Prints values per CPU second, the ratio, and General's CPU hours in all.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cubilete.duel import kernels
from cubilete.duel.solve import duel_tables
from cubilete.duel.space import build_joint
from cubilete.engine.rules import find_rules
from cubilete.solver.tables import kernel_tables


def rate(name: str, values: int) -> tuple[float, int]:
    """(values per CPU second on the largest level, all values of the table)."""
    joint = build_joint(find_rules(name))
    T = kernel_tables(joint.space)
    D = duel_tables(joint, 0.5)
    moves = kernels.sheet_moves(T, D)
    lc = joint.row_off[joint.level_ptr]
    i = int(np.argmax(np.diff(lc)))
    voff = int(lc[max(0, i - joint.span)])
    read = np.zeros(int(lc[i]) - voff)
    lo = int(joint.level_ptr[i])
    hi = lo + int(np.searchsorted(joint.row_off[lo:] - joint.row_off[lo], values))
    out = np.zeros(int(joint.row_off[hi] - joint.row_off[lo]))
    at = int(joint.row_off[lo])
    kernels.solve_level_blocked(T, D, *moves, read, voff, out, at, lo, lo + 2, 1)  # compile outside the clock
    cpu = time.process_time()
    kernels.solve_level_blocked(T, D, *moves, read, voff, out, at, lo, hi, 4)
    cpu = time.process_time() - cpu
    print(f"{name}: level {i}, {len(out):,} values in {cpu:.1f} CPU s: {len(out) / cpu:,.0f} values per CPU second")
    return len(out) / cpu, joint.n_cells


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--values", type=int, default=1_000_000)
    args = p.parse_args()
    peer, _ = rate("generala", args.values)
    ours, cells = rate("general", args.values)
    print(f"general / generala, values per CPU second: {ours / peer:.2f}")
    print(f"general's {cells:,} values: {cells / ours / 3600:.2f} CPU hours")


if __name__ == "__main__":
    main()
