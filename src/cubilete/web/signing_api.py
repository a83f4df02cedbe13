"""The site's public keys and a server-side check of a signed record (docs/WEB.md, "Signed records").

``POST /api/verify`` is for browsers without WebCrypto Ed25519 (or on plain-http addresses, where
``crypto.subtle`` is missing): the replay page says when it asked the server instead of checking itself.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from cubilete.engine import fairness, signature
from cubilete.engine.errors import CubileteError
from cubilete.engine.record import check_header
from cubilete.engine.rules.codec import rules_from_dict
from cubilete.web.api import ApiError, check_budget
from cubilete.web.settings import Settings

router = APIRouter(prefix="/api")


@router.get("/site-key")
async def site_key(request: Request) -> dict[str, Any]:
    """The public key records are signed with now, and the former ones (with ids) for older records."""
    listing: dict[str, Any] = request.app.state.site_keys.listing()
    return listing


def _check(record: object, keys: dict[str, bytes], settings: Settings) -> dict[str, Any]:
    try:
        rules = rules_from_dict(check_header(record)["rules"], "record rules")
    except CubileteError as exc:
        return {"ok": False, "problems": [str(exc)], "signature": False}
    try:
        check_budget(rules, settings)  # a record's house rules cost no more to replay than a table's
    except CubileteError as exc:
        raise ApiError(422, str(exc)) from None
    try:
        report = fairness.verify_record(record, site_keys=keys)
    except CubileteError as exc:
        return {"ok": False, "problems": [str(exc)], "signature": False}
    except RecursionError:  # a field nested too deeply to write out again
        return {"ok": False, "problems": ["the record is nested too deeply"], "signature": False}
    return {"ok": report.ok, "problems": list(report.problems), "signature": report.signature_checked}


@router.post("/verify")
async def verify(request: Request) -> dict[str, Any]:
    """Check a record (its JSON as the body; the body-size limit bounds it) against this site's keys:
    signature, commitment, every throw and the replay. The replay runs in a thread, off the event loop, and
    house rules over the server's budget (max_dice, max_columns, max_slots) are refused (422) before it."""
    try:
        record = await request.json()
    except (ValueError, RecursionError):
        raise ApiError(400, "the body must be the JSON of a game record") from None
    keys = signature.public_keys(request.app.state.site_keys.listing())
    return await asyncio.to_thread(_check, record, keys, request.app.state.hub.settings)
