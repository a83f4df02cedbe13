"""``cubilete solve`` for rule sets solved by the layered solver (Maxi Yatzy without saved throws):
an estimate first, a progress bar, checkpoints (``--resume`` goes on after an interruption)."""

from __future__ import annotations

import argparse
import json
import sys

from cubilete.cli.common import DATA_ERROR, CliError
from cubilete.engine.rules import Rules
from cubilete.i18n import _, count, number, rules_title
from cubilete.solver.maxi.layered import (
    LayeredSolution,
    default_dir,
    estimate,
    load_layered,
    partial_run,
    solve_layered,
)


def run_layered(rules: Rules, args: argparse.Namespace) -> int:
    """Load the finished table, or solve (or resume) it layer by layer, and print the result."""
    from cubilete.cli.progress import progress_bar
    from cubilete.cli.solve_cmd import objective

    folder = default_dir(rules)
    solution = None if args.no_cache else load_layered(rules, folder)
    loaded = solution is not None
    if solution is None:
        done = partial_run(rules, folder)
        if done is not None and not args.resume and not args.no_cache:
            text = _(
                "{rules}: a solve stopped at {percent} in {folder}; add --resume to go on (--no-cache: start again)"
            )
            raise CliError(text.format(rules=rules.name, percent=number(100 * done) + "%", folder=folder), DATA_ERROR)
        cost = estimate(rules)
        if not args.json:
            left = 1.0 - (done or 0.0) if args.resume else 1.0
            print(_("estimate: {what}").format(what=cost.describe()), file=sys.stderr)
            if left < 1.0:
                print(_("resuming: {percent} left").format(percent=number(100 * left) + "%"), file=sys.stderr)
        label = _("solving {rules}").format(rules=rules.name)
        try:
            with progress_bar(label, enabled=not args.json) as show:
                solution = solve_layered(rules, folder, resume=bool(args.resume), progress=show)
        except KeyboardInterrupt:
            print(file=sys.stderr)
            raise CliError(
                _("interrupted: the finished layers are saved; run the same command with --resume to go on"), 130
            ) from None
    assert solution is not None
    return _print(rules, solution, loaded, args.json, objective(rules))


def _print(rules: Rules, s: LayeredSolution, loaded: bool, as_json: bool, objective: str) -> int:
    path = s.directory / "values.npy" if s.directory else None
    if as_json:
        data = {
            "rules": rules.name,
            "title": rules.title,
            "expected_score": s.expected_score,
            "std_dev": None,
            "solve_seconds": s.seconds,
            "cpu_seconds": s.cpu_seconds,
            "cached": loaded,
            "table": str(path),
            "sha256": s.sha256,
            "dtype": str(s.values.dtype),
            "states": s.states,
            "peak_rss_bytes": s.peak_rss,
            "objective": objective,
        }
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    labels = [_("expected score"), _("time"), _("memory"), _("table"), "SHA-256"]
    w = max(len(label) for label in labels) + 2
    how = _("loaded from the cache") if loaded else _("solved")
    print(_("{name}: {title}; optimal play, one player").format(name=rules.name, title=rules_title(rules)))
    print(f"{labels[0]:<{w}}{number(s.expected_score, 4)}")
    print(f"{labels[1]:<{w}}" + _("{seconds} s of solving, {how}").format(seconds=f"{s.seconds:.0f}", how=how))
    print(f"{labels[2]:<{w}}" + _("peak {mb} MB").format(mb=number(s.peak_rss / 2**20, 0)))
    print(f"{labels[3]:<{w}}{path}")
    states = _("float32 table, {states} reachable states").format(states=count(s.states))
    print(f"{labels[4]:<{w}}{s.sha256} ({states})")
    print(objective)
    return 0
