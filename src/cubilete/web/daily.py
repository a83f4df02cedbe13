"""The daily duplicate challenge (docs/WEB.md, "Daily challenge"): every UTC day, one challenge per featured
preset (``Settings.daily_presets``) where everyone plays the same dice alone (duplicate dice: a die's face
follows its place, so the same keeps see the same faces and only decisions differ). The day's commitment is
published in advance (today's and tomorrow's), the seed when the day ends. One game per person per day and
preset; the standings rank scores, then the exact points lost per decision. Until the day ends its games
are private (no spectators, records, reviews, or listing), since everyone's first throws are the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from datetime import date, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, ValidationError

from cubilete.engine.dice import DuplicateDice
from cubilete.engine.errors import CubileteError
from cubilete.engine.game import Game
from cubilete.engine.record import DUPLICATE, to_record
from cubilete.engine.rules import Rules, find_rules
from cubilete.play.bots import make_bot
from cubilete.solver.cache import tables_only
from cubilete.store import daily as daily_store
from cubilete.store.webdb import utc_today
from cubilete.web.api import ApiError, bearer_token, invalid, json_body
from cubilete.web.daily_result import day_over
from cubilete.web.hub import Hub, new_table_id, player_id, token_hash
from cubilete.web.names import check_name
from cubilete.web.protocol import Name, ProtocolError
from cubilete.web.solving import SolverBusy
from cubilete.web.words import rules_words

router = APIRouter(prefix="/api")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
OPTIMAL_NAME = "optimal"


class Play(BaseModel):
    """The body of ``POST /api/daily/<date>/<preset>/play``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _preset(hub: Hub, preset: str) -> Rules:
    if preset not in hub.settings.daily_presets:
        raise ApiError(404, f"there is no daily challenge of {preset[:64]!r}; today's: "
                            f"{', '.join(hub.settings.daily_presets)}")
    return find_rules(preset)


def _day(text: str) -> str:
    if not DAY.match(text):
        raise ApiError(404, f"{text[:16]!r} is not a day (YYYY-MM-DD)")
    try:
        date.fromisoformat(text)
    except ValueError:
        raise ApiError(404, f"{text!r} is not a day of the calendar") from None
    return text


@router.get("/daily")
async def daily(request: Request) -> list[dict[str, Any]]:
    """Today's challenges (UTC): ``[{"date", "preset", "title", "commitment", "url", "players",
    "tomorrow"}]`` (``tomorrow``: the commitment of the same preset's challenge tomorrow, published now)."""
    hub = _hub(request)
    today = utc_today()
    tomorrow = (date.fromisoformat(today) + timedelta(days=1)).isoformat()
    played = await asyncio.to_thread(daily_store.counts, hub.store, today)
    out = []
    for preset in hub.settings.daily_presets:
        _, commitment = await asyncio.to_thread(daily_store.challenge, hub.store, today, preset)
        _, next_commitment = await asyncio.to_thread(daily_store.challenge, hub.store, tomorrow, preset)
        out.append({"date": today, "preset": preset, "title": rules_words(find_rules(preset))["title"],
                    "commitment": commitment, "url": f"/daily/{today}/{preset}", "players": played.get(preset, 0),
                    "tomorrow": next_commitment})
    return out


@router.post("/daily/{day}/{preset}/play")
async def play(day: str, preset: str, request: Request) -> JSONResponse:
    """Start (or go back to) this person's one game of the day: 201 ``{"id", "url", "commitment"}`` for a new
    one, 200 for their game still in play, 409 once they have played it or for another day than today."""
    hub = _hub(request)
    day, rules = _day(day), _preset(hub, preset)
    token = bearer_token(request)
    if day != utc_today():
        raise ApiError(409, f"the challenge of {day} is not open: today's is {utc_today()} (UTC)")
    try:
        name = check_name(Play.model_validate(await json_body(request)).name, [])
    except ValidationError as exc:
        raise ApiError(422, invalid(exc)) from None
    except ProtocolError as exc:
        raise ApiError(422, exc.message) from None
    seed, commitment = await asyncio.to_thread(daily_store.challenge, hub.store, day, preset)
    table_id, pid, hashed = new_table_id(), player_id(token), token_hash(token)
    booked = await asyncio.to_thread(daily_store.claim, hub.store, day, preset, pid, name, table_id, time.time())
    if booked is not None:
        if booked.score is not None:
            raise ApiError(409, f"you have played today's {preset} challenge: one game a day (see the standings)")
        return JSONResponse({"id": booked.table_id, "url": f"/t/{booked.table_id}", "commitment": commitment})
    with contextlib.suppress(SolverBusy):  # solved in the background: the standings' points lost are exact
        hub.solver.start(rules, None)
    try:
        await hub.create(rules, [("human", None)], None, False, [(name, hashed, pid)], table_id=table_id, seed=seed,
                         dice=DUPLICATE, daily=f"{day}/{preset}")
    except CubileteError as exc:
        await asyncio.to_thread(daily_store.release, hub.store, table_id)
        raise ApiError(503, f"the game could not be made now ({exc}): try again", {"Retry-After": "10"}) from None
    return JSONResponse({"id": table_id, "url": f"/t/{table_id}", "commitment": commitment}, status_code=201)


