"""``POST /api/profiles/check``: a house-rule profile (TOML) checked as the player types it in the create form.

The answer is 429 past ``profile_checks_per_address`` (per network), else always 200 with ``{"ok": true,
...what the rules are}`` or ``{"ok": false, "error": "...", "line": N or null}``: the line is the
profile's (``profile:3: ...``), so the page can point at it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.i18n import translate_error
from cubilete.play import coach
from cubilete.web.api import ApiError, budget_problem, invalid
from cubilete.web.guard import client_address
from cubilete.web.settings import Settings
from cubilete.web.words import in_language, rules_words, web_language

router = APIRouter(prefix="/api")
SOURCE = "profile"
LINE = re.compile(rf"^{SOURCE}:(\d+):")
TOML_AT = re.compile(r"\(at line (\d+), column \d+\)")  # Python's TOML reader: where the text stopped making sense
TOML_END = "(at end of document)"
MAX_PROFILE = 20000  # as POST /api/tables


class ProfileCheck(BaseModel):
    """The body: the TOML text and the page's language."""

    model_config = ConfigDict(extra="forbid", strict=True)
    profile: str = Field(max_length=MAX_PROFILE)
    lang: str = "en"


def check_profile(text: str, lang: str, settings: Settings | None = None) -> dict[str, Any]:
    """What the create form shows for a profile: the rules it makes, or its first mistake and line; with
    ``settings``, rules over the server's budget are a mistake too (creating the table would refuse them)."""
    try:
        rules = rules_from_toml(text, SOURCE)
    except CubileteError as exc:
        message = " ".join(str(exc).split())
        found = LINE.match(message)
        with in_language(web_language(lang)):
            shown = translate_error(message)
        line = int(found.group(1)) if found else None
        if found:  # the page says "Line 4: ..." itself
            shown = shown.removeprefix(found.group(0)).strip()
        elif message.startswith(f"{SOURCE}: "):  # not valid TOML: the reader's own position
            shown = shown.removeprefix(f"{SOURCE}: ")
            at = TOML_AT.search(message)
            line = int(at.group(1)) if at else (max(len(text.splitlines()), 1) if TOML_END in message else None)
        return {"ok": False, "error": shown, "line": line}
    if settings is not None:
        with in_language(web_language(lang)):
            over = budget_problem(rules, settings)
        if over is not None:
            return {"ok": False, "error": over, "line": None, "budget": True}
    return {
        "ok": True,
        "name": rules.name,
        "title": rules_words(rules)["title"],
        "boxes": len(rules.slots),
        "dice": rules.dice,
        "throws": rules.throws,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "coach": coach.is_solvable(rules),
    }


@router.post("/profiles/check")
async def check(request: Request) -> dict[str, Any]:
    """Check a profile (the create form calls it as the player types); rate-limited per network."""
    wait = request.app.state.gate.profile_checked(client_address(request.scope, request.app.state.hub.settings))
    if wait is not None:
        raise ApiError(429, f"too many profile checks from this address: try again in {wait:.0f} s",
                       {"Retry-After": str(round(wait))})
    try:
        body = ProfileCheck.model_validate_json(await request.body())
    except ValidationError as exc:
        return {"ok": False, "error": invalid(exc), "line": None}
    return await asyncio.to_thread(check_profile, body.profile, body.lang, request.app.state.hub.settings)
