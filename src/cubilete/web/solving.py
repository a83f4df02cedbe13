"""New rule sets are solved in worker processes: never in the event loop, never under one global lock.

House rules: at most ``settings.solve_workers`` solves run at once, each in a fresh process
(``python -m cubilete.win.worker``: the solver's worker, which also builds the win tables)
that caps its own CPU time and address space, runs at niceness 19 (the event loop and the database
go first), and is killed if it outlives its wall-clock allowance; at most
``settings.solve_queue`` more wait for a worker, and at most one per network (an IPv4 address, an
IPv6 /64): one visitor's many profiles cannot fill the queue. Presets have a lane of their own (one
process, no queue limit: there are only so many presets), so house rules never delay them.
The tables land in the solver cache, named by the rules' hash, where bots and the coach load them;
while a solve is under way the table plays with the approximate bots and coach, and upgrades when the
tables land (web/room.py). Rules over the budget, or whose solve failed, keep the approximate bots, and
the coach refuses to guess (see :meth:`SolverPool.ready`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections import OrderedDict
from functools import lru_cache

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import Rules, all_presets
from cubilete.engine.rules.codec import rules_to_dict
from cubilete.solver.approx.columns import column_rules, decomposes, is_column
from cubilete.solver.cache import table_key, table_path
from cubilete.solver.space import check_solvable, solve_states
from cubilete.solver.worker import MEMORY_ERROR, UNSUPPORTED
from cubilete.web.settings import Settings
from cubilete.win.tables import KINDS, check_tables
from cubilete.win.tables import table_path as win_table_path

log = logging.getLogger("cubilete.web")
FAILED_KEPT = 1024  # rule sets whose solve failed, remembered so they are not tried again and again
# the solving processes' niceness: the event loop and the database go first. Not SCHED_IDLE (the win-chance
# worker's): under load it starved a 7 s solve for over 300 s, and a table only upgrades once its solve ends
SOLVE_NICE = 19


@lru_cache(maxsize=1)
def preset_keys() -> frozenset[str]:
    """The table keys of every preset and of the columns of preset sheets that decompose: the preset lane."""
    keys: set[str] = set()
    for rules in all_presets():
        keys.add(table_key(rules))
        if decomposes(rules):
            keys.update(table_key(column) for column in column_rules(rules))
    return frozenset(keys)




def _lower_priority() -> None:
    """In the solving process before it starts: the lowest niceness."""
    with contextlib.suppress(OSError):
        os.nice(SOLVE_NICE)


class SolverBusy(Exception):
    """Too many rule sets are waiting to be solved: try again later."""


class SolverPool:
    """The server's solving processes and what they have done."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._workers = asyncio.Semaphore(settings.solve_workers)
        self._preset_workers = asyncio.Semaphore(1)  # the presets' lane: house rules never wait in it
        self._owners: dict[str, str] = {}  # job key -> the network whose house rules it solves
        self._jobs: dict[str, asyncio.Task[str | None]] = {}
        self._failed: OrderedDict[str, str] = OrderedDict()
        self._processes: set[asyncio.subprocess.Process] = set()
        self._closing = False  # close() kills the solves: their end is no failure to report
        self._ready: set[Rules] = set()  # rule sets whose tables are on disk (ready() said None)

    def over_budget(self, rules: Rules) -> str | None:
        """Why the optimal bots and the coach cannot be exact on these rules here, or None if they can."""
        try:
            check_solvable(rules)
        except SolverUnsupportedError as exc:
            return str(exc)
        states = solve_states(rules)
        if states > self.settings.max_solve_states:
            return (f"{rules.name}: {states:,} states to solve is more than this server's limit "
                    f"(max_solve_states = {self.settings.max_solve_states:,})")
        return None

    def solved(self, rules: Rules) -> bool:
        """True if the tables are on disk: the solver's, and the win tables where they fit."""
        if not table_path(rules).is_file():
            return False
        if is_column(rules):  # a column of a many-column sheet: valued by its solver table alone
            return True
        try:
            check_tables(rules)
        except SolverUnsupportedError:
            return True  # too large for win tables: the chances are estimated
        return all(win_table_path(rules, kind).is_file() for kind in KINDS)

    def start(self, rules: Rules, owner: str | None = None) -> None:
        """Queue the solve of ``rules`` if it is needed, in budget and not already under way;
        :class:`SolverBusy` if the queue is full, or if ``owner`` (a :func:`cubilete.web.guard.network_key`) already has
        other house rules being solved. Presets go to their own lane and are never refused.
        A sheet of several columns (too large itself) gets its
        columns solved, each a one-column game (:mod:`cubilete.solver.approx.columns`): the approximate bots and
        coach value the rest of the sheet with them, and with a per-box estimate until they are ready."""
        if decomposes(rules):
            for column in column_rules(rules):
                try:
                    self.start(column, owner)
                except SolverBusy:  # an improvement, not a need: the per-box estimate plays meanwhile
                    log.info("no room to solve the columns of %s now", rules.name)
                    return
            return
        key = table_key(rules)
        if key in self._jobs or key in self._failed or self.over_budget(rules) or self.solved(rules):
            return
        preset = key in preset_keys()
        if not preset:
            if owner is not None and owner in self._owners.values():
                raise SolverBusy("other house rules from your network are being solved (one at a time); "
                                 "these play with the approximate bots and coach")
            house = len(self._owners)
            if house >= self.settings.solve_workers + self.settings.solve_queue:
                raise SolverBusy(f"the server is solving {house} other rule sets (solve_workers + solve_queue = "
                                 f"{self.settings.solve_workers + self.settings.solve_queue}); these play with "
                                 "the approximate bots and coach")
            self._owners[key] = owner or f"rules:{key}"
        self._jobs[key] = asyncio.create_task(self._solve(key, rules, preset))

    def pending(self, rules: Rules) -> bool:
        """True while the solve of ``rules`` (or of one of its columns) is queued or running: cheap, no waiting."""
        if decomposes(rules):
            return any(table_key(column) in self._jobs for column in column_rules(rules))
        return table_key(rules) in self._jobs

    async def ready(self, rules: Rules) -> str | None:
        """None once the tables of ``rules`` are on disk (waiting for its solve if one is under way, or
        starting it for a preset), else why they will not be: over the budget, too large, failed, or not
        queued (house rules are queued only when a table is created, charged to its creator's network)."""
        if rules in self._ready:  # asked on every bot move and every version's chances: answered from memory
            return None
        reason = self.over_budget(rules)
        if reason is not None:
            return reason
        if self.solved(rules):  # builds the rules' state space: far too slow to repeat per move
            if len(self._ready) >= FAILED_KEPT:
                self._ready.clear()
            self._ready.add(rules)
            return None
        key = table_key(rules)
        if key in preset_keys():
            self.start(rules)  # never refused
        job = self._jobs.get(key)
        if job is not None:
            return await asyncio.shield(job)
        return self._failed.get(key, f"{rules.name}: not solved on this server (not queued: the queue was busy)")

    def refusal(self, rules: Rules) -> str | None:
        """Why these rules will not be solved here (over the budget, or their solve failed), or None: solved,
        being solved, or merely not queued (a busy queue; a later table may queue them). Never waits."""
        if rules in self._ready:
            return None
        return self.over_budget(rules) or self._failed.get(table_key(rules))

    async def _solve(self, key: str, rules: Rules, preset: bool) -> str | None:
        try:
            async with self._preset_workers if preset else self._workers:
                reason = await self._run_worker(rules)
        except Exception as exc:  # the worker could not even start
            log.exception("solving %s", rules.name)
            reason = f"{rules.name}: could not be solved here ({exc})"
        finally:
            del self._jobs[key]
            self._owners.pop(key, None)
        if reason is not None and self._closing:
            log.info("solving %s stopped: the server is shutting down", rules.name)
        elif reason is not None:
            log.warning("solving %s failed: %s", rules.name, reason)
            self._failed[key] = reason
            while len(self._failed) > FAILED_KEPT:
                self._failed.popitem(last=False)
        return reason

    async def _run_worker(self, rules: Rules) -> str | None:
        s = self.settings
        module = "cubilete.solver.worker" if is_column(rules) else "cubilete.win.worker"  # columns: no win tables
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", module,
            "--cpu-seconds", str(s.solve_cpu_seconds), "--memory-mb", str(s.solve_memory_mb),
            "--parent", str(os.getpid()),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
            preexec_fn=_lower_priority,  # between fork and exec: only a nice() call
        )
        self._processes.add(proc)
        try:
            _out, err = await asyncio.wait_for(
                proc.communicate(json.dumps(rules_to_dict(rules)).encode()), s.solve_wall_seconds)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return f"{rules.name}: solving took longer than {s.solve_wall_seconds} s (solve_wall_seconds)"
        finally:
            self._processes.discard(proc)
        code = proc.returncode
        if code == 0 and self.solved(rules):
            return None
        if code == -signal.SIGXCPU or code == -signal.SIGKILL:
            return f"{rules.name}: solving used more than {s.solve_cpu_seconds} s of CPU (solve_cpu_seconds)"
        if code == MEMORY_ERROR:
            return f"{rules.name}: solving needed more than {s.solve_memory_mb} MB (solve_memory_mb)"
        if code == UNSUPPORTED:
            return err.decode(errors="replace").strip() or f"{rules.name}: too large to solve"
        return f"{rules.name}: the solving process failed (exit {code}): {err.decode(errors='replace')[-300:]}"

    async def close(self) -> None:
        """Stop every solve (server shutdown)."""
        self._closing = True
        running = list(self._processes)
        for proc in running:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        for proc in running:  # reaped here: a transport left for the collector fails on a closed event loop
            with contextlib.suppress(Exception):
                await asyncio.wait_for(proc.wait(), 10)
        for job in list(self._jobs.values()):
            job.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await job
