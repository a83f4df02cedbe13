"""A daily challenge game's result, written when it ends (web/daily.py): its score and the exact points lost
per decision (the coach's review, the same number as the replay's), computed in a worker thread."""

from __future__ import annotations

import asyncio
import json
import logging

from cubilete.engine.game import Game
from cubilete.play import coach
from cubilete.solver.cache import tables_only
from cubilete.store import daily as daily_store
from cubilete.store.webdb import WebStore, utc_today

log = logging.getLogger("cubilete.web")
DIFFERS = 1e-9  # a decision losing more than this is not the optimal one


def day_over(day: str) -> bool:
    """True once the UTC day ``YYYY-MM-DD`` has ended (its seed is then told, its games shown)."""
    return day < utc_today()


def judged(game: Game) -> tuple[int, float | None, int, str | None]:
    """(score, exact points lost per decision or None where the rules have no exact tables, decisions, and
    where the game first left optimal play as JSON: turn, dice, the choice, the best one, what it cost)."""
    name = game.players[0]
    with tables_only():  # solved tables are loaded, never solved in the server
        found = coach.review(game, [name])
    mine = [d for d in found.decisions if d.player == name]
    loss = found.total_loss.get(name, 0.0) / len(mine) if found.exact and mine else None
    first = next((d for d in mine if d.loss > DIFFERS), None) if found.exact else None
    diff = None if first is None else json.dumps({"turn": first.turn, "dice": list(first.dice), "chosen": first.action,
                                                  "best": first.best, "loss": round(first.loss, 3)})
    return game.totals()[0], loss, len(mine), diff


async def daily_result(store: WebStore, table_id: str, game: Game) -> None:
    """Write the finished game's line of the day's standings (logged, never raised: the game is stored)."""
    try:  # the score first (the standings show it at once), then the review's points lost
        await asyncio.to_thread(daily_store.finish, store, table_id, game.totals()[0], None, None)
        score, loss, decisions, diff = await asyncio.to_thread(judged, game)
        await asyncio.to_thread(daily_store.finish, store, table_id, score, loss, decisions, diff)
    except Exception:
        log.exception("daily: the result of table %s was not written", table_id)
