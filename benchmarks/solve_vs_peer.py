"""Full solve of standard Yahtzee and Yatzy: cubilete (numpy + numba) against yatzy-solver (Rust), same cores.

    .venv/bin/python benchmarks/solve_vs_peer.py [--rounds 5] [--threads N] [--only yahtzee-free-joker]

For each pair the peer's ``Solver.build`` and our ``solve`` run alternately (A, B, A, B, ...)
after one warm-up run of each that is not counted: our first run in a fresh checkout
JIT-compiles the numba kernels (~30-40 s, cached afterwards), and that compile is not timed.
Both use the same number of threads (numba threads here, RAYON_NUM_THREADS for the peer).
The two optimal expected scores must agree to 1e-6. Prints per-pair median wall times and
the ratio ours / theirs (target: 1.0 or less).
"""

from __future__ import annotations

import argparse
import time

import numba
from _peer import Peer, cores, median

from cubilete.engine.rules import find_rules
from cubilete.solver import solve

# (our preset, the peer's variant): the same rules on both sides.
PAIRS = [
    ("yahtzee-free-joker", "american"),  # Verhoeff/Glenn solitaire Yahtzee: 254.5896
    ("yahtzee", "american+forced-joker"),  # official forced joker: 254.5877
    ("yatzy", "yatzy-scandinavian"),  # Scandinavian Yatzy: 248.4400
]


def ours(name: str) -> tuple[float, float]:
    """(wall seconds, optimal expected score) of one full solve, rules to table."""
    rules = find_rules(name)
    start = time.perf_counter()
    solution = solve(rules)
    return time.perf_counter() - start, solution.expected_score


def main() -> int:
    """Run the pairs and print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5, help="timed runs of each side per pair (default 5)")
    p.add_argument("--threads", type=int, default=cores(), help="threads for both sides (default: every core)")
    p.add_argument("--only", default="", help="comma-separated presets of ours to run (default: all pairs)")
    args = p.parse_args()
    numba.set_num_threads(args.threads)
    pairs = [pair for pair in PAIRS if not args.only or pair[0] in args.only.split(",")]
    print(f"{args.threads} threads on each side, {cores()} cores available; {args.rounds} alternating rounds")
    rows = []
    with Peer(args.threads) as peer:
        info = peer.ask(op="version")
        print(f"peer: yatzy-solver (solver version {info['version']}); ours: cubilete, numba {numba.__version__}")
        for mine, theirs in pairs:
            ours(mine)  # warm-up (JIT compile on a fresh checkout): not counted
            peer.ask(op="build", variant=theirs)
            a_times, b_times = [], []
            for _ in range(args.rounds):
                seconds, value = ours(mine)
                a_times.append(seconds)
                answer = peer.ask(op="build", variant=theirs)
                b_times.append(answer["seconds"])
                if abs(value - answer["value"]) > 1e-6:
                    raise SystemExit(f"{mine} vs {theirs}: values differ: {value!r} vs {answer['value']!r}")
            rows.append((mine, theirs, value, answer["value"], median(a_times), median(b_times)))
            print(f"  {mine}: ours {median(a_times):.2f} s, theirs {median(b_times):.2f} s", flush=True)
    print()
    head = ("ours", "theirs", "expected score", "|diff|", "ours s", "theirs s", "ratio")
    print("{:<20} {:<24} {:>15} {:>8} {:>8} {:>9} {:>6}".format(*head))
    for mine, theirs, v_ours, v_theirs, t_ours, t_theirs in rows:
        print(
            f"{mine:<20} {theirs:<24} {v_ours:15.6f} {abs(v_ours - v_theirs):8.1e} "
            f"{t_ours:8.2f} {t_theirs:9.2f} {t_ours / t_theirs:6.2f}"
        )
    print("ratio = median wall time ours / theirs (target <= 1.0); warm-up runs and JIT compile not counted")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
