"""``cubilete guide``: a strategy guide a person can follow, distilled from the exact solution."""

from __future__ import annotations

import argparse

from cubilete import i18n
from cubilete.cli.common import CliError, Subcommands, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.i18n import _, number, rules_title
from cubilete.play.bots.optimal import solution_for
from cubilete.play.guide.distil import Step, distil, prune, rule_costs, sample
from cubilete.play.guide.rules import DEFAULT, Rule
from cubilete.play.guide.shipped import shipped_guide

FORMATS = ("text", "markdown")


def register(subparsers: Subcommands) -> None:
    """Add the ``guide`` command."""
    p = subparsers.add_parser(
        "guide",
        help=_("print a strategy guide: a few rules to remember"),
        description=_(
            "An ordered list of rules, first match wins, distilled from optimal play; "
            "each rule says how many points per game it saves."
        ),
    )
    p.add_argument("--rules", "-r", metavar="R", required=True, help=_("the rule set (a preset name or alias)"))
    p.add_argument("--rules-count", "-n", metavar="N", default="10", help=_("how many rules (default 10)"))
    p.add_argument("--format", default="text", metavar="F", help=_("text or markdown"))
    p.add_argument("--games", default="200", metavar="G", help=_("sampled games per rule (default 200)"))
    p.add_argument(
        "--distil", action="store_true",
        help=_("distil a new guide even where one is shipped for the preset (Yatzy, Yahtzee, Generala)"),
    )
    p.set_defaults(func=run)


def _positive(text: str, what: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number <= 0:
        raise CliError(_("{what} must be a whole number of at least 1, not {text!r}").format(what=what, text=text))
    return number


def run(args: argparse.Namespace) -> int:
    """Distil and print the guide."""
    rules = rules_arg(args.rules)
    count = _positive(args.rules_count, "--rules-count")
    games = _positive(args.games, "--games")
    if args.format not in FORMATS:
        names = ", ".join(FORMATS)
        raise CliError(_("unknown format {name!r}; formats: {names}").format(name=args.format, names=names))
    if solution_for(rules) is None:
        title = rules_title(rules)
        raise CliError(_("no exact solution for {rules}: a guide is distilled from one").format(rules=title))
    costs: dict[Rule, float] = {}
    shipped = None if args.distil else shipped_guide(rules, count)
    if shipped is not None:  # measured over 20,000 games in docs/GUIDE.md; its costs on a fresh sample here
        steps = [Step(rule, 0.0) for rule in prune(shipped)]  # what each saved: measured when it came in
        with progress_bar(_("measuring the guide")) as report:
            costs.update(rule_costs(sample(rules, shipped, games, "guide-cost", report), shipped, games))
    else:
        with progress_bar(_("distilling the guide")) as report:
            steps = distil(rules, count, games=games, progress=report, costs=costs)
    markdown = args.format == "markdown"
    print(("# " if markdown else "") + _("Strategy guide for {rules}").format(rules=rules_title(rules)))
    print()
    print(_("Throw all the dice first. After each roll, follow the first rule that applies."))
    print()
    for place, step in enumerate(steps, 1):
        lost_here = number(costs.get(step.rule, 0.0), 2)
        saved = (
            _("still loses {lost} points per game").format(lost=lost_here)
            if shipped is not None
            else _("saves {points}, still loses {lost} points per game").format(
                points=number(step.saved, 2), lost=lost_here
            )
        )
        print(f"{place}. {step.rule.words(rules)} ({saved})")
    lost = _("loses {lost} points per game").format(lost=number(costs[DEFAULT], 2))
    print(f"{len(steps) + 1}. {DEFAULT.words(rules)} ({lost})")
    print()
    print(
        _("Against optimal play this guide loses about {points} points per game ({games} sampled games).").format(
            points=number(sum(costs.values())), games=i18n.count(games)
        )
    )
    return 0
