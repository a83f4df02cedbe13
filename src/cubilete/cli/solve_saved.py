"""``cubilete solve --rules maxi-yatzy --cap K``: Maxi Yatzy with saved throws, the bank capped at K,
as certified lower and upper bounds on the true optimum (:mod:`cubilete.solver.maxi.saved`);
an estimate first, a progress bar, checkpoints (``--resume`` goes on after an interruption)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import Rules
from cubilete.i18n import _, number, rules_title, translate_error
from cubilete.solver.maxi.saved import (
    BOUNDS,
    Bound,
    SavedSolution,
    check_saved,
    default_dir,
    estimate_saved,
    load_saved,
    partial_saved,
    solve_saved,
    useful_cap,
)


def run_saved(rules: Rules, args: argparse.Namespace) -> int:
    """Load or solve (or resume) each bound asked for (on a Dask cluster with ``--dask``), then print them."""
    cap = int(args.cap)
    if not rules.carry_over_throws:
        raise CliError(_("--cap is for rules with saved throws (maxi-yatzy), not {rules}").format(rules=rules.name))
    try:
        check_saved(rules, cap)
    except SolverUnsupportedError as exc:
        raise CliError(translate_error(str(exc)), USAGE_ERROR) from None
    bounds: tuple[Bound, ...] = BOUNDS if args.bound in (None, "both") else (args.bound,)
    with contextlib.ExitStack() as stack:  # the cluster is started only if a bound has to be solved
        address = getattr(args, "dask", None)
        found = _solve(rules, cap, bounds, args, lambda: stack.enter_context(_cluster(address)) if address else None)
    return _print(rules, cap, found, args.json)


@contextlib.contextmanager
def _cluster(address: str) -> Iterator[Any]:
    """The Dask cluster of ``--dask``; a wrong address or a missing extra is one line."""
    from cubilete.engine.errors import ClusterError
    from cubilete.solver.maxi.cluster import cluster

    try:
        with cluster(address) as dask:
            yield dask
    except ClusterError as exc:
        raise CliError(translate_error(str(exc)), USAGE_ERROR) from None


def _solve(
    rules: Rules, cap: int, bounds: tuple[Bound, ...], args: argparse.Namespace, connect: Callable[[], Any]
) -> dict[str, SavedSolution]:
    """Load or solve (or resume) each bound, on the cluster ``connect()`` gives (None: this process)."""
    from cubilete.cli.progress import progress_bar

    found: dict[str, SavedSolution] = {}
    dask: Any = None
    for bound in bounds:
        folder = default_dir(rules, cap, bound)
        solution = None if args.no_cache else load_saved(rules, cap, bound, folder)
        if solution is None:
            done = partial_saved(rules, cap, bound, folder)
            if done is not None and not args.resume and not args.no_cache:
                text = _(
                    "{rules}: a solve stopped at {percent} in {folder}; add --resume to go on (--no-cache: start again)"
                )
                percent = number(100 * done) + "%"
                raise CliError(text.format(rules=rules.name, percent=percent, folder=folder), DATA_ERROR)
            dask = dask or connect()
            if not args.json and dask is None:  # the estimate times this machine, not the cluster
                cost = estimate_saved(rules, cap, bound)
                print(_("estimate: {what}").format(what=cost.describe()), file=sys.stderr)
            label = _("solving {rules}").format(rules=f"{rules.name} ({bound}, cap {cap})")
            try:
                with progress_bar(label, enabled=not args.json) as show:
                    solution = solve_saved(
                        rules, cap, bound, folder, resume=bool(args.resume), progress=show, dask=dask
                    )
            except KeyboardInterrupt:
                print(file=sys.stderr)
                raise CliError(
                    _("interrupted: the finished layers are saved; run the same command with --resume to go on"), 130
                ) from None
        assert solution is not None
        found[bound] = solution
    return found


def _print(rules: Rules, cap: int, found: dict[str, SavedSolution], as_json: bool) -> int:
    if as_json:
        data = {
            "rules": rules.name,
            "cap": cap,
            "exact": cap >= useful_cap(rules),
            **{
                bound: {
                    "expected_score": s.expected_score,
                    "solve_seconds": s.seconds,
                    "cpu_seconds": s.cpu_seconds,
                    "sha256": s.sha256,
                    "table": str(s.directory / "values.npy") if s.directory else None,
                    "peak_rss_bytes": s.peak_rss,
                }
                for bound, s in found.items()
            },
        }
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print(_("{name}: {title}; optimal play, one player").format(name=rules.name, title=rules_title(rules)))
    print(_("saved throws capped at {cap} (a cap of {full} or more is the exact game)").format(
        cap=cap, full=useful_cap(rules)))  # fmt: skip
    names = {"lower": _("lower bound"), "upper": _("upper bound")}
    w = max(len(n) for n in names.values()) + 2
    for bound, s in found.items():
        line = _("{value}  ({seconds} s, SHA-256 {sha})").format(
            value=number(s.expected_score, 4), seconds=f"{s.seconds:.0f}", sha=s.sha256[:16]
        )
        print(f"{names[bound]:<{w}}{line}")  # fmt: skip
    return 0
