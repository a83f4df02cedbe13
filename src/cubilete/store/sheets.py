"""Score sheets for real dice in the site database (web/sheets.py): the players and every step typed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cubilete.store.webdb import WebStore, sheets


@dataclass(frozen=True)
class Sheet:
    id: str
    created_at: float
    rules_json: str
    players: tuple[str, ...]
    steps: tuple[dict[str, Any], ...]
    version: int
    status: str
    finished_at: float | None = None


def create(store: WebStore, sheet: Sheet, creator_net: str | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(sheets.insert().values(
            id=sheet.id, created_at=sheet.created_at, rules_json=sheet.rules_json, players=json.dumps(sheet.players),
            steps=json.dumps(sheet.steps), version=sheet.version, status=sheet.status, creator_net=creator_net))


def load(store: WebStore, sheet_id: str) -> Sheet | None:
    with store.engine.connect() as conn:
        r = conn.execute(sheets.select().where(sheets.c.id == sheet_id)).first()
    if r is None:
        return None
    return _sheet(r)


def _sheet(r: Any) -> Sheet:
    return Sheet(r.id, r.created_at, r.rules_json, tuple(json.loads(r.players)), tuple(json.loads(r.steps)),
                 r.version, r.status, r.finished_at)


def finished(store: WebStore, limit: int) -> list[Sheet]:
    """Finished sheets, newest first (the site's list of games shows them beside the tables')."""
    query = (sheets.select().where(sheets.c.status == "finished")
             .order_by(sheets.c.finished_at.desc(), sheets.c.id).limit(limit))
    with store.engine.connect() as conn:
        return [_sheet(r) for r in conn.execute(query).all()]


def save(store: WebStore, sheet: Sheet, steps: list[dict[str, Any]], status: str, now: float) -> bool:
    """Write the steps as the sheet's next version; False if another phone wrote one first."""
    with store.engine.begin() as conn:
        moved = conn.execute(sheets.update().where(sheets.c.id == sheet.id, sheets.c.version == sheet.version).values(
            steps=json.dumps(steps), version=sheet.version + 1, status=status,
            finished_at=now if status == "finished" else None))
    return moved.rowcount == 1


def count_since(store: WebStore, creator_net: str, since: float) -> int:
    """Sheets a network made since ``since`` (a bound on what one network may make)."""
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(sheets).where(
            sheets.c.creator_net == creator_net, sheets.c.created_at >= since)).scalar_one())
