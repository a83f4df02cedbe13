"""``cubilete replay``: a saved or finished game told turn by turn."""

from __future__ import annotations

import argparse
from pathlib import Path

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, read_record_data
from cubilete.engine import record
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.i18n import N_, _, rules_title, translate_error
from cubilete.play.win_review import chance_timeline, win_review, win_review_lines, write_chart
from cubilete.present.narrate import describe_step
from cubilete.present.render import final_table, score_sheet, start_lines, turn_header

EXAMPLES = N_("""\
examples:
  cubilete play --seed 7 --save partida.json
  cubilete replay partida.json
  cubilete replay partida.json --plot chances.svg   everyone's chance to win (PNG or SVG)

Exit status: 0 shown; 1 the record is corrupt or does not replay; 2 no such file.
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``replay`` command."""
    p = subparsers.add_parser(
        "replay",
        help=_("show a saved game turn by turn"),
        description=_("Print a finished or saved game turn by turn: throws, holds, boxes, the end."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar=_("FILE"), help=_("a game record (cubilete play --save FILE)"))
    p.add_argument("--plot", metavar=_("OUT"),
                   help=_("also draw everyone's chance to win over the game (.png or .svg)"))
    p.add_argument("--review", action="store_true",
                   help=_("also judge every decision by the chance to win it gave up (games with opponents)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Tell the game; a corrupt record ends with its message and exit 1."""
    path = Path(args.file)
    data = read_record_data(path)
    lines: list[str] = []
    game: Game | None = None
    try:
        game = record.from_record(data)
        lines.append(
            _("{rules}: {players} (seed {seed})").format(
                rules=rules_title(game.rules), players=_(" vs ").join(game.players), seed=game.seed
            )
        )
        lines += start_lines(game)
        for replayed, action, before in record.steps(data):
            if before.turn.throws == 0:
                lines.append(turn_header(replayed, before))
            lines += [f"  {line}" for line in describe_step(replayed, action, before)]
    except CubileteError as exc:
        raise CliError(f"{path}: {translate_error(str(exc))}", DATA_ERROR) from None
    plot = getattr(args, "plot", None)
    if plot and Path(plot).suffix.lower() not in (".png", ".svg"):
        raise CliError(_("--plot: the chart file must end in .png or .svg, not {file}").format(file=plot), USAGE_ERROR)
    print(*lines, sep="\n")
    if game.is_over:
        print(*final_table(game), sep="\n")
    else:
        print(_("The game is not over ({moves} moves so far): continue with cubilete play --resume {path}").format(
            moves=len(game.history), path=path))
        print(*score_sheet(game), sep="\n")
    if getattr(args, "review", False):
        review = win_review(game, game.players)
        if review is None:
            print(_("No review by chance to win: it needs two or more players and rules with exact win tables."))
        else:
            print(*win_review_lines(review), sep="\n")
    if plot:
        try:
            write_chart(chance_timeline(game), Path(plot))
        except CubileteError as exc:
            raise CliError(translate_error(str(exc)), DATA_ERROR) from None
        print(_("Chart written to {file}").format(file=plot))
    return 0
