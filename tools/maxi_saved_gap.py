"""Maxi Yatzy with saved throws: the certified bounds as a function of the cap K on a reduced Maxi,
and the cost of the full game per K (timed on a sample of sheets).

    nice -n 10 python tools/maxi_saved_gap.py [--boxes 1,2,3,...] [--caps 0,1,2,4] [--full-caps 0,5,10]

Prints markdown tables (docs/generated/OPTIMAL.md quotes them). Tables are float64 in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi.saved import SOME_PRICES, estimate_saved, solve_saved, useful_cap

BOXES = "1,2,3,three-pairs,four-kind,full-straight,chance,maxi-yatzy"


def reduced(boxes: list[str], threshold: int, bonus: int) -> Rules:
    """Maxi Yatzy (saved throws) with only ``boxes``."""
    rules = find_rules("maxi-yatzy")
    for box in rules.box_ids:
        if box not in boxes:
            rules = rules.without_box(box)
    return rules.replace(name="maxi-reduced", upper_bonus_threshold=threshold, upper_bonus=bonus)


def main() -> None:
    """Print the bounds per cap on the reduced game, then the full game's cost per cap."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--boxes", default=BOXES)
    ap.add_argument("--threshold", type=int, default=24, help="upper bonus threshold (Maxi: 84 for 1-6)")
    ap.add_argument("--bonus", type=int, default=50)
    ap.add_argument("--caps", default="")
    ap.add_argument("--full-caps", default="0,2,5,10,20,38")
    ap.add_argument("--sample", type=int, default=16)
    ap.add_argument("--priced", default="", help="caps at which to add the upper bound with priced games too")
    args = ap.parse_args()
    rules = reduced(args.boxes.split(","), args.threshold, args.bonus)
    full = useful_cap(rules)
    caps = [int(c) for c in args.caps.split(",")] if args.caps else list(range(full + 1))
    priced = {int(c) for c in args.priced.split(",")} if args.priced else set()
    print(f"reduced Maxi: {len(rules.slots)} boxes ({args.boxes}), bonus {args.bonus} at {args.threshold}, "
          f"useful cap {full}; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    print()
    print("| cap K | lower bound | upper bound | gap | lower s | upper s | upper with priced games (s) |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for cap in caps:
            row = []
            for bound in ("lower", "upper"):
                start = time.perf_counter()
                s = solve_saved(rules, cap, bound, Path(tmp) / f"{bound}{cap}", dtype=np.float64)  # type: ignore[arg-type]
                assert s is not None
                row.append((s.expected_score, time.perf_counter() - start))
            (lo, tl), (up, tu) = row
            extra = ""
            if cap in priced:
                start = time.perf_counter()
                s = solve_saved(rules, cap, "upper", Path(tmp) / f"p{cap}", dtype=np.float64, prices=SOME_PRICES)
                assert s is not None
                extra = f"{s.expected_score:.6f} ({time.perf_counter() - start:.0f})"
            print(f"| {cap} | {lo:.6f} | {up:.6f} | {up - lo:.6f} | {tl:.1f} | {tu:.1f} | {extra} |", flush=True)
    if args.full_caps:
        maxi = find_rules("maxi-yatzy")
        print()
        print(f"full maxi-yatzy (useful cap {useful_cap(maxi)}), timed on {args.sample} random sheets:")
        print()
        print("| cap K | table per bound | lower bound, time | upper bound, time |")
        print("|---|---|---|---|")
        for cap in (int(c) for c in args.full_caps.split(",")):
            lo = estimate_saved(maxi, cap, "lower", sample=args.sample)
            up = estimate_saved(maxi, cap, "upper", sample=args.sample)
            print(f"| {cap} | {lo.disk_bytes / 2**30:.2f} GB | {lo.seconds / 3600:.1f} h | {up.seconds / 3600:.1f} h |",
                  flush=True)  # fmt: skip
        print(f"\n({lo.threads} numba threads; load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
