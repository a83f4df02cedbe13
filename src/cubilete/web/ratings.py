"""Two ratings per official preset, updated after every ranked game (docs/RATINGS.md).

- **Results**: openskill's Plackett-Luce model (Weng and Lin, 2011), which rates 2 to 8 players and ties;
  a new player starts at mu 25, sigma 25/3; the rating shown is ``mu - 3 sigma`` (openskill's ordinal: low
  while uncertain), with sigma shown beside it.
- **Decisions** (luck-free skill): the exact points lost per decision against optimal play (the coach's
  review, the same number as the replay's) over the person's last ``RECENT_GAMES`` ranked games, with a
  95% interval by the normal approximation (the decisions' own spread), and their number. A level of the
  bots whose loss per game is nearest is named ("plays like the strong bot"), from the measured table in
  docs/BOTS.md.

A game is ranked when its rules are an official preset, the coach is off, every seat is a person (at least
two different browsers), nobody took an undo, and the share of the people's moves a stand-in made is not over
``stand_in_mark``. The update runs in a worker thread after the game's last move, never in the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from cubilete.duel.cache import duel_path
from cubilete.engine.game import Game
from cubilete.play import coach
from cubilete.play.win_review import win_review
from cubilete.solver.cache import table_path, tables_only
from cubilete.store import ratings as stored
from cubilete.store.ratings import GameLine, Played, Skill
from cubilete.store.webdb import WebStore
from cubilete.web.standin import stand_in_summary
from cubilete.web.views import preset_of

if TYPE_CHECKING:
    from cubilete.web.room import Room

log = logging.getLogger("cubilete.web")
MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6: openskill's defaults
RECENT_GAMES = 50  # the decision rating reads the decisions of this many last ranked games
Z95 = 1.959963984540054
# Measured loss per game against optimal play of each bot level (docs/BOTS.md, 1,000 games each, --solo)
LEVEL_LOSS_PER_GAME: dict[str, dict[str, float]] = {
    "generala": {"optimal": 0.0, "strong": 3.91, "casual": 14.00, "beginner": 33.68},
    "yahtzee": {"optimal": 0.0, "strong": 4.83, "casual": 19.01, "beginner": 50.17},
}
LEVEL_LOSS_PER_GAME["generala-sin-gana"] = LEVEL_LOSS_PER_GAME["generala"]  # the same sheet and exact value


def ranks(totals: Sequence[int]) -> list[int]:
    """1 for the best total, ties sharing a rank (the rank after a tie skips, as in sport)."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def rate(before: list[Skill | None], totals: list[int]) -> list[Skill]:
    """Everyone's (mu, sigma) after one game, from before it (None: a first game) and the totals."""
    teams = [[MODEL.rating() if s is None else MODEL.rating(mu=s[0], sigma=s[1])] for s in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks(totals)])
    return [(team[0].mu, team[0].sigma) for team in after]


def shown(mu: float, sigma: float) -> float:
    """The rating shown: ``mu - 3 sigma`` (rises as a new player's uncertainty shrinks)."""
    return mu - 3 * sigma


def decision_rating(lines: Sequence[GameLine], preset: str) -> dict[str, Any] | None:
    """Points lost per decision over these games (exact ones only), its 95% interval and count; None without."""
    exact = [g for g in lines if g.loss_sum is not None and g.loss_sq is not None and g.decisions]
    n = sum(g.decisions for g in exact)
    if not n:
        return None
    mean = sum(g.loss_sum or 0.0 for g in exact) / n
    var = max(0.0, sum(g.loss_sq or 0.0 for g in exact) / n - mean * mean)
    half = Z95 * math.sqrt(var / n)
    per_game = mean * n / len(exact)
    won = [g for g in lines if g.win_loss is not None and g.win_decisions]
    win_n = sum(g.win_decisions for g in won)
    return {"loss_per_decision": round(mean, 4), "ci": [round(max(0.0, mean - half), 4), round(mean + half, 4)],
            "decisions": n, "loss_per_game": round(per_game, 2), "plays_like": plays_like(preset, per_game),
            # heads-up, against the exact two-player table: the chance to win given up per decision
            "win_given_up_per_decision": round(sum(g.win_loss or 0.0 for g in won) / win_n, 6) if win_n else None,
            "win_decisions": win_n}


def plays_like(preset: str, loss_per_game: float) -> str | None:
    """The bot level whose measured loss per game is nearest (None where the levels were not measured)."""
    table = LEVEL_LOSS_PER_GAME.get(preset)
    if table is None:
        return None
    return min(table, key=lambda level: abs(table[level] - loss_per_game))


Judged = tuple[float | None, float | None, int, int | None]
AGREE = 1e-9  # a decision losing no more than this is the optimal choice (or one as good)


