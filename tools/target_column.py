"""The "best" P(final >= T) from the empty sheet for rules whose (state x T) table does not fit (Yahtzee,
Yatzy): one target table rooted at the empty sheet per (rules, T) (:mod:`cubilete.win.targets`), the most
any way of playing can reach. Prints a line per target and keeps the results in ``docs/generated/target_column.json``
(the "best" column of docs/WINNING.md's distribution table is read from it).

    PYTHONPATH=src nice -n 10 python tools/target_column.py                       # yahtzee and yatzy, 150 200 250
    PYTHONPATH=src python tools/target_column.py --rules yatzy --targets 250       # one

Each target from the empty sheet takes minutes of CPU and about a GB of memory (the table's cells).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from cubilete.engine.rules import find_rules
from cubilete.solver.advisor import sheet_state
from cubilete.solver.cache import shared_solution
from cubilete.win.forward import points_to_come
from cubilete.win.targets import build_target_table

ROOT = Path(__file__).resolve().parent.parent
STORE = ROOT / "docs" / "generated" / "target_column.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", action="append", help="presets (default: yahtzee and yatzy)")
    parser.add_argument("--targets", type=int, nargs="+", default=[150, 200, 250])
    args = parser.parse_args()
    results = json.loads(STORE.read_text(encoding="utf-8")) if STORE.exists() else {}
    for name in args.rules or ["yahtzee", "yatzy"]:
        rules = find_rules(name)
        solution = shared_solution(rules)
        root = sheet_state(solution, (None,) * len(rules.slots))
        pmf = points_to_come(solution, *root)  # P(exactly g points) under points play
        for target in args.targets:
            cpu0, wall0, load = time.process_time(), time.perf_counter(), os.getloadavg()[0]
            table = build_target_table(solution, target, root, 0)
            best = table.value(*root, target)
            follow = float(pmf[target:].sum())
            row = {"best": best, "points_play": follow, "cells": table.cells, "cpu": time.process_time() - cpu0,
                   "wall": time.perf_counter() - wall0, "load": load}  # fmt: skip
            if best < follow - 1e-12:
                raise SystemExit(f"{name} T={target}: best {best} is below points play {follow}: a bug")
            results[f"{name}:{target}"] = row
            STORE.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            print(f"{name} P(>= {target}): points play {follow:.4f}, best {best:.4f}; {table.cells:,} cells, "
                  f"{row['cpu']:.0f} CPU s, {row['wall']:.0f} s wall (load {load:.1f})", flush=True)  # fmt: skip
            del table


if __name__ == "__main__":
    main()
