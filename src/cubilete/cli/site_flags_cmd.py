"""``cubilete site-flags``: rated players whose decisions agree with the optimal player implausibly often
(fair play: the optimal player is one click away in another tab; docs/RATINGS.md, "Fair play")."""

from __future__ import annotations

import argparse
import json

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, need_extra
from cubilete.engine.errors import CubileteError
from cubilete.i18n import N_, _, number

MIN_DECISIONS = 300  # judged ranked decisions before a share means anything
AGREEMENT = 0.98  # measured: the strong bot agrees 0.949, casual 0.863 (docs/RATINGS.md); optimal 1.0

EXAMPLES = N_("""\
examples:
  cubilete site-flags                          people over the default threshold
  cubilete site-flags --agreement 0.95 --json  a lower threshold, as JSON
  cubilete site-flags --db postgresql+psycopg://cubilete@localhost/cubilete
""")


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a share between 0 and 1, got {text!r}").format(text=text)) from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(_("expected a share between 0 and 1, got {text!r}").format(text=text))
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a whole number of at least 1, got {text!r}").format(
            text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("expected a whole number of at least 1, got {text!r}").format(text=text))
    return value


def register(subparsers: Subcommands) -> None:
    """Add the ``site-flags`` command."""
    p = subparsers.add_parser(
        "site-flags",
        help=_("list rated players who agree with the optimal player implausibly often"),
        description=_("Fair play on a web site: every rated player with enough judged decisions whose share "
                      "of optimal choices is at or over the threshold, the most suspicious first."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", metavar="URL", default=None,
                   help=_("the site's database URL (default as cubilete serve)"))
    p.add_argument("--min-decisions", metavar="N", type=_count, default=MIN_DECISIONS,
                   help=_("judged decisions a player needs before being judged (default {n})").format(
                       n=MIN_DECISIONS))
    p.add_argument("--agreement", metavar=_("SHARE"), type=_share, default=AGREEMENT,
                   help=_("the share of optimal choices that is flagged (default {share})").format(share=AGREEMENT))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the flagged players (none: a line that says so)."""
    need_extra("web", "sqlalchemy")
    from cubilete.store.ratings import flags
    from cubilete.store.webdb import WebStore
    from cubilete.web.settings import Settings

    try:
        store = WebStore(Settings.from_environment(db_url=args.db).db_url)
        try:
            store.migrate()
            found = flags(store, args.min_decisions, args.agreement)
        finally:
            store.close()
    except CubileteError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    if args.json:
        print(json.dumps([{"preset": f.preset, "pid": f.pid, "name": f.name, "decisions": f.decisions,
                           "agreed": f.agreed, "share": round(f.share, 4)} for f in found], indent=1))
        return 0
    if not found:
        print(_("nobody: no rated player with {n} or more judged decisions agrees with the optimal player "
                "{share}% of the time or more").format(n=args.min_decisions, share=number(100 * args.agreement, 0)))
        return 0
    for f in found:
        print(_("{preset}: {name} ({pid}) chose the optimal option {agreed} times in {n} decisions "
                "({share}%)").format(preset=f.preset, name=f.name, pid=f.pid, agreed=f.agreed, n=f.decisions,
                                        share=number(100 * f.share)))
    return 0