def judge(game: Game, names: Sequence[str]) -> dict[str, Judged]:
    """Each person's (loss sum, loss sum of squares, decisions, optimal choices) in the game; sums and
    the agreement None where the rules have no exact table here."""
    out: dict[str, Judged] = {}
    if not table_path(game.rules).is_file():  # no exact tables here yet: an approximate review would take a
        return {name: (None, None, 0, None) for name in names}  # minute of a worker thread and rate nothing
    with tables_only():  # solved tables are loaded, never solved in the server
        found = coach.review(game, list(names))
    for name in names:
        losses = [d.loss for d in found.decisions if d.player == name]
        if found.exact:
            out[name] = (sum(losses), sum(x * x for x in losses), len(losses), sum(1 for x in losses if x <= AGREE))
        else:
            out[name] = (None, None, 0, None)
    return out


def judge_win(game: Game, names: Sequence[str]) -> dict[str, tuple[float, int]] | None:
    """Heads-up: each person's chance to win given up in the game (sum over their decisions) and how many
    decisions, against the exact two-player table; None where it is not built here (never estimated: an
    estimate of the chance to win would rate the model, not the player)."""
    if len(game.players) != 2 or not duel_path(game.rules).is_file():
        return None
    with tables_only():
        review = win_review(game, list(names))
    if review is None or not review.exact:
        return None
    return {name: (review.total.get(name, 0.0), sum(1 for d in review.decisions if d.player == name))
            for name in names}


def apply_game(store: WebStore, preset: str, table_id: str, finished_at: float, game: Game,
               pids: Sequence[str]) -> bool:
    """Rate one ranked game (in a worker thread): its review, then both ratings in one transaction."""
    judged = judge(game, list(game.players))
    won = judge_win(game, list(game.players))
    totals = game.totals()
    people = [Played(pid, name, totals[i], *judged[name], win_loss=won[name][0] if won else None,
                     win_decisions=won[name][1] if won else 0)
              for i, (pid, name) in enumerate(zip(pids, game.players, strict=True))]
    return stored.apply(store, preset, table_id, finished_at, people, rate)


async def rate_finished(store: WebStore, preset: str, table_id: str, finished_at: float, game: Game,
                        pids: Sequence[str]) -> None:
    """Rate a game that just ended (logged, never raised: the game itself is stored)."""
    try:
        await asyncio.to_thread(apply_game, store, preset, table_id, finished_at, game, pids)
    except Exception:
        log.exception("ratings: table %s was not rated", table_id)


def rankable(room: Room) -> bool:
    """An official preset, the coach off (hints are for practice), only people (two browsers at least), no
    undo: checked when the game ends (the stand-in share is checked in the rating task, which reads the
    moves made for people)."""
    pids = [s.pid for s in room.seats]
    return (preset_of(room.rules) is not None and not room.coach and all(s.kind == "human" for s in room.seats)
            and None not in pids and len(set(pids)) >= 2 and room.undos == 0)


async def rate_room(room: Room) -> None:
    """Rate a table's game that just ended, if it is ranked (see the module's docstring)."""
    game = room.game
    if game is None or not game.is_over:
        return
    try:
        made_for = await asyncio.to_thread(room.store.made_for, room.id)
        people = list(range(len(room.seats)))
        if stand_in_summary(game, people, room.acted, made_for, room.settings.stand_in_mark)["marked"]:
            return  # a game mostly played by stand-ins says little of the people
    except Exception:
        log.exception("ratings: table %s was not rated", room.id)
        return
    await rate_finished(room.store, room.rules.name, room.id, time.time(), game, [s.pid or "" for s in room.seats])


def board(store: WebStore, preset: str, sort: str) -> list[dict[str, Any]]:
    """``GET /api/ratings``: everyone rated at a preset, by rating or by loss per decision."""
    rated = stored.board(store, preset)
    lines = stored.history(store, preset, [r.pid for r in rated], RECENT_GAMES)
    decisions = {r.pid: decision_rating(lines[r.pid], preset) for r in rated}

    def order(r: stored.Rated) -> tuple[object, ...]:
        found = decisions[r.pid]
        if sort == "decision":
            return (found is None, found["loss_per_decision"] if found else 0.0, -shown(r.mu, r.sigma))
        return (-shown(r.mu, r.sigma), r.name)

    out: list[dict[str, Any]] = [
        {"pid": r.pid, "name": r.name, "games": r.games, "rating": round(shown(r.mu, r.sigma), 3),
         "mu": round(r.mu, 3), "uncertainty": round(r.sigma, 3), "decision": decisions[r.pid]}
        for r in sorted(rated, key=order)]
    return out


def of_player(store: WebStore, pid: str) -> dict[str, Any]:
    """A person's two ratings per preset, with the history of each ranked game (for the chart)."""
    out: dict[str, Any] = {}
    for preset, r in stored.of_player(store, pid).items():
        lines = stored.history(store, preset, [pid])[pid]
        out[preset] = {"games": r.games, "rating": round(shown(r.mu, r.sigma), 3), "uncertainty": round(r.sigma, 3),
                       "decision": decision_rating(lines[-RECENT_GAMES:], preset),
                       "history": [{"table": g.table_id, "finished_at": g.finished_at,
                                    "rating": round(shown(g.mu, g.sigma), 3),
                                    "loss_per_decision": None if g.loss_sum is None or not g.decisions
                                    else round(g.loss_sum / g.decisions, 4)} for g in lines]}
    return out
