"""The score sheet for real dice, on phones (docs/WEB.md, "Real dice"): people throw their own dice and type
what they threw; the server checks every entry with the core scorekeeper (play/scorekeeper.py), so the
rules hold exactly as in the engine: start throws, servida values, instant wins, tie-break rounds, Doble
Generala, the obligada order, house rules.

A sheet is its players and the list of steps typed (start throws, entries, tie-break hands), stored and
replayed on a fresh :class:`Scorekeeper` for every request (a game is a few hundred steps at most); each
step is written by compare-and-set on the sheet's version, so two phones on one link never both write.
Anyone with the link may type (one phone passed around, or each player's phone); an undo takes back only
the last step, and only from the browser that typed it. Each player's chance to win is computed in a worker
thread, once per version; the coach's advice for the dice on the table when asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from cubilete.engine.errors import CubileteError, ScorekeeperError
from cubilete.engine.record import to_record
from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.rules.codec import rules_to_dict
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.i18n import box_name
from cubilete.play import coach
from cubilete.play.scorekeeper import Scorekeeper
from cubilete.store import sheets as stored
from cubilete.web.api import ApiError, bearer_token, check_budget, hub_of, is_official, valid_body
from cubilete.web.guard import client_address
from cubilete.web.hub import TABLE_ID, Hub, new_table_id, token_hash
from cubilete.web.names import check_name
from cubilete.web.protocol import ProtocolError
from cubilete.web.room import with_tables_only
from cubilete.web.sheet_replay import apply_step, replay, replay_view, review_view, sheet_rules
from cubilete.web.solving import SolverBusy
from cubilete.web.waits import within
from cubilete.web.words import in_language, rules_words, web_language

router = APIRouter(prefix="/api")
MAX_PLAYERS = 8
# a game is a few hundred steps (the 4-column sheet: 52 rounds of 8 players); ties for the start and in
# tie-break hands could be typed forever, and every request replays every step
MAX_STEPS = 2000
SUMMARIES_KEPT = 500  # finished sheets' summaries for the list of games (a finished sheet changes only by undo)
REVIEW_WAIT = 20.0  # seconds a review waits for its rules' solve (already under way, or a preset) before a 503


class NewSheet(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    rules: str | None = Field(default=None, max_length=64)
    profile: str | None = Field(default=None, max_length=20000)
    players: list[str] = Field(min_length=1, max_length=MAX_PLAYERS)


class Dice(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    dice: list[int] = Field(min_length=1, max_length=6)
    throw: int = Field(default=1, ge=1, le=20)


class Step(Dice):
    version: int
    kind: Literal["start", "enter", "hand"]
    slot: str | None = Field(default=None, max_length=32)
    scratch: bool = False


class UndoStep(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int


def _lang(request: Request) -> str:
    return web_language(request.query_params.get("lang"))


def _asker(request: Request) -> str | None:
    try:
        return token_hash(bearer_token(request))
    except ApiError:
        return None


def view(sheet: stored.Sheet, keeper: Scorekeeper, asker: str | None, lang: str,
         chances: tuple[list[float], bool] | None) -> dict[str, Any]:
    """What the page shows."""
    rules = keeper.rules
    with in_language(lang):
        labels = [box_name(rules, rules.slot_box(i).id) + (f" {rules.slot_column(i) + 1}" if len(rules.columns) > 1
                                                          else "") for i in range(len(rules.slots))]
    phase = ("start" if keeper.starting else "over" if keeper.is_over else "tiebreak" if keeper.tiebreak
             else "play")
    request = keeper.start_request
    last = sheet.steps[-1] if sheet.steps else None
    return {
        "id": sheet.id, "version": sheet.version, "rules": {"name": rules.name, **rules_words(rules)},
        "players": list(keeper.players), "phase": phase, "current": keeper.current, "dice": rules.dice,
        "start": {"seat": request[0], "dice": request[1]} if request is not None else None,
        "allowance": keeper.allowance if phase in ("play", "tiebreak") else None,
        "round": keeper.round if phase == "play" else None,
        "slots": [{"slot": s, "label": label} for s, label in zip(rules.slots, labels, strict=True)],
        "cards": [list(card) for card in keeper.cards], "totals": keeper.totals(),
        "order": list(keeper.order), "winners": list(keeper.winners),
        "reason": keeper.reason.value if keeper.reason is not None else None,
        "tiebreak_round": keeper.tiebreak_round, "tiebreak_hands": [list(h) for h in keeper.tiebreak_hands],
        "entries": [{"seat": e.seat, "slot": e.slot, "dice": list(e.dice), "throw": e.throw, "points": e.points}
                    for e in keeper.entries[-8:]],
        "can_undo": last is not None and asker is not None and last.get("by") == asker,
        "chances": chances[0] if chances is not None else None,
        "chances_exact": chances[1] if chances is not None else None,
    }


def summary(sheet: stored.Sheet, keeper: Scorekeeper) -> dict[str, Any]:
    """A finished sheet in the site's list of games (as a table's there, marked as played with real dice: its
    results were typed, so they never count in the rankings or a player's statistics)."""
    rules = keeper.rules
    official = is_official(rules.name, sheet.rules_json)
    totals, winners = keeper.totals(), set(keeper.winners)
    return {
        "id": sheet.id, "kind": "real-dice", "url": f"/sheet/{sheet.id}", "preset": rules.name if official else None,
        "rules": rules.name, "house_rules": not official,
        "title": rules_words(rules)["title"] if official else f"{rules.title} (house rules)",
        "finished_at": sheet.finished_at, "ended": None, "undos": 0,
        "players": [{"name": name, "pid": None, "total": totals[i], "winner": i in winners, "bot": False}
                    for i, name in enumerate(keeper.players)],
    }


