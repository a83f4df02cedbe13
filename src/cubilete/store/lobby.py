"""The lobby in the site database: people seeking a game, matched in one transaction; listed tables.

Seeks live in ``web_seeks`` (migration 0006) so that every process of a site matches from one list: a
person seeking through one process is matched with a person seeking through another. A match takes the
oldest ``players`` fresh seeks of the same rules and size under one lock (PostgreSQL: a transaction-level
advisory lock; SQLite: its single writer), marks each with the new table's id and its seat, and the
process holding each seeker's connection tells them (web/lobby.py). A seek not renewed by its process for
``fresh`` seconds (a process that died) is dropped and never matched.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cubilete.engine.errors import AlreadySeeking
from cubilete.store.webdb import WebStore, actions, seats, seeks, tables

LOBBY_LOCK = 0x6C6F6262  # "lobb": one match at a time on a site (pg_advisory_xact_lock)


@dataclass(frozen=True)
class Seek:
    """One person seeking a game."""

    token_hash: str
    pid: str
    name: str
    rules: str
    players: int


def seek(store: WebStore, wanted: Seek, process: str, now: float, fresh: float, new_table: str,
         most: int) -> list[Seek] | None:
    """Record ``wanted`` and try to match it: the group (oldest first; seat i is the i-th) now marked for
    ``new_table``, or None while fewer people seek the same game. :class:`AlreadySeeking` if this browser
    seeks already; ``most`` bounds the seeks on the site (the lobby is full beyond)."""
    with store.engine.begin() as conn:
        if not store.local:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOBBY_LOCK})
        conn.execute(seeks.delete().where(seeks.c.seen_at < now - fresh, seeks.c.table_id.is_(None)))
        if conn.execute(sa.select(seeks.c.token_hash).where(seeks.c.token_hash == wanted.token_hash)).first():
            raise AlreadySeeking("you are seeking a game already: cancel it first")
        if (conn.execute(sa.select(sa.func.count()).select_from(seeks)).scalar() or 0) >= most:
            raise AlreadySeeking(f"the lobby holds {most} people seeking a game: try again in a minute")
        conn.execute(seeks.insert().values(
            token_hash=wanted.token_hash, pid=wanted.pid, name=wanted.name, rules=wanted.rules,
            players=wanted.players, process=process, created_at=now, seen_at=now))
        rows = conn.execute(
            sa.select(seeks).where(seeks.c.rules == wanted.rules, seeks.c.players == wanted.players,
                                   seeks.c.table_id.is_(None))
            .order_by(seeks.c.created_at, seeks.c.token_hash).limit(wanted.players)
        ).all()
        if len(rows) < wanted.players:
            return None
        for seat, r in enumerate(rows):
            conn.execute(seeks.update().where(seeks.c.token_hash == r.token_hash).values(table_id=new_table, seat=seat))
        return [Seek(r.token_hash, r.pid, r.name, r.rules, r.players) for r in rows]


def cancel(store: WebStore, token_hash: str) -> bool:
    """Stop seeking (not once matched); True if there was a seek to stop."""
    with store.engine.begin() as conn:
        gone = conn.execute(seeks.delete().where(seeks.c.token_hash == token_hash, seeks.c.table_id.is_(None)))
        return gone.rowcount == 1


def forget(store: WebStore, token_hashes: Iterable[str]) -> None:
    """Drop these seeks, matched or not (a match whose table could not be made; connections gone)."""
    hashes = list(token_hashes)
    if hashes:
        with store.engine.begin() as conn:
            conn.execute(seeks.delete().where(seeks.c.token_hash.in_(hashes)))


def renew(store: WebStore, process: str, token_hashes: Iterable[str], now: float) -> dict[str, tuple[str, int] | None]:
    """Keep this process's seekers fresh; each one's match ((table, seat), or None while seeking, or while
    the match's table is being stored). A seeker missing from the answer has no seek any more (dropped:
    tell them). A matched row is taken away here."""
    hashes = list(token_hashes)
    if not hashes:
        return {}
    with store.engine.begin() as conn:
        conn.execute(seeks.update().where(seeks.c.token_hash.in_(hashes), seeks.c.process == process)
                     .values(seen_at=now))
        made = sa.select(tables.c.id).where(tables.c.id == seeks.c.table_id).exists()  # the table is stored
        rows = conn.execute(sa.select(seeks.c.token_hash, sa.case((made, seeks.c.table_id), else_=None)
                                      .label("table_id"), seeks.c.seat)
                            .where(seeks.c.token_hash.in_(hashes))).all()
        matched = [r.token_hash for r in rows if r.table_id is not None]
        if matched:
            conn.execute(seeks.delete().where(seeks.c.token_hash.in_(matched)))
    return {r.token_hash: (r.table_id, r.seat) if r.table_id is not None else None for r in rows}


def demand(store: WebStore, now: float, fresh: float) -> list[dict[str, Any]]:
    """How many people seek each game now: [{"rules", "players", "seeking"}]."""
    query = (sa.select(seeks.c.rules, seeks.c.players, sa.func.count().label("n"))
             .where(seeks.c.table_id.is_(None), seeks.c.seen_at >= now - fresh)
             .group_by(seeks.c.rules, seeks.c.players).order_by(seeks.c.rules, seeks.c.players))
    with store.engine.connect() as conn:
        return [{"rules": r.rules, "players": r.players, "seeking": r.n} for r in conn.execute(query)]


@dataclass(frozen=True)
class ListedTable:
    """A table open to anyone, as the lobby shows it."""

    id: str
    status: str
    preset: str
    rules_json: str
    created_at: float
    names: tuple[str | None, ...]  # seat by seat: None for an open seat
    kinds: tuple[str, ...]
    held: tuple[bool, ...]  # a seat a rematch keeps for someone (not open to others)
    scores: int  # boxes written so far (the round follows)


def listed(store: WebStore, rules: str | None, now: float, limit: int) -> list[ListedTable]:
    """Listed tables waiting for players or being played, newest first (at most ``limit`` of each)."""
    out: list[ListedTable] = []
    with store.engine.connect() as conn:
        for status in ("waiting", "playing"):
            query = sa.select(tables.c.id, tables.c.status, tables.c.preset, tables.c.rules_json,
                              tables.c.created_at).where(tables.c.listed.is_(True), tables.c.status == status)
            if rules:
                query = query.where(tables.c.preset == rules)
            found = conn.execute(query.order_by(tables.c.created_at.desc()).limit(limit)).all()
            ids = [r.id for r in found]
            if not ids:
                continue
            by_table: dict[str, list[Any]] = {}
            for s in conn.execute(sa.select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.idx)):
                by_table.setdefault(s.table_id, []).append(s)
            written: dict[str, int] = dict(conn.execute(
                sa.select(actions.c.table_id, sa.func.count())
                .where(actions.c.table_id.in_(ids), actions.c.action_json.like('{"score"%'))
                .group_by(actions.c.table_id)).all())
            for r in found:
                rows = by_table.get(r.id, [])
                out.append(ListedTable(
                    r.id, r.status, r.preset, r.rules_json, r.created_at,
                    tuple(s.name for s in rows), tuple(s.kind for s in rows),
                    tuple(s.name is None and s.held_until is not None and now < s.held_until for s in rows),
                    int(written.get(r.id, 0))))
    return out

