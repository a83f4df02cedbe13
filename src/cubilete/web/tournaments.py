"""Tournaments on the site (docs/CLUBS.md): starting them, making each round's tables, and moving on.

The formats and standings are ``play/tournament.py``; what is stored, ``store/tournaments.py``. The desk acts
when a tournament's table ends (:meth:`Hub.tournament_table_done` pokes it) and every ``tournament_poll``
seconds (a start time reached, a process that died before moving a tournament on, a table the site had no room
for). Each round is written by compare-and-set with its table ids first, then the tables are made: whichever
process comes next makes any table still missing, so a crash between the two loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from typing import TYPE_CHECKING

from cubilete.engine.errors import CubileteError
from cubilete.engine.record import DUPLICATE
from cubilete.engine.rules.codec import rules_from_dict
from cubilete.play import tournament as formats
from cubilete.store import tournaments as stored
from cubilete.web.waits import wait_event

if TYPE_CHECKING:
    from cubilete.web.hub import Hub

log = logging.getLogger("cubilete.web")


def round_seed(seed: str, round_no: int) -> str:
    """The dice of every table of a round when the tournament plays the same dice at every table."""
    return hashlib.sha256(f"{seed}:round:{round_no}".encode()).hexdigest()


def results(rounds: list[stored.RoundTable], outcome: dict[str, stored.TableOutcome]) -> list[formats.TableResult]:
    """The finished tables (and byes) as the formats count them."""
    out = []
    for rt in rounds:
        if rt.table_id is None:
            out.append(formats.TableResult(rt.round, rt.entrants, (0,), rt.entrants))
            continue
        found = outcome.get(rt.table_id)
        if found is None or found.status != "finished":
            continue
        totals = tuple(t or 0 for t in found.totals)
        winners = tuple(e for e, w in zip(rt.entrants, found.winners, strict=True) if w)
        out.append(formats.TableResult(rt.round, rt.entrants, totals, winners))
    return out


class TournamentDesk:
    """This process's part in running the site's tournaments."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._due: set[str] = set()
        self._wake = asyncio.Event()
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self.ahead = 0.0  # seconds the desk's clock is ahead of the machine's (a test moves it, never sleeps)

    def now(self) -> float:
        return time.time() + self.ahead

    def start(self) -> None:
        self._task = asyncio.create_task(self._rounds())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def poke(self, tid: str) -> None:
        """Look at this tournament now (one of its tables ended)."""
        self._due.add(tid)
        self._wake.set()

    async def _rounds(self) -> None:
        poll = self.hub.settings.tournament_poll
        last = 0.0
        while True:
            await wait_event(self._wake, poll)
            self._wake.clear()
            due, self._due = self._due, set()
            if time.monotonic() - last >= poll:  # the sweep: every tournament that may need the server
                last = time.monotonic()
                with contextlib.suppress(Exception):
                    due |= set(await asyncio.to_thread(stored.live_ids, self.hub.store))
            for tid in sorted(due):
                try:
                    await self.advance(tid)
                except Exception:
                    log.exception("tournament %s: moving it on failed (the next round tries again)", tid)

    async def advance(self, tid: str) -> None:
        """Do what the tournament needs now: start it at its time, make missing tables, the next round, the end."""
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            store = self.hub.store
            t = await asyncio.to_thread(stored.load, store, tid)
            if t is None:
                return
            if t.status == "open":
                if t.starts_at is not None and self.now() >= t.starts_at:
                    await self.begin(t)
                return
            if t.status != "playing":
                return
            rounds = await asyncio.to_thread(stored.round_tables, store, tid)
            await self._make_missing(t, [rt for rt in rounds if rt.round == t.round])
            ids = [rt.table_id for rt in rounds if rt.table_id is not None]
            outcome = await asyncio.to_thread(stored.outcomes, store, ids)
            current = [rt for rt in rounds if rt.round == t.round and rt.table_id is not None]
            if any(outcome.get(rt.table_id or "") is None or outcome[rt.table_id or ""].status != "finished"
                   for rt in current):
                return
            done = results(rounds, outcome)
            entrants = await asyncio.to_thread(stored.entrants, store, tid)
            tables = formats.next_round(t.format, len(entrants), t.table_size, t.seed, done, t.swiss_rounds)
            if not tables:
                if await asyncio.to_thread(stored.finish, store, t, time.time()):
                    log.info("tournament %s finished", tid)
                return
            await self._write_round(t, t.round + 1, tables)

    async def begin(self, t: stored.Tournament) -> bool:
        """Start an open tournament: its first round (False: fewer than two entrants, or started meanwhile)."""
        entrants = await asyncio.to_thread(stored.entrants, self.hub.store, t.id)
        if len(entrants) < 2:
            return False
        tables = formats.next_round(t.format, len(entrants), t.table_size, t.seed, [], t.swiss_rounds)
        return await self._write_round(t, 1, tables)

    async def _write_round(self, t: stored.Tournament, round_no: int, tables: list[tuple[int, ...]]) -> bool:
        from cubilete.web.hub import new_table_id

        rows = [stored.RoundTable(round_no, i, new_table_id() if len(e) > 1 else None, tuple(e))
                for i, e in enumerate(tables)]
        if not await asyncio.to_thread(stored.write_round, self.hub.store, t, rows):
            return False  # another process made it
        log.info("tournament %s: round %d, %d table(s)", t.id, round_no, len(rows))
        await self._make_missing(t, rows)
        return True

    async def _make_missing(self, t: stored.Tournament, rows: list[stored.RoundTable]) -> None:
        """Make the round's tables not made yet (the site's cap reached: the next look tries again)."""
        wanted = [rt for rt in rows if rt.table_id is not None]
        if not wanted:
            return
        have = await asyncio.to_thread(stored.outcomes, self.hub.store, [rt.table_id or "" for rt in wanted])
        missing = [rt for rt in wanted if rt.table_id not in have]
        if not missing:
            return
        entrants = {e.entrant: e for e in await asyncio.to_thread(stored.entrants, self.hub.store, t.id)}
        rules = rules_from_dict(json.loads(t.rules_json), "tournament rules")
        for rt in missing:
            people = [entrants[e] for e in rt.entrants]
            seats = [(p.kind, p.level) for p in people]
            sitting = [None if p.kind == "bot" else (p.name, p.token_hash or "", p.pid) for p in people]
            try:
                await self.hub.create(
                    rules, seats, t.timer, t.coach, people=sitting, table_id=rt.table_id,
                    seed=round_seed(t.seed, rt.round) if t.same_dice else None,
                    dice=DUPLICATE if t.same_dice else None, tournament=t.id, club=t.club,
                    bot_names=[p.name for p in people if p.kind == "bot"])
            except CubileteError as exc:  # SiteFull and the like: the next look makes it
                log.warning("tournament %s: table %s not made now (%s)", t.id, rt.table_id, exc)
                return
