"""The turn-based games' HTTP API (docs/WEB.md, "Turn-based games"): a person's games in play, with those where
it is their turn, and the e-mail address for "your turn" notices at one table."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import find_rules
from cubilete.store import turns
from cubilete.web.api import ApiError, bearer_token, hub_of, table_room, valid_body
from cubilete.web.hub import token_hash
from cubilete.web.turnbased import EMAIL, MAX_EMAIL, notices_on
from cubilete.web.words import rules_words

router = APIRouter(prefix="/api")


class Notices(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    email: str | None = Field(max_length=MAX_EMAIL)


@router.get("/my/tables")
async def my_tables(request: Request) -> list[dict[str, Any]]:
    """The asker's tables waiting or in play (``Authorization: Bearer``), their turn's first: ``[{"id", "url",
    "rules", "status", "your_turn", "turn_hours", "deadline"}]``."""
    hub = hub_of(request)
    mine = token_hash(bearer_token(request))
    out = []
    for t in await asyncio.to_thread(turns.my_tables, hub.store, mine):
        room = await table_room(hub, t.table_id)
        game = room.game
        yours = bool(room.status == "playing" and game is not None and not game.is_over
                     and game.state.current == t.seat)
        try:
            title = rules_words(find_rules(t.preset))["title"]
        except CubileteError:  # house rules: their own name
            title = t.preset
        out.append({"id": t.table_id, "url": f"/t/{t.table_id}", "rules": title, "status": room.status,
                    "your_turn": yours, "turn_hours": t.turn_hours, "deadline": room.turn_deadline()})
    return sorted(out, key=lambda x: not x["your_turn"])


@router.post("/tables/{table_id}/notices")
async def set_notices(table_id: str, request: Request) -> dict[str, Any]:
    """A seated person of a turn-based game gives (``{"email": "ana@example.org"}``) or withdraws
    (``{"email": null}``) the address told when it is their turn."""
    hub = hub_of(request)
    mine = token_hash(bearer_token(request))
    room = await table_room(hub, table_id)
    if room.turn_hours is None:
        raise ApiError(409, "this table is not turn-based: its turns come within the minute")
    if not notices_on(hub.settings):
        raise ApiError(409, "this server sends no e-mail (its operator has not set smtp_host and site_url)")
    seat = next((s.idx for s in room.seats if s.kind == "human" and s.token_hash == mine and s.name), None)
    if seat is None:
        raise ApiError(403, "only a person seated at this table may ask for its turn notices")
    body = await valid_body(request, Notices)
    email = body.email.strip() if body.email is not None else None
    if email is not None and not EMAIL.match(email):
        raise ApiError(422, f"email: {email[:64]!r} is not an e-mail address (name@example.org)")
    await asyncio.to_thread(turns.set_email, hub.store, room.id, seat, email or None, room.version)
    return {"seat": seat, "email": email or None}
