"""The daily duplicate challenge in the site database (web/daily.py): each day's seed and commitment per
preset, made once whatever the process (the first insert wins, the others read it), and one game per person
per day and preset with its result."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from cubilete.engine import fairness
from cubilete.store.webdb import WebStore, daily_days, daily_games


@dataclass(frozen=True)
class Entry:
    """One person's game of one day's challenge."""

    pid: str
    name: str
    table_id: str
    started_at: float
    score: int | None  # None until the game ends
    loss: float | None  # exact points lost per decision (None: unfinished, or no exact tables)
    decisions: int | None
    first_diff: str | None = None  # JSON: where the game first left optimal play (shown after the day)


def challenge(store: WebStore, day: str, preset: str) -> tuple[str, str]:
    """The day's (seed, commitment) for a preset, made now if nobody made it yet (two processes at once:
    one insert wins and both read the same row)."""
    with store.engine.connect() as conn:
        found = conn.execute(sa.select(daily_days.c.seed, daily_days.c.commitment)
                             .where(daily_days.c.day == day, daily_days.c.preset == preset)).first()
    if found is not None:
        return found.seed, found.commitment
    seed = fairness.new_seed()
    try:
        with store.engine.begin() as conn:
            conn.execute(daily_days.insert().values(day=day, preset=preset, seed=seed,
                                                    commitment=fairness.commitment(seed)))
    except sa.exc.IntegrityError:
        pass  # another process made it first: theirs is the day's
    return challenge(store, day, preset)


def claim(store: WebStore, day: str, preset: str, pid: str, name: str, table_id: str, now: float) -> Entry | None:
    """Book this person's one game of the day under ``table_id``; None if booked now, else their entry
    (a second tab, another process, or a game already played)."""
    try:
        with store.engine.begin() as conn:
            conn.execute(daily_games.insert().values(day=day, preset=preset, pid=pid, name=name, table_id=table_id,
                                                     started_at=now))
        return None
    except sa.exc.IntegrityError:
        found = entry(store, day, preset, pid)
        if found is None:  # refused for another reason: the database says why
            raise
        return found


def release(store: WebStore, table_id: str) -> None:
    """Forget a booking whose table could not be made (the person may start again)."""
    with store.engine.begin() as conn:
        conn.execute(daily_games.delete().where(daily_games.c.table_id == table_id, daily_games.c.score.is_(None)))


def entry(store: WebStore, day: str, preset: str, pid: str) -> Entry | None:
    with store.engine.connect() as conn:
        r = conn.execute(daily_games.select().where(daily_games.c.day == day, daily_games.c.preset == preset,
                                                    daily_games.c.pid == pid)).first()
    return _entry(r) if r is not None else None


def finish(store: WebStore, table_id: str, score: int, loss: float | None, decisions: int | None,
           first_diff: str | None = None) -> None:
    """Write a finished game's result."""
    with store.engine.begin() as conn:
        conn.execute(daily_games.update().where(daily_games.c.table_id == table_id)
                     .values(score=score, loss=loss, decisions=decisions, first_diff=first_diff))


def standings(store: WebStore, day: str, preset: str) -> list[Entry]:
    """Every game of the day's challenge: finished ones by score (then fewer points lost), then the rest."""
    with store.engine.connect() as conn:
        rows = conn.execute(daily_games.select().where(daily_games.c.day == day, daily_games.c.preset == preset))
        found = [_entry(r) for r in rows]
    return sorted(found, key=lambda e: (e.score is None, -(e.score or 0),
                                        e.loss if e.loss is not None else float("inf"), e.started_at))


def counts(store: WebStore, day: str) -> dict[str, int]:
    """People who started each preset's challenge of the day."""
    query = (sa.select(daily_games.c.preset, sa.func.count()).where(daily_games.c.day == day)
             .group_by(daily_games.c.preset))
    with store.engine.connect() as conn:
        return {str(p): int(n) for p, n in conn.execute(query)}


def _entry(r: sa.Row[tuple[object, ...]]) -> Entry:
    return Entry(r.pid, r.name, r.table_id, r.started_at, r.score, r.loss, r.decisions, r.first_diff)

