"""Tournaments in the site database (web/tournaments.py): the tournament, its entrants, each round's tables.

Each round is made once whatever the process: the tournament's ``version`` moves by compare-and-set in the
same transaction that writes the round's tables, so of two processes finishing the last game of a round at
once, one writes the next round and the other finds it written.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlalchemy as sa

from cubilete.engine.errors import StoreError
from cubilete.store.webdb import WebStore, actions, seats, tables, tournament_entrants, tournament_tables, tournaments


@dataclass(frozen=True)
class Tournament:
    """One tournament as stored."""

    id: str
    name: str
    preset: str
    rules_json: str
    format: str
    swiss_rounds: int | None
    table_size: int
    same_dice: bool
    timer: int | None
    coach: bool
    status: str  # open, playing, finished
    round: int
    organiser_hash: str
    seed: str
    created_at: float
    starts_at: float | None
    finished_at: float | None
    version: int
    club: str | None = None  # the club whose tournament this is (web/clubs.py)


@dataclass(frozen=True)
class Entrant:
    """A person (``pid``) or a bot (``level``) in a tournament, numbered in the order they joined."""

    entrant: int
    name: str
    kind: str
    level: str | None
    pid: str | None
    token_hash: str | None


@dataclass(frozen=True)
class RoundTable:
    """A table of a round: the entrants in seat order; ``table_id`` None for a bye."""

    round: int
    table_no: int
    table_id: str | None
    entrants: tuple[int, ...]


@dataclass(frozen=True)
class TableOutcome:
    """What a tournament table came to: status, each seat's total and winner flag, moves a stand-in made."""

    status: str
    totals: tuple[int | None, ...]
    winners: tuple[bool, ...]
    stand_in: tuple[int, ...]  # moves made for each seat while its person was away or out of time


class EntryRefused(StoreError):
    """A join the tournament cannot take (full, started, or this person is in already)."""


