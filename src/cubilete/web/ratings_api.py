"""``GET /api/ratings?preset=R[&sort=rating|decision]``: both ratings of everyone rated at an official preset
(web/ratings.py; docs/RATINGS.md)."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, Request

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import find_rules
from cubilete.web import ratings
from cubilete.web.api import ApiError
from cubilete.web.hub import Hub
from cubilete.web.views import preset_of

router = APIRouter(prefix="/api")


@router.get("/ratings")
async def board(request: Request, preset: str = "generala",
                sort: Literal["rating", "decision"] = "rating") -> list[dict[str, Any]]:
    """``[{"pid", "name", "games", "rating", "mu", "uncertainty", "decision": {"loss_per_decision", "ci",
    "decisions", "loss_per_game", "plays_like"} or null}]``, by rating (``mu - 3 sigma``) or by points lost
    per decision (fewest first). 404 for rules that are not an official preset (only those are ranked)."""
    hub: Hub = request.app.state.hub
    try:
        rules = find_rules(preset[:64])
    except CubileteError:
        rules = None
    if rules is None or preset_of(rules) != preset:
        raise ApiError(404, f"only official presets are rated; {preset[:64]!r} is not one")
    return await asyncio.to_thread(ratings.board, hub.store, preset, sort)
