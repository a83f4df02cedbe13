"""``cubilete verify``: recheck that a game's dice came from its committed seed."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cubilete import fairness
from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, read_record_data
from cubilete.errors import CubileteError

EXAMPLES = """\
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
    p.add_argument("--commitment", metavar="HEX",
                   help="the commitment the table showed before the game (64 hex digits)")
    p.add_argument("--table", metavar="ID", help="the table you played at: the record must be that table's")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 1 when anything does not match."""
    path = Path(args.file)
    published = args.commitment
    if published is not None and not HEX64.match(published.strip()):
        raise CliError(f"--commitment must be the 64 hex digits the table showed, got {published[:80]!r}", USAGE_ERROR)
    data = read_record_data(path)
    try:
        report = fairness.verify_record(data, published, args.table)
    except CubileteError as exc:
        raise CliError(f"{path}: {exc}", DATA_ERROR) from None
    if not report.ok:
        for problem in report.problems:
            print(f"MISMATCH: {problem}")
        raise CliError(f"{path}: the dice do not verify ({len(report.problems)} problem(s) above)", DATA_ERROR)
    if report.published_checked:
        committed = "and the seed matches the commitment you were shown before the game"
    elif report.commitment_checked:
        committed = ("and the seed matches the commitment written in the record itself (checked only against the "
                     "record: give --commitment HEX as the table showed it to check what was published)")
    else:
        committed = "(the record holds no commitment: only the seed was checked)"
    table = f" of table {args.table}" if args.table else ""
    print(f"verified: all {report.throws} throws{table} come from the seed {committed}")
    return 0


HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
