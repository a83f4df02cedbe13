"""The HTTP API (docs/WEB.md): presets, creating tables, records, history, rankings, reviews.

Every refusal is a JSON body ``{"error": "<specific message>"}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cubilete.engine.errors import CubileteError
from cubilete.engine.record import DUPLICATE
from cubilete.engine.rules import Rules, all_presets, find_rules
from cubilete.engine.rules.codec import rules_from_dict, rules_hash, rules_to_dict
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.i18n import _, box_name
from cubilete.play import coach
from cubilete.play.bots import LEVEL_SLIPS
from cubilete.play.win_review import SMALL, chance_timeline, win_review
from cubilete.store.webdb import PlayerResult, TableRow
from cubilete.web import ratings
from cubilete.web import rematch as rematches
from cubilete.web.expiry import TooManyWaiting
from cubilete.web.guard import client_address
from cubilete.web.hub import PID, Hub, SiteFull, token_hash, web_record
from cubilete.web.protocol import ProtocolError
from cubilete.web.room import Room, with_tables_only
from cubilete.web.settings import Settings
from cubilete.web.solving import SolverBusy
from cubilete.web.solving_words import SOLVING_WORDS
from cubilete.web.standin import with_stand_ins
from cubilete.web.words import in_each_language, in_language, rules_words, web_language

SOLVED_LEVELS = {"optimal", *LEVEL_SLIPS}  # the bots that play from the solved tables
# levels the bots module has but the web does not seat, and why (each would cost seconds of CPU a decision
# or needs tables this server does not build; measured: one "exact" decision on 6 dice took 7.8 s)
REFUSED_LEVELS = {
    "exact": "it plays from the exact two-player duel table, which this server does not build",
    "win": "it needs the exact win tables at every decision, and its search has no time budget here",
}
router = APIRouter(prefix="/api")


class ApiError(Exception):
    """A refused request: its status and message."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def hub_of(request: Request) -> Hub:
    """The app's hub (set up at start)."""
    hub: Hub = request.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(hub_of)]


class SeatSpec(BaseModel):
    """One seat of a new table."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["human", "bot"]
    level: str | None = None


class TurnBased(BaseModel):
    """A turn-based game: each player has ``hours`` for a turn (web/turnbased.py)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    hours: float = Field(gt=0)


class NewTable(BaseModel):
    """The body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rules: str | None = Field(default=None, max_length=64)
    profile: str | None = Field(default=None, max_length=20000)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    timer: int | None = Field(default=None, ge=10, le=600)
    coach: bool = True
    listed: bool = False  # open to anyone: shown in the lobby (web/lobby.py); by link only otherwise
    same_dice: bool = False  # duplicate dice: every seat's turn n sees the same throws (web/duplicate.py)
    turn_based: TurnBased | None = None  # hours per turn instead of a timer in seconds
    club: str | None = Field(default=None, max_length=16)  # a club's game (web/clubs.py): by a member


async def json_body(request: Request) -> object:
    raw = await request.body()  # the Guard middleware has refused a body over the limit while it streamed
    limit: int = request.app.state.hub.settings.max_body
    if len(raw) > limit:
        raise ApiError(413, f"the body may hold at most {limit} bytes")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not valid JSON") from None


Model = TypeVar("Model", bound=BaseModel)


def invalid(exc: ValidationError) -> str:
    """The first problem pydantic found, as "where: what" (``body`` when the whole body is wrong)."""
    first = exc.errors()[0]
    return f"{'.'.join(str(p) for p in first['loc']) or 'body'}: {first['msg']}"


async def valid_body(request: Request, model: type[Model]) -> Model:
    """The request's JSON body as ``model``; 413, 400 or 422 with what is wrong."""
    try:
        return model.model_validate(await json_body(request))
    except ValidationError as exc:
        raise ApiError(422, invalid(exc)) from None


@router.get("/health")
async def health(request: Request) -> dict[str, bool]:
    """The server is up; ``warm``: its chances' worker has started and computed its first position (until then
    the process tree is still growing, and the first game's chances would wait for it)."""
    hub = request.app.state.hub
    return {"ok": True, "warm": hub.chances.warmed.is_set() or not hub.settings.win_chances}


@lru_cache(maxsize=1)
def _presets() -> list[dict[str, Any]]:
    return [
        {"name": r.name, "title": rules_words(r)["title"], "min_players": r.min_players,
         "max_players": r.max_players, "coach": coach.is_solvable(r)}
        for r in all_presets()
    ]


