"""Clubs (docs/CLUBS.md): a name, members who join by link, the club's house rules, its standings over its
games and its tournaments.

The organiser manages the club with a secret link (``/clubs/<id>#key=<key>``: the key stays in the fragment,
never in a request line or a log; the page sends it as ``X-Club-Key``); only its hash is stored, so there is
no password to keep or leak. A member is a browser (its player id) with a name; a club's tables and
tournaments are tagged with it (``"club"`` in ``POST /api/tables`` and ``POST /api/tournaments``, by a member
or the organiser), and its standings count the members' finished club games.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.store import clubs as stored
from cubilete.web.api import ApiError, bearer_token, check_budget, hub_of, valid_body
from cubilete.web.guard import client_address
from cubilete.web.hub import TABLE_ID, Hub, new_table_id, player_id
from cubilete.web.names import check_name, check_title
from cubilete.web.protocol import Name, ProtocolError
from cubilete.web.settings import Settings
from cubilete.web.words import rules_words

router = APIRouter(prefix="/api")
MAX_PROFILES = 10
MAX_CLUBS_PER_NETWORK = 20


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=40)
    toml: str = Field(min_length=1, max_length=20000)


class NewClub(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=60)
    profiles: list[Profile] = Field(default_factory=list, max_length=MAX_PROFILES)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=60)


class Remove(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    pid: str = Field(min_length=1, max_length=16)


class Profiles(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    profiles: list[Profile] = Field(max_length=MAX_PROFILES)


def _key_hash(key: str) -> str:
    return hashlib.sha256(f"club-key:{key}".encode()).hexdigest()


def _checked_profiles(profiles: list[Profile], settings: Settings) -> list[dict[str, str]]:
    """The club's house rules, each one read and held to the server's budget now (422 names the bad one)."""
    out: list[dict[str, str]] = []
    for i, p in enumerate(profiles):
        try:
            check_budget(rules_from_toml(p.toml, p.name), settings)
        except CubileteError as exc:
            raise ApiError(422, f"profiles.{i} ({p.name[:40]}): {exc}") from None
        if any(q["name"] == p.name for q in out):
            raise ApiError(422, f"profiles.{i}: two house rules are called {p.name[:40]!r}")
        out.append({"name": p.name, "toml": p.toml})
    return out


async def load_club(hub: Hub, club_id: str) -> stored.Club:
    found = await asyncio.to_thread(stored.load, hub.store, club_id) if TABLE_ID.match(club_id) else None
    if found is None:
        raise ApiError(404, f"there is no club {club_id[:16]!r}")
    return found


def is_organiser(request: Request, club: stored.Club) -> bool:
    key = request.headers.get("x-club-key", "")
    return bool(key) and len(key) <= 128 and secrets.compare_digest(_key_hash(key), club.key_hash)


def _organiser(request: Request, club: stored.Club) -> None:
    if not is_organiser(request, club):
        raise ApiError(403, "only the club's organiser (the secret link) may do this")


async def may_tag(hub: Hub, request: Request, club_id: str) -> None:
    """A table or tournament may be the club's when its maker is a member or the organiser (403 otherwise)."""
    club = await load_club(hub, club_id)
    if is_organiser(request, club):
        return
    pid = player_id(bearer_token(request))
    if not any(m.pid == pid for m in await asyncio.to_thread(stored.members, hub.store, club.id)):
        raise ApiError(403, "only the club's members make its games: join the club first")


def _title(text: str) -> str:
    try:
        return check_title(text, "a club's")
    except ProtocolError as exc:
        raise ApiError(422, exc.message) from None


@router.post("/clubs", status_code=201)
async def create(request: Request) -> dict[str, Any]:
    """A new club: ``{"name", "profiles": [{"name", "toml"}]}`` -> 201 ``{"id", "url", "manage_url", "key"}``.
    The key is shown once: it is the organiser's link (only its hash is kept)."""
    hub = hub_of(request)
    bearer_token(request)
    spec = await valid_body(request, NewClub)
    name = _title(spec.name)
    profiles = _checked_profiles(spec.profiles, hub.settings)
    address = client_address(request.scope, hub.settings)
    network = request.app.state.gate.network(address)
    wait = request.app.state.gate.table_created(address)
    if wait is not None:
        raise ApiError(429, f"too many tables created from this address: try again in {wait:.0f} s",
                       {"Retry-After": str(round(wait))})
    if await asyncio.to_thread(stored.count_made, hub.store, network) >= MAX_CLUBS_PER_NETWORK:
        raise ApiError(429, f"at most {MAX_CLUBS_PER_NETWORK} clubs from one network")
    key = secrets.token_urlsafe(24)
    club = stored.Club(new_table_id(), name, _key_hash(key), tuple(profiles), time.time())
    await asyncio.to_thread(stored.create, hub.store, club, network)
    return {"id": club.id, "url": f"/clubs/{club.id}", "manage_url": f"/clubs/{club.id}#key={key}", "key": key}


