"""The lobby: tables open to anyone, games to watch, and quick match (docs/WEB.md, "Lobby and quick match").

Everything lives in the database (store/lobby.py), so every process of a site shows the same lobby and
matches from one list of seekers. Each process runs one round every ``lobby_refresh`` seconds (sooner when
poked): it reads the lobby once, pushes it to its lobby sockets when it changed, keeps its seekers fresh
and tells those another process matched. A match seats the group at a new listed table with a turn timer
and no coach (a game between people that counts in the rankings); each person is sent
``{"type": "matched", "table", "seat"}``. A seeker waiting ``seek_bot_after`` seconds is sent
``{"type": "no-match"}`` once, and the page offers a bot instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cubilete.engine.errors import AlreadySeeking, CubileteError
from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.rules.codec import rules_from_dict
from cubilete.store import lobby as seeks
from cubilete.store.lobby import ListedTable, Seek
from cubilete.web.hub import new_table_id
from cubilete.web.names import check_name
from cubilete.web.protocol import Cancel, Ping, ProtocolError
from cubilete.web.protocol import Seek as SeekFrame
from cubilete.web.room import Client
from cubilete.web.solving import SolverBusy
from cubilete.web.waits import wait_event
from cubilete.web.words import rules_words

if TYPE_CHECKING:
    from cubilete.web.hub import Hub

log = logging.getLogger("cubilete.web")
RULES_CACHE = 256  # parsed rules of listed tables kept (by their JSON)
MATCH_MOST = 4  # people a quick match seats together at most (more wait too long for one another)


@dataclass
class Seeker:
    """A person seeking a game through this process."""

    client: Client
    seek: Seek
    since: float
    offered: bool = False  # told "no match yet" (the page offers a bot)


class Lobby:
    """This process's lobby sockets and seekers, and the round that keeps them in step with the site."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.settings = hub.settings
        self.clients: set[Client] = set()
        self.seekers: dict[str, Seeker] = {}  # token hash -> seeker
        self.view: dict[str, Any] | None = None
        self._text = ""
        self._due = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._rules: OrderedDict[str, Rules] = OrderedDict()
        self._reading = asyncio.Lock()  # one read of the lobby at a time (GET /api/lobby)
        self._read_at = 0.0

    @property
    def process(self) -> str:
        return self.hub.site.process if self.hub.site is not None else "local"

    def start(self) -> None:
        self._task = asyncio.create_task(self._rounds())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # a round's failure is logged already
                await self._task
        if self.seekers:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(seeks.forget, self.hub.store, list(self.seekers))

    def poke(self) -> None:
        """Run a round soon (a table was listed or changed, another process matched someone)."""
        self._due.set()

    # --- connections ---------------------------------------------------------------------
    async def join(self, client: Client) -> None:
        """A lobby socket arrives: it gets the list now, then each change."""
        if self.view is None:
            await self.refresh()
        self.clients.add(client)
        client.send({"type": "lobby", **(self.view or {"open": [], "live": [], "seeking": []})})

    async def leave(self, client: Client) -> None:
        self.clients.discard(client)
        if client.token_hash is not None and self.seekers.get(client.token_hash, None) is not None and (
                self.seekers[client.token_hash].client is client):
            del self.seekers[client.token_hash]
            await asyncio.to_thread(seeks.cancel, self.hub.store, client.token_hash)

    async def handle(self, client: Client, frame: SeekFrame | Cancel | Ping) -> None:
        if isinstance(frame, Ping):
            client.send({"type": "pong"})
        elif isinstance(frame, Cancel):
            await self._cancel(client)
        else:
            await self._seek(client, frame)

    # --- seeking ---------------------------------------------------------------------------
    async def _seek(self, client: Client, frame: SeekFrame) -> None:
        if client.token_hash is None or client.pid is None:
            raise ProtocolError("not-seated", "open the lobby in a browser to seek a game (no token given)")
        rules = _preset(frame.rules)
        most = min(rules.max_players, MATCH_MOST)
        if not max(2, rules.min_players) <= frame.players <= most:
            raise ProtocolError("bad-message", f"quick match seats {max(2, rules.min_players)} to {most} people "
                                f"at {rules.name}, not {frame.players}")
        name = check_name(frame.name, [])
        wanted = Seek(client.token_hash, client.pid, name, rules.name, frame.players)
        new_id = new_table_id()
        try:
            group = await asyncio.to_thread(seeks.seek, self.hub.store, wanted, self.process, time.time(),
                                            self.settings.seek_fresh, new_id, self.settings.max_seeks)
        except AlreadySeeking as exc:
            raise ProtocolError("already-seeking", str(exc)) from None
        self.seekers[client.token_hash] = Seeker(client, wanted, time.monotonic())
        client.send({"type": "seeking", "rules": rules.name, "players": frame.players,
                     "bot_after": self.settings.seek_bot_after})
        if group is not None:
            await self._seat(rules, group, new_id)
        self.poke()

    async def _seat(self, rules: Rules, group: list[Seek], table_id: str) -> None:
        """Make the matched group's table and tell them (here at once; elsewhere at their process's round)."""
        people: list[tuple[str, str, str | None] | None] = [(s.name, s.token_hash, s.pid) for s in group]
        here = {s.token_hash for s in group if s.token_hash in self.seekers}
        try:
            with contextlib.suppress(SolverBusy):  # solved in the background; approximate bots meanwhile
                self.hub.solver.start(rules, None)
            await self.hub.create(rules, [("human", None)] * len(group), self.settings.quick_timer, False, people,
                                  table_id=table_id, listed=True)
        except CubileteError as exc:
            log.warning("lobby: the table of a match could not be made: %s", exc)
            await asyncio.to_thread(seeks.forget, self.hub.store, [s.token_hash for s in group])
            for token in here:
                failed = self.seekers.pop(token, None)
                if failed is not None:
                    failed.client.send({"type": "error", "code": "match-failed",
                                        "message": f"the table could not be made ({exc}): seek again"})
            return
        for seat, s in enumerate(group):  # (a round here may have told one already, from its row)
            told = self.seekers.pop(s.token_hash, None) if s.token_hash in here else None
            if told is not None:
                told.client.send({"type": "matched", "table": table_id, "seat": seat})
        await asyncio.to_thread(seeks.forget, self.hub.store, here)  # the others' rows tell their process
        if self.hub.site is not None and len(here) < len(group):
            self.hub.site.announce_lobby()

    async def _cancel(self, client: Client) -> None:
        if client.token_hash is None or client.token_hash not in self.seekers:
            raise ProtocolError("not-seeking", "you are not seeking a game")
        del self.seekers[client.token_hash]
        await asyncio.to_thread(seeks.cancel, self.hub.store, client.token_hash)
        client.send({"type": "cancelled"})
        self.poke()

    # --- rounds ----------------------------------------------------------------------------
    async def _rounds(self) -> None:
        while True:
            await wait_event(self._due, self.settings.lobby_refresh)
            self._due.clear()
            if not self.clients and not self.seekers:
                continue  # nobody here to tell: GET /api/lobby reads it when it is stale
            try:
                await self._keep_seekers()
                await self.refresh()
            except Exception:  # the database is away: the next round tries again
                log.exception("lobby: round failed")

    async def _keep_seekers(self) -> None:
        if not self.seekers:
            return
        asked = list(self.seekers)  # (a seek made while the database answers is not in its answer)
        found = await asyncio.to_thread(seeks.renew, self.hub.store, self.process, asked, time.time())
        now = time.monotonic()
        for token in asked:
            seeker = self.seekers.get(token)
            if seeker is None:  # matched (and told) meanwhile, or gone
                continue
            if token not in found:
                del self.seekers[token]
                seeker.client.send({"type": "error", "code": "seek-lost",
                                    "message": "your seek was dropped (the match's table could not be made): "
                                    "seek again"})
            elif found[token] is not None:
                table_id, seat = found[token]  # type: ignore[misc]
                del self.seekers[token]
                seeker.client.send({"type": "matched", "table": table_id, "seat": seat})
            elif not seeker.offered and now - seeker.since >= self.settings.seek_bot_after:
                seeker.offered = True
                seeker.client.send({"type": "no-match", "rules": seeker.seek.rules, "players": seeker.seek.players,
                                    "waited": round(now - seeker.since)})

    async def current(self) -> dict[str, Any]:
        """The lobby as read at most ``lobby_refresh`` seconds ago (read now, once, if older: a crowd of
        requests shares one read)."""
        async with self._reading:
            if self.view is None or time.monotonic() - self._read_at > self.settings.lobby_refresh:
                await self.refresh()
        return self.view or {"open": [], "live": [], "seeking": []}

    async def refresh(self) -> None:
        """Read the lobby once and push it to every lobby socket here if it changed."""
        self._read_at = time.monotonic()
        store, now = self.hub.store, time.time()
        found = await asyncio.to_thread(seeks.listed, store, None, now, self.settings.lobby_list)
        wanted = await asyncio.to_thread(seeks.demand, store, now, self.settings.seek_fresh)
        view = {"open": [], "live": [], "seeking": wanted}
        for table in found:
            entry = self._entry(table)
            if entry is not None:
                view["open" if table.status == "waiting" else "live"].append(entry)
        self.view = view
        text = json.dumps({"type": "lobby", **view}, ensure_ascii=False)
        if text != self._text:
            self._text = text
            for client in list(self.clients):
                client.send(text)

    def _entry(self, table: ListedTable) -> dict[str, Any] | None:
        rules = self._rules_of(table.rules_json)
        if rules is None:
            return None
        people = [n for n, k in zip(table.names, table.kinds, strict=True) if k == "human" and n]
        entry: dict[str, Any] = {"id": table.id, "rules": rules.name, "title": rules_words(rules)["title"],
                                 "players": people, "created_at": table.created_at}
        if table.status == "waiting":
            entry["open_seats"] = sum(1 for n, k, h in zip(table.names, table.kinds, table.held, strict=True)
                                      if k == "human" and n is None and not h)
            entry["bots"] = sum(1 for k in table.kinds if k == "bot")
        else:
            entry["round"] = min(table.scores // max(1, len(table.kinds)) + 1, rules.turns)
            entry["rounds"] = rules.turns
        return entry

    def _rules_of(self, rules_json: str) -> Rules | None:
        rules = self._rules.get(rules_json)
        if rules is None:
            try:
                rules = rules_from_dict(json.loads(rules_json), "stored rules")
            except (CubileteError, ValueError):
                return None
            self._rules[rules_json] = rules
            while len(self._rules) > RULES_CACHE:
                self._rules.popitem(last=False)
        self._rules.move_to_end(rules_json)
        return rules

    async def filtered(self, rules: str | None) -> dict[str, Any]:
        """The lobby for ``GET /api/lobby`` (optionally one preset's tables)."""
        view = await self.current()
        if rules is None:
            return view
        return {k: [e for e in v if e["rules"] == rules] for k, v in view.items()}


def _preset(name: str) -> Rules:
    """A preset by name for quick match (house rules are played by link, not matched with strangers)."""
    try:
        return find_rules(name)
    except CubileteError:
        raise ProtocolError("unknown-rules", f"no preset is called {name[:64]!r}: quick match plays the "
                            "presets (GET /api/presets)") from None
