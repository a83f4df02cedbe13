"""The rematch of a finished table: asked only by its own players, one new table however many ask at once
through however many processes, and seats kept for the players who were not on the page.

- Who may ask: a token seated at the finished table (``Authorization: Bearer <token>``, web/api.py).
- One table: the new table is stored and marked on the finished one in one transaction that succeeds only
  if the finished table has no rematch yet (:meth:`WebStore.create_rematch`); the loser of a race reads the
  winner's table. Every process of a site hears of it (a NOTIFY, web/site.py) and tells its players.
- Seats: a person connected anywhere on the site sits at once (their seat holds their token's hash); a
  person gone has their seat kept for their token for ``Settings.rematch_hold`` seconds (default 300), and
  nobody else may take their name at the new table. Their page, when it comes back to either table, takes
  the seat by itself (the ``welcome`` frame names it).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cubilete.engine.errors import RematchTaken
from cubilete.web.duplicate import match_second
from cubilete.web.protocol import ProtocolError
from cubilete.web.views import SeatInfo

if TYPE_CHECKING:
    from cubilete.web.hub import Hub
    from cubilete.web.room import Room

Person = tuple[str, str, str | None]  # (name, token hash, player id): sits at once
Held = tuple[str, str]  # (name, token hash): the seat is kept for them


def check_hold(seats: Sequence[SeatInfo], seat: SeatInfo, token_hash: str | None, now: float) -> None:
    """Refuse a sit in a seat kept for someone else, and a sit elsewhere by the person a seat is kept for."""
    if seat.held_for_other(token_hash, now):
        left = max(1, round((seat.held_until or now) - now))
        raise ProtocolError("seat-held", f"seat {seat.idx + 1} is kept for {seat.held_name} for {left} s more "
                            "(the rematch keeps the seats of the players who were away)")
    mine = [s for s in seats if s.name is None and s.held_until is not None and s.token_hash == token_hash]
    if mine and mine[0] is not seat:
        raise ProtocolError("seat-held", f"your seat at this rematch is seat {mine[0].idx + 1}")


def reserved_names(seats: Sequence[SeatInfo], token_hash: str | None) -> list[str]:
    """Names kept at this table for someone else: a rematch's absent players (whether or not their hold
    has ended, nobody else plays under their name here)."""
    return [s.held_name for s in seats if s.held_name and s.token_hash != token_hash]


def held_seat(seats: Sequence[SeatInfo], token_hash: str | None) -> dict[str, object] | None:
    """The open seat kept for this token ({"seat", "name"}), which its page takes by itself."""
    if token_hash is None:
        return None
    for s in seats:
        if s.name is None and s.held_until is not None and s.token_hash == token_hash and s.held_name:
            return {"seat": s.idx, "name": s.held_name}
    return None


def holding(seats: Sequence[SeatInfo], now: float) -> dict[int, str]:
    """Seat index -> the name it is kept for, for seats still held now (shown on the table)."""
    return {s.idx: s.held_name for s in seats
            if s.name is None and s.held_name and s.held_until is not None and now < s.held_until}


def seats_for_rematch(room: Room) -> tuple[list[Person | None], list[Held | None]]:
    """Who sits at once (connected anywhere on the site) and whose seat is kept (gone), seat by seat."""
    here = room.connected_seats()
    people: list[Person | None] = []
    held: list[Held | None] = []
    for s in room.seats:
        person = s.kind == "human" and bool(s.name) and bool(s.token_hash)
        people.append((s.name, s.token_hash, s.pid) if person and s.idx in here else None)  # type: ignore[arg-type]
        held.append((s.name, s.token_hash) if person and s.idx not in here else None)  # type: ignore[arg-type]
    return people, held


async def existing(hub: Hub, room: Room) -> Room | None:
    """The finished table's rematch if someone asked for it already, through this process or another
    (None also when that table expired with nobody seated: then a new one may replace it)."""
    if room.rematch is None:
        room.rematch = await asyncio.to_thread(hub.store.rematch_of, room.id)
    return await hub.room(room.rematch) if room.rematch is not None else None


async def make(hub: Hub, room: Room, network: str | None) -> Room:
    """The rematch table: made here, or the one another request made first (the database decides). The
    rematch of a first duplicate game between two people is the match's second game: new dice, seats
    swapped (web/duplicate.py)."""
    people, held = seats_for_rematch(room)
    seats = [(s.kind, s.level) for s in room.seats]
    second = match_second(room)
    if second:
        people, held, seats = people[::-1], held[::-1], seats[::-1]
    try:
        new = await hub.create(room.rules, seats, room.timer, room.coach, people, network, held=held,
                               rematch_of=(room.id, room.rematch), listed=room.listed, dice=room.dice,
                               match_of=room.id if second else None, turn_hours=room.turn_hours)
    except RematchTaken:
        room.rematch = None  # read the one that won
        found = await existing(hub, room)
        if found is None:  # it expired at once: unlikely; the player asks again
            raise ProtocolError("rematch", "the rematch was made elsewhere and is gone: ask again") from None
        return found
    tell(room, new.id)
    return new


def tell(room: Room, table_id: str) -> None:
    """Send everyone connected to the finished table here where the rematch is (once per table)."""
    room.rematch = table_id
    if room.rematch_told == table_id:
        return
    room.rematch_told = table_id
    text = json.dumps({"type": "rematch", "table": table_id})
    for client in list(room.clients):
        client.send(text)
    room.broadcast()  # the state says it too (a page that reloads follows it)