@router.get("/presets")
async def presets() -> list[dict[str, Any]]:
    """Every preset, with its title in each language."""
    return await asyncio.to_thread(_presets)


@lru_cache(maxsize=64)
def _preset_detail(name: str) -> dict[str, Any]:
    rules = find_rules(name)
    names = in_each_language(lambda: {b.id: box_name(rules, b.id) for b in rules.boxes})
    return {"rules": rules_to_dict(rules), "labels": {b.id: {lang: names[lang][b.id] for lang in names}
                                                      for b in rules.boxes}}


@router.get("/presets/{name}")
async def preset_detail(name: str) -> dict[str, Any]:
    """One preset's rules (as house rules spell them) and its boxes' names in each language: the create
    form's house-rules fields start from them."""
    if name not in {r.name for r in all_presets()}:
        raise ApiError(404, f"there is no preset {name[:64]!r}")
    return await asyncio.to_thread(_preset_detail, name)


@router.post("/tables", status_code=201)
async def create_table(request: Request, hub: HubDep) -> dict[str, Any]:
    """Create a table and get its link and commitment."""
    wait = request.app.state.gate.table_created(client_address(request.scope, hub.settings))
    if wait is not None:
        raise ApiError(429, f"too many tables created from this address: try again in {wait:.0f} s",
                       {"Retry-After": str(round(wait))})
    spec = await valid_body(request, NewTable)
    if (spec.rules is None) == (spec.profile is None):
        raise ApiError(422, "give either \"rules\" (a preset name) or \"profile\" (house rules as TOML), not both")
    if spec.club is not None:
        from cubilete.web.clubs import may_tag  # (clubs.py builds on this module)

        await may_tag(hub, request, spec.club)
    if spec.turn_based is not None:
        if spec.timer is not None:
            raise ApiError(422, "turn_based: a turn-based game has hours per turn, not a timer in seconds: give one")
        if spec.turn_based.hours > hub.settings.max_turn_hours:
            raise ApiError(422, f"turn_based.hours: at most {hub.settings.max_turn_hours:g} hours per turn here")
        if not any(s.kind == "human" for s in spec.seats):
            raise ApiError(422, "turn_based: a game of bots only has nobody to wait for")
    for i, seat in enumerate(spec.seats):
        if seat.kind == "bot" and seat.level in REFUSED_LEVELS:
            raise ApiError(422, f"seats.{i}.level: bot level {seat.level!r} is not offered here: "
                                f"{REFUSED_LEVELS[seat.level]}")
    not_queued = None
    network = request.app.state.gate.network(client_address(request.scope, hub.settings))
    try:
        rules = find_rules(spec.rules) if spec.rules is not None else rules_from_toml(spec.profile or "", "profile")
        if spec.profile is not None:
            check_budget(rules, hub.settings)
        approximate = hub.solver.over_budget(rules)
        solved_needed = spec.coach or len(spec.seats) > 1 or any(s.level in SOLVED_LEVELS for s in spec.seats)
        if solved_needed:  # bots, the coach and the chances to win (nothing starts for rules over the budget)
            try:  # solved (and its win tables built) in a worker process while people sit, charged to the network
                hub.solver.start(rules, network)
            except SolverBusy as exc:  # the table plays with the approximate bots and coach all along
                not_queued = str(exc)
        room = await hub.create(rules, [(s.kind, s.level) for s in spec.seats], spec.timer, spec.coach,
                                creator=network, listed=spec.listed, dice=DUPLICATE if spec.same_dice else None,
                                turn_hours=spec.turn_based.hours if spec.turn_based is not None else None,
                                club=spec.club)
    except SiteFull as exc:
        raise ApiError(503, str(exc), {"Retry-After": "60"}) from None
    except TooManyWaiting as exc:
        raise ApiError(429, str(exc)) from None
    except CubileteError as exc:
        raise ApiError(422, str(exc)) from None
    note = None
    if approximate is not None:
        coach_too = "the coach is off" if coach.is_solvable(rules) else "so does the coach"
        note = f"optimal bots play an approximate search and {coach_too}: {approximate}"
    elif not_queued is not None:
        note = f"not solved here for now: {not_queued}"
    solving = hub.solver.pending(rules)
    if spec.listed and hub.lobby is not None:
        hub.lobby.poke()
    return {"id": room.id, "url": f"/t/{room.id}", "commitment": room.commitment,
            "exact": approximate is None and not_queued is None, "solving": SOLVING_WORDS if solving else None,
            "note": note}


TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")  # the hello frame's token (web/protocol.py)


def bearer_token(request: Request) -> str:
    """The person's token sent as ``Authorization: Bearer <token>`` (never in the URL, which ends up in
    access logs); 401 without one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not TOKEN.match(token.strip()):
        raise ApiError(401, "say who you are: Authorization: Bearer <your seat token>", {"WWW-Authenticate": "Bearer"})
    return token.strip()


def bearer_token_hash(request: Request) -> str:
    """The hash of the person's bearer token (:func:`bearer_token`)."""
    return token_hash(bearer_token(request))


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, request: Request, hub: HubDep) -> dict[str, Any]:
    """A finished table's rematch: the same rules (house rules too), seats, timer and coach (web/rematch.py).
    Only a person seated at the finished table may ask, with their token as ``Authorization: Bearer
    <token>`` (finished ids are public). Everyone connected, through any process, gets ``{"type":
    "rematch", "table": ID}`` and their page follows; each person connected keeps their seat, and the
    seat of each person gone is kept for them for ``rematch_hold`` seconds. Asking again (the others'
    pages, a second click, another process) gives the same new table."""
    room = await table_room(hub, table_id)
    if room.status != "finished":
        raise ApiError(409, "the game is not over: a rematch comes after it")
    asker = bearer_token_hash(request)
    if not any(s.kind == "human" and s.token_hash == asker and s.name for s in room.seats):
        raise ApiError(403, "only a person seated at this table may ask for its rematch")
    async with room.lock:
        new = await rematches.existing(hub, room)
        if new is None:
            address = client_address(request.scope, hub.settings)
            wait = request.app.state.gate.table_created(address)
            if wait is not None:
                raise ApiError(429, f"too many tables created from this address: try again in {wait:.0f} s",
                               {"Retry-After": str(round(wait))})
            network = request.app.state.gate.network(address)
            try:
                with contextlib.suppress(SolverBusy):  # then the approximate bots and coach play it
                    hub.solver.start(room.rules, network)
                new = await rematches.make(hub, room, network)
            except SiteFull as exc:
                raise ApiError(503, str(exc), {"Retry-After": "60"}) from None
            except TooManyWaiting as exc:
                raise ApiError(429, str(exc)) from None
            except ProtocolError as exc:
                raise ApiError(503, exc.message, {"Retry-After": "1"}) from None
    rematches.tell(room, new.id)
    return {"id": new.id, "url": f"/t/{new.id}", "commitment": new.commitment}


def private_until_the_day_ends(room: Room) -> None:
    """409 for a daily challenge game before its day ends: everyone plays the same dice today."""
    if room.private():
        day = (room.daily or "").split("/")[0]
        raise ApiError(409, f"a daily challenge game is published when its day ends ({day}, UTC): everyone "
                            "plays the same dice until then")


def budget_problem(rules: Rules, settings: Settings) -> str | None:
    """Why house rules are larger than the server's budget, in the current language, or None (within it).
    The setting that sets the limit is named for the site's operator."""
    columns, slots = len(rules.columns), len(rules.slots)
    if rules.dice > settings.max_dice:
        return _("house rules over this server's budget: {dice} dice; at most {most} ({setting})").format(
            dice=rules.dice, most=settings.max_dice, setting="max_dice")
    if columns > settings.max_columns:
        return _("house rules over this server's budget: {columns} columns; at most {most} ({setting})").format(
            columns=columns, most=settings.max_columns, setting="max_columns")
    if slots > settings.max_slots:
        return _("house rules over this server's budget: {slots} slots (boxes x columns); at most {most} "
                 "({setting})").format(slots=slots, most=settings.max_slots, setting="max_slots")
    return None


def check_budget(rules: Rules, settings: Settings) -> None:
    """Refuse house rules larger than the server's budget (the limit is named in the error)."""
    problem = budget_problem(rules, settings)
    if problem is not None:
        raise CubileteError(problem)


async def table_room(hub: Hub, table_id: str) -> Room:
    try:
        room = await hub.room(table_id)
    except (ValueError, KeyError) as exc:  # stored moves that no longer replay
        raise ApiError(500, f"table {table_id!r} cannot be loaded: {exc}") from None
    if room is None:
        raise ApiError(404, f"there is no table {table_id!r}")
    return room


