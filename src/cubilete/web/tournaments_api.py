"""The tournaments' HTTP API (docs/CLUBS.md, docs/WEB.md "Tournaments").

The organiser is whoever created the tournament: their browser's token (``Authorization: Bearer``) is the
key to adding bots and starting it. People join with their name and token; a bot joins when the organiser
adds it. Everything else is public: the entrants, each round's tables (to watch), the standings, and the
results as JSON or CSV.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import secrets
import time
from datetime import datetime
from typing import Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from cubilete.engine import fairness
from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.codec import rules_from_dict, rules_to_dict
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.play import tournament as formats
from cubilete.play.bots import BOT_LEVELS
from cubilete.store import tournaments as stored
from cubilete.web.api import REFUSED_LEVELS, ApiError, bearer_token, check_budget, hub_of, valid_body
from cubilete.web.guard import client_address
from cubilete.web.hub import BOT_NAMES, TABLE_ID, Hub, new_table_id, player_id, token_hash
from cubilete.web.names import check_name, check_title
from cubilete.web.protocol import Name, ProtocolError
from cubilete.web.solving import SolverBusy
from cubilete.web.tournaments import results
from cubilete.web.words import rules_words

router = APIRouter(prefix="/api")
MAX_SWISS_ROUNDS = 20
LEVELS = [level for level in BOT_LEVELS if level not in REFUSED_LEVELS]


class NewTournament(BaseModel):
    """The body of ``POST /api/tournaments``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=60)
    rules: str | None = Field(default=None, max_length=64)
    profile: str | None = Field(default=None, max_length=20000)
    format: Literal["round-robin", "swiss", "knockout"]
    rounds: int | None = Field(default=None, ge=1, le=MAX_SWISS_ROUNDS)  # Swiss only
    table_size: int = Field(default=2, ge=2, le=4)
    same_dice: bool = False
    timer: int | None = Field(default=None, ge=10, le=600)
    coach: bool = False
    starts_at: str | None = Field(default=None, max_length=40)  # ISO 8601 with its offset; None: the organiser
    club: str | None = Field(default=None, max_length=16)  # a club's tournament (web/clubs.py)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name


