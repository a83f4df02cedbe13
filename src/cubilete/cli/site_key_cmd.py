"""``cubilete site-key``: show or rotate the key the web site signs its finished records with."""

from __future__ import annotations

import argparse
import json

from cubilete.cli.common import DATA_ERROR, CliError, Subcommands, need_extra
from cubilete.engine.errors import CubileteError
from cubilete.i18n import N_, _

EXAMPLES = N_("""\
examples:
  cubilete site-key show                   the public keys GET /api/site-key publishes
  cubilete site-key rotate                 a new signing key; the old public key stays listed
  cubilete site-key rotate --db postgresql+psycopg://cubilete@localhost/cubilete

The key file is site-key.json beside the SQLite database (or in the user data folder for
PostgreSQL), mode 0600; 'CUBILETE_SITE_KEY_FILE' names another. Restart the server after a
rotation: it reads the file at start.
""")


def register(subparsers: Subcommands) -> None:
    """Add the ``site-key`` command."""
    p = subparsers.add_parser(
        "site-key",
        help=_("show or rotate the web site's record-signing key"),
        description=_("The Ed25519 key the web game signs every finished record with."),
        epilog=_(EXAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("action", choices=("show", "rotate"), help=_("show the public keys, or rotate to a new key"))
    p.add_argument("--db", metavar="URL", default=None,
                   help=_("the site's database URL (its key file is found from it; default as cubilete serve)"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the public keys (after a rotation, the new ones)."""
    need_extra("web", "cryptography")
    from cubilete.web.settings import Settings
    from cubilete.web.signing import load_or_create, rotate, site_key_path

    try:
        settings = Settings.from_environment(db_url=args.db)
        path = site_key_path(settings.db_url, settings.site_key_file)
        keys = rotate(path) if args.action == "rotate" else load_or_create(path)
    except CubileteError as exc:
        raise CliError(str(exc), DATA_ERROR) from None
    if args.action == "rotate":
        print(_("{path}: new signing key {key}; restart the server to sign with it").format(
            path=path, key=keys.current_id))
    print(json.dumps(keys.listing(), indent=1))
    return 0
