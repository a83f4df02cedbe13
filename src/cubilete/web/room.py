"""One live table: its game, its lock, its connections, its bots and its turn timer.

The server is the authority: it throws the dice and checks every action with the engine.
Every change is committed to the database *before* it is broadcast, under the table's
lock, so what a client has seen acknowledged survives any crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cubilete.engine.actions import Action, action_from_json, action_to_json
from cubilete.engine.dice import DuplicateDice
from cubilete.engine.errors import CubileteError, IllegalActionError, StaleWrite, StoreError
from cubilete.engine.game import Game
from cubilete.engine.record import DUPLICATE, from_record, to_record
from cubilete.engine.rules import Rules
from cubilete.play import coach
from cubilete.play.bots import make_bot
from cubilete.play.bots.base import Strategy
from cubilete.play.coach_win import two_ways, two_ways_lines
from cubilete.solver.cache import tables_only
from cubilete.store.webdb import SeatRow, TableRow, WebStore
from cubilete.web import ratings
from cubilete.web.absence import AbsenceWatch
from cubilete.web.daily_result import daily_result, day_over
from cubilete.web.names import check_name
from cubilete.web.protocol import Act, Hint, Ping, ProtocolError, Sit, Undo, error_frame
from cubilete.web.rematch import check_hold, held_seat, holding, reserved_names
from cubilete.web.settings import Settings
from cubilete.web.solving_words import SOLVING_WORDS
from cubilete.web.turnbased import notices_on
from cubilete.web.undo import can_take_back, lone_person
from cubilete.web.views import SeatInfo, state_view, table_info
from cubilete.web.waits import wait_event
from cubilete.web.winpool import WinJob, WinPool, job_of
from cubilete.web.words import in_language
from cubilete.win.chance import chance as win_chances

if TYPE_CHECKING:
    from cubilete.web.solving import SolverPool

log = logging.getLogger("cubilete.web")
SEND_QUEUE = 256  # frames waiting for a slow client before it is dropped
CATCH_UP_WAIT = 2.0  # seconds a frame of a version this process has not seen yet waits for it (web/site.py)
SIT_TRIES = 3  # a seat taken through another process at the same moment: take it in and try again


async def store_write(store: WebStore, write: Callable[..., None], *args: Any) -> None:
    """Commit through the store's group-commit threads (store/writer.py; one for SQLite, two for a database
    server): the writes waiting from every table share one transaction, and this returns once they are
    committed, so the loop goes on with other tables meanwhile and the caller broadcasts after the commit."""
    await store.writer.run(write, *args)


class TokenBucket:
    """``rate`` frames per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """True if a frame may pass now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Client:
    """One WebSocket connection: its identity, its seat, its send queue."""

    def __init__(self, send_text: Callable[[str], Awaitable[None]], token_hash: str | None, pid: str | None,
                 lang: str, settings: Settings) -> None:
        self.send_text = send_text
        self.token_hash = token_hash
        self.pid = pid
        self.lang = lang
        self.seat: int | None = None
        self.bucket = TokenBucket(settings.rate, settings.burst)
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.dropped = False

    def send(self, frame: dict[str, Any] | str) -> None:
        """Queue a frame; a client too slow to keep up is dropped rather than slowing the table."""
        text = frame if isinstance(frame, str) else json.dumps(frame, ensure_ascii=False)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True

    async def pump(self) -> None:
        """Send queued frames in order (until the connection's task cancels it)."""
        while True:
            await self.send_text(await self.queue.get())


class Room:
    """A table as it is being played."""

    def __init__(self, row: TableRow, rules: Rules, store: WebStore, settings: Settings,
                 solver: SolverPool | None = None, chances: WinPool | None = None) -> None:
        self.id = row.id
        self.chances = chances  # None: the chances are computed in a worker thread (tests of the room alone)
        self.solver = solver  # None: the tables are solved where they are needed (tests of the room alone)
        self.rules = rules
        self.store = store
        self.settings = settings
        self.seed = row.seed
        self.commitment = row.commitment
        self.timer = row.timer
        self.coach = row.coach
        self.status = row.status
        self.version = row.version
        self.seats = [SeatInfo(s.idx, s.kind, s.level, s.name, s.token_hash, s.pid, s.held_until, s.held_name)
                      for s in row.seats]
        self.undos = row.undos  # undos taken here: a game with any is never ranked
        self.listed = row.listed  # open to anyone: shown in the lobby (web/lobby.py)
        self.dice = row.dice  # "duplicate": a die's face follows its place (engine/dice.py)
        self.daily = row.daily  # "<date>/<preset>": a daily challenge game, private until the day ends
        self.match_of = row.match_of  # the first game of the duplicate match this table ends (web/duplicate.py)
        # a tournament's table (web/tournaments.py): the stand-in plays for anyone away, the table is never
        # abandoned, and its end moves the tournament on
        self.tournament = row.tournament
        self.club = row.club  # a club's game (web/clubs.py): its page links back
        self.on_finished: Callable[[str], None] | None = None
        # a turn-based game (web/turnbased.py): hours per turn; players come and go, nobody plays for them
        # until the turn's time runs out. ``turn_began`` (epoch seconds) is the stored time at load (the
        # hub sets it), then the moment each turn changes hands; ``turn_passed`` tells the hub whose turn it is
        self.turn_hours = row.turn_hours
        self.turn_began: float | None = None
        self._turn_based_key: tuple[object, ...] | None = None
        self.turn_passed: Callable[[Room, int], None] | None = None
        self.game: Game | None = None
        self.last: tuple[int, Action] | None = None
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.bots: dict[int, Strategy] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._turn_key: tuple[object, ...] | None = None
        self.deadline: float | None = None  # loop time when the current human's turn is handed to a bot
        self.touched = time.monotonic()  # last connection or move: idle tables leave memory (Hub.unload_idle)
        self.win: tuple[int, list[float], bool] | None = None  # (version, chances, exact): cached per version
        self._win_task: asyncio.Task[None] | None = None
        self.acted: list[int] = []  # the seat of each action in the game's history (undo needs whose it was)
        self._result_task: asyncio.Task[None] | None = None  # the daily result or the ratings, once it ends
        # several processes (web/site.py): only the lease holder drives bots and the timer; a refused
        # compare-and-set tells the site that this copy is behind
        self.drives = True
        self.moved_on: Callable[[str, int], None] | None = None
        # the lease holder computes the chances to win and hands them to the other processes (web/site.py)
        self.published: Callable[[str, int, list[float], bool], None] | None = None
        self._tick = asyncio.Event()  # set (and replaced) at each broadcast: see reach()
        # while a move (or an undo) is being written, the game already shows it but the version does not: no
        # state is built from them then (a frame of version v showing v+1's game made players act out of turn)
        self._unsettled = False
        self._shown: str | None = None  # the last state frame sent to everyone: a newcomer's, meanwhile
        self.rematch: str | None = row.rematch  # the table of the rematch, once someone asked (web/rematch.py)
        self.rematch_told: str | None = None  # the rematch this process's players were sent to
        # players who leave (web/absence.py): seats connected through other processes of the site (their rows
        # in web_presence), seats whose stand-in plays (set by the driver, announced to the others), and why
        # the table ended if no game end (abandoned)
        self.remote: set[int] = set()
        self.away: set[int] = set()
        self.ended = row.ended
        self.absence = AbsenceWatch(self)
        self.presence_changed: Callable[[], None] | None = None  # tells the site to rewrite this process's rows
        self.announce: Callable[[str, str], None] | None = None  # (table id, words): to the site's other processes
        # its rules are being solved: the approximate bots and coach play meanwhile, and the table upgrades
        # (and says so to everyone) when the tables land
        self.solving = solver is not None and solver.pending(rules)
        self._solve_task: asyncio.Task[None] | None = None
        if self.status != "waiting":
            self.game = self._new_game()
            for seat, text in row.actions:
                action = action_from_json(json.loads(text))
                self.game.apply(action)
                self.acted.append(seat)
                self.last = (seat, action)

    # --- building ----------------------------------------------------------------------
    def _new_game(self) -> Game:
        names = [s.name or "" for s in self.seats]
        return Game(self.rules, names, self.seed, DuplicateDice(self.seed) if self.dice == DUPLICATE else None)

    def private(self) -> bool:
        """A daily challenge game before its day ends: no spectators, no record, no seed (web/daily.py)."""
        return self.daily is not None and not day_over(self.daily.split("/")[0])

    def bot(self, idx: int) -> Strategy:
        """The strategy playing seat ``idx`` (a bot seat, or the stand-in of a human whose timer ran out)."""
        if idx not in self.bots:
            seat = self.seats[idx]
            level = seat.level if seat.kind == "bot" and seat.level else self.settings.timeout_level
            self.bots[idx] = make_bot(f"bot:{level}", seed=f"{self.seed}:{idx}")
        return self.bots[idx]

    @property
    def table(self) -> dict[str, Any]:
        """The table info frame's body."""
        return {**table_info(self.id, self.rules, self.commitment, self.timer, self.coach, self.seats),
                "listed": self.listed, "turn_hours": self.turn_hours,
                "notices": self.turn_hours is not None and notices_on(self.settings)}

    def state(self) -> dict[str, Any]:
        """The state frame's body."""
        connected = self._connected()
        left = None
        if self.deadline is not None:
            left = round(max(0.0, self.deadline - asyncio.get_running_loop().time()), 1)
        win = (self.win[1], self.win[2]) if self.win is not None and self.win[0] == self.version else None
        view = state_view(self.version, self.status, self.rules, self.seats, connected, self.game, self.last, left,
                          win, self.can_undo())
        for seat in view["seats"]:
            seat["away"] = seat["index"] in self.away  # "playing for Ana while away"
        held = holding(self.seats, time.time())
        for seat in view["seats"]:
            seat["held"] = held.get(seat["index"])  # "kept for Ana" (a rematch's absent player)
        view["ended"] = self.ended
        view["solving"] = SOLVING_WORDS if self.still_solving() else None
        view["rematch"] = self.rematch
        view["undos"] = self.undos
        view["daily"] = self.daily
        view["same_dice"] = self.dice == DUPLICATE
        view["match_of"] = self.match_of
        view["tournament"] = self.tournament
        view["club"] = self.club
        deadline = self.turn_deadline()
        view["turn_based"] = None if self.turn_hours is None else {"hours": self.turn_hours, "deadline": deadline}
        if self.private():  # everyone plays the same dice today: the seed is told when the day ends
            view["seed"] = None
        return view

    def broadcast(self) -> None:
        """Send the state to everyone at the table (one JSON text for all)."""
        self.touched = time.monotonic()
        if self._unsettled:  # the chances of the version being left: the move's own broadcast follows
            return
        self._tick.set()
        self._tick = asyncio.Event()
        self._follow_solve()
        self._want_win()
        text = self._shown = json.dumps({"type": "state", **self.state()}, ensure_ascii=False)
        for client in list(self.clients):
            client.send(text)

    def _want_win(self) -> None:
        """Compute the seats' chances to win for this version in a worker thread (one at a time),
        then broadcast them; a version that has moved on meanwhile is computed next."""
        if not self.settings.win_chances or self.game is None or len(self.seats) < 2 or not self.drives or (
                self.win is not None and self.win[0] >= self.version):  # elsewhere: from the lease holder
            return
        if self._win_task is None or self._win_task.done():
            self._win_task = asyncio.create_task(self._compute_win())

    async def _compute_win(self) -> None:
        if self.solver is not None:  # exact chances need the win tables the solving processes build
            await self.solver.ready(self.rules)
        while self.drives and self.game is not None and (self.win is None or self.win[0] != self.version):
            try:
                if self.chances is not None:  # the server: a niced process, the newest version when it is free
                    done = await self.chances.compute(self._win_job)
                    if done is None:
                        return
                    version, probabilities, exact = done.version, list(done.probabilities), done.exact
                else:  # a room alone (tests): a worker thread
                    version, copy = self.version, from_record(to_record(self.game))
                    result = await asyncio.to_thread(with_tables_only, win_chances, copy)  # never solves here
                    probabilities, exact = list(result.probabilities), result.exact
            except Exception as exc:  # the chances are an extra: a failure must not stop the table
                log.warning("table %s: no win chances (%s)", self.id, exc)
                return
            self.win = (version, probabilities, exact)
            if self.published is not None:
                self.published(self.id, version, probabilities, exact)
            if version == self.version:
                self.broadcast()

    def still_solving(self) -> bool:
        """True while the rules' solve is under way (in this process: the one that started it)."""
        if self.solving and self.solver is not None and not self.solver.pending(self.rules):
            self.solving = False
        return self.solving

    def _follow_solve(self) -> None:
        """While the rules are being solved, wait for the solve (once) and then tell everyone."""
        if self.solving and self._solve_task is None:
            self._solve_task = asyncio.create_task(self._upgrade_when_solved())

    async def _upgrade_when_solved(self) -> None:
        assert self.solver is not None
        reason = await self.solver.ready(self.rules)
        log.info("table %s: rules solved%s", self.id, f" (no: {reason})" if reason else "; exact from now on")
        self.solving = False
        self.broadcast()

    def receive_win(self, version: int, probabilities: list[float], exact: bool) -> None:
        """The chances to win of ``version``, computed by the lease holder (another process of the site): shown
        now if this copy is at that version, or with the state of that version when this copy gets there."""
        if len(probabilities) != len(self.seats) or (self.win is not None and self.win[0] >= version):
            return
        self.win = (version, probabilities, exact)
        if version == self.version:
            self.broadcast()

    def _win_job(self) -> WinJob | None:
        """The table's position now, for the chances' worker (None: already computed, or no game)."""
        if self.game is None or (self.win is not None and self.win[0] == self.version):
            return None
        return job_of(self.id, self.version, self.rules, self.seed, len(self.seats), self.game.history)

    # --- connections -------------------------------------------------------------------
    def join(self, client: Client) -> bool:
        """A connection arrives: it gets its seat back if its token holds one. A spectator beyond the
        table's cap is refused (False). The newcomer gets the whole state; the others only a presence
        frame when a seat's connection changes (nothing for spectators coming and going)."""
        self._follow_solve()
        if client.token_hash is not None:
            for seat in self.seats:  # (a seat only held for the token is taken by a sit frame: web/rematch.py)
                if seat.kind == "human" and seat.token_hash == client.token_hash and seat.name is not None:
                    client.seat = seat.idx
        if client.seat is None and self.spectators() >= self.settings.spectators_per_table:
            return False
        before = self._connected()
        self.clients.add(client)
        self.touched = time.monotonic()
        you = {"seat": client.seat, "pid": client.pid, "held": held_seat(self.seats, client.token_hash)}
        client.send({"type": "welcome", "table": self.table, "you": you})
        if self._unsettled and self._shown is not None:  # a move is being written: the state before it
            client.send(self._shown)
        else:
            client.send(json.dumps({"type": "state", **self.state()}, ensure_ascii=False))
        self.schedule()
        self._presence(before, client)
        return True

    def leave(self, client: Client) -> None:
        """A connection goes."""
        if client not in self.clients:
            return
        before = self._connected()
        self.clients.discard(client)
        self.touched = time.monotonic()
        self._presence(before, client)

    def spectators(self) -> int:
        """Connections without a seat."""
        return sum(1 for c in self.clients if c.seat is None)

    def _connected(self) -> set[int]:
        return self.local_seats() | self.remote

    def local_seats(self) -> set[int]:
        """The seats with a connection to this process."""
        return {c.seat for c in self.clients if c.seat is not None}

    def connected_seats(self) -> set[int]:
        """The seats with a connection anywhere on the site (this process's and the others' in web_presence)."""
        return self._connected()

    def _presence(self, before: set[int], client: Client) -> None:
        """Tell the others that a seat's connection came or went (a small frame, not the whole state)."""
        if self.presence_changed is not None and client.seat is not None:
            self.presence_changed()
        self._presence_frames(before, skip=client)

    def _presence_frames(self, before: set[int], skip: Client | None = None) -> None:
        after = self._connected()
        for seat in sorted(before ^ after):
            text = json.dumps({"type": "presence", "seat": seat, "connected": seat in after})
            for other in list(self.clients):
                if other is not skip:
                    other.send(text)
        if before != after:
            self.absence.poke()

    def set_remote(self, seats: set[int]) -> None:
        """The seats another process of the site holds a connection for (web/presence.py)."""
        if seats == self.remote:
            return
        before = self._connected()
        self.remote = set(seats)
        self._presence_frames(before)
        self.schedule()

    # --- players who leave (web/absence.py) --------------------------------------------
    def _auto(self, seat: int) -> bool:
        """True when the seat's moves are made by the server: a bot, or the stand-in of a person away (while
        another person is still connected: a table nobody is at waits, then ends as abandoned)."""
        if self.seats[seat].kind == "bot":
            return True
        if self.turn_hours is not None:  # a turn-based game waits for its player (web/turnbased.py)
            return False
        connected = self._connected()
        if seat not in self.away or seat in connected:  # back: theirs at once
            return False
        return bool(connected - {seat}) or self.tournament is not None  # a tournament's rounds never wait

    def mark_away(self, seats: set[int]) -> None:
        """The driver's judgement of who is away (the stand-in's label): shown, told to the other processes,
        and the stand-in starts if it is an away seat's turn (a seat that came back plays its next decision)."""
        if seats == self.away:
            return
        self.away = set(seats)
        if self.announce is not None:
            self.announce(self.id, "away " + (",".join(str(s) for s in sorted(seats)) or "-"))
        self._update_deadline()
        self.broadcast()
        self.schedule()

    def receive_away(self, seats: set[int]) -> None:
        """The driver's judgement, from another process of the site."""
        if seats != self.away and not self.drives:
            self.away = seats
            self.broadcast()

    def notice(self, kind: str, seat: int, tell_site: bool = True) -> None:
        """A notice for everyone at the table: ``timeout`` (the seat's timer ran out and a bot played for it)."""
        text = json.dumps({"type": "notice", "notice": kind, "seat": seat, "name": self.seats[seat].name},
                          ensure_ascii=False)
        for client in list(self.clients):
            client.send(text)
        if tell_site and self.announce is not None:
            self.announce(self.id, f"notice {kind} {seat}")

    async def abandon(self) -> None:
        """No person has been at the table for ``abandon_after`` seconds: it ends, unfinished, as abandoned."""
        async with self.lock:
            if self.status != "playing" or not self.drives:
                return
            try:
                await self._write(self.store.abandon, self.id, self.version + 1)
            except ProtocolError:  # another process moved first: the watch looks again
                return
            self.version += 1
            self.status, self.ended = "finished", "abandoned"
            self.away = set()
            self._cancel_timer()
            self.broadcast()
        log.info("table %s abandoned: no person connected for %.0f s", self.id, self.settings.abandon_after)

    async def handle(self, client: Client, frame: Sit | Act | Undo | Hint | Ping) -> None:
        """Answer one valid frame; refusals raise :class:`ProtocolError`."""
        if isinstance(frame, Ping):
            client.send({"type": "pong"})
        elif isinstance(frame, Sit):
            await self._sit(client, frame)
        elif isinstance(frame, Act):
            await self._act(client, frame)
        elif isinstance(frame, Undo):
            await self._undo(client, frame)
        else:
            await self._hint(client)

    # --- sitting -----------------------------------------------------------------------
    async def _sit(self, client: Client, frame: Sit) -> None:
        if client.token_hash is None:
            raise ProtocolError("not-seated", "open the table's link in a browser to take a seat (no token given)")
        for attempt in range(SIT_TRIES):
            try:
                await self._sit_once(client, frame)
                break
            except ProtocolError as exc:  # someone sat at another seat through another process of the site
                if exc.code != "stale" or attempt == SIT_TRIES - 1:  # first: take their seat in and try again
                    raise
                await self.reach(self.version + 1)
        self.schedule()

    async def _sit_once(self, client: Client, frame: Sit) -> None:
        async with self.lock:
            if self.status == "expired":  # web/expiry.py
                raise ProtocolError("expired", "nobody took the open seats in time: this table has expired")
            if client.seat is not None or any(s.token_hash == client.token_hash and s.name for s in self.seats):
                raise ProtocolError("already-seated", "you already have a seat at this table")
            if frame.seat >= len(self.seats):
                raise ProtocolError("bad-message", f"this table has {len(self.seats)} seats")
            seat = self.seats[frame.seat]
            if seat.kind != "human" or seat.name is not None:
                raise ProtocolError("seat-taken", f"seat {frame.seat + 1} is taken")
            check_hold(self.seats, seat, client.token_hash, time.time())
            # NFKC, one script, no look-alikes of a seated name nor of a name kept for an absent player
            name = check_name(frame.name, [s.name for s in self.seats if s.name] + reserved_names(
                self.seats, client.token_hash))
            filled = all(s.name is not None or s is seat for s in self.seats)
            status = "playing" if filled else "waiting"
            row = SeatRow(seat.idx, seat.kind, None, name, client.token_hash, client.pid)
            await self._write(self.store.sit, self.id, self.version + 1, row, status)
            seat.name, seat.token_hash, seat.pid = name, client.token_hash, client.pid
            client.seat = seat.idx
            self.version += 1
            self.status = status
            if filled:
                self.game = self._new_game()
                self._update_deadline()
            self.broadcast()

    # --- playing -----------------------------------------------------------------------
    async def _act(self, client: Client, frame: Act) -> None:
        try:
            action = action_from_json(frame.action)
        except CubileteError as exc:
            raise ProtocolError("bad-message", str(exc)) from None
        await self.reach(frame.version)
        async with self.lock:
            game = self._playing()
            if client.seat is None:
                raise ProtocolError("not-seated", "spectators cannot play: take a seat first")
            if game.state.current != client.seat:
                raise ProtocolError("not-your-turn", f"it is {game.current_player}'s turn")
            if frame.version != self.version:
                raise ProtocolError("stale", f"the table moved on (version {self.version}); nothing was played")
            try:
                await self._commit(client.seat, action)
            except IllegalActionError as exc:
                raise ProtocolError("illegal", str(exc)) from None
        self.schedule()

    def _playing(self) -> Game:
        if self.game is None:
            raise ProtocolError("not-started", "the game starts when every seat is taken")
        if self.ended == "abandoned":
            raise ProtocolError("game-over", "the game is over: it was abandoned (no player was left)")
        if self.game.is_over:
            raise ProtocolError("game-over", "the game is over")
        return self.game

    async def _write(self, write: Callable[..., None], *args: Any) -> None:
        try:
            await store_write(self.store, write, *args)
        except StaleWrite:  # another process of the site moved the table on first
            if self.moved_on is not None:
                self.moved_on(self.id, self.version + 1)
            raise ProtocolError("stale", "the table moved on; nothing was played") from None
        except StoreError as exc:
            log.error("table %s: %s", self.id, exc)
            raise ProtocolError("server-error", "the move could not be saved; nothing was played") from None

    async def _commit(self, seat: int, action: Action, by: str | None = None) -> None:
        """Apply, write, then broadcast (the caller holds the lock); ``by``: made for a person (web/standin.py)."""
        game = self._playing()
        game.apply(action)
        self.acted.append(seat)
        result = None
        if game.is_over:
            result = (game.totals(), list(game.state.winners))
        self._unsettled = True
        try:
            await self._write(
                self.store.append_action, self.id, self.version + 1, len(game.history), seat,
                json.dumps(action_to_json(action)), result, by,
            )
        except ProtocolError:
            game.undo()
            self.acted.pop()
            raise
        finally:
            self._unsettled = False
        self.version += 1
        self.last = (seat, action)
        if result is not None:
            self.status = "finished"
            if self.daily is not None:  # the day's standings: score and points lost, in a worker thread
                self._result_task = asyncio.create_task(daily_result(self.store, self.id, game))
            elif ratings.rankable(self):  # both ratings, in a worker thread (web/ratings.py)
                self._result_task = asyncio.create_task(ratings.rate_room(self))
            if self.tournament is not None and self.on_finished is not None:
                self.on_finished(self.tournament)
        self._update_deadline()
        self.broadcast()

    # --- undo (web/undo.py: a box no die has been shown after) -------------------------------
    def lone_human(self) -> int | None:
        """The seat of the table's only person when every other seat is a bot, else None."""
        return lone_person([s.kind for s in self.seats])

    def can_undo(self) -> bool:
        """True when the table's one person may take back their last box now (no throw shown since)."""
        game = self.game
        return game is not None and not game.is_over and can_take_back(game.history, self.acted, self.lone_human())

    async def _undo(self, client: Client, frame: Undo) -> None:
        """Take back the person's last box (or stand) while no die has been shown after it."""
        await self.reach(frame.version)
        async with self.lock:
            game = self._playing()
            if client.seat is None:
                raise ProtocolError("not-seated", "spectators cannot undo: take a seat first")
            human = self.lone_human()
            if human is None or client.seat != human:
                raise ProtocolError("undo-refused", "undo is only for a table of one person against bots: "
                                    "other people's moves are never taken back")
            if not can_take_back(game.history, self.acted, human):
                raise ProtocolError("undo-refused", "nothing to undo: only a box written since the last throw "
                                    "can be taken back (dice once shown stay)")
            if frame.version != self.version:
                raise ProtocolError("stale", f"the table moved on (version {self.version}); nothing was undone")
            taken = game.undo()
            keep = len(game.history)
            self._unsettled = True
            try:
                await self._write(self.store.undo_actions, self.id, self.version + 1, keep, self.undos + 1)
            except ProtocolError:
                game.apply(taken)
                raise
            finally:
                self._unsettled = False
            del self.acted[keep:]
            self.undos += 1
            self.version += 1
            self.last = (self.acted[-1], game.history[-1]) if game.history else None
            self._update_deadline()
            self.broadcast()
        self.schedule()

    # --- bots and the timer ------------------------------------------------------------
    def schedule(self) -> None:
        """Start the bot driver when a bot (or a timed-out human) is to play."""
        self._update_deadline()
        game = self.game
        if game is None or game.is_over or not self.drives or self.status != "playing":
            return
        self.absence.start()
        if self._auto(game.state.current) and (self._driver is None or self._driver.done()):
            self._driver = asyncio.create_task(self._drive_bots())

    def _update_deadline(self) -> None:
        """A human's turn gets ``timer`` seconds; the clock restarts only when the turn changes hands."""
        key = self._turn_of_play()
        if key is None:  # the game is over (or not started): the absence watch has nothing left to do
            self.absence.poke()
        if self.turn_hours is not None:
            self._turn_based_clock(key)
        if not self.timer or key is None or self._auto(self._current()) or self.status != "playing":
            self._cancel_timer()
            return
        if key == self._turn_key:
            return
        self._cancel_timer()
        self._turn_key = key
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.timer
        if self.drives:  # elsewhere the lease holder's timer plays the turn; this process only shows the clock
            self._timer_task = asyncio.create_task(self._expire(key))

    def _turn_based_clock(self, key: tuple[object, ...] | None) -> None:
        """A turn-based game's clock: it starts when the turn changes hands (a table just loaded keeps the stored
        time), and the new player is told (an e-mail, web/turnbased.py)."""
        if key is None or self.status != "playing":
            return
        if key == self._turn_based_key:
            return
        loaded = self._turn_based_key is None and self.turn_began is not None
        self._turn_based_key = key
        if loaded:
            return
        self.turn_began = time.time()
        if self.turn_passed is not None and self.drives and not self._auto(self._current()):
            self.turn_passed(self, self._current())

    def turn_deadline(self) -> float | None:
        """When a turn-based game's turn in play runs out (epoch seconds), or None."""
        if self.turn_hours is None or self.turn_began is None or self.status != "playing":
            return None
        return self.turn_began + self.turn_hours * 3600.0

    async def turn_ran_out(self, now: float) -> bool:
        """A turn-based game whose turn time has run out at ``now``: the stand-in plays the rest of that turn
        and everyone is told. False if there was nothing to do (moved meanwhile, not ours to drive)."""
        async with self.lock:
            deadline = self.turn_deadline()
            key = self._turn_of_play()
            if deadline is None or now < deadline or key is None or not self.drives or self._auto(self._current()):
                return False
            seat = self._current()
            try:
                while self._turn_of_play() == key and self.drives:
                    await self._play_for(self._current(), "timer")
            except ProtocolError:
                return False
            self.notice("timeout", seat)
        self.schedule()
        return True

    def _cancel_timer(self) -> None:
        if self._timer_task is not None and self._timer_task is not asyncio.current_task():
            self._timer_task.cancel()
        self._timer_task = None
        self._turn_key = None
        self.deadline = None

    def _turn_of_play(self) -> tuple[object, ...] | None:
        """What changes exactly when the turn changes hands (None once the game is over or before it starts)."""
        game = self.game
        if game is None or game.is_over:
            return None
        st = game.state
        return (st.phase, st.tiebreak_round, st.current, st.seats[st.current].turns_taken)

    def _current(self) -> int:
        assert self.game is not None
        return self.game.state.current

    async def _play_for(self, seat: int, by: str | None = None) -> None:
        """The seat's bot (or stand-in) chooses in a worker thread; the move is committed like anyone's."""
        assert self.game is not None
        # tables only: solved ones are loaded; rules still being solved (or never) get the approximate search
        action = await asyncio.to_thread(with_tables_only, self.bot(seat).choose, self.game)
        await self._commit(seat, action, by)

    async def _expire(self, key: tuple[object, ...], delay: float | None = None) -> None:
        """The timer ran out (after ``delay`` seconds, by default the whole timer): a bot plays the rest of
        that human's turn."""
        assert self.timer
        await asyncio.sleep(self.timer if delay is None else delay)
        async with self.lock:
            seat = self._current() if self._turn_of_play() == key and self.drives else None
            try:
                while self._turn_of_play() == key and self.drives:
                    await self._play_for(self._current(), "timer")
            except ProtocolError:  # another process moved first: the clock starts again on the new state
                self._turn_key = None
            if seat is not None:
                self.notice("timeout", seat)  # "time's up: a bot played for Beto", to everyone
        self.schedule()

    async def _drive_bots(self) -> None:
        """Play bot seats one action at a time, with a pause so people can follow."""
        while True:
            # after a person's box, the time to take it back before the next throw shows (web/undo.py)
            await asyncio.sleep(max(self.settings.bot_delay, self.settings.undo_window) if self.can_undo()
                                else self.settings.bot_delay)
            async with self.lock:
                game = self.game
                if game is None or game.is_over or not self._auto(game.state.current) or not self.drives or (
                        self.status != "playing"):
                    break
                seat = game.state.current
                try:
                    await self._play_for(seat, "away" if self.seats[seat].kind == "human" else None)
                except ProtocolError:  # the database refused: try again after the pause
                    continue
        self.schedule()

    # --- coach -------------------------------------------------------------------------
    async def _hint(self, client: Client) -> None:
        if not self.coach:
            raise ProtocolError("coach-off", "the coach is not allowed at this table")
        async with self.lock:
            game = self._playing()
            if client.seat is None or game.state.current != client.seat:
                raise ProtocolError("not-your-turn", "the coach helps with your own turn")
            await self.coach_ready()
            frame = await asyncio.to_thread(with_tables_only, _hint_frame, game, client.lang)
        client.send(frame)

    async def coach_ready(self) -> None:
        """Check the coach may answer (it never waits for a solve); :class:`ProtocolError` ``coach-unavailable``
        if these rules can be solved but not here (over the server's budget, or the solve failed). Rules being
        solved, or not queued yet, and rules the solver cannot take at all (several columns, carried throws)
        get the approximate coach."""
        if self.solver is None or not coach.is_solvable(self.rules) or self.still_solving():
            return  # while the rules are being solved the coach is approximate (and says so), not refused
        reason = self.solver.refusal(self.rules)  # never waits for a solve (the table's lock may be held)
        if reason is not None:
            raise ProtocolError("coach-unavailable", f"the coach is not available for these rules: {reason}")

    def idle(self) -> bool:
        """Nobody connected, no bot or timer running, no write in progress: the table may leave memory."""
        busy = any(task is not None and not task.done() for task in (self._driver, self._timer_task)) or (
            self.absence.running() and self.status == "playing")  # its absence watch ends it if nobody comes back
        return not self.clients and not busy and not self.lock.locked()

    def lead(self, drives: bool) -> None:
        """This process takes over (or gives up) driving the table's bots and timer (web/site.py). A turn
        timer taken over runs on from the clock this process has shown since the turn changed hands: a
        takeover does not give the player a full turn again."""
        if drives == self.drives:
            return
        self.drives = drives
        self.absence.poke()  # the watch ends when the lease goes; the new holder's starts with schedule()
        if self._timer_task is not None:
            self._timer_task.cancel()
            self._timer_task = None
        if drives and self._turn_key is not None and self.deadline is not None:
            left = max(0.0, self.deadline - asyncio.get_running_loop().time())
            self._timer_task = asyncio.create_task(self._expire(self._turn_key, left))
        self.schedule()
        self._want_win()  # the chances, too, are the lease holder's to compute

    async def reach(self, version: int, timeout: float = CATCH_UP_WAIT) -> None:
        """Wait (at most ``timeout`` seconds) until this copy is at ``version``: a client that saw a version
        through another process of the site (after reconnecting) is ahead of this copy, which catches up
        first rather than refusing its frame as stale. At once in one process (nothing to wait for)."""
        if self.version >= version or self.moved_on is None:
            return
        self.moved_on(self.id, version)
        deadline = asyncio.get_running_loop().time() + timeout
        while self.version < version:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            await wait_event(self._tick, left)

    def apply_note(self, version: int, seq: int, seat: int, action_json: str) -> bool:
        """One action committed by another process of the site, as its announcement carried it (the caller
        holds the lock): applied if it is exactly the next one (version and place in the game), then
        shown. False if it is not (nothing changed: the caller reads the database instead)."""
        game = self.game
        if version != self.version + 1 or self.status != "playing" or game is None or seq != len(game.history) + 1:
            return False
        try:
            action = action_from_json(json.loads(action_json))
            game.apply(action)
        except (CubileteError, ValueError) as exc:
            log.warning("table %s: announced action %d not applied (%s)", self.id, version, exc)
            return False
        self.acted.append(seat)
        self.version, self.last = version, (seat, action)
        if game.is_over:
            self.status = "finished"
        self._update_deadline()
        self.broadcast()
        return True

    def extend(self, version: int, status: str, moves: tuple[tuple[int, int, str], ...]) -> bool:
        """Catch up with what the database holds after this copy's actions (:meth:`WebStore.load_since`:
        ``version``, ``status``, the actions (seq, seat, JSON) after ours), if that only extends our game:
        the table was playing, and every version since ours is one of these actions, in place. An undo or a
        seat taken would show as a version without an action (and an undo removes actions), so then this
        returns False, changes nothing, and the caller reloads the whole table (:meth:`adopt`)."""
        game = self.game
        if self.status != "playing" or game is None or version - self.version != len(moves) or any(
                seq != len(game.history) + 1 + i for i, (seq, _, _) in enumerate(moves)):
            return False
        try:
            for _, _, text in moves:
                game.apply(action_from_json(json.loads(text)))
        except (CubileteError, ValueError) as exc:
            log.warning("table %s: stored actions not applied (%s); reloading it", self.id, exc)
            while len(game.history) > len(self.acted):  # back to where it was
                game.undo()
            return False
        self.acted.extend(seat for _, seat, _ in moves)
        self.version, self.status = version, status
        self.last = (self.acted[-1], game.history[-1]) if game.history else None
        self._update_deadline()
        self.broadcast()
        return True

    def adopt(self, row: TableRow) -> None:
        """Take the table as stored, moved on by another process of the site (the caller holds the lock):
        the actions past ours are applied (the game is replayed if ours are no longer a prefix, after an
        undo), then the state goes to this process's clients."""
        for seat, stored in zip(self.seats, row.seats, strict=True):
            seat.name, seat.token_hash, seat.pid = stored.name, stored.token_hash, stored.pid
        self.status, self.version, self.ended, self.undos = row.status, row.version, row.ended, row.undos
        self.rematch = row.rematch or self.rematch
        if row.status == "waiting":
            self.game, self.acted, self.last = None, [], None
        else:
            game = self.game
            ours = [] if game is None else [
                (by, json.dumps(action_to_json(a))) for by, a in zip(self.acted, game.history, strict=True)]
            if game is None or list(row.actions[:len(ours)]) != ours:
                game, ours, self.acted = self._new_game(), [], []
            for by, text in row.actions[len(ours):]:
                game.apply(action_from_json(json.loads(text)))
                self.acted.append(by)
            self.game = game
            self.last = (self.acted[-1], game.history[-1]) if game.history else None
        self._update_deadline()
        self.broadcast()

    async def close(self) -> None:
        """Stop the bots and the timer (server shutdown)."""
        for task in (self._driver, self._timer_task, self._win_task, self._solve_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.absence.stop()


def with_tables_only(work: Callable[..., Any], *args: Any) -> Any:
    """Run ``work`` where solved tables are only loaded, never solved (a server solves in worker processes)."""
    with tables_only():
        return work(*args)


def _hint_frame(game: Game, lang: str) -> dict[str, Any]:
    """The coach's advice for the decision at hand, in the client's language (runs in a worker thread)."""
    advice, exact = coach.hint(game)
    both = two_ways(game) if len(game.players) > 1 else None
    with in_language(lang):
        options = [
            {"text": a.describe(game.rules), "keep": list(a.keep_positions) if a.kind == "keep" else None,
             "slot": a.slot, "expected": round(a.expected, 3), "loss": round(a.loss, 3)}
            for a in advice
        ]
        to_win = two_ways_lines(game, both) if both is not None else []
    return {"type": "hint", "exact": exact, "advice": options, "to_win": to_win}


def refuse(client: Client, exc: ProtocolError) -> None:
    """Answer a refused frame."""
    client.send(error_frame(exc.code, exc.message))
