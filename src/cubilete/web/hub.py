"""Every table of the server: creating them, finding them (from memory or the database),
resuming the unfinished ones after a restart, and the history queries.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from cubilete.engine import fairness
from cubilete.engine.errors import CubileteError
from cubilete.engine.notation import numbered
from cubilete.engine.record import to_record
from cubilete.engine.rules import Rules
from cubilete.engine.rules.codec import rules_from_dict, rules_to_dict
from cubilete.play.bots import BOT_LEVELS
from cubilete.store import turns
from cubilete.store.webdb import SeatRow, TableRow, WebStore
from cubilete.web.expiry import check_room_for
from cubilete.web.room import Room, store_write
from cubilete.web.settings import Settings
from cubilete.web.solving import SolverPool
from cubilete.web.winpool import WinPool

if TYPE_CHECKING:
    from cubilete.web.lobby import Lobby
    from cubilete.web.site import Site
    from cubilete.web.tournaments import TournamentDesk
    from cubilete.web.turnbased import TurnDesk

log = logging.getLogger("cubilete.web")
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,16}$")
ID_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"  # no look-alikes (l/1, o/0) in links read aloud
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
PID = re.compile(r"^[0-9a-f]{16}$")
BOT_NAMES = {"random": "Random", "greedy": "Greedy", "heuristic": "Heuristic", "beginner": "Beginner",
             "casual": "Casual", "strong": "Strong", "optimal": "Optimal", "lookahead": "Lookahead"}


class ByteLRU:
    """A cache of JSON-able values bounded by the size of their JSON text: the least recently used
    go first when a new value would pass ``limit`` bytes (a value larger than the limit is not kept)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[object, tuple[Any, int]] = OrderedDict()

    def get(self, key: object) -> Any | None:
        """The value, now the most recently used; None if absent."""
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: object, value: Any) -> None:
        """Keep ``value``, dropping the least recently used ones as needed."""
        cost = len(json.dumps(value, ensure_ascii=False).encode())
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= old[1]
        if cost > self.limit:
            return
        while self._items and self.size + cost > self.limit:
            _, (_, dropped) = self._items.popitem(last=False)
            self.size -= dropped
        self._items[key] = (value, cost)
        self.size += cost

    def __len__(self) -> int:
        return len(self._items)


def token_hash(token: str) -> str:
    """What the database keeps of a browser token (never the token itself)."""
    return hashlib.sha256(f"seat:{token}".encode()).hexdigest()


def player_id(token: str) -> str:
    """The public id of a browser: shown in pages and links, reveals nothing of the token."""
    return hashlib.sha256(f"player:{token}".encode()).hexdigest()[:16]


class SiteFull(CubileteError):
    """The global cap on tables in play is reached."""


