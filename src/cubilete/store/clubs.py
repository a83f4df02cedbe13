"""Clubs in the site database (web/clubs.py): the club, its members, its house rules, and its standings over
the club's finished games (tables tagged with the club)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cubilete.store.webdb import WebStore, club_members, clubs, seats, tables, tournaments


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    key_hash: str
    profiles: tuple[dict[str, str], ...]  # {"name", "toml"}
    created_at: float


@dataclass(frozen=True)
class Member:
    pid: str
    name: str
    joined_at: float


@dataclass(frozen=True)
class Line:
    """A member's results over the club's finished games."""

    pid: str
    name: str
    games: int
    wins: int
    total: int


def create(store: WebStore, club: Club, creator_net: str | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(clubs.insert().values(id=club.id, name=club.name, key_hash=club.key_hash,
                                           profiles=json.dumps(list(club.profiles)), created_at=club.created_at,
                                           creator_net=creator_net))


def load(store: WebStore, club_id: str) -> Club | None:
    with store.engine.connect() as conn:
        r = conn.execute(clubs.select().where(clubs.c.id == club_id)).first()
    return None if r is None else Club(r.id, r.name, r.key_hash, tuple(json.loads(r.profiles)), r.created_at)


def update(store: WebStore, club_id: str, **values: Any) -> None:
    """Rename, or replace the house rules (``profiles`` as a list)."""
    if "profiles" in values:
        values["profiles"] = json.dumps(values["profiles"])
    with store.engine.begin() as conn:
        conn.execute(clubs.update().where(clubs.c.id == club_id).values(**values))


def count_made(store: WebStore, creator_net: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(clubs)
                                .where(clubs.c.creator_net == creator_net)).scalar_one())


def members(store: WebStore, club_id: str) -> list[Member]:
    with store.engine.connect() as conn:
        rows = conn.execute(club_members.select().where(club_members.c.club == club_id)
                            .order_by(club_members.c.joined_at))
        return [Member(r.pid, r.name, r.joined_at) for r in rows]


def join(store: WebStore, club_id: str, pid: str, name: str, now: float) -> bool:
    """Add a member (False: already one, and nothing changes)."""
    try:
        with store.engine.begin() as conn:
            conn.execute(club_members.insert().values(club=club_id, pid=pid, name=name, joined_at=now))
    except sa.exc.IntegrityError:
        return False
    return True


def remove(store: WebStore, club_id: str, pid: str) -> bool:
    with store.engine.begin() as conn:
        gone = conn.execute(club_members.delete().where(club_members.c.club == club_id, club_members.c.pid == pid))
    return bool(gone.rowcount)


def standings(store: WebStore, club_id: str) -> list[Line]:
    """Every member's finished club games: games, wins, total points; by wins, then win share, then total."""
    query = (sa.select(seats.c.pid, sa.func.count().label("games"),
                       sa.func.sum(sa.case((seats.c.winner.is_(True), 1), else_=0)).label("wins"),
                       sa.func.coalesce(sa.func.sum(seats.c.total), 0).label("total"))
             .select_from(seats.join(tables, tables.c.id == seats.c.table_id))
             .where(tables.c.club == club_id, tables.c.status == "finished", tables.c.ended.is_(None),
                    seats.c.pid.is_not(None))
             .group_by(seats.c.pid))
    names = {m.pid: m.name for m in members(store, club_id)}
    with store.engine.connect() as conn:
        found = [Line(str(r.pid), names[str(r.pid)], int(r.games), int(r.wins or 0), int(r.total or 0))
                 for r in conn.execute(query) if str(r.pid) in names]
    found += [Line(pid, name, 0, 0, 0) for pid, name in names.items() if pid not in {x.pid for x in found}]
    return sorted(found, key=lambda x: (-x.wins, -(x.wins / x.games if x.games else 0.0), -x.total, x.name))


def recent_tables(store: WebStore, club_id: str, limit: int = 20) -> list[tuple[str, str, str, float]]:
    """The club's newest tables: (id, preset, status, created_at)."""
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(tables.c.id, tables.c.preset, tables.c.status, tables.c.created_at)
                            .where(tables.c.club == club_id, tables.c.status != "expired")
                            .order_by(tables.c.created_at.desc()).limit(limit))
        return [(str(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in rows]


def club_tournaments(store: WebStore, club_id: str) -> list[tuple[str, str, str]]:
    """The club's tournaments: (id, name, status), newest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(tournaments.c.id, tournaments.c.name, tournaments.c.status)
                            .where(tournaments.c.club == club_id).order_by(tournaments.c.created_at.desc()))
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]