@router.get("/tables/{table_id}")
async def table(table_id: str, hub: HubDep) -> dict[str, Any]:
    """A table's info and state."""
    room = await table_room(hub, table_id)
    return {"table": room.table, "state": room.state()}


@router.get("/tables/{table_id}/record", response_model=None)
async def record(table_id: str, hub: HubDep, request: Request, download: bool = False) -> dict[str, Any] | JSONResponse:
    """The record of a finished game (with the revealed seed); ``?download=1`` saves it as a file
    (``cubilete verify FILE --commitment HEX`` checks it against the commitment shown before the game)."""
    room = await table_room(hub, table_id)
    if room.game is None or (not room.game.is_over and room.ended is None):
        raise ApiError(409, "the record (and its seed) is published when the game ends")
    private_until_the_day_ends(room)
    made_for = await asyncio.to_thread(hub.store.made_for, room.id)  # the database's: any process may answer
    body = with_stand_ins(room, web_record(room), made_for)
    signed = request.app.state.site_keys.sign(body)  # web/signing.py: over the whole record, stand-ins included
    if download:
        return JSONResponse(signed, headers={
            "Content-Disposition": f'attachment; filename="cubilete-{room.id}.json"'})
    return dict(signed)


@lru_cache(maxsize=64)
def _official_hash(name: str) -> str | None:
    """The rules hash of the official preset called exactly ``name`` (not an alias), or None."""
    found = [r for r in all_presets() if r.name == name]
    return rules_hash(found[0]) if found else None


@lru_cache(maxsize=1024)
def is_official(name: str, rules_json: str) -> bool:
    """True if a table's rules are the official preset of that name: judged by the rules' hash, never by the
    name alone (a house-rule profile may call itself "generala")."""
    official = _official_hash(name)
    return official is not None and rules_hash(rules_from_dict(json.loads(rules_json), "stored rules")) == official


def counts_for_ranking(result: PlayerResult) -> bool:
    """A game counts in the rankings when its rules are an official preset (by hash), it was played by at
    least two seats holding at least two different people (a game alone, or against bots whose level the
    creator picked, proves nothing about a player), nobody took an undo (web/undo.py) and the coach was off
    (its hints are practice: the ratings never count such a game either)."""
    return result.seats >= 2 and result.people >= 2 and result.undos == 0 and not result.coach and is_official(
        result.preset, result.rules_json)


def _summary(row: TableRow) -> dict[str, Any]:
    rules = rules_from_dict(json.loads(row.rules_json), "stored rules")
    official = is_official(row.preset, row.rules_json)
    title = rules_words(rules)["title"] if official else f"{rules.title} (house rules)"
    return {
        "id": row.id, "kind": "table", "url": f"/replay/{row.id}", "preset": row.preset if official else None,
        "rules": row.preset, "house_rules": not official,
        "title": title, "finished_at": row.finished_at, "ended": row.ended, "undos": row.undos,
        "players": [{"name": s.name, "pid": s.pid, "total": s.total, "winner": bool(s.winner),
                     "bot": s.kind == "bot"} for s in row.seats],
    }


