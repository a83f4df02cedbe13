"""Turn-based games in the site database (web/turnbased.py): when each table's turn began, the tables whose
turn time has run out, the people's games in play, and the e-mail addresses for "your turn" notices."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from cubilete.store.webdb import WebStore, actions, notices, seats, tables

# a box written or a tie-break hand stood on ends a turn (action JSON as engine/actions.py writes it)
_ENDS_TURN = sa.or_(actions.c.action_json.like('{"score"%'), actions.c.action_json.like('{"stand"%'))


@dataclass(frozen=True)
class MyTable:
    """A table in play where this person sits."""

    table_id: str
    preset: str
    seat: int
    turn_hours: float | None
    created_at: float


def began(store: WebStore, table_id: str) -> float | None:
    """When the turn in play began: the last box written (or hand stood on), else when the game started."""
    with store.engine.connect() as conn:
        last = conn.execute(sa.select(sa.func.max(actions.c.created_at))
                            .where(actions.c.table_id == table_id, _ENDS_TURN)).scalar_one_or_none()
        if last is not None:
            return float(last)
        start = conn.execute(sa.select(tables.c.touched_at).where(tables.c.id == table_id)).scalar_one_or_none()
    return None if start is None else float(start)


def turn_based_in_play(store: WebStore) -> list[tuple[str, float, float]]:
    """Every turn-based table in play: (id, hours per turn, when its turn began)."""
    ended = (sa.select(actions.c.table_id, sa.func.max(actions.c.created_at).label("at"))
             .where(_ENDS_TURN).group_by(actions.c.table_id).subquery())
    query = (sa.select(tables.c.id, tables.c.turn_hours, sa.func.coalesce(ended.c.at, tables.c.touched_at))
             .select_from(tables.outerjoin(ended, ended.c.table_id == tables.c.id))
             .where(tables.c.status == "playing", tables.c.turn_hours.is_not(None)))
    with store.engine.connect() as conn:
        return [(str(r[0]), float(r[1]), float(r[2] or 0.0)) for r in conn.execute(query)]


def my_tables(store: WebStore, token_hash: str, limit: int = 50) -> list[MyTable]:
    """The tables in play (or waiting) where this browser sits, newest first."""
    query = (sa.select(tables.c.id, tables.c.preset, seats.c.idx, tables.c.turn_hours, tables.c.created_at)
             .select_from(seats.join(tables, tables.c.id == seats.c.table_id))
             .where(seats.c.token_hash == token_hash, tables.c.status.in_(("playing", "waiting")))
             .order_by(tables.c.created_at.desc()).limit(limit))
    with store.engine.connect() as conn:
        return [MyTable(str(r[0]), str(r[1]), int(r[2]), r[3], float(r[4])) for r in conn.execute(query)]


def set_email(store: WebStore, table_id: str, seat: int, email: str | None, version: int) -> None:
    """Keep (or with None, forget) a seat's address for "your turn" notices of the turns that pass after the
    table's ``version`` (a turn that passed before the address was given is not told: its notice may still be
    on its way when the address comes, and the player is on the page anyway)."""
    with store.engine.begin() as conn:
        conn.execute(notices.delete().where(notices.c.table_id == table_id, notices.c.seat == seat))
        if email is not None:
            conn.execute(notices.insert().values(table_id=table_id, seat=seat, email=email, sent_version=version))


def email_for(store: WebStore, table_id: str, seat: int) -> str | None:
    with store.engine.connect() as conn:
        found = conn.execute(sa.select(notices.c.email).where(notices.c.table_id == table_id,
                                                               notices.c.seat == seat)).scalar_one_or_none()
    return None if found is None else str(found)


def claim_notice(store: WebStore, table_id: str, seat: int, version: int) -> str | None:
    """The address to tell that it is this seat's turn at ``version``, once whatever the process (None: no
    address, or a notice for this turn already claimed)."""
    with store.engine.begin() as conn:
        moved = conn.execute(notices.update().where(
            notices.c.table_id == table_id, notices.c.seat == seat,
            sa.or_(notices.c.sent_version.is_(None), notices.c.sent_version < version)).values(sent_version=version))
        if moved.rowcount != 1:
            return None
        return str(conn.execute(sa.select(notices.c.email).where(notices.c.table_id == table_id,
                                                                 notices.c.seat == seat)).scalar_one())
