"""``cubilete solve --players 2``: the exact two-player game (P(first player wins)), solved or loaded."""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from cubilete.cli.common import DATA_ERROR, CliError
from cubilete.cli.progress import progress_bar
from cubilete.duel import cache
from cubilete.duel.space import build_joint
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import Rules
from cubilete.i18n import N_, _, count, number, rules_title, translate_error

OBJECTIVE = N_(
    "Objective: the probability of winning, both players playing optimally for it; a servida "
    "Generala wins at once, a tie goes to tie-break rounds as the rules say (a shared win counts one half)."
)


def run_duel(rules: Rules, args: argparse.Namespace) -> int:
    """Print P(first player wins); rules whose joint game does not fit end with one line and exit 1."""
    try:
        joint = build_joint(rules)
    except SolverUnsupportedError as exc:
        raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    start = time.perf_counter()
    solution = None if args.no_cache else cache.load(rules)
    loaded = solution is not None
    if solution is None:
        label = _("solving {rules} for two players").format(rules=rules.name)
        try:
            with progress_bar(label, enabled=not args.json) as show:
                solution = cache.solve_and_save(joint, show)
        except OSError as exc:  # a large table is written to the cache folder as it is solved
            raise CliError(_("cannot write the two-player table: {reason}").format(reason=exc), DATA_ERROR) from None
        except SolverUnsupportedError as exc:  # the disk or memory is short for a large table
            raise CliError(translate_error(str(exc)), DATA_ERROR) from None
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
    how = _("loaded from the cache (solved in {seconds} s)").format(seconds=number(solution.seconds, 2)) if loaded \
        else _("solved")
    labels = [_("first player wins"), _("tie-break rounds"), _("states"), _("time"), _("table"), "SHA-256"]
    w = max(len(label) for label in labels) + 2
    print(_("{name}: {title}; optimal play, two players").format(name=rules.name, title=rules_title(rules)))
    print(f"{labels[0]:<{w}}{number(solution.first_player_wins, 6)}")
    print(f"{labels[1]:<{w}}" + _("the first player wins them with {p}").format(p=number(solution.tiebreak, 6)))
    print(f"{labels[2]:<{w}}" + _("{positions} joint positions, {values} values").format(
        positions=count(solution.joint.n_rows), values=count(solution.joint.n_cells)))
    print(f"{labels[3]:<{w}}{number(seconds, 2)} s, {how}")
    print(f"{labels[4]:<{w}}" + (str(path) if path.is_file() else _("(not saved: the cache folder is not writable)")))
    print(f"{labels[5]:<{w}}{solution.digest}")
    print(_(OBJECTIVE))
    return 0