@router.get("/clubs/{club_id}")
async def show(club_id: str, request: Request) -> dict[str, Any]:
    """The club: members, house rules, standings, tournaments and recent games (``member`` and
    ``organiser`` for the asker)."""
    hub = hub_of(request)
    club = await load_club(hub, club_id)
    members = await asyncio.to_thread(stored.members, hub.store, club.id)
    lines = await asyncio.to_thread(stored.standings, hub.store, club.id)
    tours = await asyncio.to_thread(stored.club_tournaments, hub.store, club.id)
    games = await asyncio.to_thread(stored.recent_tables, hub.store, club.id)
    try:
        mine = player_id(bearer_token(request))
    except ApiError:
        mine = None
    rules = []
    for p in club.profiles:
        try:
            words = rules_words(rules_from_toml(p["toml"], p["name"]))
        except CubileteError:
            words = {"title": p["name"]}
        rules.append({"name": p["name"], "title": words["title"], "toml": p["toml"]})
    return {
        "id": club.id, "name": club.name, "members": [{"pid": m.pid, "name": m.name} for m in members],
        "profiles": rules,
        "standings": [{"place": i + 1, "pid": x.pid, "name": x.name, "games": x.games, "wins": x.wins,
                       "total": x.total} for i, x in enumerate(lines)],
        "tournaments": [{"id": tid, "name": name, "status": status, "url": f"/tournaments/{tid}"}
                        for tid, name, status in tours],
        "games": [{"id": tid, "preset": preset, "status": status, "url": f"/t/{tid}", "created_at": at}
                  for tid, preset, status, at in games],
        "member": mine is not None and any(m.pid == mine for m in members),
        "organiser": is_organiser(request, club),
    }


@router.post("/clubs/{club_id}/join", status_code=201)
async def join(club_id: str, request: Request) -> dict[str, Any]:
    """Join with a name (one membership per browser; names unique in the club, look-alikes too)."""
    hub = hub_of(request)
    pid = player_id(bearer_token(request))
    club = await load_club(hub, club_id)
    body = await valid_body(request, Join)
    members = await asyncio.to_thread(stored.members, hub.store, club.id)
    if any(m.pid == pid for m in members):
        raise ApiError(409, "you are a member already")
    if len(members) >= hub.settings.max_entrants * 4:
        raise ApiError(409, "the club is full")
    try:
        name = check_name(body.name, [m.name for m in members])
    except ProtocolError as exc:
        raise ApiError(422, exc.message) from None
    if not await asyncio.to_thread(stored.join, hub.store, club.id, pid, name, time.time()):
        raise ApiError(409, "you are a member already")
    return {"pid": pid, "name": name}


@router.post("/clubs/{club_id}/leave")
async def leave(club_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    pid = player_id(bearer_token(request))
    club = await load_club(hub, club_id)
    if not await asyncio.to_thread(stored.remove, hub.store, club.id, pid):
        raise ApiError(404, "you are not a member of this club")
    return {"left": True}


@router.post("/clubs/{club_id}/remove")
async def remove(club_id: str, request: Request) -> dict[str, Any]:
    """The organiser removes a member: ``{"pid"}``."""
    hub = hub_of(request)
    club = await load_club(hub, club_id)
    _organiser(request, club)
    body = await valid_body(request, Remove)
    if not await asyncio.to_thread(stored.remove, hub.store, club.id, body.pid):
        raise ApiError(404, "no such member")
    return {"removed": body.pid}


@router.post("/clubs/{club_id}/rename")
async def rename(club_id: str, request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    club = await load_club(hub, club_id)
    _organiser(request, club)
    body = await valid_body(request, Rename)
    name = _title(body.name)
    await asyncio.to_thread(stored.update, hub.store, club.id, name=name)
    return {"name": name}


@router.post("/clubs/{club_id}/profiles")
async def set_profiles(club_id: str, request: Request) -> dict[str, Any]:
    """The organiser replaces the club's house rules: ``{"profiles": [{"name", "toml"}]}``."""
    hub = hub_of(request)
    club = await load_club(hub, club_id)
    _organiser(request, club)
    body = await valid_body(request, Profiles)
    profiles = _checked_profiles(body.profiles, hub.settings)
    await asyncio.to_thread(stored.update, hub.store, club.id, profiles=profiles)
    return {"profiles": [p["name"] for p in profiles]}
