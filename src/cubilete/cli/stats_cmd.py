"""``cubilete stats``: games, wins, mean score and trend per player and rule set, and the
score distribution (in the terminal, or as a PNG/SVG file)."""

from __future__ import annotations

import argparse
import dataclasses
import errno
import json
import os
from collections.abc import Sequence
from pathlib import Path

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, need_extra, text_arg
from cubilete.engine.errors import StatsError, UnknownRulesError
from cubilete.engine.rules import Rules, find_rules
from cubilete.i18n import _, box_name, file_reason, number, rules_title
from cubilete.store.stats import PlayerStats, StatsDB, default_path

PLOT_FORMATS = (".png", ".svg")
BAR_WIDTH = 40  # characters of the longest bar
BINS = 10
EIGHTHS = " ▏▎▍▌▋▊▉█"


def examples() -> str:
    """The examples shown by ``cubilete stats --help``."""
    return _(
        """\
examples:
  cubilete stats                            games, wins, mean and trend per player and rule set
  cubilete stats --player Ana --rules generala
  cubilete stats --json                     the same numbers as JSON
  cubilete stats --where                    where the statistics database is
  cubilete stats --plot scores.png          the score distribution as a picture (.png or .svg)

Every finished game is counted. The folder is $CUBILETE_DATA_DIR, else
$XDG_DATA_HOME/cubilete, else ~/.local/share/cubilete.
"""
    )


def register(subparsers: Subcommands) -> None:
    """Add the ``stats`` command."""
    p = subparsers.add_parser(
        "stats",
        help=_("statistics of the finished games"),
        description=_("Games, wins, mean score and its trend, best games and boxes made, per player and rule set."),
        epilog=examples(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--player", "-p", metavar=_("NAME"), help=_("only this player"))
    p.add_argument("--rules", "-r", metavar="R", help=_("only this rule set (a preset name or alias)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.add_argument("--where", action="store_true", help=_("print where the database is and stop"))
    p.add_argument("--plot", metavar=_("FILE"), help=_("write the score distribution to FILE (.png or .svg)"))
    p.set_defaults(func=run)


def _rules_name(text: str | None) -> str | None:
    """A preset's name from a name or alias; another name (a house rule) as it is."""
    if text is None:
        return None
    try:
        return find_rules(text).name
    except UnknownRulesError:
        return text.strip()


def _rules_of(name: str) -> Rules | None:
    try:
        return find_rules(name)
    except UnknownRulesError:
        return None


def run(args: argparse.Namespace) -> int:
    """Print the statistics (or the database path, or write the plot)."""
    path = default_path()
    if args.where:
        print(path)
        return 0
    plot = _plot_target(args.plot)
    player = None if args.player is None else text_arg("--player", args.player)
    rules = None if args.rules is None else text_arg("--rules", args.rules)
    stats = load_summary(path, player, _rules_name(rules))
    if args.json:
        print(json.dumps([dataclasses.asdict(s) for s in stats], ensure_ascii=False, indent=1))
    elif not stats and (player is not None or rules is not None) and load_summary(path, None, None):
        asked = " and ".join(f"{k} {v!r}" for k, v in (("--player", player), ("--rules", rules)) if v is not None)
        print(f"No finished games match {asked}; 'cubilete stats' shows every player and rule set.")
    elif not stats:
        print(_("No finished games here yet. Play one with 'cubilete play': every finished game is counted."))
    else:
        print(render(stats))
    if plot is not None:
        if not stats:
            print(_("Nothing to plot yet: {file} was not written.").format(file=plot))
        else:
            write_plot(stats, plot)
            print(_("Score distribution written to {file}").format(file=plot))
    return 0


def _plot_target(text: str | None) -> Path | None:
    """The ``--plot`` file, checked before anything is read or printed."""
    if text is None:
        return None
    plot = Path(text_arg("--plot", text))
    if not text.strip():
        raise CliError(_("--plot: give a file name ending in .png or .svg"), USAGE_ERROR)
    if plot.suffix.lower() not in PLOT_FORMATS:
        raise CliError(_("--plot: {file} must end in .png or .svg").format(file=text), USAGE_ERROR)
    if plot.is_dir() or text.endswith(("/", os.sep)):
        text = _("--plot: {file} is a folder; give a file name ending in .png or .svg").format(file=text)
        raise CliError(text, USAGE_ERROR)
    if not plot.resolve().parent.is_dir():  # the same message and code as a failed write (see write_plot)
        error = file_reason(FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT)))
        raise CliError(_("cannot write {file}: {error}").format(file=plot, error=error), DATA_ERROR)
    return plot


def load_summary(path: Path, player: str | None, rules: str | None) -> list[PlayerStats]:
    """The summary from the database at ``path`` (empty if there is no database yet)."""
    if not path.exists():
        return []
    try:
        with StatsDB(path) as db:
            return db.summary(player, rules)
    except StatsError as exc:
        raise CliError(str(exc), DATA_ERROR) from None


# --- text --------------------------------------------------------------------------


def _by_rules(stats: list[PlayerStats]) -> dict[str, list[PlayerStats]]:
    groups: dict[str, list[PlayerStats]] = {}
    for s in stats:
        groups.setdefault(s.rules, []).append(s)
    return groups


def render(stats: list[PlayerStats]) -> str:
    """Every table and chart, one block per rule set."""
    return "\n\n".join(_rules_block(name, group) for name, group in _by_rules(stats).items())


def _rules_block(name: str, group: list[PlayerStats]) -> str:
    rules = _rules_of(name)
    lines = [f"{rules_title(rules)} [{name}]" if rules is not None else name]
    header = (_("player"), _("games"), _("wins"), _("mean"), _("last 10"), _("trend"), _("best"))
    rows = [
        (s.player, str(s.games), str(s.wins), number(s.mean), number(s.recent_mean), number(s.trend, sign=True),
         ", ".join(str(g.totals[g.players.index(s.player)]) for g in s.best))
        for s in group
    ]  # fmt: skip
    lines += _table(header, rows, right=range(1, 6))
    slots = list(dict.fromkeys(slot for s in group for slot in s.boxes_made))
    lines += ["", _("boxes made (share of games with points):")]
    made_rows = [(_slot_name(rules, slot), *(f"{s.boxes_made.get(slot, 0.0):.0%}" for s in group)) for slot in slots]
    lines += _table((_("box"), *(s.player for s in group)), made_rows, right=range(1, len(group) + 1))
    scores = [score for s in group for score in s.scores]
    lines += ["", _("score distribution ({n} scores):").format(n=len(scores)), *histogram(scores)]
    return "\n".join(lines)


def _slot_name(rules: Rules | None, slot: str) -> str:
    if rules is None:
        return slot
    try:
        return box_name(rules, slot)
    except ValueError:
        return slot


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]], right: range) -> list[str]:
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: tuple[str, ...]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  " + "  ".join(parts).rstrip()

    return [line(header), *(line(r) for r in rows)]