@router.get("/daily/{day}/{preset}")
async def standings(day: str, preset: str, request: Request) -> dict[str, Any]:
    """The day's standings ``[{"pid", "name", "score", "loss_per_decision", "decisions", "finished"}]`` and,
    once the day has ended, its seed, each game's table (to replay) and the optimal player's score on the
    same dice."""
    hub = _hub(request)
    day, rules = _day(day), _preset(hub, preset)
    if day > utc_today():
        raise ApiError(404, f"the challenge of {day} has not started (today is {utc_today()}, UTC)")
    seed, commitment = await asyncio.to_thread(daily_store.challenge, hub.store, day, preset)
    over = day_over(day)
    found = await asyncio.to_thread(daily_store.standings, hub.store, day, preset)
    lines = []
    for e in found:
        line: dict[str, Any] = {"pid": e.pid, "name": e.name, "score": e.score, "finished": e.score is not None,
                                "loss_per_decision": None if e.loss is None else round(e.loss, 3),
                                "decisions": e.decisions}
        if over:  # the dice are no secret any more: each game, and where it first left optimal play
            line["table"] = e.table_id
            line["first_difference"] = json.loads(e.first_diff) if e.first_diff else None
        lines.append(line)
    out: dict[str, Any] = {"date": day, "preset": preset, "title": rules_words(rules)["title"],
                           "commitment": commitment, "over": over, "seed": seed if over else None, "standings": lines}
    if over:
        out["optimal"] = await optimal_score(hub, rules, seed)
    return out


async def optimal_game(hub: Hub, rules: Rules, seed: str) -> dict[str, Any] | None:
    """The optimal player's game on the day's dice: ``{"record", "card", "score"}`` (its record as a game
    record, its final card), or None where the rules have no solved table here. Played once per day and
    rules, in a worker thread."""
    key = (rules.name, seed)
    found = hub.daily_optimal.get(key)
    if found is None:  # (not kept while the rules' tables are not here yet: a later ask may find them)
        found = await asyncio.to_thread(_optimal, rules, seed)
        if found is not None:
            hub.daily_optimal[key] = found
    return found


async def optimal_score(hub: Hub, rules: Rules, seed: str) -> int | None:
    """The optimal player's score on the day's dice (None where the rules have no solved table here)."""
    found = await optimal_game(hub, rules, seed)
    return None if found is None else int(found["score"])


def _optimal(rules: Rules, seed: str) -> dict[str, Any] | None:
    game = Game(rules, [OPTIMAL_NAME], seed, DuplicateDice(seed))
    bot = make_bot("bot:optimal", seed=seed)
    try:
        with tables_only():
            while not game.is_over:
                game.apply(bot.choose(game))
    except CubileteError:
        return None
    return {"record": to_record(game), "card": list(game.state.seats[0].card), "score": game.totals()[0]}


@router.get("/daily/{day}/{preset}/optimal")
async def optimal(day: str, preset: str, request: Request) -> dict[str, Any]:
    """After the day: the optimal player's game on the same dice, to replay beside one's own."""
    hub = _hub(request)
    day, rules = _day(day), _preset(hub, preset)
    if not day_over(day):
        raise ApiError(409, f"the optimal game of {day} is shown when the day ends (UTC): its dice are still secret")
    seed, _commitment = await asyncio.to_thread(daily_store.challenge, hub.store, day, preset)
    found = await optimal_game(hub, rules, seed)
    if found is None:
        raise ApiError(503, f"{rules.name}: no solved table on this server yet, so no optimal game: try later",
                       {"Retry-After": "60"})
    return found
