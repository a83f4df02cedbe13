"""Players who leave: how long each person's seat has had no connection, as the table's driver sees it.

A seat with no connection anywhere on the site for ``away_grace`` seconds is *away*: a labelled stand-in
plays its turns (web/room.py) while another person is still at the table, until a connection for the
seat comes back (it takes the seat back at the next decision). A table with no person connected for
``abandon_after`` seconds ends as abandoned. Only the process driving the table (the lease holder on a
site) keeps this clock; it judges "connected" from its own connections and those the other processes
keep in the database (web/presence.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cubilete.web.waits import wait_event

if TYPE_CHECKING:
    from cubilete.web.room import Room


class AbsenceClock:
    """When each person's seat lost its last connection (loop time); absent seats only."""

    def __init__(self) -> None:
        self.gone_since: dict[int, float] = {}

    def update(self, people: Iterable[int], present: set[int], now: float) -> None:
        """Seats with a connection are here; a seat without one is gone from the first time it was seen so."""
        people = list(people)
        for seat in list(self.gone_since):
            if seat in present or seat not in people:
                del self.gone_since[seat]
        for seat in people:
            if seat not in present:
                self.gone_since.setdefault(seat, now)

    def away(self, now: float, grace: float) -> set[int]:
        """The seats gone for at least ``grace`` seconds."""
        return {seat for seat, since in self.gone_since.items() if now - since >= grace}

    def nobody_since(self, people: Iterable[int]) -> float | None:
        """Since when no person has been connected (None while someone is, or at a table of no person)."""
        people = list(people)
        if not people or any(seat not in self.gone_since for seat in people):
            return None
        return max(self.gone_since[seat] for seat in people)

    def next_due(self, people: Iterable[int], now: float, grace: float, abandon_after: float | None) -> float | None:
        """The next moment something changes with no connection coming or going: a seat passing the grace
        time, or the table passing ``abandon_after`` with nobody (None: nothing is due)."""
        due = [since + grace for since in self.gone_since.values() if since + grace > now]
        nobody = self.nobody_since(people)
        if nobody is not None and abandon_after is not None:  # None: a table that is never abandoned
            due.append(nobody + abandon_after)
        return min(due) if due else None


class AbsenceWatch:
    """The driver's task for one table: keeps the clock, marks seats away (the stand-in's label), hands their
    turns to the stand-in and ends the table as abandoned when nobody is left."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.clock = AbsenceClock()
        self.changed = asyncio.Event()  # a connection came or went (here or on another process)
        self.task: asyncio.Task[None] | None = None

    def people(self) -> list[int]:
        """The seats people sit in (humans with a name)."""
        return [s.idx for s in self.room.seats if s.kind == "human" and s.name is not None]

    def running(self) -> bool:
        """True while the watch task lives."""
        return self.task is not None and not self.task.done()

    def start(self) -> None:
        """Watch (once) while the table is played and this process drives it."""
        if not self.running():
            self.task = asyncio.create_task(self._watch())

    def poke(self) -> None:
        """A connection came or went: look again now."""
        self.changed.set()

    async def stop(self) -> None:
        """Stop watching (server shutdown, the lease given up)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        self.task = None

    async def _watch(self) -> None:
        room = self.room
        loop = asyncio.get_running_loop()
        settings = room.settings
        # a turn-based game's players come and go: nobody is away, nothing is abandoned (web/turnbased.py)
        while room.drives and room.status == "playing" and self.people() and room.turn_hours is None:
            self.changed.clear()
            now = loop.time()
            people = self.people()
            self.clock.update(people, room.connected_seats(), now)
            nobody = self.clock.nobody_since(people)
            if nobody is not None and now - nobody >= settings.abandon_after and room.tournament is None:
                await room.abandon()
                break
            room.mark_away(self.clock.away(now, settings.away_grace))
            due = self.clock.next_due(people, now, settings.away_grace,
                                      settings.abandon_after if room.tournament is None else None)
            await wait_event(self.changed, None if due is None else max(0.0, due - now) + 0.01)
        self.task = None
