"""``cubilete solve --rules R --players 2 --json`` for a long solve left running alone: one line per
finished level (UTC time, level, values done, this process's peak memory) on stdout, then the CLI's
JSON. Stopped, it is run again with the same command and continues from its last finished level.

    nohup nice -n 19 python tools/solve_duel_logged.py general > solve-general.log 2>&1 &
"""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime

from cubilete.duel import cache
from cubilete.duel.space import build_joint
from cubilete.engine.rules import find_rules


def main(name: str) -> None:
    rules = find_rules(name)
    joint = build_joint(rules)
    lc = joint.row_off[joint.level_ptr]
    print(
        f"{rules.name}: {joint.n_rows:,} positions, {joint.n_cells:,} values, {len(lc) - 1} levels, "
        f"streamed: {joint.streamed}; table {cache.duel_path(rules)}",
        flush=True,
    )
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(
            f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S} level {done}/{total}: {int(lc[done]):,} values done, "
            f"{time.perf_counter() - start:,.0f} s, peak {cache.peak_rss_gb():.2f} GB",
            flush=True,
        )

    solution = cache.solve_and_save(joint, progress)
    print(
        json.dumps(
            {
                "rules": rules.name,
                "first_player_wins": solution.first_player_wins,
                "tiebreak_first_wins": solution.tiebreak,
                "ties": solution.ties.tolist() if solution.ties is not None else None,
                "values": joint.n_cells,
                "positions": joint.n_rows,
                "solve_seconds": solution.seconds,
                "peak_gb": cache.peak_rss_gb(),
                "sha256": solution.digest,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "general")
