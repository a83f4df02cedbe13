"""Solve time with the standard deviation against the values-only solve, same rules, same run.

    .venv/bin/python benchmarks/sd_solve.py [--rounds 3] [--rules yahtzee yatzy]

Each round solves the rules once without and once with the second moments (alternating, after
one warm-up solve of each kind that is not counted) and prints the medians and their ratio
(target: <= 1.5), with the expected score and the standard deviation.
"""

from __future__ import annotations

import argparse
import time

import numba
from _peer import cores, median

from cubilete.engine.rules import find_rules
from cubilete.solver.solve import solve


def main() -> int:
    """Time both kinds of solve for each rule set."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--rules", nargs="+", default=["yahtzee", "yatzy"])
    args = p.parse_args()
    print(f"{cores()} cores; numba {numba.__version__} ({numba.get_num_threads()} threads); {args.rounds} rounds")
    for name in args.rules:
        rules = find_rules(name)
        solve(rules)  # warm-up: not counted
        solve(rules, moments=True)
        plain: list[float] = []
        with_sd: list[float] = []
        sd = mean = 0.0
        for _ in range(args.rounds):
            start = time.perf_counter()
            solve(rules)
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            sol = solve(rules, moments=True)
            with_sd.append(time.perf_counter() - start)
            sd, mean = sol.std_dev or 0.0, sol.expected_score
        print(f"  {name:<10} values {median(plain):6.2f} s   values + SD {median(with_sd):6.2f} s   "
              f"ratio {median(with_sd) / median(plain):.2f}   (mean {mean:.4f}, SD {sd:.4f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
