"""``cubilete verify``: recheck that a game's dice came from its committed seed."""

from __future__ import annotations

import argparse
from pathlib import Path

from cubilete import fairness
from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, read_record_data
from cubilete.errors import CubileteError
from cubilete.i18n import N_, _, translate_error, translate_formatted

EXAMPLES = """\
examples:
  cubilete verify partida.json        a record saved by cubilete play --save, or downloaded from a web table

The seed must be in the record (a web table reveals it when the game ends). When the record
holds the commitment published before the game, the seed is checked against it too.

Exit status: 0 every throw matches; 1 a throw, the commitment or the replay does not match,
or the file is not a game record; 2 no such file.
"""


def register(subparsers: Subcommands) -> None:
    """Add the ``verify`` command."""
    p = subparsers.add_parser(
        "verify",
        help="recheck every throw of a game against its seed and commitment",
        description="Recheck a game record: the seed matches the published commitment, "
        "every throw is the one the seed gives, and the game replays.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="a game record (JSON)")
    p.set_defaults(func=run)


MISMATCHES = (  # the English problems of cubilete.fairness.verify_record
    N_("the seed does not match the commitment {committed} (its hash is {digest})"),
    N_("throw {number} is recorded as {recorded} but the seed gives {derived}"),
)


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 1 when anything does not match."""
    path = Path(args.file)
    data = read_record_data(path)
    try:
        report = fairness.verify_record(data)
    except CubileteError as exc:
        raise CliError(f"{path}: {translate_error(str(exc))}", DATA_ERROR) from None
    if not report.ok:
        for problem in report.problems:
            print(_("MISMATCH: {problem}").format(problem=translate_formatted(problem, MISMATCHES)))
        count = len(report.problems)
        raise CliError(_("{path}: the dice do not verify ({count} problem(s) above)").format(path=path, count=count),
                       DATA_ERROR)
    committed = _("and the seed matches the published commitment") if report.commitment_checked else (
        _("(the record holds no commitment: only the seed was checked)")
    )
    print(_("verified: all {throws} throws come from the seed {committed}").format(
        throws=report.throws, committed=committed))
    return 0