async def finished_summaries(hub: Hub, preset: str | None, limit: int) -> list[dict[str, Any]]:
    """The newest finished sheets (of one official preset if given), summarised once per version."""
    found = await asyncio.to_thread(stored.finished, hub.store, limit)
    kept = hub.sheet_summaries

    def summarised() -> list[dict[str, Any]]:
        out = []
        for sheet in found:
            cached = kept.get(sheet.id)
            if cached is None or cached[0] != sheet.version:
                cached = (sheet.version, summary(sheet, replay(sheet)))
                kept[sheet.id] = cached
                while len(kept) > SUMMARIES_KEPT:
                    kept.pop(next(iter(kept)))
            out.append(cached[1])
        return out

    made = await asyncio.to_thread(summarised)
    return [g for g in made if not preset or g["preset"] == preset]


async def _load(hub: Hub, sheet_id: str) -> stored.Sheet:
    found = await asyncio.to_thread(stored.load, hub.store, sheet_id) if TABLE_ID.match(sheet_id) else None
    if found is None:
        raise ApiError(404, f"there is no sheet {sheet_id[:16]!r}")
    return found


def _chances_for(hub: Hub, sheet: stored.Sheet, keeper: Scorekeeper) -> tuple[list[float], bool] | None:
    """The players' chances to win at this version, once computed (a worker thread computes them once)."""
    cache: dict[str, tuple[int, tuple[list[float], bool] | None]] = hub.sheet_chances
    found = cache.get(sheet.id)
    if found is not None and found[0] == sheet.version:
        return found[1]
    if keeper.game is None or (found is not None and found[0] == -sheet.version - 1):
        return None  # before the start throws settle the order; or being computed now
    cache[sheet.id] = (-sheet.version - 1, None)
    game = keeper.game

    async def compute() -> None:
        from cubilete.win.chance import chance

        try:
            found = await asyncio.to_thread(with_tables_only, chance, game)
            cache[sheet.id] = (sheet.version, (list(found.probabilities), found.exact))
        except CubileteError:
            cache[sheet.id] = (sheet.version, None)

    task = asyncio.create_task(compute())
    hub.sheet_tasks.add(task)
    task.add_done_callback(hub.sheet_tasks.discard)
    return None


async def _answer(hub: Hub, sheet: stored.Sheet, request: Request) -> dict[str, Any]:
    keeper = await asyncio.to_thread(replay, sheet)
    return view(sheet, keeper, _asker(request), _lang(request), _chances_for(hub, sheet, keeper))


@router.post("/sheets", status_code=201)
async def create(request: Request) -> dict[str, Any]:
    """A new sheet for real dice: ``{"rules" | "profile", "players": [names]}`` -> 201 ``{"id", "url"}``."""
    hub = hub_of(request)
    bearer_token(request)
    spec = await valid_body(request, NewSheet)
    if (spec.rules is None) == (spec.profile is None):
        raise ApiError(422, "give either \"rules\" (a preset name) or \"profile\" (house rules as TOML), not both")
    names: list[str] = []
    for i, raw in enumerate(spec.players):
        try:
            names.append(check_name(raw, names))
        except ProtocolError as exc:
            raise ApiError(422, f"players.{i}: {exc.message}") from None
    address = client_address(request.scope, hub.settings)
    wait = request.app.state.gate.table_created(address)
    if wait is not None:
        raise ApiError(429, f"too many tables created from this address: try again in {wait:.0f} s",
                       {"Retry-After": str(round(wait))})
    network = request.app.state.gate.network(address)
    try:
        rules = find_rules(spec.rules) if spec.rules is not None else rules_from_toml(spec.profile or "", "profile")
        if spec.profile is not None:
            check_budget(rules, hub.settings)
        Scorekeeper(rules, names)  # the players fit the rules
    except CubileteError as exc:
        raise ApiError(422, str(exc)) from None
    with contextlib.suppress(SolverBusy):  # the coach and the chances, solved while the start throws are typed
        hub.solver.start(rules, network)
    sheet = stored.Sheet(new_table_id(), time.time(), json.dumps(rules_to_dict(rules)), tuple(names), (), 0,
                         "playing")
    await asyncio.to_thread(stored.create, hub.store, sheet, network)
    return {"id": sheet.id, "url": f"/sheet/{sheet.id}"}


