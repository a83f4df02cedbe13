"""``cubilete distribution``: the exact distribution of the final score under expected-score-optimal play."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, paragraph, rules_arg
from cubilete.cli.progress import progress_bar
from cubilete.engine.errors import CubileteError, NotationError, SolverUnsupportedError
from cubilete.engine.notation import format_filled, parse_filled
from cubilete.i18n import N_, _, file_reason, number, translate_error

EXAMPLES = N_("""\
examples:
  cubilete distribution                                   Generala from the empty sheet
  cubilete distribution --rules general --json            machine-readable: mean, sd, pmf, quantiles
  cubilete distribution --filled generala=50,full=0       from a position (points so far included)
  cubilete distribution --rules bozo --plot bozo.png      draw it (needs matplotlib)
  cubilete distribution --rules yatzy                     Yatzy, by a forward pass (no table)

The distribution is exact: every final score with its probability when the player maximises
the expected score (the policy of 'cubilete solve'), from the start of a turn with the sheet
given by --filled. Its mean and standard deviation are those of 'cubilete solve'. Generala,
General and Bozó read it from a table of every state and score (built once, cached); Yahtzee
and Yatzy follow the probability mass forward from the position (half a minute of CPU from
the empty sheet, less later in the game). Rules that cannot be solved exactly (the 4-column
sheet, Maxi Yatzy) end with a one-line reason and exit 1.
""")

BAR_WIDTH = 40


def register(subparsers: Subcommands) -> None:
    """Add the ``distribution`` command."""
    p = subparsers.add_parser(
        "distribution",
        help=_("exact distribution of the final score under optimal play"),
        description=paragraph(
            _("Print the probability of every final score under expected-score-optimal play, from the start "
            "of the game or of a turn with some boxes already written, with its mean, standard deviation "
            "and quantiles.")
        ),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", "-r", default="generala", metavar="R",
        help=_("preset, alias or .toml (default generala)"))
    p.add_argument(
        "--filled", "-f", action="append", default=[], metavar=_("BOXES"),
        help=_("boxes already written: full=30,poker=0")
    )
    p.add_argument("--bonuses", type=int, default=0, metavar="N",
        help=_("extra bonuses already earned (Yahtzee +100s)"))
    p.add_argument("--json", action="store_true", help=_("print a JSON object"))
    p.add_argument("--plot", type=Path, default=None, metavar=_("FILE"),
        help=_("draw the distribution to FILE (.png, .svg)"))
    p.set_defaults(func=run)


def _plot(path: Path, dist: object, title: str) -> None:
    from cubilete.win.distribution import Distribution

    assert isinstance(dist, Distribution)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CliError("--plot needs matplotlib: pip install matplotlib", DATA_ERROR) from None
    scores, probs = zip(*dist.pairs(), strict=True)
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(scores, probs, width=1.0)
    ax.axvline(dist.mean, color="black", linestyle="--", linewidth=1, label=f"mean {dist.mean:.2f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("probability")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as exc:
        text = _("cannot write {file}: {error}").format(file=path, error=file_reason(exc))
        raise CliError(f"--plot: {text}", DATA_ERROR) from None
    finally:
        plt.close(fig)


def run(args: argparse.Namespace) -> int:
    """Print the distribution; bad arguments exit 2, rules too large exit 1."""
    rules = rules_arg(args.rules)
    try:
        card = parse_filled(",".join(args.filled), rules)
    except NotationError as exc:
        raise CliError(f"--filled: {translate_error(str(exc))}") from None
    if args.bonuses < 0:
        raise CliError(_("--bonuses: must be 0 or more, not {bonuses}").format(bonuses=args.bonuses))
    from cubilete.solver.cache import shared_solution
    from cubilete.win.distribution import distribution
    from cubilete.win.tables import tables_fit, vector_table

    try:
        fits = tables_fit(rules)  # refuses rules that cannot be solved exactly
        with progress_bar(_("solving {rules}").format(rules=rules.name), enabled=not args.json) as show:
            shared_solution(rules, show)
        if fits:
            with progress_bar(_("score tables of {rules}").format(rules=rules.name), enabled=not args.json) as show:
                vector_table(rules, "follow", show)  # built once here; distribution() takes it from memory
        dist = distribution(rules, card, args.bonuses)
    except SolverUnsupportedError as exc:
        raise CliError(translate_error(str(exc)), DATA_ERROR) from None
    except CubileteError as exc:
        raise CliError(translate_error(str(exc))) from None
    filled = format_filled(rules, card)
    if args.plot is not None:
        _plot(args.plot, dist, f"{rules.name}" + (f" ({filled})" if filled else ""))
    if args.json:
        data = dist.to_json()
        data["filled"] = filled
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    where = _("from {filled}").format(filled=filled) if filled else _("from the empty sheet")
    print(_("{rules}: final score under expected-score-optimal play, {where}").format(rules=rules.name, where=where))
    print(_("mean {mean}  sd {sd}  min {low}  max {high}").format(
        mean=number(dist.mean, 4), sd=number(dist.sd, 4), low=dist.offset, high=dist.offset + dist.pmf.size - 1))
    qs = dist.to_json()["quantiles"]
    assert isinstance(qs, dict)
    print(_("quantiles: {quantiles}").format(quantiles="  ".join(f"{k}: {v}" for k, v in qs.items())))
    lo, hi = dist.quantile(0.001), dist.quantile(0.999)
    step = max(1, (hi - lo + 1) // 50)
    bins: dict[int, float] = {}
    for s, p in dist.pairs():
        if lo <= s <= hi:
            key = lo + (s - lo) // step * step
            bins[key] = bins.get(key, 0.0) + p
    peak = max(bins.values())
    unit = _("scores {low} to {high} (99.8% of games)").format(low=lo, high=hi)
    if step > 1:
        unit += _(", in bins of {step}").format(step=step)
    print(_("score  probability   {unit}").format(unit=unit))
    for s, p in sorted(bins.items()):
        print(f"{s:>5}  {number(p, 5):>9}   {'#' * round(BAR_WIDTH * p / peak)}")
    if args.plot is not None:
        print(_("plot written to {path}").format(path=args.plot))
    return 0
