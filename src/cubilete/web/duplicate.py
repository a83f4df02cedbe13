"""Duplicate head to head (docs/WEB.md, "Same dice for everyone"): a table made with ``"same_dice": true``
throws duplicate dice (engine/dice.py: every seat's turn n sees the same faces, and the same keeps the same
faces), so two people face the same luck. For two people it is a match of two games: the rematch of the first
is the second, with new dice and the seats swapped (so each moves first once), and
``GET /api/tables/<second>/match`` says who decided better on the same luck: both games' totals and each
person's exact points lost per decision."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request

from cubilete.engine.game import Game
from cubilete.engine.record import DUPLICATE
from cubilete.play import coach
from cubilete.solver.cache import tables_only

if TYPE_CHECKING:
    from cubilete.web.room import Room

router = APIRouter(prefix="/api")


def match_second(room: Room) -> bool:
    """True if this table's rematch is the second game of a duplicate match (a first game between two people)."""
    return (room.dice == DUPLICATE and room.match_of is None and room.daily is None and len(room.seats) == 2
            and all(s.kind == "human" for s in room.seats))


def judged(game: Game) -> dict[str, tuple[float, int] | None]:
    """Each player's (points lost, decisions) on the exact table; None where the rules have none here."""
    with tables_only():
        found = coach.review(game, list(game.players))
    return {name: (found.total_loss.get(name, 0.0), sum(1 for d in found.decisions if d.player == name))
            if found.exact else None for name in game.players}


def match_result(first: Room, second: Room) -> dict[str, Any]:
    """Both games' totals per person (by their browser), and each one's points lost per decision."""
    people: dict[str, dict[str, Any]] = {}
    games = []
    for room in (first, second):
        assert room.game is not None
        totals = room.game.totals()
        losses = judged(room.game)
        games.append({"table": room.id, "players": [s.name for s in room.seats], "totals": totals})
        for seat, total in zip(room.seats, totals, strict=True):
            person = people.setdefault(seat.pid or seat.name or "", {"name": seat.name, "pid": seat.pid, "total": 0,
                                                                     "loss": 0.0, "decisions": 0, "exact": True})
            person["total"] += total
            found = losses.get(seat.name or "")
            if found is None:
                person["exact"] = False
            else:
                person["loss"] += found[0]
                person["decisions"] += found[1]
    out = []
    for p in people.values():
        exact = p.pop("exact") and p["decisions"] > 0
        loss, n = p.pop("loss"), p["decisions"]
        out.append({**p, "loss_per_decision": round(loss / n, 4) if exact else None})
    best = max(p["total"] for p in out)
    winners = [p["name"] for p in out if p["total"] == best]
    judged_ = [p for p in out if p["loss_per_decision"] is not None]
    better = min(judged_, key=lambda p: p["loss_per_decision"])["name"] if len(judged_) == len(out) and len(
        {p["loss_per_decision"] for p in judged_}) > 1 else None
    return {"games": games, "people": out, "winner": winners[0] if len(winners) == 1 else None,
            "decided_better": better}


@router.get("/tables/{table_id}/match")
async def match(table_id: str, request: Request) -> dict[str, Any]:
    """The duplicate match this table ends (its second game): 404 for no match, 409 before both games end."""
    from cubilete.web.api import ApiError, table_room  # the API module imports the app's pieces: import late

    hub = request.app.state.hub
    second = await table_room(hub, table_id)
    if second.match_of is None:
        raise ApiError(404, "this table is not the second game of a duplicate match")
    first = await table_room(hub, second.match_of)
    if not (first.game and first.game.is_over and second.game and second.game.is_over):
        raise ApiError(409, "the match is decided when both games are over")
    return await asyncio.to_thread(match_result, first, second)
