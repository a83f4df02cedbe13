"""A full Generala solve (target: under 1 s), next to named peers run alternately in the same script.

    .venv/bin/python benchmarks/generala_solve.py [--rounds 7] [--no-peer]

Rows (median wall time of ``--rounds`` runs each, rules to table, after one warm-up run of
each that is not counted: a fresh checkout JIT-compiles the numba kernels on the first run):

* ours, generala, every core (numba threads = cores);
* ours, generala, one numba thread (the parallelism's share);
* ours, generala with the second moments (standard deviation), every core;
* peer: yatzy-solver's build of "american" (Yahtzee; no peer package plays Generala), every core.

Prints each ratio against the first row.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numba
from _peer import Peer, cores, median

from cubilete.engine.rules import find_rules
from cubilete.solver import solve


def timed(threads: int, moments: bool = False) -> Callable[[], float]:
    """A run of our generala solve with that many numba threads; returns wall seconds."""

    def run() -> float:
        numba.set_num_threads(threads)
        rules = find_rules("generala")
        start = time.perf_counter()
        solve(rules, moments=moments)
        return time.perf_counter() - start

    return run


def main() -> int:
    """Time the rows alternately and print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7, help="timed runs per row (default 7)")
    p.add_argument("--no-peer", action="store_true", help="skip yatzy-solver (no install, no Yahtzee row)")
    args = p.parse_args()
    n = cores()
    rows: dict[str, Callable[[], float]] = {
        f"ours generala, {n} threads": timed(n),
        "ours generala, 1 thread": timed(1),
        f"ours generala + moments, {n} threads": timed(n, moments=True),
    }
    peer = None if args.no_peer else Peer(n)
    if peer is not None:
        rows[f'yatzy-solver "american" (Yahtzee), {n} threads'] = lambda: float(
            peer.ask(op="build", variant="american")["seconds"]
        )
    try:
        for run in rows.values():
            run()  # warm-up: JIT compile and caches, not counted
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(args.rounds):
            for name, run in rows.items():
                times[name].append(run())
    finally:
        if peer is not None:
            peer.close()
    base = median(times[next(iter(rows))])
    print(f"{n} cores, numba {numba.__version__}, {args.rounds} alternating rounds (warm-up not counted)")
    for name, ts in times.items():
        print(f"  {name:<45} median {median(ts):7.3f} s   ratio to ours {median(ts) / base:6.2f}")
    verdict = "met" if base < 1.0 else "NOT met"
    print(f"generala full solve: {base:.3f} s (target < 1 s: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
