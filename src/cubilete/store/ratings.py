"""Ratings in the site database (web/ratings.py computes them; docs/RATINGS.md explains them).

A ranked game is applied once, in one transaction under one lock (PostgreSQL: a transaction-level advisory
lock, so two processes finishing games of the same person never both read the old rating; SQLite: one
writer, and a lock for this process's threads): the people's ratings are read, the new ones computed by the
caller's function, and each person's rating and a history row (with their points lost in that game) written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from cubilete.store.webdb import WebStore, rating_games, ratings

RATINGS_LOCK = 0x72617465  # "rate"
_local = threading.Lock()

Skill = tuple[float, float]  # (mu, sigma)


@dataclass(frozen=True)
class Played:
    """One person's part in a ranked game."""

    pid: str
    name: str
    total: int
    loss_sum: float | None  # points lost against optimal play over their decisions (None: no exact table)
    loss_sq: float | None
    decisions: int
    agreed: int | None = None  # decisions that were the optimal choice (None: no exact table)
    win_loss: float | None = None  # chance to win given up over its decisions (exact two-player table only)
    win_decisions: int = 0


@dataclass(frozen=True)
class Rated:
    """One person's ratings row."""

    pid: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class GameLine:
    """One person's ranked game, as the history keeps it."""

    table_id: str
    finished_at: float
    mu: float
    sigma: float
    loss_sum: float | None
    loss_sq: float | None
    decisions: int
    win_loss: float | None = None
    win_decisions: int = 0


def apply(store: WebStore, preset: str, table_id: str, finished_at: float, people: Sequence[Played],
          rate: Callable[[list[Skill | None], list[int]], list[Skill]]) -> bool:
    """Apply one ranked game (False if it was applied already). ``rate(before, totals)`` gets each person's
    (mu, sigma) or None for a first game, in seat order, and their totals; it returns the new ratings."""
    with _local, store.engine.begin() as conn:
        if not store.local:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": RATINGS_LOCK})
        seen = conn.execute(sa.select(rating_games.c.pid).where(rating_games.c.preset == preset,
                                                                rating_games.c.table_id == table_id)).first()
        if seen is not None:
            return False
        pids = [p.pid for p in people]
        rows = {r.pid: r for r in conn.execute(ratings.select().where(ratings.c.preset == preset,
                                                                      ratings.c.pid.in_(pids)))}
        before: list[Skill | None] = [(rows[p].mu, rows[p].sigma) if p in rows else None for p in pids]
        after = rate(before, [p.total for p in people])
        now = time.time()
        for person, (mu, sigma) in zip(people, after, strict=True):
            if person.pid in rows:
                conn.execute(ratings.update().where(ratings.c.preset == preset, ratings.c.pid == person.pid)
                             .values(name=person.name, mu=mu, sigma=sigma, games=rows[person.pid].games + 1,
                                     updated_at=now))
            else:
                conn.execute(ratings.insert().values(preset=preset, pid=person.pid, name=person.name, mu=mu,
                                                     sigma=sigma, games=1, updated_at=now))
            conn.execute(rating_games.insert().values(
                preset=preset, pid=person.pid, table_id=table_id, finished_at=finished_at, mu=mu, sigma=sigma,
                loss_sum=person.loss_sum, loss_sq=person.loss_sq, decisions=person.decisions, agreed=person.agreed,
                win_loss=person.win_loss, win_decisions=person.win_decisions))
        return True


def board(store: WebStore, preset: str, limit: int = 200) -> list[Rated]:
    """The preset's rated people (most games first; the caller sorts as asked)."""
    query = (ratings.select().where(ratings.c.preset == preset)
             .order_by(ratings.c.games.desc(), ratings.c.pid).limit(limit))
    with store.engine.connect() as conn:
        return [Rated(r.pid, r.name, r.mu, r.sigma, r.games) for r in conn.execute(query)]


def of_player(store: WebStore, pid: str) -> dict[str, Rated]:
    """One person's ratings, by preset."""
    with store.engine.connect() as conn:
        return {r.preset: Rated(r.pid, r.name, r.mu, r.sigma, r.games)
                for r in conn.execute(ratings.select().where(ratings.c.pid == pid))}


def history(store: WebStore, preset: str, pids: Sequence[str], recent: int | None = None) -> dict[str, list[GameLine]]:
    """Each person's ranked games of a preset, oldest first (only the ``recent`` last ones when given)."""
    out: dict[str, list[GameLine]] = {p: [] for p in pids}
    if not pids:
        return out
    query = (rating_games.select().where(rating_games.c.preset == preset, rating_games.c.pid.in_(list(pids)))
             .order_by(rating_games.c.finished_at, rating_games.c.table_id))
    with store.engine.connect() as conn:
        for r in conn.execute(query):
            out[r.pid].append(GameLine(r.table_id, r.finished_at, r.mu, r.sigma, r.loss_sum, r.loss_sq, r.decisions,
                                       r.win_loss, r.win_decisions or 0))
    if recent is not None:
        out = {p: lines[-recent:] for p, lines in out.items()}
    return out


@dataclass(frozen=True)
class Flag:
    """A rated person whose decisions agree with the optimal player implausibly often."""

    preset: str
    pid: str
    name: str
    decisions: int
    agreed: int

    @property
    def share(self) -> float:
        return self.agreed / self.decisions


def flags(store: WebStore, min_decisions: int, agreement: float) -> list[Flag]:
    """People with at least ``min_decisions`` judged ranked decisions at a preset, of which a share of at least
    ``agreement`` were the optimal choice; the most suspicious first."""
    query = (sa.select(rating_games.c.preset, rating_games.c.pid, sa.func.sum(rating_games.c.decisions).label("n"),
                       sa.func.sum(rating_games.c.agreed).label("a"))
             .where(rating_games.c.agreed.is_not(None))
             .group_by(rating_games.c.preset, rating_games.c.pid))
    with store.engine.connect() as conn:
        names = {(r.preset, r.pid): r.name for r in conn.execute(sa.select(ratings.c.preset, ratings.c.pid,
                                                                            ratings.c.name))}
        found = [Flag(r.preset, r.pid, names.get((r.preset, r.pid), "?"), int(r.n), int(r.a))
                 for r in conn.execute(query) if r.n and int(r.n) >= min_decisions]
    return sorted((f for f in found if f.share >= agreement), key=lambda f: (-f.share, -f.decisions))
