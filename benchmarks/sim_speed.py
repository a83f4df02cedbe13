"""Games per second of ``simulate``: the compiled simulation next to the game engine, same script.

    .venv/bin/python benchmarks/sim_speed.py [--engine-games 200] [--compiled-games 200000] [--workers 2]

Two cases: heads-up Generala, optimal against optimal, paired (goal >= 10,000 games/s on 2 cores), and
Yahtzee, the optimal bot alone (goal >= 2,000 games/s). Each side is ``cubilete.simulate.pool.simulate`` with the same
workers (processes for the engine, numba threads for the compiled path); a paired deal counts as two games.
A warm-up run of each side (numba compilation, the solved tables) is not timed. Runs alternate engine,
compiled, engine, compiled so that a change in the machine's load hits both alike; medians are printed,
with the CPU seconds of this process and its children (on a busy machine wall time understates both).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from cubilete.engine.rules import find_rules
from cubilete.simulate.pool import Mode, simulate

CASES: list[tuple[str, list[str], Mode, int]] = [
    ("generala", ["optimal", "optimal"], "paired", 2),  # games per deal
    ("yahtzee", ["optimal"], "solo", 1),
]


def timed(rules_name: str, bots: list[str], mode: Mode, deals: int, workers: int, engine: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its children) of one simulation."""
    before, start = os.times(), time.perf_counter()
    result = simulate(find_rules(rules_name), bots, deals, "bench", workers, mode=mode, loss=False, engine=engine)
    wall, after = time.perf_counter() - start, os.times()
    assert result.compiled is not engine
    cpu = (after.user + after.system + after.children_user + after.children_system) - (
        before.user + before.system + before.children_user + before.children_system
    )
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine-games", type=int, default=200, help="deals per engine run (default 200)")
    parser.add_argument("--compiled-games", type=int, default=200_000, help="deals per compiled run (default 200,000)")
    parser.add_argument("--workers", type=int, default=2, help="processes / numba threads (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each side (default 3)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min); {args.workers} workers")
    for name, bots, mode, per_deal in CASES:
        timed(name, bots, mode, 4, args.workers, engine=True)  # warm-up: tables, pools, numba
        timed(name, bots, mode, 4, args.workers, engine=False)
        rates: dict[bool, list[float]] = {True: [], False: []}
        cpu_rates: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(args.repeats):
            for engine in (True, False):
                deals = args.engine_games if engine else args.compiled_games
                wall, cpu = timed(name, bots, mode, deals, args.workers, engine)
                rates[engine].append(deals * per_deal / wall)
                cpu_rates[engine].append(deals * per_deal / max(cpu, 1e-9))
        eng, comp = statistics.median(rates[True]), statistics.median(rates[False])
        eng_cpu, comp_cpu = statistics.median(cpu_rates[True]), statistics.median(cpu_rates[False])
        print(
            f"{name} {'+'.join(bots)} {mode}: engine {eng:,.0f} games/s ({eng_cpu:,.0f} per CPU s), "
            f"compiled {comp:,.0f} games/s ({comp_cpu:,.0f} per CPU s); ratio compiled/engine {comp / eng:,.0f}x"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