@router.get("/games")
async def games(hub: HubDep, preset: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
    """Finished games, newest first: the tables' (``"kind": "table"``) and the real-dice sheets' (``"real-dice"``)."""
    from cubilete.web.sheets import finished_summaries  # (sheets.py builds on this module)

    limit = max(1, min(limit, 200))
    rows = await asyncio.to_thread(hub.store.finished_games, preset, limit)
    found = [_summary(r) for r in rows] + await finished_summaries(hub, preset, limit)
    found.sort(key=lambda g: g["finished_at"] or 0.0, reverse=True)
    return found[:limit]


def _aggregate(results: list[PlayerResult], by_preset: bool) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        fresh = {"name": r.name, "pid": r.pid, "games": 0, "wins": 0, "sum": 0, "best": r.total}
        rules = r.preset if is_official(r.preset, r.rules_json) else f"{r.preset} (house rules)"
        entry = out.setdefault(rules if by_preset else r.pid, fresh)
        entry["games"] += 1
        entry["wins"] += int(r.winner)
        entry["sum"] += r.total
        entry["best"] = max(entry["best"], r.total)
        entry["name"] = r.name  # the latest name a browser used
    for entry in out.values():
        entry["average"] = round(entry.pop("sum") / entry["games"], 1)
    return out


@router.get("/leaderboard")
async def leaderboard(hub: HubDep, preset: str = "generala") -> list[dict[str, Any]]:
    """People in games of one official preset (see :func:`counts_for_ranking`), by wins then average."""
    if _official_hash(preset) is None:
        raise ApiError(404, f"only official presets are ranked; {preset[:64]!r} is not one")
    results = await asyncio.to_thread(hub.store.player_results, preset, None)
    board = list(_aggregate([r for r in results if counts_for_ranking(r)], by_preset=False).values())
    board.sort(key=lambda e: (-e["wins"], -e["average"], e["name"]))
    return board


@router.get("/players/{pid}")
async def player(pid: str, hub: HubDep) -> dict[str, Any]:
    """One browser's games and statistics per preset."""
    if not PID.match(pid):
        raise ApiError(404, f"there is no player {pid!r}")
    results = await asyncio.to_thread(hub.store.player_results, None, pid)
    if not results:
        raise ApiError(404, f"player {pid!r} has no finished game")
    rows = await asyncio.to_thread(hub.store.finished_games, None, 100, pid)
    stats = _aggregate([r for r in results if r.undos == 0], by_preset=True)  # undo: no measure of skill
    for entry in stats.values():
        entry.pop("pid")
        entry.pop("name")
    for preset, entry in _aggregate([r for r in results if r.undos], by_preset=True).items():
        stats.setdefault(preset, {"games": 0})["games_with_undo"] = entry["games"]
    rated = await asyncio.to_thread(ratings.of_player, hub.store, pid)  # web/ratings.py: both, with history
    return {"pid": pid, "names": sorted({r.name for r in results}), "games": [_summary(r) for r in rows],
            "stats": stats, "ratings": rated}


@router.get("/games/{table_id}/review")
async def review(table_id: str, hub: HubDep, lang: str = "en") -> dict[str, Any]:
    """The coach's review of a finished game (expected points lost per player, worst moments)."""
    room = await table_room(hub, table_id)
    if room.game is None or not room.game.is_over:
        raise ApiError(409, "the review is made when the game ends")
    private_until_the_day_ends(room)
    humans = [s.name for s in room.seats if s.kind == "human" and s.name]
    lang = web_language(lang)
    found: dict[str, Any] | None = hub.reviews.get((table_id, lang))
    if found is None:  # a finished game never changes: review it once per language (kept while it fits)
        try:
            await room.coach_ready()
        except ProtocolError as exc:
            raise ApiError(409, exc.message) from None
        made: dict[str, Any] = await asyncio.to_thread(with_tables_only, _review, room.game, humans, lang)
        if not hub.solver.pending(room.rules):  # an approximate review while solving is not kept
            hub.reviews.put((table_id, lang), made)
        return made
    return found


def _review(game: Any, humans: list[str], lang: str) -> dict[str, Any]:
    with in_language(lang):
        found = coach.review(game, humans or None)
    return {
        "exact": found.exact,
        "players": [{"name": name, "loss": round(loss, 2),
                     "decisions": sum(1 for d in found.decisions if d.player == name)}
                    for name, loss in found.total_loss.items()],
        "worst": [{"player": d.player, "turn": d.turn, "dice": list(d.dice), "chosen": d.action, "best": d.best,
                   "loss": round(d.loss, 2)} for worst in found.worst.values() for d in worst],
        **_chances_review(game, humans, lang),
    }


def _chances_review(game: Any, humans: list[str], lang: str) -> dict[str, Any]:
    """Everyone's chance to win turn by turn (for the replay's chart) and the chance to win each person
    gave up (where the rules have exact win tables); nothing for a game of one."""
    if len(game.players) < 2:
        return {}
    line = chance_timeline(game)
    out: dict[str, Any] = {"chances": {"players": list(line.players), "turns": list(line.turns),
                                       "chances": [[round(p, 4) for p in row] for row in line.chances],
                                       "exact": line.exact}}
    with in_language(lang):
        found = win_review(game, humans) if humans else None
    if found is not None:
        out["win"] = {
            "players": [{"name": name, "loss": round(loss, 4)} for name, loss in found.total.items()],
            "worst": [{"player": d.player, "turn": d.turn, "chosen": d.action, "best": d.best,
                       "loss": round(d.win_loss, 4)}
                      for d in sorted(found.decisions, key=lambda d: -d.win_loss)[:5] if d.win_loss > SMALL],
        }
    return out
