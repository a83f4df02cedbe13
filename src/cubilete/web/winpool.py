"""The seats' chances to win, computed in a separate process at a lower CPU priority.

The chances are an extra (docs/WEB.md): a state frame never waits for them. Computed in the
server's threads they cost more than the whole game (~1-20 ms of Python and numpy per version,
plus a replay of the game to copy it), and they held the interpreter lock the event loop needs;
with 500 players the server spent most of its time on them (benchmarks/README.md, 2026-12-01).

Here one worker process (``workers``), started on first use and niced (``nice``, so the event loop
and the database go first when the CPU is short), keeps a game per table and applies only the
actions it has not seen. A table asks through :meth:`WinPool.compute` with a *snapshot function*
called when a worker is free, so what is computed is the table's newest version, never a queue of
old ones: under load some versions get no chances, and the state frames are not slowed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules
from cubilete.solver.lifetime import die_with_parent

log = logging.getLogger("cubilete.web")
WARM_KEY = "__warm__"  # the warm-up's position (no table has this id: ids are 8 letters and digits)
GAMES_KEPT = 512  # games a worker keeps to resume from (least recently used out)


@dataclass(frozen=True)
class WinJob:
    """What a worker needs to bring its copy of a table's game to a version."""

    key: str  # the table's id
    version: int
    rules: Rules
    seed: str
    players: int
    actions: tuple[Action, ...]  # every action of the game so far, in order


@dataclass(frozen=True)
class WinResult:
    """The chances of one version."""

    version: int
    probabilities: tuple[float, ...]
    exact: bool


# --- the worker process ------------------------------------------------------------------------
_games: OrderedDict[str, tuple[Game, list[Action]]] = OrderedDict()


def _start_worker(nice: int, server: int) -> None:
    """A worker starts: lower its priority (the server's loop and the database go first), and leave
    when the server (process ``server``) is gone: a server killed, or a test process ended, must not
    leave workers behind. The kernel kills it (solver/lifetime.py); the thread is for other systems."""
    die_with_parent(server)
    if nice:
        with contextlib.suppress(OSError):  # not allowed here: the normal priority
            os.nice(nice)
        # Linux: run only on CPU time nobody else wants; niceness alone still took a share of the two
        # cores and doubled the p99 of moves at 500 players (chances skip versions when starved)
        if hasattr(os, "SCHED_IDLE"):
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    parent = os.getppid()
    threading.Thread(target=_follow_parent, args=(parent,), daemon=True, name="follow-parent").start()


def _follow_parent(parent: int) -> None:
    while os.getppid() == parent:  # re-parented (to init) once the server process has ended
        time.sleep(1.0)
    os._exit(0)


def game_for(job: WinJob) -> Game:
    """The worker's game of ``job.key`` at ``job.actions``: the kept one brought forward if its actions
    are a prefix of the job's, else a new one replayed from the seed (after an undo, or a new table)."""
    kept = _games.pop(job.key, None)
    if kept is not None:
        game, seen = kept
        if len(seen) > len(job.actions) or tuple(seen) != job.actions[: len(seen)]:
            kept = None
    if kept is None:
        game, seen = Game(job.rules, [f"P{i + 1}" for i in range(job.players)], job.seed), []
    for action in job.actions[len(seen):]:
        game.apply(action)
        seen.append(action)
    _games[job.key] = (game, seen)
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return game


def compute(job: WinJob) -> WinResult:
    """Run in the worker: the chances of the job's position (the solved tables are only loaded, never solved)."""
    from cubilete.solver.cache import tables_only
    from cubilete.win.chance import chance

    game = game_for(job)
    with tables_only():
        result = chance(game)
    return WinResult(job.version, tuple(float(p) for p in result.probabilities), result.exact)


# --- the server's side -------------------------------------------------------------------------
class WinPool:
    """The worker process(es) and a queue in which each table waits for a free worker."""

    def __init__(self, workers: int = 1, nice: int = 10) -> None:
        self.workers = max(1, workers)
        self.nice = nice
        self._free = asyncio.Semaphore(self.workers)
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.warmed = asyncio.Event()  # the worker has computed one position (imports and compiled code ready)
        self.warm_result: WinResult | None = None
        self.tables_computed = 0  # positions of tables computed here (the warm-up's not counted)

    async def warm(self, rules: Rules) -> None:
        """Start the worker and have it compute one position of ``rules`` now, at the server's start: a fresh
        worker imports numpy and numba and compiles its kernels on its first position, which made the first
        game's chances appear a minute late on a new server (issue 25). Logged, never raised."""
        job = WinJob(WARM_KEY, 0, rules, "warm", 2, ())
        try:
            self.warm_result = await self.compute(lambda: job)
        except Exception as exc:  # the first real position will try again
            log.warning("the chances' worker did not warm up: %s", exc)
        finally:
            self.warmed.set()

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            # spawn: the server has threads (a fork would copy their locks held); the worker imports only the engine
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(self.nice, os.getpid()))
        return self._executor

    async def compute(self, snapshot: Callable[[], WinJob | None]) -> WinResult | None:
        """Wait for a free worker, then compute the position ``snapshot()`` gives at that moment (None: nothing
        to do any more). A worker that died is replaced on the next call; the error goes to the caller."""
        async with self._free:
            job = snapshot()
            if job is None:
                return None
            if job.key != WARM_KEY:
                self.tables_computed += 1
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(), compute, job)
            except concurrent.futures.process.BrokenProcessPool:
                self._executor = None  # killed (out of memory?): a new one next time
                raise

    def close(self) -> None:
        """Stop the worker(s) (the server is shutting down)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def job_of(key: str, version: int, rules: Rules, seed: str, players: int, history: Sequence[Action]) -> WinJob:
    """A job for a table's game."""
    return WinJob(key, version, rules, seed, players, tuple(history))
