"""``cubilete warmup``: build the compiled kernels and solve the default rules once, so the first game,
hint and bot answer at once (``./dev play`` runs it during setup)."""

from __future__ import annotations

import argparse
import os
import time

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, paragraph, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.i18n import N_, _, number, translate_error
from cubilete.solver import check_solvable, compile_cache, warm
from cubilete.solver.advisor import advise
from cubilete.solver.cache import load_or_solve

EXAMPLES = N_("""\
examples:
  cubilete warmup                    compile the solver and solve Generala (once; later runs load the cache)
  cubilete warmup --rules yahtzee    the same for another rule set
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``warmup`` command."""
    p = subparsers.add_parser(
        "warmup",
        help=_("compile the solver and solve the default rules once (setup does it)"),
        description=paragraph(
            _("Build the compiled kernels of the solver and solve a rule set (loaded from the cache when it is "
            "there), so that the first hint, bot and advice of a game answer at once.")
        ),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Solve (or load) the rules with a progress bar on a terminal; one line when ready."""
    rules = rules_arg(args.rules)
    try:
        check_solvable(rules)
    except SolverUnsupportedError as exc:
        raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    start = time.perf_counter()
    label = _("preparing the solver for {rules}").format(rules=rules.name)
    os.environ[compile_cache.MODE_ENV] = "numba"  # warmup is where the kernels compile (not numpy's first-run path)
    with progress_bar(label) as show:
        warm.compile_kernels()  # the solve's and the query's kernels, even when the table is already cached
        solution = load_or_solve(rules, show, moments=False)
    # one piece of advice compiles the advisor's kernels too: the first hint of a game is then instant
    advise(solution, (None,) * len(rules.slots), tuple(range(1, rules.dice + 1)), 1, 0, ())
    seconds = time.perf_counter() - start
    print(_("ready: {rules} solved and the kernels compiled ({seconds} s)").format(
        rules=rules.name, seconds=number(seconds)))
    return 0
