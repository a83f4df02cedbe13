"""Heads-up: the approximate win bot (``bot:win`` on Yahtzee and Yatzy) against the expected-score optimum.

Paired games on duplicate dice (:mod:`cubilete.simulate.fastsim.approx_duel`): per deal the optimum in both
seats (the control) and the win bot in each seat against the optimum. Prints each seat's win rate (ties
counted half) with a 95% interval, the control's, and the paired gain over the control in the same seat.

    nice -n 19 python benchmarks/win_approx.py --rules yatzy --deals 200000 --seed win-approx

``--tail N``: the exact tail N turns deep instead of the bot's (``TAIL_TURNS``; 0: the normal everywhere).

A long study spans sessions: ``--save PREFIX`` keeps every deal's four final scores (``PREFIX<rules>.npy``, beside
a ``.json`` saying which run they are) and a run started again with the same arguments continues after the last
saved batch; ``--first N`` starts at deal N (the deals are the same for a seed whatever the batches), and
``--prior FILE.json`` pools the rates with an earlier run's ``--json`` result on a disjoint range of deals
(means and variances pooled exactly from each part's mean, half-width and count).

Peer anchor: dlangk/yatzy's adaptive player moving second wins 50.86% against the optimum in Yatzy.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import time
from pathlib import Path

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
    ap.add_argument("--first", type=int, default=0, help="the first deal's number (default 0)")
    ap.add_argument("--save", default="", help="a file name prefix: every deal's scores, continued when run again")
    ap.add_argument("--prior", default="", help="an earlier --json result on other deals of the same seed to pool")
    args = ap.parse_args()
    if args.first < 0 or args.deals <= 0 or args.batch <= 0:
        ap.error("--first must be >= 0, --deals and --batch > 0")
    prior = load_prior(args.prior, ap) if args.prior else None
    if prior is not None:
        a = int(prior.get("first", 0))  # type: ignore[call-overload]
        b = a + int(prior["deals"])  # type: ignore[call-overload]
        overlap = a < args.first + args.deals and args.first < b
        if (prior.get("seed"), prior.get("rules")) != (args.seed, args.rules) or overlap:
            ap.error(f"--prior {args.prior}: must be a run of the same rules and seed on other deals")
    runs = []
    for name in args.rules.split(","):
        rules = find_rules(name)
        m = moments_of(rules)
        if args.tail >= 0:
            m = Moments(m.solution, m.variance, *build_tail(m.solution, args.tail))
        out, done = resume(rules.name, args)
        runs.append((rules, m, build_params(rules), out, done))
    key = np.uint64(seed_key(args.seed))
    t0 = time.perf_counter()
    for start in range(0, args.deals, args.batch):
        n = min(args.batch, args.deals - start)
        for rules, m, P, out, done in runs:
            if start + n <= done:
                continue
            chunk = np.zeros((n, 4), dtype=np.int64)
            V, T = m.solution.values, m.solution.tables
            play_pairs(T, V, m.variance, m.idx, m.tail, P, key, args.first + start, chunk)
            out[start : start + n] = chunk
            save(rules.name, out[: start + n], args)
            report(rules.name, out[: start + n], args, t0, prior)


def run_of(name: str, args: argparse.Namespace) -> dict[str, object]:
    """What a saved file of scores is: a continued run must be the same run."""
    return {"rules": name, "seed": args.seed, "first": args.first, "tail": args.tail}


def resume(name: str, args: argparse.Namespace) -> tuple[np.ndarray, int]:
    """The scores array for this run, with the deals already saved by an earlier run of it filled in."""
    out = np.zeros((args.deals, 4), dtype=np.int64)
    if not args.save:
        return out, 0
    scores, meta = Path(f"{args.save}{name}.npy"), Path(f"{args.save}{name}.json")
    if not scores.exists():
        return out, 0
    if not meta.exists() or json.loads(meta.read_text()) != run_of(name, args):
        raise SystemExit(f"{scores} holds another run (see {meta}): give another --save prefix")
    saved = np.load(scores)
    done = min(saved.shape[0], args.deals)
    out[:done] = saved[:done]
    print(f"{name}: continuing after {done} saved deals", flush=True)
    return out, done


def save(name: str, out: np.ndarray, args: argparse.Namespace) -> None:
    if args.save:
        Path(f"{args.save}{name}.json").write_text(json.dumps(run_of(name, args)))
        tmp = Path(f"{args.save}{name}.tmp.npy")
        np.save(tmp, out.astype(np.int32))
        tmp.replace(f"{args.save}{name}.npy")  # a run stopped mid-write keeps the last whole file


def load_prior(path: str, ap: argparse.ArgumentParser) -> dict[str, object]:
    try:
        prior = json.loads(Path(path).read_text())
        int(prior["deals"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        ap.error(f"--prior {path}: not a --json result of this script ({e})")
    return dict(prior)


def pooled(prior: dict[str, object], label: str, x: np.ndarray) -> tuple[float, float, int]:
    """Mean and 95% half-width of this run's outcomes pooled with an earlier run's on other deals."""
    n1 = int(prior["deals"])  # type: ignore[call-overload]
    m1, h1 = prior[label]  # type: ignore[misc]
    s1 = h1 * math.sqrt(n1) / 1.96
    n2, m2, s2 = x.size, float(x.mean()), float(x.std(ddof=1))
    n = n1 + n2
    m = (n1 * m1 + n2 * m2) / n
    var = ((n1 - 1) * s1**2 + (n2 - 1) * s2**2 + n1 * (m1 - m) ** 2 + n2 * (m2 - m) ** 2) / (n - 1)
    return m, 1.96 * math.sqrt(var / n), n


def report(name: str, out: np.ndarray, args: argparse.Namespace, t0: float, prior: dict[str, object] | None) -> None:
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
    print(f"{name}: {out.shape[0]} deals from deal {args.first}, seed {args.seed!r}, commit {commit}, "
          f"{time.perf_counter() - t0:.0f} s; ties count half", flush=True)  # fmt: skip
    result: dict[str, object] = {
        "rules": name, "deals": int(out.shape[0]), "first": args.first, "seed": args.seed, "commit": commit,
    }  # fmt: skip
    for label, x in rows.items():
        mean, half = rate(x)
        print(f"  {label:46s} {100 * mean:7.3f}% +- {100 * half:.3f}")
        result[label] = [mean, half]
    if prior is not None:
        print(f"  pooled with {args.prior} ({prior['deals']} deals from deal {prior.get('first', 0)}):")
        for label, x in rows.items():
            mean, half, n = pooled(prior, label, x)
            print(f"  {label:46s} {100 * mean:7.3f}% +- {100 * half:.3f} ({n} deals)")
            result["pooled " + label] = [mean, half]
    print(f"  mean scores: optimal {out[:, :2].mean():.2f}, win bot {out[:, 2:].mean():.2f}")
    result["mean optimal"], result["mean win bot"] = float(out[:, :2].mean()), float(out[:, 2:].mean())
    if args.json:
        with open(f"{args.json}{name}.json", "w") as fh:
            json.dump(result, fh, indent=1)


if __name__ == "__main__":
    main()
