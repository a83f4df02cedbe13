"""One site over several ``cubilete serve`` processes on one PostgreSQL database (docs/WEB.md, "Several processes").

Any process serves any table. Three things keep them one site:

* **Compare-and-set.** Every write moves the table from version v to v+1 inside its transaction
  (:meth:`WebStore._bump`); a process whose copy of the table is behind gets :class:`StaleWrite`, writes
  nothing and answers ``stale``. So two processes never both commit a move on the same table.
* **Fan-out by LISTEN/NOTIFY.** A trigger (migration 0002) sends ``'<table id> <version>'`` on channel
  ``cubilete_tables`` when a table's version changes, from the sessions of a site only (``cubilete.notify``
  is set on the store's connections). A move's own transaction also sends the move itself, just before:
  ``'<table id> <version> <seq> <seat> <action JSON>'`` (:meth:`WebStore.append_action`). Both are
  delivered at commit, in commit order, only if the commit happens. Each process listens on a connection
  of its own; a table it has in memory and that is behind is caught up under the table's lock: the
  announced moves that follow its version are applied as they are, without reading the database; past a
  gap (a seat taken, an undo, a missed announcement) it reads what follows its own actions in one
  statement (:meth:`WebStore.load_since`), and only a change that does not extend its game (an undo)
  reloads the whole table. Each version reached is broadcast to the process's own clients.
* **Chances to win from the lease holder.** Only the process driving a table computes its seats' chances
  to win; it announces them (``'<table id> <version> win <exact 0/1> <p0,p1,...>'``) and the others show
  them with that version's state.
* **A lease per table: a session advisory lock.** The process holding ``pg_advisory_lock(hashtextextended(id,
  7))`` drives that table's bots and turn timer; the others only show them. Locks live on one connection of
  the process (:attr:`Site.lease`), so they vanish with a killed process; every ``site_poll`` seconds each
  process tries to take the locks of unfinished tables that nobody holds (and loads those tables, as a
  restart resumes them), so a killed process's tables are taken over by a survivor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import psycopg
import sqlalchemy as sa

from cubilete.web import presence
from cubilete.web import rematch as rematches
from cubilete.web.waits import wait_event, within

if TYPE_CHECKING:
    from cubilete.web.hub import Hub
    from cubilete.web.room import Room

log = logging.getLogger("cubilete.web")
CHANNEL = "cubilete_tables"
KEY = "hashtextextended(%s, 7)"  # the advisory lock key of a table id (bigint)
RECENT = 4096  # versions announced for tables not in memory, kept to catch up a table loaded meanwhile
NOTES = 256  # announced moves kept per table while it catches up (more: it reads the database)
# both ends of a site connection notice a peer that vanished without closing (a machine that lost power) in
# about 10 + 3 x 5 = 25 s rather than the kernel's two hours: the server then ends the session, and its locks
KEEPALIVE = "keepalives=1 keepalives_idle=10 keepalives_interval=5 keepalives_count=3"
SERVER_KEEPALIVE = "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3"

_FREE = f"""
WITH live AS MATERIALIZED (
    SELECT id FROM web_tables WHERE status NOT IN ('finished', 'expired') AND NOT (id = ANY(%s))
)
SELECT id FROM live WHERE pg_try_advisory_lock({KEY.replace('%s', 'id')})
"""  # the locks of unfinished tables nobody holds (evaluated only on the live rows: MATERIALIZED)


def conninfo(url: sa.engine.URL) -> str:
    """The libpq connection string of a SQLAlchemy PostgreSQL URL (password included)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _notify_on(dbapi_connection: Any, _record: Any) -> None:
    """A store connection of a site: its version changes are announced (migration 0002's trigger)."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SET cubilete.notify = 'on'")
    dbapi_connection.commit()  # a SET in a transaction rolled back by the pool would be undone


async def site_connection(dsn: str) -> psycopg.AsyncConnection[Any]:
    """A connection of the site's own (leases, listening), with keepalives at both ends."""
    conn = await psycopg.AsyncConnection.connect(psycopg.conninfo.make_conninfo(dsn, **dict(
        p.split("=") for p in KEEPALIVE.split())), autocommit=True)
    for statement in SERVER_KEEPALIVE.split("; "):
        await conn.execute(statement)
    return conn


def announce_moves(engine: sa.Engine) -> None:
    """Make every connection of ``engine`` announce its tables' new versions (the pool starts afresh)."""
    if not sa.event.contains(engine, "connect", _notify_on):
        sa.event.listen(engine, "connect", _notify_on)
    engine.dispose()


