"""``cubilete serve``: the web game (tables by link, bots, coach) on one process."""

from __future__ import annotations

import argparse

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, need_extra
from cubilete.i18n import N_, _

EXAMPLES = N_("""\
examples:
  cubilete serve                                     http://127.0.0.1:8000, SQLite in the user data folder
  cubilete serve --host 0.0.0.0 --port 8080          reachable from phones on the same network
  cubilete serve --db postgresql+psycopg://cubilete@localhost/cubilete
  cubilete serve --db postgresql+psycopg://cubilete@localhost/cubilete --workers 4

The database may also be given by CUBILETE_DB_URL. Its schema is created or upgraded at start.
Tables that were being played when the server stopped (even killed) resume where they were.
Limits (body size, rate limits per address, allowed origins, trusted proxies, ...) are set by
CUBILETE_<NAME> variables, e.g. CUBILETE_TRUSTED_PROXIES=127.0.0.1: see docs/WEB.md, "Limits".
""")


def _port(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(_("{text} is not a port number (1-65535)").format(text=repr(text)))
    return int(text)


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds").format(text=repr(text))) from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(
            _("{text}: the bot delay must be between 0 and 10 seconds").format(text=repr(text))
        )
    return value


def _workers(text: str) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(_("{text} is not a number of workers (1-64)").format(text=repr(text)))
    return int(text)


def register(subparsers: Subcommands) -> None:
    """Add the ``serve`` command."""
    p = subparsers.add_parser(
        "serve",
        help=_("start the web game (online multiplayer by link)"),
        description=_("Start the web game: create a table, share its link, play with friends and bots in the browser."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1: this machine only)"))
    p.add_argument("--port", type=_port, default=8000, help=_("port (default 8000)"))
    p.add_argument("--db", metavar="URL", default=None,
                   help=_("database URL (default: SQLite file web.sqlite3 in the user data folder)"))
    p.add_argument("--bot-delay", type=_delay, default=0.6, metavar=_("SECONDS"),
                   help=_("pause before each bot move so people can follow (default 0.6)"))
    p.add_argument("--workers", type=_workers, default=1, metavar="N",
                   help=_("server processes on the one port (default 1; more need PostgreSQL: they form one site)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    for module in ("fastapi", "uvicorn", "sqlalchemy", "alembic", "cryptography"):
        need_extra("web", module)
    from cubilete.engine.errors import CubileteError
    from cubilete.web.server import serve
    from cubilete.web.settings import Settings
    from cubilete.web.signing import load_or_create, site_key_path

    try:
        settings = Settings.from_environment(db_url=args.db, bot_delay=args.bot_delay)
        load_or_create(site_key_path(settings.db_url, settings.site_key_file))  # a bad key file: one line, not served
        serve(settings, host=args.host, port=args.port, workers=args.workers)
    except CubileteError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    return 0
