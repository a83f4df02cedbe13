"""Write docs/generated/OPTIMAL.md: exact optimal values of every preset and how optimal play uses each box.

    python tools/optimal_doc.py                        # every preset, 2000 games each, 2 processes
    python tools/optimal_doc.py --presets generala,yahtzee --games 200 --out /tmp/x.md

Tables come from the solver cache ($CUBILETE_CACHE_DIR, else ~/.cache/cubilete/solver) or are
solved first. The same --seed and --games give the same file. Takes about 15 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from optimal_report import write_report  # beside this script (tools/ is on the path when it runs)

from cubilete.engine.rules import all_presets, find_rules

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    """Parse the options, build the report and write it."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "generated" / "OPTIMAL.md",
                   help="where to write (default docs/generated/)")
    p.add_argument("--games", type=int, default=2000, help="simulated games per preset (default 2000)")
    p.add_argument("--seed", default="optimal-doc-1", help="seed of the simulated games")
    p.add_argument("--presets", default="", help="comma-separated preset names (default: every preset)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for the games")
    args = p.parse_args(argv)
    presets = [find_rules(n.strip()) for n in args.presets.split(",") if n.strip()] or all_presets()
    start = time.perf_counter()
    text = write_report(presets, args.games, args.seed, args.workers)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(presets)} presets, {time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
