"""A daily challenge game's result, written when it ends (web/daily.py): its score and the exact points lost
per decision (the coach's review, the same number as the replay's), computed in a worker thread."""

from __future__ import annotations

import asyncio
import logging

from cubilete.engine.game import Game
from cubilete.play import coach
from cubilete.solver.cache import tables_only
from cubilete.store import daily as daily_store
from cubilete.store.webdb import WebStore, utc_today

log = logging.getLogger("cubilete.web")


def day_over(day: str) -> bool:
    """True once the UTC day ``YYYY-MM-DD`` has ended (its seed is then told, its games shown)."""
    return day < utc_today()


def judged(game: Game) -> tuple[int, float | None, int]:
    """(score, exact points lost per decision or None where the rules have no exact tables, decisions)."""
    name = game.players[0]
    with tables_only():  # solved tables are loaded, never solved in the server
        found = coach.review(game, [name])
    decisions = sum(1 for d in found.decisions if d.player == name)
    loss = found.total_loss.get(name, 0.0) / decisions if found.exact and decisions else None
    return game.totals()[0], loss, decisions


async def daily_result(store: WebStore, table_id: str, game: Game) -> None:
    """Write the finished game's line of the day's standings (logged, never raised: the game is stored)."""
    try:  # the score first (the standings show it at once), then the review's points lost
        await asyncio.to_thread(daily_store.finish, store, table_id, game.totals()[0], None, None)
        score, loss, decisions = await asyncio.to_thread(judged, game)
        await asyncio.to_thread(daily_store.finish, store, table_id, score, loss, decisions)
    except Exception:
        log.exception("daily: the result of table %s was not written", table_id)
