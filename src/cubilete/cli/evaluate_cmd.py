"""``cubilete evaluate``: measure any policy against the optimum (mean score, exact regret, where it loses)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cubilete.cli.common import CliError, Subcommands, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import CubileteError
from cubilete.i18n import N_, _, count, interval, number, translate_error, translate_formatted

MAX_GAMES = 1_000_000

EXAMPLES = N_("""\
examples:
  cubilete evaluate --policy cubilete.envs.evaluate:random_policy --rules generala --games 200
  cubilete evaluate --policy my_agent:act --rules yahtzee --games 1000 --json
  cubilete evaluate --policy my_agent:act --games 100000 --dask tcp://10.0.0.5:8786

A policy is a function act(observation, action_mask, rng) -> action over the encodings of
the Gymnasium environment cubilete/Solitaire-v0 (see docs/RESEARCH.md); the module must be
importable (on every Dask worker too). Where the rules are solved exactly, every decision's
regret (expected points lost against optimal play) is measured; score + regret averages the
optimum for any policy. The same --seed gives the same games, locally or on Dask.

Exit status: 0 ok; 2 bad arguments or a policy that fails.
""")


# the kinds of decision of cubilete/envs/evaluate.py (English keys of the JSON), shown translated
DECISION_KINDS = (N_("keep after throw {throw}"), N_("score after throw {throw}"))

def register(subparsers: Subcommands) -> None:
    """Add the ``evaluate`` command."""
    p = subparsers.add_parser(
        "evaluate",
        help=_("measure a policy: mean score, exact regret per decision, where it loses"),
        description=_("Play many solitaire games with a policy and measure it against optimal play."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--policy", "-p", required=True, metavar="MODULE:FUNCTION", help=_("the policy to measure"))
    p.add_argument("--rules", "-r", default="yahtzee", metavar="R", help=_("preset, alias or .toml (default yahtzee)"))
    p.add_argument("--games", "-n", type=int, default=1000, metavar="N", help=_("games to play (default 1000)"))
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help=_("seed (default 0)"))
    p.add_argument("--no-regret", action="store_true", help=_("do not judge the decisions on the solved table"))
    p.add_argument("--dask", metavar=_("ADDRESS"), help=_("run the games on a Dask cluster (tcp://HOST:PORT)"))
    p.add_argument("--json", action="store_true", help=_("print a JSON object"))
    p.set_defaults(func=run)


def _ci(lo_hi: Any) -> str:
    return interval(lo_hi[0], lo_hi[1], 2)


def run(args: argparse.Namespace) -> int:
    """Evaluate and print."""
    rules = rules_arg(args.rules)
    if not 1 <= args.games <= MAX_GAMES:
        raise CliError(_("--games must be 1 to {most}, not {value}").format(most=count(MAX_GAMES), value=args.games))
    try:
        from cubilete.envs.evaluate import evaluate
    except ImportError as exc:
        text = _("evaluate needs the rl extra (pip install 'cubilete[rl]'): {reason}")
        raise CliError(text.format(reason=exc)) from None
    try:
        with progress_bar(_("games"), enabled=not args.json) as show:
            result = evaluate(args.policy, rules, args.games, args.seed, regret=not args.no_regret, dask=args.dask,
                              progress=show)
    except CubileteError as exc:
        raise CliError(translate_error(str(exc))) from None
    except OSError as exc:
        raise CliError(f"--dask {args.dask}: {exc}") from None
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    lines = [
        _("{policy} on {rules}: {games} games, seed {seed}, {seconds} s").format(
            policy=result.policy, rules=result.rules, games=result.games, seed=result.seed,
            seconds=number(result.seconds)),
        "  " + _("mean score {mean}  95% CI {ci}  SD {sd}  median {median}").format(
            mean=number(result.mean, 2), ci=_ci(result.mean_ci), sd=number(result.sd, 2),
            median=number(result.median, 1) if result.median is not None else "-"),
    ]
    if result.optimum is not None and result.mean_regret is not None:  # then every regret field is set
        assert result.regret_per_decision is not None and result.estimate_of_optimum is not None
        lines += [
            "  " + _("optimum    {optimum} (exact)").format(optimum=number(result.optimum, 2)),
            "  " + _("regret     {regret} per game  95% CI {ci}; {per_decision} per decision").format(
                regret=number(result.mean_regret, 2), ci=_ci(result.regret_ci),
                per_decision=number(result.regret_per_decision, 3)),
            "  " + _("score + regret {estimate}  95% CI {ci} (averages the optimum for any policy)").format(
                estimate=number(result.estimate_of_optimum, 2), ci=_ci(result.estimate_ci)),
            "",
            _("where it loses (expected points per game):"),
        ]
        for title, table in ((_("by kind of decision"), result.by_kind), (_("by box written"), result.by_box)):
            lines.append(f"  {title}:")
            for key, cell in table.items():
                shown = translate_formatted(key, DECISION_KINDS)
                lines.append(f"    {shown:<32} {number(cell['regret_per_game'], 2):>8}  (" + _(
                    "{per_decision} per decision, {decisions} decisions").format(
                        per_decision=number(cell['per_decision'], 3), decisions=int(cell["decisions"])) + ")")
    else:
        lines.append("  " + _("regret not measured (rules too large to solve exactly, or --no-regret)"))
    print(*lines, sep="\n")
    return 0
