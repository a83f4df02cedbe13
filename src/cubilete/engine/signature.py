"""The site's signature over a whole game record, and its check (Ed25519).

A web site signs the canonical JSON of the record without its ``signature`` field: compact, keys sorted,
UTF-8 (``json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False)``). Any change to
any field (an action, a box value, a name, the rules, the result, the seed, the table id) breaks it.
The ``cryptography`` package (the ``web`` extra) is imported only when a signature is made or checked,
so the core still imports with the standard library alone.

>>> canonical_bytes({"b": 1, "a": "ñ", "signature": {"value": "x"}})
b'{"a":"\\xc3\\xb1","b":1}'
>>> key_id(bytes(32))
'66687aadf862bd77'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from cubilete.engine.errors import RecordError

ALGORITHM = "Ed25519"
FIELD = "signature"  # the record field that holds {"algorithm", "key", "value"}
KEY_BYTES = 32


def canonical_bytes(record: Mapping[str, Any]) -> bytes:
    """What is signed: the record minus its signature, as compact sorted-key UTF-8 JSON."""
    body = {k: v for k, v in record.items() if k != FIELD}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8", "surrogatepass")


def key_id(public: bytes) -> str:
    """A public key's short name: the first 16 hex digits of SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


def b64(data: bytes) -> str:
    """Standard base64 text (what /api/site-key and the signature field use)."""
    return base64.b64encode(data).decode("ascii")


def public_key_bytes(text: str) -> bytes:
    """The 32 raw bytes of a base64 Ed25519 public key, or a :class:`RecordError` saying what is wrong."""
    try:
        raw = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise RecordError(f"site key {text[:60]!r} is not base64") from None
    if len(raw) != KEY_BYTES:
        raise RecordError(f"site key {text[:60]!r} is not an Ed25519 public key ({len(raw)} bytes, expected 32)")
    return raw


def public_keys(listing: object) -> dict[str, bytes]:
    """The keys (by id) of a site-key listing as ``GET /api/site-key`` gives it, or of one base64 key."""
    if isinstance(listing, str):
        raw = public_key_bytes(listing)
        return {key_id(raw): raw}
    if not isinstance(listing, dict) or not isinstance(listing.get("current"), dict):
        raise RecordError("not a site-key listing (expected the JSON of GET /api/site-key or a base64 key)")
    former = listing.get("former", [])
    if not isinstance(former, list):
        raise RecordError("site-key listing: 'former' must be a list")
    keys: dict[str, bytes] = {}
    for entry in (listing["current"], *former):
        if not isinstance(entry, dict) or not isinstance(entry.get("public"), str):
            raise RecordError(f"site-key listing: entry {str(entry)[:80]} has no base64 'public' key")
        raw = public_key_bytes(entry["public"])
        if entry.get("id", key_id(raw)) != key_id(raw):
            raise RecordError(f"site-key listing: key id {entry.get('id')!r} is not that of its key ({key_id(raw)})")
        keys[key_id(raw)] = raw
    return keys


def sign(record: Mapping[str, Any], private: bytes) -> dict[str, str]:
    """The signature field for ``record`` made with the raw 32-byte private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = Ed25519PrivateKey.from_private_bytes(private)
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return {"algorithm": ALGORITHM, "key": key_id(public), "value": b64(key.sign(canonical_bytes(record)))}


def signature_problems(record: Mapping[str, Any], keys: Mapping[str, bytes]) -> list[str]:
    """What is wrong with the record's signature against the site's keys; empty when it holds."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    field = record.get(FIELD)
    if field is None:
        return ["the record holds no site signature"]
    if not isinstance(field, dict) or field.get("algorithm") != ALGORITHM or not isinstance(field.get("key"), str) \
            or not isinstance(field.get("value"), str):
        return [f"the record's signature is not an {ALGORITHM} signature field: {str(field)[:120]}"]
    public = keys.get(field["key"])
    if public is None:
        listed = ", ".join(sorted(keys)) or "none"
        return [f"the record is signed with key {field['key'][:40]!r}, which is not one of the site's keys ({listed})"]
    try:
        value = base64.b64decode(field["value"], validate=True)
        Ed25519PublicKey.from_public_bytes(public).verify(value, canonical_bytes(record))
    except (binascii.Error, ValueError, InvalidSignature):
        return [f"the site signature (key {field['key']}) does not match the record: "
                "something in it was changed after the site signed it"]
    return []
