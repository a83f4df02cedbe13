"""Heads-up: the approximate win bot (``bot:win`` on Yahtzee and Yatzy) against the expected-score optimum.

Paired games on duplicate dice (:mod:`cubilete.simulate.fastsim.approx_duel`): per deal the optimum in both
seats (the control) and the win bot in each seat against the optimum. Prints each seat's win rate (ties
counted half) with a 95% interval, the control's, and the paired gain over the control in the same seat.

    nice -n 19 python benchmarks/win_approx.py --rules yatzy --deals 200000 --seed win-approx

``--tail N``: the exact tail N turns deep instead of the bot's (``TAIL_TURNS``; 0: the normal everywhere).

Peer anchor: dlangk/yatzy's adaptive player moving second wins 50.86% against the optimum in Yatzy.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import time

import numpy as np


def rate(x: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-width of per-deal outcomes."""
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / math.sqrt(x.size)


def outcome(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 if a beats b, 0.5 on a tie, else 0."""
    return np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0))


def main() -> None:
    from cubilete.engine.rules import find_rules
    from cubilete.simulate.fastsim import build_params
    from cubilete.simulate.fastsim.approx_duel import play_pairs
    from cubilete.simulate.fastsim.dice import seed_key
    from cubilete.win.approx import Moments, build_tail, moments_of

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="yatzy", help="a rule set, or several separated by commas (batches alternate)")
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", default="win-approx")
    ap.add_argument("--batch", type=int, default=2_000)
    ap.add_argument("--json", default="", help="a file name prefix for each rule set's results")
    ap.add_argument("--tail", type=int, default=-1, help="turns left in the exact tail (default: the bot's)")
    args = ap.parse_args()
    runs = []
    for name in args.rules.split(","):
        rules = find_rules(name)
        m = moments_of(rules)
        if args.tail >= 0:
            m = Moments(m.solution, m.variance, *build_tail(m.solution, args.tail))
        runs.append((rules, m, build_params(rules), np.zeros((args.deals, 4), dtype=np.int64)))
    key = np.uint64(seed_key(args.seed))
    t0 = time.perf_counter()
    for start in range(0, args.deals, args.batch):
        n = min(args.batch, args.deals - start)
        for rules, m, P, out in runs:
            chunk = np.zeros((n, 4), dtype=np.int64)
            play_pairs(m.solution.tables, m.solution.values, m.variance, m.idx, m.tail, P, key, start, chunk)
            out[start : start + n] = chunk
            report(rules.name, out[: start + n], args, t0)


def report(name: str, out: np.ndarray, args: argparse.Namespace, t0: float) -> None:
    """Print (and save with --json) the rates so far: a long run can be stopped at any batch."""
    o0, o1, w0, w1 = (out[:, i] for i in range(4))
    rows = {
        "win bot first (vs optimal second)": outcome(w0, o1),
        "win bot second (vs optimal first)": outcome(w1, o0),
        "control: optimal second (vs optimal first)": outcome(o1, o0),
        "paired gain, first seat (win bot - optimal)": outcome(w0, o1) - outcome(o0, o1),
        "paired gain, second seat (win bot - optimal)": outcome(w1, o0) - outcome(o1, o0),
    }
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"{name}: {out.shape[0]} deals, seed {args.seed!r}, commit {commit}, "
          f"{time.perf_counter() - t0:.0f} s; ties count half", flush=True)  # fmt: skip
    result: dict[str, object] = {"rules": name, "deals": int(out.shape[0]), "seed": args.seed, "commit": commit}
    for label, x in rows.items():
        mean, half = rate(x)
        print(f"  {label:46s} {100 * mean:7.3f}% +- {100 * half:.3f}")
        result[label] = [mean, half]
    print(f"  mean scores: optimal {out[:, :2].mean():.2f}, win bot {out[:, 2:].mean():.2f}")
    result["mean optimal"], result["mean win bot"] = float(out[:, :2].mean()), float(out[:, 2:].mean())
    if args.json:
        with open(f"{args.json}{name}.json", "w") as fh:
            json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
