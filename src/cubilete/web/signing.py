"""The site's signing key: kept next to its database (mode 0600), created on first start, rotated by
``cubilete site-key rotate``. Former public keys stay listed so records signed with them still verify.

The file is JSON: ``{"format": "cubilete-site-key", "version": 1, "current": {"id", "private", "public",
"created"}, "former": [{"id", "public", "created", "retired"}]}`` (keys as base64 of their raw 32 bytes).
A file that is there but cannot be read or is not such a key is an error, never replaced: a new key would
leave every record signed with the old one unverifiable.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cubilete.engine import signature
from cubilete.engine.errors import CubileteError
from cubilete.store.stats import data_dir

FORMAT = "cubilete-site-key"
VERSION = 1
FILE_NAME = "site-key.json"
MAX_FILE_BYTES = 1 << 20  # a key file with a thousand rotations is far below this


class SiteKeyError(CubileteError):
    """The key file cannot be used; the message says which file and what to do."""


def site_key_path(db_url: str, configured: str = "") -> Path:
    """Where the key lives: ``configured`` (CUBILETE_SITE_KEY_FILE) when set, else beside a SQLite database
    file, else site-key.json in the user data folder (PostgreSQL: every process of the site must read the
    same file; copy it to each machine)."""
    if configured:
        return Path(configured)
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if db_url.startswith(prefix) and db_url[len(prefix):] not in ("", ":memory:"):
            return Path(db_url[len(prefix):].split("?", 1)[0]).parent / FILE_NAME
    return data_dir() / FILE_NAME


def _stamp() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _new_private() -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

    return Ed25519PrivateKey.generate().private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())


def _public_of(private: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return Ed25519PrivateKey.from_private_bytes(private).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class SiteKeys:
    """The current private key and every public key the site has signed with."""

    private: bytes
    created: str
    former: tuple[dict[str, str], ...] = field(default=())  # {"id", "public", "created", "retired"}

    @property
    def public(self) -> bytes:
        return _public_of(self.private)

    @property
    def current_id(self) -> str:
        return signature.key_id(self.public)

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        """The record with its signature field (over everything else in it)."""
        return {**record, signature.FIELD: signature.sign(record, self.private)}

    def listing(self) -> dict[str, Any]:
        """What ``GET /api/site-key`` publishes: the current public key and the former ones, with ids."""
        return {
            "algorithm": signature.ALGORITHM,
            "current": {"id": self.current_id, "public": signature.b64(self.public), "created": self.created},
            "former": [dict(entry) for entry in self.former],
        }

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "version": VERSION,
            "current": {"id": self.current_id, "private": signature.b64(self.private),
                        "public": signature.b64(self.public), "created": self.created},
            "former": list(self.former),
        }, indent=1)

    def rotated(self) -> SiteKeys:
        """A new current key; this one's public half joins the former keys."""
        retired = {"id": self.current_id, "public": signature.b64(self.public), "created": self.created,
                   "retired": _stamp()}
        return SiteKeys(_new_private(), _stamp(), (retired, *self.former))


def _refuse(path: Path, why: str) -> SiteKeyError:
    return SiteKeyError(f"site key file {path}: {why}; fix or restore it (a new key would leave the records "
                        "signed with this one unverifiable), or set CUBILETE_SITE_KEY_FILE to another file")


def _parse(path: Path, raw: bytes) -> SiteKeys:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _refuse(path, "not JSON (corrupt?)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise _refuse(path, f"not a {FORMAT} file version {VERSION}")
    current, former = data.get("current"), data.get("former", [])
    if not isinstance(current, dict) or not isinstance(current.get("private"), str) or not isinstance(former, list):
        raise _refuse(path, "it holds no current private key")
    try:
        private = base64.b64decode(current["private"], validate=True)
    except (binascii.Error, ValueError):
        raise _refuse(path, "its private key is not base64") from None
    if len(private) != signature.KEY_BYTES:
        raise _refuse(path, f"its private key has {len(private)} bytes, expected {signature.KEY_BYTES}")
    keys = SiteKeys(private, str(current.get("created", "")), tuple(former))
    try:
        signature.public_keys(keys.listing())  # every former key well formed, ids matching
    except CubileteError as exc:
        raise _refuse(path, str(exc)) from None
    if current.get("public") not in (None, signature.b64(keys.public)):
        raise _refuse(path, "its public key is not that of its private key")
    return keys


def read_site_keys(path: Path) -> SiteKeys:
    """The keys of an existing file; any problem is a :class:`SiteKeyError` naming the file."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise _refuse(path, f"cannot be read ({exc.strerror})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _refuse(path, f"larger than {MAX_FILE_BYTES} bytes")
    return _parse(path, raw)


def _write_new(path: Path, keys: SiteKeys) -> Path:
    """Write a 0600 temporary file beside ``path`` and return it (the caller links or renames it)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(keys.to_json())
        f.flush()
        os.fsync(f.fileno())
    return tmp


def load_or_create(path: Path) -> SiteKeys:
    """The site's keys; a fresh key file (mode 0600) only when there is no file at all."""
    if os.path.lexists(path):
        return read_site_keys(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = _write_new(path, SiteKeys(_new_private(), _stamp()))
        try:
            os.link(tmp, path)  # never over a file another process created meanwhile
        except FileExistsError:
            pass
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
    except OSError as exc:
        raise SiteKeyError(f"site key file {path}: cannot be created ({exc.strerror})") from None
    return read_site_keys(path)


def rotate(path: Path) -> SiteKeys:
    """Replace the current key by a new one, keeping the old public key listed; the file must exist."""
    keys = read_site_keys(path).rotated()
    try:
        os.replace(_write_new(path, keys), path)
    except OSError as exc:
        raise SiteKeyError(f"site key file {path}: cannot be rewritten ({exc.strerror})") from None
    return keys