@router.get("/sheets/{sheet_id}")
async def show(sheet_id: str, request: Request) -> dict[str, Any]:
    """The sheet as everyone sees it (``?lang=``; with the asker's token, whether they may undo)."""
    hub = hub_of(request)
    return await _answer(hub, await _load(hub, sheet_id), request)


@router.post("/sheets/{sheet_id}/steps")
async def step(sheet_id: str, request: Request) -> dict[str, Any]:
    """Type one step: ``{"version", "kind": "start" | "enter" | "hand", "dice", "throw", "slot", "scratch"}``.
    422 with the scorekeeper's reason (in ``?lang=``), 409 if another phone typed first (nothing written)."""
    hub = hub_of(request)
    asker = token_hash(bearer_token(request))
    body = await valid_body(request, Step)
    sheet = await _load(hub, sheet_id)
    if body.version != sheet.version:
        raise ApiError(409, "the sheet changed on another phone: look at it again")
    if len(sheet.steps) >= MAX_STEPS:
        raise ApiError(422, f"this sheet holds {MAX_STEPS} steps, the most a sheet may: start a new one")
    new = {"kind": body.kind, "dice": body.dice, "throw": body.throw, "slot": body.slot, "scratch": body.scratch,
           "by": asker}

    def typed() -> Scorekeeper:
        keeper = replay(sheet)
        with in_language(_lang(request)):
            apply_step(keeper, new)
        return keeper

    try:
        keeper = await asyncio.to_thread(typed)
    except ScorekeeperError as exc:
        raise ApiError(422, str(exc)) from None
    status = "finished" if keeper.is_over else "playing"
    if not await asyncio.to_thread(stored.save, hub.store, sheet, [*sheet.steps, new], status, time.time()):
        raise ApiError(409, "the sheet changed on another phone: look at it again")
    return await _answer(hub, await _load(hub, sheet_id), request)


@router.post("/sheets/{sheet_id}/undo")
async def undo(sheet_id: str, request: Request) -> dict[str, Any]:
    """Take back the last step, only from the browser that typed it: ``{"version"}``."""
    hub = hub_of(request)
    asker = token_hash(bearer_token(request))
    body = await valid_body(request, UndoStep)
    sheet = await _load(hub, sheet_id)
    if not sheet.steps:
        raise ApiError(409, "nothing to undo")
    if body.version != sheet.version:
        raise ApiError(409, "the sheet changed on another phone: look at it again")
    if sheet.steps[-1].get("by") != asker:
        raise ApiError(403, "only the phone that typed the last entry may take it back")
    keeper = await asyncio.to_thread(replay, dataclasses.replace(sheet, steps=sheet.steps[:-1]))
    status = "finished" if keeper.is_over else "playing"
    if not await asyncio.to_thread(stored.save, hub.store, sheet, list(sheet.steps[:-1]), status, time.time()):
        raise ApiError(409, "the sheet changed on another phone: look at it again")
    return await _answer(hub, await _load(hub, sheet_id), request)


@router.post("/sheets/{sheet_id}/preview")
async def preview(sheet_id: str, request: Request) -> dict[str, Any]:
    """What each usable box would get for these dice now: ``{"points": {slot: n}, "wins_at_once"}``."""
    hub = hub_of(request)
    body = await valid_body(request, Dice)
    sheet = await _load(hub, sheet_id)

    def look() -> dict[str, Any]:
        keeper = replay(sheet)
        with in_language(_lang(request)):
            wins = keeper.wins_at_once(body.dice, body.throw)
            points = {} if keeper.tiebreak else keeper.preview(body.dice, body.throw)
        return {"points": points, "wins_at_once": wins}

    try:
        return await asyncio.to_thread(look)
    except ScorekeeperError as exc:
        raise ApiError(422, str(exc)) from None