class Site:
    """This process's part in a site: its leases, its listener, the catching up of its tables."""

    def __init__(self, hub: Hub, poll: float = 1.0) -> None:
        self.hub = hub
        self.poll = poll
        self.dsn = conninfo(hub.store.engine.url)
        self.owned: set[str] = set()  # tables whose lease this process holds
        self.lease: psycopg.AsyncConnection[Any] | None = None
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._pending: dict[str, int] = {}  # table id -> newest version announced, while catching up
        self._notes: dict[str, dict[int, tuple[int, int, str]]] = {}  # table -> version -> (seq, seat, action)
        self.applied = self.read = 0  # versions caught up from announcements / by reading the database
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._recent: OrderedDict[str, int] = OrderedDict()
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = asyncio.Event()
        self._leasing = asyncio.Lock()  # one lease query at a time: a lock taken twice would need two unlocks
        self.process = secrets.token_hex(8)  # this process's name in web_presence
        self._presence_due = asyncio.Event()  # a connection came or went here: rewrite our presence rows

    # --- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Announce this process's writes, listen to the others', and keep the leases up to date."""
        announce_moves(self.hub.store.engine)
        self.hub.store.notify_channel = CHANNEL  # each move travels with its commit's announcement
        self.lease = await site_connection(self.dsn)
        self._tasks.append(asyncio.create_task(self._listen()))
        self._tasks.append(asyncio.create_task(self._presence_rounds()))
        await within(self._listening.wait(), 30)

    async def close(self) -> None:
        """Stop listening and let the leases go (other processes take the tables over)."""
        for task in [*self._tasks, *self._catching.values()]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):  # our players are gone from here at once, not a few rounds later
            await asyncio.to_thread(presence.sync, self.hub.store.engine, self.process, [], self.poll)
        for conn in (self._listener, self.lease):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self.owned.clear()

    def watch(self) -> None:
        """Start the periodic lease round (after the first :meth:`take_free`)."""
        self._tasks.append(asyncio.create_task(self._rounds()))

    # --- leases ------------------------------------------------------------------------
    async def attach(self, room: Room) -> None:
        """A table this process has just loaded or created: it drives it if it can take its lease."""
        room.moved_on = self.behind
        room.published = self.publish_win
        room.presence_changed = self._presence_due.set
        room.announce = self.announce
        room.drives = await self.claim(room.id)
        seen = self._recent.pop(room.id, None)
        if seen is not None and seen > room.version:  # announced while the table was being loaded
            self.behind(room.id, seen)

    async def claim(self, table_id: str) -> bool:
        """True if this process holds (or now took) the table's lease."""
        async with self._leasing:
            if table_id in self.owned:
                return True
            if self.lease is None or self.lease.closed:
                return False
            try:
                cur = await self.lease.execute(f"SELECT pg_try_advisory_lock({KEY})", (table_id,))
                row = await cur.fetchone()
            except psycopg.Error as exc:
                log.warning("site: lease of table %s not taken: %s", table_id, exc)
                return False
            if row is not None and row[0]:
                self.owned.add(table_id)
                return True
            return False

    async def release(self, table_id: str) -> None:
        """Let go of a table's lease (one that was never created)."""
        async with self._leasing:
            if table_id in self.owned and self.lease is not None and not self.lease.closed:
                self.owned.discard(table_id)
                with contextlib.suppress(psycopg.Error):
                    await self.lease.execute(f"SELECT pg_advisory_unlock({KEY})", (table_id,))

    async def take_free(self) -> int:
        """Take the leases of the unfinished tables nobody holds, load them and let their bots and timers go
        (at start, this resumes a site's tables; later, those of a process that died). Returns how many."""
        async with self._leasing:
            if self.lease is None or self.lease.closed:
                await self._reconnect_lease()
            assert self.lease is not None
            cur = await self.lease.execute(_FREE, (sorted(self.owned),))
            taken = [str(r[0]) for r in await cur.fetchall()]
            self.owned.update(taken)
        resumed = 0
        for table_id in taken:
            room = self.hub.rooms.get(table_id)
            try:
                if room is not None:
                    await self._lead(room)
                else:
                    room = await self.hub.room(table_id)  # attach() finds the lease ours
                    if room is not None:
                        room.schedule()
            except (ValueError, KeyError) as exc:  # one table that no longer replays must not keep the others down
                log.error("table %s cannot be resumed: %s", table_id, exc)
                continue
            resumed += room is not None
        if taken:
            log.info("site: took the lease of %d table(s)", len(taken))
        return resumed

    async def _lead(self, room: Room) -> None:
        """A table in memory whose lease this process just took: bring it up to date, then drive it."""
        async with room.lock:
            row = await asyncio.to_thread(self.hub.store.load_table, room.id)
            if row is not None and row.version > room.version:
                room.adopt(row)
        room.lead(True)

    async def release_finished(self) -> None:
        """Let go of the leases of tables that are over (finished, or expired: web/expiry.py)."""
        async with self._leasing:
            if not self.owned or self.lease is None:
                return
            cur = await self.lease.execute(
                "SELECT id FROM web_tables WHERE id = ANY(%s) AND status IN ('finished', 'expired')",
                (sorted(self.owned),))
            for (table_id,) in await cur.fetchall():
                await self.lease.execute(f"SELECT pg_advisory_unlock({KEY})", (table_id,))
                self.owned.discard(table_id)

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.release_finished()
                await self.take_free()
            except psycopg.OperationalError as exc:  # the lease connection is gone: so are our locks
                log.error("site: lost the lease connection (%s); its tables go to whoever takes them", exc)
                self._lost()
            except Exception:
                log.exception("site: lease round failed")

    def _lost(self) -> None:
        self.owned.clear()
        for room in self.hub.rooms.values():
            room.lead(False)

    async def _reconnect_lease(self) -> None:
        if self.lease is not None:
            with contextlib.suppress(Exception):
                await self.lease.close()
        self._lost()
        self.lease = await site_connection(self.dsn)

    # --- fan-out -----------------------------------------------------------------------
    async def _listen(self) -> None:
        """Receive the announcements of every process (this one's too) until cancelled; reconnect if lost."""
        while True:
            try:
                self._listener = await site_connection(self.dsn)
                await self._listener.execute(f"LISTEN {CHANNEL}")
                if self._listening.is_set():  # a new connection: what was announced meanwhile was missed
                    for room in list(self.hub.rooms.values()):
                        self.behind(room.id, room.version + 1)
                self._listening.set()
                async for note in self._listener.notifies():
                    self.announced(note.payload)
            except psycopg.OperationalError as exc:
                log.error("site: listening connection lost (%s); reconnecting", exc)
                await asyncio.sleep(1.0)

    def announced(self, payload: str) -> None:
        """One announcement: ``'<table id> <version>'`` (the trigger's), ``'<table id> <version> <seq> <seat>
        <action JSON>'`` (a move, sent by its own transaction) or ``'<table id> <version> win <exact>
        <chances>'`` (the lease holder's chances to win)."""
        parts = payload.split(" ", 4)
        if len(parts) >= 4 and parts[2] in ("away", "notice"):
            self._absence_news(parts)
            return
        if parts[0] == "lobby":  # a match seated someone connected here (web/lobby.py)
            if self.hub.lobby is not None:
                self.hub.lobby.poke()
            return
        if len(parts) == 4 and parts[2] == "rematch":  # web/rematch.py: every process tells its players
            finished = self.hub.rooms.get(parts[0])
            if finished is not None:
                rematches.tell(finished, parts[3])
            return
        try:
            table_id, version = parts[0], int(parts[1])
            if len(parts) == 5 and parts[2] == "win":
                self._chances(table_id, version, parts[3] == "1", [float(p) for p in parts[4].split(",")])
                return
            note = (int(parts[2]), int(parts[3]), parts[4]) if len(parts) == 5 else None
        except (ValueError, IndexError):
            return
        room = self.hub.rooms.get(table_id)
        if room is not None:
            if room.version < version:
                if note is not None:
                    notes = self._notes.setdefault(table_id, {})
                    if len(notes) < NOTES:
                        notes[version] = note
                self.behind(table_id, version)
            return
        self._recent[table_id] = version
        self._recent.move_to_end(table_id)
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        if table_id in self.owned:  # not in memory, but its bots and timer are ours to drive
            self._tasks.append(asyncio.create_task(self._wake(table_id)))
            self._tasks = [t for t in self._tasks if not t.done()]

    async def _wake(self, table_id: str) -> None:
        room = await self.hub.room(table_id)
        if room is not None:
            room.schedule()
            if room.drives:  # the others show the chances this process computes
                room._want_win()

    def behind(self, table_id: str, version: int) -> None:
        """The table is at ``version`` in the database (or later): catch up (one task per table)."""
        self._pending[table_id] = max(self._pending.get(table_id, -1), version)
        if table_id not in self._catching:
            self._catching[table_id] = asyncio.create_task(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        try:
            while (room := self.hub.rooms.get(table_id)) is not None and room.version < self._pending[table_id]:
                async with room.lock:
                    target = self._pending[table_id]
                    if not self._apply_notes(room) and not await self._read(room) and (
                            self._pending[table_id] == target):  # nothing announced since: nothing to wait for
                        break
                room.schedule()
        except Exception:
            log.exception("table %s: catching up failed", table_id)
        finally:
            self._pending.pop(table_id, None)
            self._catching.pop(table_id, None)
            self._notes.pop(table_id, None)

    def _apply_notes(self, room: Room) -> bool:
        """Apply the announced moves that follow the table's version (the caller holds its lock); True if
        that reached every version announced so far."""
        notes = self._notes.get(room.id, {})
        while (note := notes.pop(room.version + 1, None)) is not None and room.apply_note(room.version + 1, *note):
            self.applied += 1
        for version in [v for v in notes if v <= room.version]:
            del notes[version]
        return room.version >= self._pending[room.id]

    async def _read(self, room: Room) -> bool:
        """Catch the table up from the database (the caller holds its lock): what follows our actions if it
        extends our game, else the whole table. False if the database has nothing newer (the announcement
        was this process's own, or one already caught up)."""
        store = self.hub.store
        game = room.game
        found = await asyncio.to_thread(store.load_since, room.id, len(game.history) if game is not None else 0)
        if found is not None and found[0] > room.version and found[1] == "expired":  # nobody sat in time: no game
            room.version, room.status = found[0], "expired"  # to replay; the expiry round drops it (web/expiry.py)
            return True
        if found is not None and found[0] > room.version:
            self.read += 1
            if room.extend(*found):
                return True
            row = await asyncio.to_thread(store.load_table, room.id)
            if row is not None and row.version > room.version:
                room.adopt(row)
                return True
        return False

    # --- chances to win ----------------------------------------------------------------
    def publish_win(self, table_id: str, version: int, probabilities: list[float], exact: bool) -> None:
        """Tell the other processes the chances to win this process (the lease holder) computed."""
        payload = f"{table_id} {version} win {int(exact)} {','.join(repr(float(p)) for p in probabilities)}"
        # with the moves' next group commit: off the event loop, no round trip of its own (the chances are an
        # extra: one lost with a failed batch is replaced by the next version's)
        self.hub.store.writer.submit(self.hub.store.announce, CHANNEL, payload)

    def _chances(self, table_id: str, version: int, exact: bool, probabilities: list[float]) -> None:
        room = self.hub.rooms.get(table_id)
        if room is not None and not room.drives:
            room.receive_win(version, probabilities, exact)

    # --- players who leave (web/presence.py, web/absence.py) ------------------------------------------
    def announce(self, table_id: str, words: str) -> None:
        """Tell the other processes what the driver of a table decided: ``away <seats>`` (the seats its stand-in
        plays for, ``-`` for none) or ``notice timeout <seat>`` (a turn timer ran out)."""
        room = self.hub.rooms.get(table_id)
        version = room.version if room is not None else 0
        self.hub.store.writer.submit(self.hub.store.announce, CHANNEL, f"{table_id} {version} {words}")

    def announce_lobby(self) -> None:
        """Tell the other processes that a match seated some of their seekers (their round tells them)."""
        self.hub.store.writer.submit(self.hub.store.announce, CHANNEL, "lobby 0 matched")

    def _absence_news(self, parts: list[str]) -> None:
        room = self.hub.rooms.get(parts[0])
        if room is None or room.drives:  # our own announcement, or a table nobody here watches
            return
        try:
            if parts[2] == "away":
                room.receive_away(set() if parts[3] == "-" else {int(p) for p in parts[3].split(",")})
            elif len(parts) == 5 and 0 <= int(parts[4]) < len(room.seats):
                room.notice(parts[3], int(parts[4]), tell_site=False)
        except ValueError:
            return

    async def _presence_rounds(self) -> None:
        """Keep this process's presence rows (at once when a connection comes or goes, and every round), and
        give each table in memory the seats connected through the other processes."""
        engine = self.hub.store.engine
        while True:
            await wait_event(self._presence_due, self.poll)
            self._presence_due.clear()
            rooms = list(self.hub.rooms.values())
            here = [(room.id, seat) for room in rooms for seat in room.local_seats()]
            try:
                await asyncio.to_thread(presence.sync, engine, self.process, here, self.poll)
                found = await asyncio.to_thread(presence.elsewhere, engine, self.process, [r.id for r in rooms],
                                                self.poll)
            except Exception as exc:  # the database is away: absence is judged on what is known meanwhile
                log.warning("site: presence not kept (%s)", exc)
                continue
            for room in rooms:
                room.set_remote(found.get(room.id, set()))