def bins(scores: list[int], count: int = BINS) -> list[tuple[int, int, int]]:
    """(low, high, how many) for equal-width score ranges covering every score.

    >>> bins([10, 12, 19, 30], count=2)
    [(10, 20, 3), (21, 30, 1)]
    """
    low, high = min(scores), max(scores)
    width = max(1, -(-(high - low + 1) // count))
    edges = range(low, high + 1, width)
    return [(e, min(e + width - 1, high), sum(e <= s < e + width for s in scores)) for e in edges]


def bar(value: int, most: int, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of unicode blocks, ``width`` characters for ``most``.

    >>> bar(4, 8, width=4)
    '██'
    >>> bar(1, 8, width=4)
    '▌'
    """
    eighths = round(value * width * 8 / most) if most else 0
    full, part = divmod(eighths, 8)
    return "█" * full + (EIGHTHS[part] if part else "")


def histogram(scores: list[int]) -> list[str]:
    """The score distribution as lines of unicode bars."""
    if not scores:
        return []
    ranges = bins(scores)
    most = max(n for _low, _high, n in ranges)
    labels = [f"{low}-{high}" if low != high else f"{low}" for low, high, _n in ranges]
    width = max(len(label) for label in labels)
    return [
        f"  {label.rjust(width)} │{bar(n, most).ljust(BAR_WIDTH)} {n}"
        for label, (_low, _high, n) in zip(labels, ranges, strict=True)
    ]


# --- picture -----------------------------------------------------------------------


def write_plot(stats: list[PlayerStats], path: Path) -> None:
    """Write the score distribution, one panel per rule set and one colour per player (PNG or SVG by extension)."""
    need_extra("plot", "matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    groups = _by_rules(stats)
    fig = Figure(figsize=(8, 3 * len(groups)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False)
    for ax, (name, group) in zip(axes[:, 0], groups.items(), strict=True):
        ax.hist([s.scores for s in group], bins=BINS, label=[s.player for s in group], stacked=True)
        ax.set_title(name)
        ax.set_xlabel(_("final score"))
        ax.set_ylabel(_("games"))
        ax.legend()
    try:
        fig.savefig(path, format=path.suffix.lower().lstrip("."))
    except OSError as exc:
        text = _("cannot write {file}: {error}").format(file=path, error=file_reason(exc))
        raise CliError(text, DATA_ERROR) from None