class AddBots(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    level: str = Field(max_length=16)
    count: int = Field(default=1, ge=1, le=16)


def _name(text: str, taken: list[str]) -> str:
    try:
        return check_name(text, taken)
    except ProtocolError as exc:
        raise ApiError(422, exc.message) from None


def _starts_at(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(422, f"starts_at: {text!r} is not a date and time (ISO 8601, e.g. 2026-12-24T21:00+00:00)"
                       ) from None
    if when.tzinfo is None:
        raise ApiError(422, "starts_at: give the time's offset from UTC (e.g. 21:00-03:00), so nobody guesses it")
    moment = when.timestamp()
    if not time.time() - 60 <= moment <= time.time() + 366 * 86400:
        raise ApiError(422, "starts_at: a start time from now to a year ahead")
    return moment


async def _tournament(hub: Hub, tid: str) -> stored.Tournament:
    found = await asyncio.to_thread(stored.load, hub.store, tid) if TABLE_ID.match(tid) else None
    if found is None:
        raise ApiError(404, f"there is no tournament {tid[:16]!r}")
    return found


def _organiser(request: Request, t: stored.Tournament) -> None:
    if not secrets.compare_digest(token_hash(bearer_token(request)), t.organiser_hash):
        raise ApiError(403, "only the tournament's organiser (the browser that created it) may do this")


def _title(text: str) -> str:
    try:
        return check_title(text, "a tournament's")
    except ProtocolError as exc:
        raise ApiError(422, exc.message) from None


@router.post("/tournaments", status_code=201)
async def create(request: Request) -> dict[str, Any]:
    """Create a tournament; the asker (``Authorization: Bearer``) is its organiser. 201 ``{"id", "url"}``."""
    hub = hub_of(request)
    organiser = bearer_token(request)
    spec = await valid_body(request, NewTournament)
    name = _title(spec.name)
    if (spec.rules is None) == (spec.profile is None):
        raise ApiError(422, "give either \"rules\" (a preset name) or \"profile\" (house rules as TOML), not both")
    if spec.format == "swiss" and spec.rounds is None:
        raise ApiError(422, f"rounds: a Swiss tournament needs its number of rounds (1 to {MAX_SWISS_ROUNDS})")
    if spec.format != "swiss" and spec.rounds is not None:
        raise ApiError(422, f"rounds: only a Swiss tournament is played over a chosen number of rounds; a "
                            f"{spec.format} tournament's follow from its entrants")
    address = client_address(request.scope, hub.settings)
    network = request.app.state.gate.network(address)
    wait = request.app.state.gate.table_created(address)
    if wait is not None:
        raise ApiError(429, f"too many tables and tournaments created from this address: try again in {wait:.0f} s",
                       {"Retry-After": str(round(wait))})
    try:
        rules = find_rules(spec.rules) if spec.rules is not None else rules_from_toml(spec.profile or "", "profile")
        if spec.profile is not None:
            check_budget(rules, hub.settings)
    except CubileteError as exc:
        raise ApiError(422, str(exc)) from None
    if rules.min_players > 2 or rules.max_players < spec.table_size:
        raise ApiError(422, f"table_size: {rules.name} is for {rules.min_players} to {rules.max_players} players")
    starts = _starts_at(spec.starts_at)
    if spec.club is not None:
        from cubilete.web.clubs import may_tag  # (clubs.py builds on the API module)

        await may_tag(hub, request, spec.club)
    if await asyncio.to_thread(stored.count_live, hub.store, network) >= hub.settings.tournaments_per_network:
        raise ApiError(429, f"at most {hub.settings.tournaments_per_network} tournaments not finished from one "
                            "network: finish one first")
    if await asyncio.to_thread(stored.count_live, hub.store) >= hub.settings.max_tournaments:
        raise ApiError(503, "this server runs as many tournaments as it can: try again later", {"Retry-After": "600"})
    with contextlib.suppress(SolverBusy):  # the bots and the coach: solved while people join
        hub.solver.start(rules, network)
    t = stored.Tournament(
        id=new_table_id(), name=name, preset=rules.name, rules_json=json.dumps(rules_to_dict(rules)),
        format=spec.format, swiss_rounds=spec.rounds, table_size=spec.table_size, same_dice=spec.same_dice,
        timer=spec.timer, coach=spec.coach, status="open", round=0, organiser_hash=token_hash(organiser),
        seed=fairness.new_seed(), created_at=time.time(), starts_at=starts, finished_at=None, version=0,
        club=spec.club)
    await asyncio.to_thread(stored.create, hub.store, t, network)
    return {"id": t.id, "url": f"/tournaments/{t.id}"}


@router.get("/tournaments")
async def listing(request: Request) -> list[dict[str, Any]]:
    """The newest tournaments, open and playing first."""
    hub = hub_of(request)
    found = await asyncio.to_thread(stored.recent, hub.store)
    return [{"id": t.id, "name": t.name, "rules": _rules_of(t)["title"], "format": t.format, "status": t.status,
             "entrants": n, "round": t.round, "url": f"/tournaments/{t.id}", "starts_at": t.starts_at}
            for t, n in found]


def _rules_of(t: stored.Tournament) -> dict[str, Any]:
    return rules_words(rules_from_dict(json.loads(t.rules_json), "tournament rules"))


def _viewer(request: Request) -> str | None:
    """The asker's token hash when they sent one (looking is open to all)."""
    try:
        return token_hash(bearer_token(request))
    except ApiError:
        return None


async def _view(hub: Hub, t: stored.Tournament, viewer: str | None) -> dict[str, Any]:
    entrants = await asyncio.to_thread(stored.entrants, hub.store, t.id)
    rounds = await asyncio.to_thread(stored.round_tables, hub.store, t.id)
    outcome = await asyncio.to_thread(stored.outcomes, hub.store, [r.table_id for r in rounds if r.table_id])
    done = results(rounds, outcome)
    helped: dict[int, int] = {}
    shown_rounds: list[dict[str, Any]] = []
    for rt in rounds:
        if rt.round > len(shown_rounds):
            shown_rounds.append({"round": rt.round, "tables": []})
        found = outcome.get(rt.table_id or "")
        seats = []
        for i, e in enumerate(rt.entrants):
            stand_in = found.stand_in[i] if found is not None else 0
            helped[e] = helped.get(e, 0) + stand_in
            seats.append({"entrant": e, "name": entrants[e].name if e < len(entrants) else "?",
                          "total": found.totals[i] if found is not None else None,
                          "winner": bool(found.winners[i]) if found is not None and found.status == "finished"
                          else rt.table_id is None,
                          "stand_in_moves": stand_in})
        shown_rounds[-1]["tables"].append({
            "table": rt.table_id, "url": f"/t/{rt.table_id}" if rt.table_id else None, "bye": rt.table_id is None,
            "status": "bye" if rt.table_id is None else (found.status if found is not None else "making"),
            "seats": seats})
    lines = formats.standings(len(entrants), done, t.format, t.seed) if entrants else []
    me = next((e.entrant for e in entrants if viewer is not None and e.token_hash == viewer), None)
    rules = rules_from_dict(json.loads(t.rules_json), "tournament rules")
    return {
        "id": t.id, "name": t.name, "rules": {"name": t.preset, **rules_words(rules)}, "format": t.format,
        "status": t.status, "round": t.round, "club": t.club,
        "rounds_planned": formats.planned_rounds(t.format, len(entrants), t.table_size, t.swiss_rounds, t.seed)
        if len(entrants) >= 2 else t.swiss_rounds,
        "table_size": t.table_size, "same_dice": t.same_dice, "timer": t.timer, "coach": t.coach,
        "starts_at": t.starts_at, "created_at": t.created_at, "finished_at": t.finished_at,
        "players": [{"entrant": e.entrant, "name": e.name, "kind": e.kind, "level": e.level} for e in entrants],
        "rounds": shown_rounds,
        "standings": [{"place": s.place, "entrant": s.entrant, "name": entrants[s.entrant].name,
                       "points": s.points, "wins": s.wins, "games": s.games, "total": s.total, "byes": s.byes,
                       "reached": s.reached, "stand_in_moves": helped.get(s.entrant, 0)} for s in lines],
        "organiser": viewer is not None and secrets.compare_digest(viewer, t.organiser_hash),
        "me": me,
        "your_table": _your_table(rounds, outcome, t.round, me),
    }


def _your_table(rounds: list[stored.RoundTable], outcome: dict[str, stored.TableOutcome], round_no: int,
                me: int | None) -> str | None:
    """The viewer's table in the round in play, while it is being played."""
    for rt in rounds:
        if me is not None and rt.round == round_no and me in rt.entrants and rt.table_id is not None:
            found = outcome.get(rt.table_id)
            if found is not None and found.status != "finished":
                return rt.table_id
    return None


@router.get("/tournaments/{tid}")
async def show(tid: str, request: Request) -> dict[str, Any]:
    """The tournament: entrants, rounds and their tables, standings (and, for the asker, their table)."""
    hub = hub_of(request)
    return await _view(hub, await _tournament(hub, tid), _viewer(request))


@router.post("/tournaments/{tid}/join", status_code=201)
async def join(tid: str, request: Request) -> dict[str, Any]:
    """Enter an open tournament with a name (one entry per person)."""
    hub = hub_of(request)
    token = bearer_token(request)
    t = await _tournament(hub, tid)
    body = await valid_body(request, Join)
    taken = [e.name for e in await asyncio.to_thread(stored.entrants, hub.store, tid)]
    name = _name(body.name, taken)
    try:
        e = await asyncio.to_thread(stored.join, hub.store, t.id, name, "human", None, player_id(token),
                                    token_hash(token), time.time(), hub.settings.max_entrants)
    except stored.EntryRefused as exc:
        raise ApiError(409, str(exc)) from None
    except sa.exc.IntegrityError:
        raise ApiError(409, "someone joined at the same moment: try again") from None
    return {"entrant": e.entrant, "name": e.name}


@router.post("/tournaments/{tid}/leave")
async def leave(tid: str, request: Request) -> dict[str, Any]:
    """Withdraw one's entry before the start (after it, a stand-in plays for whoever is away)."""
    hub = hub_of(request)
    mine = token_hash(bearer_token(request))
    t = await _tournament(hub, tid)
    entrant = next((e.entrant for e in await asyncio.to_thread(stored.entrants, hub.store, tid)
                    if e.token_hash == mine), None)
    if entrant is None:
        raise ApiError(404, "you are not in this tournament")
    if not await asyncio.to_thread(stored.leave, hub.store, t.id, entrant):
        raise ApiError(409, "the tournament has started: a stand-in plays your games while you are away")
    return {"left": True}


@router.post("/tournaments/{tid}/bots", status_code=201)
async def add_bots(tid: str, request: Request) -> dict[str, Any]:
    """The organiser adds bots as entrants: ``{"level", "count"}``."""
    hub = hub_of(request)
    t = await _tournament(hub, tid)
    _organiser(request, t)
    body = await valid_body(request, AddBots)
    if body.level not in LEVELS:
        why = f": {REFUSED_LEVELS[body.level]}" if body.level in REFUSED_LEVELS else ""
        raise ApiError(422, f"level: {body.level[:16]!r} is not a bot level offered here{why}; levels: "
                            f"{', '.join(LEVELS)}")
    added: list[dict[str, Any]] = []
    for _ in range(body.count):
        entrants = await asyncio.to_thread(stored.entrants, hub.store, tid)
        same = sum(e.level == body.level for e in entrants)
        name = f"{BOT_NAMES.get(body.level, body.level.title())} bot {same + 1}"
        try:
            e = await asyncio.to_thread(stored.join, hub.store, t.id, name, "bot", body.level, None, None,
                                        time.time(), hub.settings.max_entrants)
        except stored.EntryRefused as exc:
            if added:
                break
            raise ApiError(409, str(exc)) from None
        except sa.exc.IntegrityError:
            raise ApiError(409, "someone joined at the same moment: try again") from None
        added.append({"entrant": e.entrant, "name": e.name})
    return {"added": added}


@router.post("/tournaments/{tid}/start")
async def start(tid: str, request: Request) -> dict[str, Any]:
    """The organiser starts the tournament: the first round's tables are made and seated."""
    hub = hub_of(request)
    t = await _tournament(hub, tid)
    _organiser(request, t)
    if t.status != "open":
        raise ApiError(409, "the tournament has started already")
    desk = hub.tournaments
    if desk is None:
        raise ApiError(503, "tournaments are not running on this server now", {"Retry-After": "10"})
    entrants = await asyncio.to_thread(stored.entrants, hub.store, tid)
    if len(entrants) < 2:
        raise ApiError(409, "a tournament needs at least two entrants: share its link, or add bots")
    if not await desk.begin(t):
        raise ApiError(409, "the tournament started meanwhile")
    return await _view(hub, await _tournament(hub, tid), _viewer(request))


@router.get("/tournaments/{tid}/results.json")
async def results_json(tid: str, request: Request) -> JSONResponse:
    """Everything about the tournament as a file (the same as its page shows)."""
    hub = hub_of(request)
    view = await _view(hub, await _tournament(hub, tid), None)
    for key in ("organiser", "me", "your_table"):
        view.pop(key)
    return JSONResponse(view, headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.json"'})


@router.get("/tournaments/{tid}/results.csv")
async def results_csv(tid: str, request: Request) -> Response:
    """The standings as CSV, one line per entrant (a spreadsheet's columns)."""
    hub = hub_of(request)
    view = await _view(hub, await _tournament(hub, tid), None)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "name", "points", "wins", "games", "total", "byes", "stand_in_moves"])
    for s in view["standings"]:
        writer.writerow([s["place"], _cell(s["name"]), s["points"], s["wins"], s["games"], s["total"], s["byes"],
                         s["stand_in_moves"]])
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.csv"'})


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula is read as text."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
