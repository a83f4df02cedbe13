"""``cubilete verify``: recheck that a game's dice came from its committed seed."""

from __future__ import annotations

import argparse
from pathlib import Path

from cubilete import fairness
from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, read_record_data
from cubilete.errors import CubileteError

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


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 1 when anything does not match."""
    path = Path(args.file)
    data = read_record_data(path)
    try:
        report = fairness.verify_record(data)
    except CubileteError as exc:
        raise CliError(f"{path}: {exc}", DATA_ERROR) from None
    if not report.ok:
        for problem in report.problems:
            print(f"MISMATCH: {problem}")
        raise CliError(f"{path}: the dice do not verify ({len(report.problems)} problem(s) above)", DATA_ERROR)
    committed = "and the seed matches the published commitment" if report.commitment_checked else (
        "(the record holds no commitment: only the seed was checked)"
    )
    print(f"verified: all {report.throws} throws come from the seed {committed}")
    return 0
