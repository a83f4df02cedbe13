"""``GET /api/lobby``: tables open to anyone and games to watch (web/lobby.py keeps the list)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import find_rules
from cubilete.web.api import ApiError
from cubilete.web.hub import Hub

router = APIRouter(prefix="/api")


@router.get("/lobby")
async def lobby(request: Request, rules: str | None = None) -> dict[str, Any]:
    """``{"open": [...], "live": [...], "seeking": [...]}``, optionally one preset's (422 for no such preset).
    The list is at most ``lobby_refresh`` seconds old: a crowd of lobby requests shares one database read."""
    hub: Hub = request.app.state.hub
    if rules is not None:
        try:
            rules = find_rules(rules[:64]).name
        except CubileteError:
            raise ApiError(422, f"no preset is called {rules[:64]!r}: see GET /api/presets") from None
    if hub.lobby is None:
        raise ApiError(503, "the lobby is not running")
    return await hub.lobby.filtered(rules)
