"""``cubilete solve --players 2``: the exact two-player game (P(first player wins)), solved or loaded."""

from __future__ import annotations

import argparse
import contextlib
import json
import time

from cubilete.cli.common import DATA_ERROR, CliError
from cubilete.cli.progress import progress_bar
from cubilete.duel import cache
from cubilete.duel.space import build_joint
from cubilete.i18n import N_, _
from cubilete.rules import Rules
from cubilete.solver.space import SolverUnsupportedError

OBJECTIVE = N_(
    "Objective: the probability of winning, both players playing optimally for it; a servida "
    "Generala wins at once, a tie goes to tie-break rounds as the rules say (a shared win counts one half)."
)


def run_duel(rules: Rules, args: argparse.Namespace) -> int:
    """Print P(first player wins); rules whose joint game does not fit end with one line and exit 1."""
    try:
        joint = build_joint(rules)
    except SolverUnsupportedError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    start = time.perf_counter()
    solution = None if args.no_cache else cache.load(rules)
    loaded = solution is not None
    if solution is None:
        from cubilete.duel.solve import solve_joint

        label = _("solving {rules} for two players").format(rules=rules.name)
        with progress_bar(label, enabled=not args.json) as show:
            solution = solve_joint(joint, show)
        with contextlib.suppress(OSError):  # a read-only cache folder only costs a new solve next time
            cache.save(solution)
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
    print(_(OBJECTIVE))
    return 0
