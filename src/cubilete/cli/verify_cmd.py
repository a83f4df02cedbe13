"""``cubilete verify``: recheck that a game's dice came from its committed seed."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, read_record_data
from cubilete.engine import fairness
from cubilete.engine.errors import CubileteError
from cubilete.i18n import N_, _, translate_error, translate_formatted

EXAMPLES = N_("""\
examples:
  cubilete verify partida.json        a record saved by cubilete play --save, or downloaded from a web table
  cubilete verify mesa.json --commitment 3f1c...e9 --table k7mq2xpa
                                      against the commitment the table showed before the first throw

The seed must be in the record (a web table reveals it when the game ends). Without --commitment
the seed is checked against the commitment written in the record itself, which only shows that the
record agrees with itself (a forger writes both): give --commitment HEX, as the table showed it
before the game, to know the dice were fixed before play.

Exit status: 0 every throw matches; 1 a throw, the commitment or the replay does not match,
or the file is not a game record; 2 no such file.
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``verify`` command."""
    p = subparsers.add_parser(
        "verify",
        help=_("recheck every throw of a game against its seed and commitment"),
        description=_("Recheck a game record: the seed matches the published commitment, "
        "every throw is the one the seed gives, and the game replays."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help=_("a game record (JSON)"))
    p.add_argument("--commitment", metavar="HEX",
                   help=_("the commitment the table showed before the game (64 hex digits)"))
    p.add_argument("--table", metavar="ID", help=_("the table you played at: the record must be that table's"))
    p.set_defaults(func=run)


MISMATCHES = (  # the English problems of cubilete.engine.fairness.verify_record
    N_("the seed does not match the commitment {committed} (its hash is {digest})"),
    N_("throw {number} is recorded as {recorded} but the seed gives {derived}"),
)


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 1 when anything does not match."""
    path = Path(args.file)
    published = args.commitment
    if published is not None and not HEX64.match(published.strip()):
        raise CliError(_("--commitment must be the 64 hex digits the table showed, got {value}").format(
            value=repr(published[:80])), USAGE_ERROR)
    data = read_record_data(path)
    try:
        report = fairness.verify_record(data, published, args.table)
    except CubileteError as exc:
        raise CliError(f"{path}: {translate_error(str(exc))}", DATA_ERROR) from None
    if not report.ok:
        for problem in report.problems:
            print(_("MISMATCH: {problem}").format(problem=translate_formatted(problem, MISMATCHES)))
        count = len(report.problems)
        raise CliError(_("{path}: the dice do not verify ({count} problem(s) above)").format(path=path, count=count),
                       DATA_ERROR)
    if report.published_checked:
        committed = _("and the seed matches the commitment you were shown before the game")
    elif report.commitment_checked:
        committed = _("and the seed matches the commitment written in the record itself (checked only against the "
                      "record: give --commitment HEX as the table showed it to check what was published)")
    else:
        committed = _("(the record holds no commitment: only the seed was checked)")
    table = _(" of table {table}").format(table=args.table) if args.table else ""
    print(_("verified: all {throws} throws{table} come from the seed {committed}").format(
        throws=report.throws, table=table, committed=committed))
    return 0


HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
