"""Maxi Yatzy with saved throws on a Dask cluster: the first layers of the exact game (cap 38) solved
by one process and by ``--dask local:N`` side by side, the two tables compared byte for byte, and the
whole solve's cost estimated from a sample of sheets per layer (CPU seconds of one thread).

    nice -n 5 python tools/maxi_cluster_measure.py [--blocks 6] [--dask local:2] [--per-layer 32]

The tables (13.9 GB files, sparse: only the solved rows take disk) go to a temporary folder that is
removed at the end. docs/generated/OPTIMAL.md quotes the output.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from cubilete.engine.rules import find_rules
from cubilete.solver.maxi.cluster import cluster
from cubilete.solver.maxi.layered import BLOCK, layers, read_progress
from cubilete.solver.maxi.saved import solve_saved, useful_cap
from cubilete.solver.maxi.saved_block import saved_tables, solve_saved_masks


def _worker_peak_rss() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


def timed_layers(address: str | None, folder: Path, blocks: int, cap: int) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, what else) of the first ``blocks`` blocks, on one process or the cluster."""
    rules = find_rules("maxi-yatzy")
    start = time.perf_counter()
    if address is None:
        solve_saved(rules, cap, "lower", folder, stop_after=blocks)
        extra = f"peak RSS {_worker_peak_rss() / 2**20:,.0f} MB"
    else:
        with cluster(address) as dask:
            start = time.perf_counter()  # the workers' start-up is not the solve's
            solve_saved(rules, cap, "lower", folder, stop_after=blocks, dask=dask)
            rss = dask.client.run(_worker_peak_rss)
            extra = "worker peak RSS " + ", ".join(f"{v / 2**20:,.0f} MB" for v in rss.values())
    state = read_progress(folder) or {}
    return time.perf_counter() - start, float(state.get("cpu_seconds", 0.0)), extra


def same_bytes(a: Path, b: Path) -> bool:
    """The two files are equal, read in slices (they are 13.9 GB, mostly holes)."""
    step = 1 << 26
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            x, y = fa.read(step), fb.read(step)
            if x != y:
                return False
            if not x:
                return True


def solved_per_layer(blocks: int) -> list[int]:
    """Sheets solved in each layer by the first ``blocks`` checkpoint blocks."""
    out = []
    for masks in layers(20):
        n = min(blocks, math.ceil(masks.size / BLOCK))
        out.append(min(masks.size, n * BLOCK))
        blocks -= n
        if blocks == 0:
            break
    return out


def cost_per_layer(cap: int, per_layer: int, seed: int = 0) -> list[tuple[int, int, float]]:
    """(boxes closed, sheets in the layer, CPU seconds per sheet on one thread) from ``per_layer`` random
    sheets of each layer (values are scratch: the work per sheet does not depend on them)."""
    numba.set_num_threads(1)
    rules = find_rules("maxi-yatzy")
    t, maxpts = saved_tables(rules)
    n = 1 << t.n_slots
    scratch = np.zeros((n, cap + 1, t.n_upper), dtype=np.float32)  # untouched pages cost nothing
    priced = np.zeros((0, n, 1, t.n_upper), dtype=np.float32)
    lams = np.zeros(0)
    rng = np.random.default_rng(seed)
    out = []
    for masks in layers(t.n_slots):
        closed = int(bin(int(masks[0])).count("1"))
        sample = np.sort(rng.choice(masks, size=min(per_layer, masks.size), replace=False))
        solve_saved_masks(t, maxpts, sample[:1], scratch, cap, "lower", priced, lams, 1)  # compile / load outside
        start = time.process_time()
        solve_saved_masks(t, maxpts, sample, scratch, cap, "lower", priced, lams, 1)
        out.append((closed, int(masks.size), (time.process_time() - start) / sample.size))
    return out


def main() -> None:
    """Print the side-by-side timing and the per-layer estimate as markdown."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--blocks", type=int, default=6, help="checkpoint blocks to solve (6: 14,388 sheets)")
    ap.add_argument("--dask", default="local:2")
    ap.add_argument("--per-layer", type=int, default=32)
    ap.add_argument("--cap", type=int, default=useful_cap(find_rules("maxi-yatzy")))
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="maxi-cluster-"))
    try:
        rows = []
        for name, address in (("one process", None), (args.dask, args.dask)):
            wall, cpu, extra = timed_layers(address, root / name.replace(" ", "-"), args.blocks, args.cap)
            rows.append((name, wall, cpu, extra, os.getloadavg()[0]))
        same = same_bytes(root / "one-process" / "values.npy", root / args.dask / "values.npy")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    done = solved_per_layer(args.blocks)
    sheets = sum(done)
    print(f"maxi-yatzy, cap {args.cap}, lower bound: the first {args.blocks} blocks ({sheets:,} sheets)\n")
    print("| run | wall s | CPU s | ratio to one process (wall) | memory | load average |")
    print("|---|---|---|---|---|---|")
    for name, wall, cpu, extra, load in rows:
        print(f"| {name} | {wall:.1f} | {cpu:.1f} | {wall / rows[0][1]:.2f} | {extra} | {load:.1f} |")
    print(f"\nthe two tables are byte-identical: {same}\n")
    costs = cost_per_layer(args.cap, args.per_layer)
    total = sum(size * per for _, size, per in costs)
    print("| boxes closed | sheets | CPU ms per sheet (one thread) |")
    print("|---|---|---|")
    for closed, size, per in costs:
        print(f"| {closed} | {size:,} | {1000 * per:.2f} |")
    first = sum(n * per for n, (_, _, per) in zip(done, costs, strict=False))
    print(f"\nwhole solve: about {total / 3600:.2f} core-hours of CPU (per bound; the first {args.blocks} layers "
          f"predicted {first:.0f} s against {rows[0][2]:.0f} s measured); on c cores about "
          f"{total / 3600:.2f} / c hours if the layers split evenly (the widest layer has "
          f"{math.comb(20, 10):,} sheets)")  # fmt: skip


if __name__ == "__main__":
    main()
