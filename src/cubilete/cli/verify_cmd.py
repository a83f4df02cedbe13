"""``cubilete verify``: recheck that a game's dice came from its committed seed."""

from __future__ import annotations

import argparse
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from cubilete.cli.common import DATA_ERROR, USAGE_ERROR, CliError, Subcommands, need_extra, read_record_data
from cubilete.engine import fairness
from cubilete.engine.errors import CubileteError
from cubilete.i18n import N_, _, file_reason, translate_error, translate_formatted

EXAMPLES = N_("""\
examples:
  cubilete verify partida.json        a record saved by cubilete play --save, or downloaded from a web table
  cubilete verify mesa.json --commitment 3f1c...e9 --table k7mq2xpa
                                      against the commitment the table showed before the first throw
  cubilete verify mesa.json --site https://dados.example
                                      and the site's signature over the whole record (its GET /api/site-key)
  cubilete verify mesa.json --site-key keys.json
                                      the same with the keys saved from /api/site-key (or one base64 key)

The seed must be in the record (a web table reveals it when the game ends). Without --commitment
the seed is checked against the commitment written in the record itself, which only shows that the
record agrees with itself (a forger writes both): give --commitment HEX, as the table showed it
before the game, to know the dice were fixed before play. The commitment binds only the seed, which
is public once the game ends: give --site or --site-key to check the site's signature too, which
fails on any change to the record (an action, a box value, a name, the rules, the result, the seed,
the table); it needs the 'web' extra (the cryptography package).

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
    p.add_argument("file", metavar=_("FILE"), help=_("a game record (JSON)"))
    p.add_argument("--commitment", metavar="HEX",
                   help=_("the commitment the table showed before the game (64 hex digits)"))
    p.add_argument("--table", metavar="ID", help=_("the table you played at: the record must be that table's"))
    keys = p.add_mutually_exclusive_group()
    keys.add_argument("--site-key", metavar=_("KEY"),
                      help=_("the site's public keys: a file saved from GET /api/site-key, or one base64 key"))
    keys.add_argument("--site", metavar="URL",
                      help=_("the site (http or https) whose /api/site-key lists the keys it signs with"))
    p.set_defaults(func=run)


MISMATCHES = (  # the English problems of cubilete.engine.fairness.verify_record
    N_("the seed does not match the commitment {committed} (its hash is {digest})"),
    N_("throw {number} is recorded as {recorded} but the seed gives {derived}"),
    N_("the record holds no site signature"),
    N_("the record is signed with key {key}, which is not one of the site's keys ({listed})"),
    N_("the site signature (key {key}) does not match the record: something in it was changed after the site "
       "signed it"),
)


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 1 when anything does not match."""
    path = Path(args.file)
    published = args.commitment
    if published is not None and not HEX64.match(published.strip()):
        raise CliError(_("--commitment must be the 64 hex digits the table showed, got {value}").format(
            value=repr(published[:80])), USAGE_ERROR)
    keys = site_keys(args.site_key, args.site)
    data = read_record_data(path)
    try:
        report = fairness.verify_record(data, published, args.table, keys)
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
    if report.signature_checked:
        print(_("signed: the site's signature covers the whole record (rules, players, every action, result, seed, "
                "commitment, table)"))
    else:
        print(_("not checked: the site's signature (give --site URL or --site-key KEY to know that nothing in the "
                "record was changed)"))
    return 0


HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


SITE_KEY_BYTES = 64 * 1024  # a site-key listing (file or answer) larger than this is refused
SITE_TIMEOUT = 10.0  # seconds to connect to the site and for each read of its answer
SITE_DEADLINE = 30.0  # seconds for the whole answer (a server that drips bytes is cut off)


def site_keys(key: str | None, site: str | None) -> dict[str, bytes] | None:
    """The public keys given by --site-key or fetched by --site; None when neither was given."""
    if key is None and site is None:
        return None
    need_extra("web", "cryptography")
    from cubilete.engine import signature

    try:
        if key is not None:
            return signature.public_keys(_key_listing(key))
        assert site is not None
        return signature.public_keys(_fetch_listing(site))
    except CubileteError as exc:
        raise CliError(translate_error(str(exc)), DATA_ERROR) from None


def _key_listing(key: str) -> object:
    """One base64 key as given, or the JSON (or base64 text) of a file."""
    if re.fullmatch(r"[A-Za-z0-9+/]{43}=", key.strip()):
        return key.strip()
    path = Path(key)
    try:
        with path.open("rb") as f:
            raw = f.read(SITE_KEY_BYTES + 1)
    except OSError as exc:
        raise CliError(_("--site-key {path}: cannot read: {reason}").format(path=key, reason=file_reason(exc)),
                       DATA_ERROR) from None
    return _listing_text(raw, f"--site-key {key}")


def _listing_text(raw: bytes, where: str) -> object:
    if len(raw) > SITE_KEY_BYTES:
        raise CliError(_("{where}: larger than {limit} bytes: not a site-key listing").format(
            where=where, limit=SITE_KEY_BYTES), DATA_ERROR)
    try:
        text = raw.decode("utf-8").strip()
        return json.loads(text) if text.startswith("{") else text
    except (UnicodeDecodeError, ValueError):
        raise CliError(_("{where}: not a site-key listing (expected the JSON of /api/site-key or a base64 key)").format(
            where=where), DATA_ERROR) from None


def _fetch_listing(site: str) -> object:
    """GET SITE/api/site-key over http(s) only, at most SITE_KEY_BYTES, within SITE_TIMEOUT per step."""
    parts = urllib.parse.urlsplit(site.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CliError(_("--site must be an http:// or https:// address, got {value}").format(value=repr(site[:80])))
    url = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/api/site-key", "", ""))
    opener = urllib.request.build_opener(_SameSchemeRedirects())
    try:
        with opener.open(urllib.request.Request(url, headers={"Accept": "application/json"}),
                         timeout=SITE_TIMEOUT) as answer:
            raw = _read_bounded(answer)
    except urllib.error.HTTPError as exc:
        raise CliError(_("--site: {url} answered {status}").format(url=url, status=exc.code), DATA_ERROR) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise CliError(_("--site: cannot fetch {url}: {reason}").format(url=url, reason=reason), DATA_ERROR) from None
    return _listing_text(raw, f"--site {url}")


def _read_bounded(answer: Any) -> bytes:
    """At most SITE_KEY_BYTES + 1 bytes of the answer, within SITE_DEADLINE seconds in all."""
    deadline = time.monotonic() + SITE_DEADLINE
    raw = b""
    while len(raw) <= SITE_KEY_BYTES:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the answer took more than {SITE_DEADLINE:g} s")
        chunk = answer.read1(min(16384, SITE_KEY_BYTES + 1 - len(raw)))
        if not chunk:
            break
        raw += chunk
    return raw


class _SameSchemeRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects only to http(s) (never file: or ftp:)."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        if urllib.parse.urlsplit(newurl).scheme not in ("http", "https"):
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)