class Hub:
    """The server's tables."""

    def __init__(self, store: WebStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self.reviews = ByteLRU(settings.review_cache_bytes)  # coach reviews by (table id, language)
        self._loading = asyncio.Lock()
        self.solver = SolverPool(settings)  # new rule sets are solved in worker processes
        self.site: Site | None = None  # PostgreSQL: this process's part in a site of several (web/site.py)
        self.chances = WinPool(settings.win_workers)  # the seats' chances to win, in a niced process
        self.lobby: Lobby | None = None  # tables open to anyone and quick match (web/lobby.py), set at start
        self.daily_optimal: dict[tuple[str, str], dict[str, Any]] = {}  # the optimal game on a past day's dice
        self.tournaments: TournamentDesk | None = None  # rounds made and moved on (web/tournaments.py), at start
        # real-dice sheets (web/sheets.py): each sheet's chances to win by version, and their worker tasks
        self.sheet_chances: dict[str, tuple[int, tuple[list[float], bool] | None]] = {}
        self.sheet_summaries: dict[str, tuple[int, dict[str, Any]]] = {}  # web/sheets.py: finished sheets, listed
        self.sheet_reviews: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}  # (id, lang): (version, review)
        self.sheet_tasks: set[asyncio.Task[None]] = set()
        self.turns: TurnDesk | None = None  # turn-based games' clocks and notices (web/turnbased.py), at start

    async def resume(self) -> int:
        """Load every unfinished table and let its bots go on; returns how many."""
        if self.site is not None:  # a site: the tables nobody else holds
            return await self.site.take_free()
        ids = await asyncio.to_thread(self.store.unfinished_ids)
        resumed = 0
        for table_id in ids:
            try:
                room = await self.room(table_id)
            except (ValueError, KeyError) as exc:  # one table that no longer replays must not keep the others down
                log.error("table %s cannot be resumed: %s", table_id, exc)
                continue
            if room is not None:
                room.schedule()
                resumed += 1
        return resumed

    async def room(self, table_id: str) -> Room | None:
        """The live table, loaded from the database if needed (None if there is no such table)."""
        if not TABLE_ID.match(table_id):
            return None
        if table_id in self.rooms:
            return self.rooms[table_id]
        async with self._loading:
            if table_id not in self.rooms:
                row = await asyncio.to_thread(self.store.load_table, table_id)
                if row is None or row.status == "expired":  # an expired table is never loaded again
                    return None
                rules = rules_from_dict(json.loads(row.rules_json), "stored rules")
                room = self._room(row, rules)
                if row.turn_hours is not None:  # a turn-based game's clock goes on from the stored time
                    room.turn_began = await asyncio.to_thread(turns.began, self.store, table_id)
                if self.site is not None:
                    await self.site.attach(room)
                self.rooms.setdefault(table_id, room)  # a table created here meanwhile is the one that counts
        return self.rooms[table_id]

    async def create(self, rules: Rules, seats: list[tuple[str, str | None]], timer: int | None, coach: bool,
                     people: list[tuple[str, str, str | None] | None] | None = None,
                     creator: str | None = None, held: list[tuple[str, str] | None] | None = None,
                     rematch_of: tuple[str, str | None] | None = None, table_id: str | None = None,
                     listed: bool = False, seed: str | None = None, dice: str | None = None,
                     daily: str | None = None, match_of: str | None = None, tournament: str | None = None,
                     bot_names: list[str] | None = None, turn_hours: float | None = None,
                     club: str | None = None) -> Room:
        """A new table: seats are (kind, level); bots are named after their level. ``people`` (a rematch)
        sits someone in a human seat at once: (name, token hash, player id), or None to leave it open;
        ``held`` keeps an open seat for (name, token hash) for ``settings.rematch_hold`` seconds.
        ``creator``: the asking network, limited in the tables it has waiting (web/expiry.py).
        ``rematch_of``: (the finished table this is the rematch of, its expired rematch or None): see
        :meth:`WebStore.create_rematch` (:class:`RematchTaken` if it has a live one). ``table_id``: the id a
        lobby match chose (else a new one); ``listed``: open to anyone, shown in the lobby. ``seed``, ``dice``
        (``duplicate``) and ``daily`` (``<date>/<preset>``): a daily challenge game (web/daily.py);
        ``match_of``: the first game of a duplicate match of two (web/duplicate.py). ``tournament``: the
        tournament the table is part of, whose bots are named ``bot_names`` (web/tournaments.py).
        ``turn_hours``: a turn-based game's time per turn (web/turnbased.py); ``club``: a club's game."""
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise CubileteError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                                f"not {len(seats)}")
        for kind, level in seats:
            if kind == "bot" and level not in BOT_LEVELS:
                raise CubileteError(f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
        names = iter(bot_names or numbered([f"{BOT_NAMES[level or 'random']} bot" for kind, level in seats
                                            if kind == "bot"]))
        sitting = people if people is not None else [None] * len(seats)
        kept = held if held is not None else [None] * len(seats)
        until = time.time() + self.settings.rematch_hold
        rows = tuple(
            SeatRow(i, kind, level, next(names), None, None) if kind == "bot"
            else SeatRow(i, kind, None, *person) if person is not None
            else SeatRow(i, kind, None, None, hold[1], None, held_until=until, held_name=hold[0]) if hold is not None
            else SeatRow(i, kind, None, None, None, None)
            for i, ((kind, level), person, hold) in enumerate(zip(seats, sitting, kept, strict=True))
        )
        seed = seed or fairness.new_seed()
        status = "playing" if all(row.name is not None for row in rows) else "waiting"
        await check_room_for(self, creator, status == "waiting")
        row = TableRow(
            id=table_id or new_table_id(), created_at=time.time(), preset=rules.name,
            rules_json=json.dumps(rules_to_dict(rules)), seed=seed, commitment=fairness.commitment(seed),
            timer=timer, coach=coach, status=status, version=0, finished_at=None, seats=rows, creator_net=creator,
            listed=listed, dice=dice, daily=daily, match_of=match_of, tournament=tournament, turn_hours=turn_hours,
            club=club,
        )
        if self.site is not None:  # the lease first: no other process's lease round takes the new table
            await self.site.claim(row.id)
        try:
            if rematch_of is None:
                await store_write(self.store, self.store.create_table, row)
            else:
                await store_write(self.store, self.store.create_rematch, row, *rematch_of)
        except BaseException:
            if self.site is not None:
                await self.site.release(row.id)
            raise
        room = self._room(row, rules)
        self.rooms[row.id] = room
        if self.site is not None:
            await self.site.attach(room)
        room.schedule()
        return room

    def _room(self, row: TableRow, rules: Rules) -> Room:
        room = Room(row, rules, self.store, self.settings, solver=self.solver, chances=self.chances)
        room.on_finished = self.tournament_table_done
        room.turn_passed = self.turn_passed
        return room

    def turn_passed(self, room: Room, seat: int) -> None:
        """A turn-based game's turn passed to a person: their notice, if they asked (web/turnbased.py)."""
        if self.turns is not None:
            self.turns.turn_passed(room, seat)

    def tournament_table_done(self, tournament: str) -> None:
        """A tournament's table has ended: the tournament may move to its next round (web/tournaments.py)."""
        if self.tournaments is not None:
            self.tournaments.poke(tournament)

    async def unload_idle(self, now: float | None = None) -> int:
        """Let tables leave memory when nobody is connected and nothing is going on (no bot or timer
        running, no write in progress) for ``idle_unload`` seconds; they reload from the database when
        asked for again. Returns how many left."""
        now = time.monotonic() if now is None else now
        gone = 0
        for table_id, room in list(self.rooms.items()):
            if room.idle() and now - room.touched >= self.settings.idle_unload:
                del self.rooms[table_id]
                await room.close()
                gone += 1
        return gone

    async def close(self) -> None:
        """Stop every table's tasks."""
        for room in list(self.rooms.values()):
            await room.close()
        if self.site is not None:  # its leases go last: another process takes the tables over
            await self.site.close()
        await self.solver.close()
        self.chances.close()


def new_table_id() -> str:
    """A fresh table id: 8 letters and digits without look-alikes."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(8))


def web_record(room: Room) -> dict[str, Any]:
    """The game record of a finished table, with its commitment and table id."""
    assert room.game is not None
    record = to_record(room.game)
    record["commitment"] = room.commitment
    record["table"] = room.id
    record["undos"] = room.undos  # signed with the rest: a game with undo is never ranked (web/undo.py)
    return record