@router.post("/sheets/{sheet_id}/advice")
async def advice(sheet_id: str, request: Request) -> dict[str, Any]:
    """The coach on the dice on the table: the best options, best first (``{"options": [{"text", "expected",
    "loss", "slot", "keep"}]}``; empty for rules too large to solve here)."""
    hub = hub_of(request)
    body = await valid_body(request, Dice)
    sheet = await _load(hub, sheet_id)
    lang = _lang(request)
    rules = await asyncio.to_thread(sheet_rules, sheet)
    solvable = await asyncio.to_thread(coach.is_solvable, rules)
    if solvable and await _solving(hub, rules) is not None:
        solvable = False  # refused or failed on this server: no advice, as for rules too large

    def ask() -> list[dict[str, Any]]:
        keeper = replay(sheet)
        if not solvable:
            keeper.preview(body.dice, body.throw)  # the same refusals (bad dice, a tie-break hand) as with advice
            return []
        with in_language(lang):
            found = with_tables_only(keeper.suggest, body.dice, body.throw, 3)
            return [{"text": a.describe(keeper.rules), "expected": round(a.expected, 2), "loss": round(a.loss, 2),
                     "slot": a.slot, "keep": list(a.keep_faces)} for a in found]

    try:
        return {"options": await asyncio.to_thread(ask)}
    except ScorekeeperError as exc:
        raise ApiError(422, str(exc)) from None


@router.get("/sheets/{sheet_id}/record", response_model=None)
async def record(sheet_id: str, request: Request) -> JSONResponse:
    """The finished game's record (the typed dice as its throws): ``cubilete replay`` and the statistics read it."""
    hub = hub_of(request)
    sheet = await _load(hub, sheet_id)
    keeper = await asyncio.to_thread(replay, sheet)
    if not keeper.is_over or keeper.game is None:
        raise ApiError(409, "the record is made when the game ends")
    return JSONResponse(to_record(keeper.game),
                        headers={"Content-Disposition": f'attachment; filename="sheet-{sheet_id}.json"'})


def _no_review(reason: str) -> dict[str, Any]:
    """The answer for rules the coach cannot review exactly here (the page says so instead of a review)."""
    return {"reviewed": False, "reason": f"no review for these rules: {reason}", "exact": False, "players": [],
            "worst": []}


@router.get("/sheets/{sheet_id}/review")
async def review(sheet_id: str, request: Request) -> dict[str, Any]:
    """The coach's review of a finished sheet: each typed entry (these dice, on this throw, in this box) judged
    against every option open then (web/sheet_replay.py; never the throws the scorekeeper invents). ``?lang=``.
    ``"reviewed": false`` with the reason for rules the solver cannot solve exactly here; 409 before the end;
    503 with Retry-After while the rules are still being solved."""
    hub = hub_of(request)
    sheet = await _load(hub, sheet_id)
    if sheet.status != "finished":
        raise ApiError(409, "the review is made when the game ends")
    lang = _lang(request)
    kept = hub.sheet_reviews.get((sheet.id, lang))
    if kept is not None and kept[0] == sheet.version:  # an undo after the end makes a new version
        return kept[1]
    rules = await asyncio.to_thread(sheet_rules, sheet)
    if not await asyncio.to_thread(coach.is_solvable, rules):
        return _no_review("the solver cannot solve them exactly")
    reason = await _solving(hub, rules)
    if reason is not None:
        return _no_review(reason)
    made: dict[str, Any] = await asyncio.to_thread(with_tables_only, review_view, sheet, lang)
    hub.sheet_reviews[sheet.id, lang] = (sheet.version, made)
    while len(hub.sheet_reviews) > SUMMARIES_KEPT:
        hub.sheet_reviews.pop(next(iter(hub.sheet_reviews)))
    return made


async def _solving(hub: Hub, rules: Rules) -> str | None:
    """Wait (at most REVIEW_WAIT seconds) for the server's solve of ``rules`` (started when the sheet was made,
    or a preset's); None once solved, else why they will not be. 503 with Retry-After while still solving."""
    try:
        return await within(hub.solver.ready(rules), REVIEW_WAIT)
    except TimeoutError:
        raise ApiError(503, "the coach is still solving these rules: ask again in a minute",
                       {"Retry-After": str(round(REVIEW_WAIT))}) from None


@router.get("/sheets/{sheet_id}/replay")
async def typed_replay(sheet_id: str, request: Request) -> dict[str, Any]:
    """A finished sheet as the site's replay shows it (``/replay/<id>?sheet=1``): the start throws and every typed
    entry or tie-break hand, with the seat's card and the totals after it; only what was typed. 409 before the
    end."""
    hub = hub_of(request)
    sheet = await _load(hub, sheet_id)
    if sheet.status != "finished":
        raise ApiError(409, "the replay is made when the game ends")
    return await asyncio.to_thread(replay_view, sheet)
