"""``cubilete solve --players 2``: the exact two-player game (P(first player wins)), solved or loaded."""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from cubilete.cli.common import DATA_ERROR, CliError
from cubilete.duel import cache
from cubilete.duel.space import build_joint
from cubilete.rules import Rules
from cubilete.solver.space import SolverUnsupportedError

OBJECTIVE = (
    "Objective: the probability of winning, both players playing optimally for it; a servida "
    "Generala wins at once, a tie goes to tie-break rounds as the rules say (a shared win counts one half)."
)


def run_duel(rules: Rules, args: argparse.Namespace) -> int:
    """Print P(first player wins); rules whose joint game does not fit end with one line and exit 1."""
    from cubilete.cli.solve_cmd import progress_bar

    try:
        joint = build_joint(rules)
    except SolverUnsupportedError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    show = None if args.json or not sys.stderr.isatty() else progress_bar(sys.stderr, f"solving {rules.name} x2")
    start = time.perf_counter()
    solution = None if args.no_cache else cache.load(rules)
    loaded = solution is not None
    if solution is None:
        try:
            solution = cache.solve_and_save(joint, show)
        except OSError as exc:  # a large table is written to the cache folder as it is solved
            raise CliError(f"cannot write the two-player table: {exc}", DATA_ERROR) from None
    seconds = time.perf_counter() - start
    path = cache.duel_path(rules)
    data = {
        "rules": rules.name,
        "title": rules.title,
        "players": 2,
        "first_player_wins": solution.first_player_wins,
        "tiebreak_first_wins": solution.tiebreak,
        "states": solution.joint.n_rows,
        "values": solution.joint.n_cells,
        "table_dtype": str(np.asarray(solution.values).dtype),
        "seconds": seconds,
        "solve_seconds": solution.seconds,
        "cached": loaded,
        "table": str(path) if path.is_file() else None,
        "sha256": solution.digest,
        "objective": OBJECTIVE,
    }
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    how = f"loaded from the cache (solved in {solution.seconds:.2f} s)" if loaded else "solved"
    print(f"{rules.name}: {rules.title}; optimal play, two players")
    print(f"first player wins  {solution.first_player_wins:.6f}")
    print(f"tie-break rounds   first player wins them with {solution.tiebreak:.6f}")
    print(f"states             {solution.joint.n_rows:,} joint positions, {solution.joint.n_cells:,} values")
    print(f"time               {seconds:.2f} s, {how}")
    print(f"table              {path if path.is_file() else '(not saved: the cache folder is not writable)'}")
    print(f"SHA-256            {solution.digest}")
    print(OBJECTIVE)
    return 0
