"""Turn-based games (docs/WEB.md, "Turn-based games"): hours or days per turn instead of seconds.

Players come and go; the game waits for each one without anybody connected, and nobody plays for them until
their turn's time runs out: then the stand-in plays that turn, labelled, and everyone is told. The clock of a
turn is stored (the last box written, store/turns.py), so a restart keeps it. Every ``turn_poll`` seconds the
desk looks for turns run out on the whole site (loading a table that left memory); the process driving a
table plays it. When the turn passes to a person who left an e-mail address, the desk sends one notice for
that turn (claimed in the database, so two processes never both send it), if the operator configured SMTP
(``smtp_host`` and ``site_url``); the mail goes out from a worker thread, never from the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import smtplib
import time
from email.message import EmailMessage
from typing import TYPE_CHECKING

from cubilete.store import turns
from cubilete.web.settings import Settings

if TYPE_CHECKING:
    from cubilete.web.hub import Hub
    from cubilete.web.room import Room

log = logging.getLogger("cubilete.web")
EMAIL = re.compile(r"^[^@\s<>\"'(),;:\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?\.[A-Za-z]{2,63}$")
MAX_EMAIL = 254


class Clock:
    """The desk's time (epoch seconds); a test moves it forward instead of sleeping."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def now(self) -> float:
        return time.time() + self.ahead


def notices_on(settings: Settings) -> bool:
    """True when the operator configured the e-mail notices."""
    return bool(settings.smtp_host and settings.site_url)


def send_notice(settings: Settings, to: str, table_id: str, title: str) -> None:
    """One "your turn" e-mail (in a worker thread)."""
    msg = EmailMessage()
    msg["From"] = settings.smtp_from
    msg["To"] = to
    msg["Subject"] = f"Your turn: {title}"
    link = f"{settings.site_url.rstrip('/')}/t/{table_id}"
    msg.set_content(f"It is your turn in your game of {title}.\n\nPlay it here: {link}\n\n"
                    "(You get this because you asked for turn notices at that table.)\n")
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=30) as smtp:
        smtp.send_message(msg)


class TurnDesk:
    """This process's part in the site's turn-based games."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.clock = Clock()
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._rounds())

    async def close(self) -> None:
        for task in [self._task, *self._sending]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self.hub.settings.turn_poll)
            try:
                await self.sweep()
            except Exception:
                log.exception("turn-based games: the round failed (the next one tries again)")

    async def sweep(self) -> int:
        """Play the turns whose time has run out; how many."""
        now = self.clock.now()
        due = [tid for tid, hours, began in await asyncio.to_thread(turns.turn_based_in_play, self.hub.store)
               if began + hours * 3600.0 <= now]
        played = 0
        for tid in due:
            room = await self.hub.room(tid)
            if room is not None and room.turn_began is not None and await room.turn_ran_out(now):
                played += 1
        return played

    def turn_passed(self, room: Room, seat: int) -> None:
        """The turn of a turn-based game has passed to ``seat``: tell them if they asked for it."""
        if not notices_on(self.hub.settings):
            return
        task = asyncio.create_task(self._notify(room.id, seat, room.version, room.rules.name))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _notify(self, table_id: str, seat: int, version: int, title: str) -> None:
        try:
            to = await asyncio.to_thread(turns.claim_notice, self.hub.store, table_id, seat, version)
            if to is not None:
                await asyncio.to_thread(send_notice, self.hub.settings, to, table_id, title)
        except Exception as exc:  # a mail server away: the game goes on, the operator reads why
            log.warning("table %s: the turn notice to seat %d was not sent (%s)", table_id, seat, exc)
