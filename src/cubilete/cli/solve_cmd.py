"""``cubilete solve``: the optimal expected score of a rule set, solved or loaded from the cache."""

from __future__ import annotations

import argparse
import contextlib
import json
import textwrap
import time
from collections.abc import Callable

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, paragraph, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import Rules, find_rules
from cubilete.i18n import N_, _, box_name, count, number, rules_title, servida_word, translate_error
from cubilete.solver import Solution, cache, check_solvable, solve

EXAMPLES = N_("""\
examples:
  cubilete solve                          Generala: solved once (about a second), then cached
  cubilete solve --rules yahtzee          official Yahtzee (forced joker)
  cubilete solve --rules yatzy --json     machine-readable
  cubilete solve --rules mesa.toml        a house-rule profile
  cubilete solve --rules generala --no-cache   solve again and replace the cached tables
  cubilete solve --rules mini.toml --players 2   the exact two-player game: P(first player wins)
  cubilete solve --rules maxi-yatzy-no-saved --resume   layer by layer on disk; goes on after a stop
  cubilete solve --rules maxi-yatzy --cap 38 --bound lower --resume --dask tcp://HOST:8786
                                          exact Maxi Yatzy on Dask (docs/generated/OPTIMAL.md)

{objective}
The tables are cached in $CUBILETE_CACHE_DIR, else $XDG_CACHE_HOME/cubilete/solver, else
~/.cache/cubilete/solver, keyed by a hash of the rules. Rules too large to solve exactly
(maxi-yatzy, general-4-columns) end with a one-line reason and exit 1.
""")

def objective(rules: Rules) -> str:
    """What the solved value means, in the current language; instant wins are named only where the rules have one."""
    text = _("Objective: the expected final score of one player playing alone.")
    wins = [b for b in rules.boxes if b.instant_win]
    if wins:
        text += " " + _(
            "Instant wins are not modelled: a {box} {servida} scores as an ordinary ({servida}) {box} and play goes on."
        ).format(box=box_name(rules, wins[0].id), servida=servida_word(rules))
    return text


def register(subparsers: Subcommands) -> None:
    """Add the ``solve`` command."""
    p = subparsers.add_parser(
        "solve",
        help=_("optimal expected score of a rule set (exact solver)"),
        description=paragraph(
            _("Solve a rule set exactly (or load its tables from the cache) and print the optimal expected "
            "final score, its standard deviation, the time taken and the value table's SHA-256. "
            "The objective is the expected final score; instant wins are scored as ordinary points.")
        ),
        epilog=_(EXAMPLES).format(objective=textwrap.fill(objective(find_rules("generala")), 88)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.add_argument("--json", action="store_true", help=_("print a JSON object (no progress bar)"))
    p.add_argument(
        "--players", type=int, choices=(1, 2), default=1, help=_("2: the exact two-player game, P(first player wins)")
    )
    p.add_argument(
        "--no-cache", action="store_true", help=_("ignore cached tables: solve again and replace them in the cache")
    )
    p.add_argument(
        "--resume", action="store_true", help=_("layered solves (maxi-yatzy-no-saved): go on from the last checkpoint")
    )
    p.add_argument("--cap", type=int, metavar="K", help=_("maxi-yatzy: saved throws capped at K, certified bounds"))
    p.add_argument("--bound", choices=("lower", "upper", "both"), help=_("with --cap: which bound (default both)"))
    p.add_argument("--dask", metavar=_("ADDRESS"),
        help=_("with --cap: split each layer over a Dask cluster (tcp://HOST:PORT, or local:N processes; "
               "extra [dask]; the table's folder must be shared)"))  # fmt: skip
    p.set_defaults(func=run)


def obtain(rules: Rules, use_cache: bool, progress: Callable[[int, int], None] | None) -> tuple[Solution, bool]:
    """The tables with second moments, and True if they came from the cache (False: solved now and saved)."""
    if use_cache:
        cached = cache.load(rules)
        if cached is not None and cached.second_moments is not None:
            return cached, True
    solution = solve(rules, progress, moments=True)
    with contextlib.suppress(OSError):  # a read-only cache folder only costs a new solve next time
        cache.save(solution)
    return solution, False


def run(args: argparse.Namespace) -> int:
    """Print the optimal expected score; unsolvable rules end with one line and exit 1."""
    rules = rules_arg(args.rules)
    if getattr(args, "dask", None) is not None and getattr(args, "cap", None) is None:
        raise CliError(_("--dask is for solves with --cap (maxi-yatzy)"))
    if getattr(args, "bound", None) is not None and getattr(args, "cap", None) is None:
        raise CliError(_("--bound is for solves with --cap (maxi-yatzy)"))
    if getattr(args, "players", 1) == 2:
        if getattr(args, "cap", None) is not None:
            raise CliError(_("--cap is for one player's saved throws (maxi-yatzy), not for --players 2"))
        from cubilete.cli.duel_cmd import run_duel

        return run_duel(rules, args)
    if getattr(args, "cap", None) is not None:  # saved throws capped at K: certified bounds, layer by layer
        from cubilete.cli.solve_saved import run_saved

        return run_saved(rules, args)
    from cubilete.solver.maxi.layered import needs_layered

    if needs_layered(rules):  # too large for the in-memory table: layer by layer on disk, resumable
        from cubilete.cli.solve_layered import run_layered

        return run_layered(rules, args)
    try:
        check_solvable(rules)
    except SolverUnsupportedError as exc:
        raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    label = _("solving {rules}").format(rules=rules.name)
    start = time.perf_counter()
    with progress_bar(label, enabled=not args.json) as show:
        solution, loaded = obtain(rules, not args.no_cache, show)
    seconds = time.perf_counter() - start
    path = cache.table_path(rules)
    digest = cache.values_digest(solution)
    std = solution.std_dev
    if args.json:
        data = {
            "rules": rules.name,
            "title": rules.title,
            "expected_score": solution.expected_score,
            "std_dev": std,
            "seconds": seconds,
            "solve_seconds": solution.seconds,
            "cached": loaded,
            "table": str(path) if path.is_file() else None,
            "sha256": digest,
            "states": solution.space.n_states,
            "objective": objective(rules),
        }
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    if loaded:
        how = _("loaded from the cache (solved in {seconds} s)").format(seconds=number(solution.seconds, 2))
    else:
        how = _("solved")
    labels = [_("expected score"), _("std deviation"), _("time"), _("table"), "SHA-256"]
    w = max(len(label) for label in labels) + 2
    print(_("{name}: {title}; optimal play, one player").format(name=rules.name, title=rules_title(rules)))
    print(f"{labels[0]:<{w}}{number(solution.expected_score, 4)}")
    print(f"{labels[1]:<{w}}{number(std, 4)}" if std is not None else f"{labels[1]:<{w}}" + _("not computed"))
    print(f"{labels[2]:<{w}}{number(seconds, 2)} s, {how}")
    print(f"{labels[3]:<{w}}" + (str(path) if path.is_file() else _("(not saved: the cache folder is not writable)")))
    states = _("value table, {states} states").format(states=count(solution.space.n_states))
    print(f"{labels[4]:<{w}}{digest} ({states})")
    print(objective(rules))
    return 0