def create(store: WebStore, t: Tournament, creator_net: str | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(tournaments.insert().values(**t.__dict__, creator_net=creator_net))


def load(store: WebStore, tid: str) -> Tournament | None:
    with store.engine.connect() as conn:
        r = conn.execute(tournaments.select().where(tournaments.c.id == tid)).first()
    return _tournament(r) if r is not None else None


def recent(store: WebStore, limit: int = 50) -> list[tuple[Tournament, int]]:
    """The newest tournaments (open and playing first), each with its number of entrants."""
    count = (sa.select(sa.func.count()).where(tournament_entrants.c.tournament == tournaments.c.id)
             .scalar_subquery())
    order = sa.case((tournaments.c.status == "finished", 1), else_=0)
    query = (sa.select(tournaments, count.label("entrants"))
             .order_by(order, tournaments.c.created_at.desc()).limit(limit))
    with store.engine.connect() as conn:
        return [(_tournament(r), int(r.entrants)) for r in conn.execute(query)]


def count_live(store: WebStore, creator_net: str | None = None) -> int:
    """Tournaments not finished (of one network, or of the whole site)."""
    query = sa.select(sa.func.count()).select_from(tournaments).where(tournaments.c.status != "finished")
    if creator_net is not None:
        query = query.where(tournaments.c.creator_net == creator_net)
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def entrants(store: WebStore, tid: str) -> list[Entrant]:
    with store.engine.connect() as conn:
        rows = conn.execute(tournament_entrants.select().where(tournament_entrants.c.tournament == tid)
                            .order_by(tournament_entrants.c.entrant))
        return [Entrant(r.entrant, r.name, r.kind, r.level, r.pid, r.token_hash) for r in rows]


def join(store: WebStore, tid: str, name: str, kind: str, level: str | None, pid: str | None,
         token_hash: str | None, now: float, most: int) -> Entrant:
    """Add an entrant while the tournament is open (at most ``most``); :class:`EntryRefused` otherwise."""
    with store.engine.begin() as conn:
        status = conn.execute(sa.select(tournaments.c.status).where(tournaments.c.id == tid)
                              .with_for_update()).scalar_one_or_none()
        if status != "open":
            raise EntryRefused("the tournament has started: entries are closed" if status else "no such tournament")
        taken = [str(n).casefold() for n in conn.execute(sa.select(tournament_entrants.c.name)
                                                         .where(tournament_entrants.c.tournament == tid)).scalars()]
        if pid is not None and conn.execute(sa.select(tournament_entrants.c.entrant).where(
                tournament_entrants.c.tournament == tid, tournament_entrants.c.pid == pid)).first() is not None:
            raise EntryRefused("you are in this tournament already")
        if len(taken) >= most:
            raise EntryRefused(f"the tournament is full ({most} entrants)")
        if name.casefold() in taken:
            raise EntryRefused(f"the name {name!r} is taken in this tournament: choose another")
        number = int(conn.execute(sa.select(sa.func.coalesce(sa.func.max(tournament_entrants.c.entrant) + 1, 0))
                                  .where(tournament_entrants.c.tournament == tid)).scalar_one())
        conn.execute(tournament_entrants.insert().values(tournament=tid, entrant=number, name=name, kind=kind,
                                                         level=level, pid=pid, token_hash=token_hash, joined_at=now))
    return Entrant(number, name, kind, level, pid, token_hash)


def leave(store: WebStore, tid: str, entrant: int) -> bool:
    """Withdraw an entrant before the start (the later ones move up a number); False once started."""
    with store.engine.begin() as conn:
        status = conn.execute(sa.select(tournaments.c.status).where(tournaments.c.id == tid)
                              .with_for_update()).scalar_one_or_none()
        if status != "open":
            return False
        conn.execute(tournament_entrants.delete().where(tournament_entrants.c.tournament == tid,
                                                        tournament_entrants.c.entrant == entrant))
        later = conn.execute(sa.select(tournament_entrants.c.entrant).where(
            tournament_entrants.c.tournament == tid, tournament_entrants.c.entrant > entrant)
            .order_by(tournament_entrants.c.entrant)).scalars().all()
        for number in later:
            conn.execute(tournament_entrants.update().where(tournament_entrants.c.tournament == tid,
                                                            tournament_entrants.c.entrant == number)
                         .values(entrant=number - 1))
    return True


def write_round(store: WebStore, t: Tournament, tables_of_round: list[RoundTable], status: str = "playing") -> bool:
    """Move the tournament to the round of ``tables_of_round`` (its version must still be ``t.version``) and
    write its tables, in one transaction; False if another process moved it first."""
    with store.engine.begin() as conn:
        moved = conn.execute(tournaments.update().where(tournaments.c.id == t.id, tournaments.c.version == t.version)
                             .values(version=t.version + 1, status=status,
                                     round=tables_of_round[0].round if tables_of_round else t.round))
        if moved.rowcount != 1:
            return False
        if tables_of_round:
            conn.execute(tournament_tables.insert(), [
                {"tournament": t.id, "round": rt.round, "table_no": rt.table_no, "table_id": rt.table_id,
                 "entrants": json.dumps(list(rt.entrants))} for rt in tables_of_round])
    return True


def finish(store: WebStore, t: Tournament, now: float) -> bool:
    """The last round is over: the tournament is finished (False if another process said so first)."""
    with store.engine.begin() as conn:
        moved = conn.execute(tournaments.update().where(tournaments.c.id == t.id, tournaments.c.version == t.version)
                             .values(version=t.version + 1, status="finished", finished_at=now))
    return moved.rowcount == 1


def round_tables(store: WebStore, tid: str) -> list[RoundTable]:
    """Every round's tables, in order."""
    with store.engine.connect() as conn:
        rows = conn.execute(tournament_tables.select().where(tournament_tables.c.tournament == tid)
                            .order_by(tournament_tables.c.round, tournament_tables.c.table_no))
        return [RoundTable(r.round, r.table_no, r.table_id, tuple(json.loads(r.entrants))) for r in rows]


def outcomes(store: WebStore, table_ids: list[str]) -> dict[str, TableOutcome]:
    """What each of these tables came to (tables not made yet are absent)."""
    if not table_ids:
        return {}
    with store.engine.connect() as conn:
        status = dict(conn.execute(sa.select(tables.c.id, tables.c.status).where(tables.c.id.in_(table_ids))).all())
        found: dict[str, list[tuple[int, int | None, bool]]] = {}
        for r in conn.execute(sa.select(seats.c.table_id, seats.c.idx, seats.c.total, seats.c.winner)
                              .where(seats.c.table_id.in_(table_ids)).order_by(seats.c.table_id, seats.c.idx)):
            found.setdefault(r.table_id, []).append((r.idx, r.total, bool(r.winner)))
        helped: dict[tuple[str, int], int] = {}
        for r in conn.execute(sa.select(actions.c.table_id, actions.c.seat, sa.func.count())
                              .where(actions.c.table_id.in_(table_ids), actions.c.by.is_not(None))
                              .group_by(actions.c.table_id, actions.c.seat)):
            helped[(r[0], int(r[1]))] = int(r[2])
    return {tid: TableOutcome(str(status[tid]), tuple(t for _, t, _ in rows), tuple(w for _, _, w in rows),
                              tuple(helped.get((tid, i), 0) for i, _, _ in rows))
            for tid, rows in found.items() if tid in status}


def live_ids(store: WebStore) -> list[str]:
    """Tournaments that may need the server's attention: playing, or open with a start time."""
    with store.engine.connect() as conn:
        return [str(r[0]) for r in conn.execute(sa.select(tournaments.c.id).where(sa.or_(
            tournaments.c.status == "playing",
            sa.and_(tournaments.c.status == "open", tournaments.c.starts_at.is_not(None)))))]


def _tournament(r: sa.Row[tuple[object, ...]]) -> Tournament:
    return Tournament(r.id, r.name, r.preset, r.rules_json, r.format, r.swiss_rounds, r.table_size, bool(r.same_dice),
                      r.timer, bool(r.coach), r.status, r.round, r.organiser_hash, r.seed, r.created_at, r.starts_at,
                      r.finished_at, r.version, r.club)
