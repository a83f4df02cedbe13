"""Waiting tables expire, and count apart from tables in play (docs/WEB.md, "Limits"; issue 26).

A table with open seats and no move, untouched (made, or a seat taken) for ``waiting_expiry`` seconds,
is marked ``expired`` in the database: it is never loaded or resumed again. The database decides (one
UPDATE), so on a site each process may run the round; each then drops the expired tables it holds in
memory. The site cap (``max_live_tables``) counts tables being played; waiting ones count against the
network that made them (``waiting_per_address``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from cubilete.engine.errors import CubileteError

if TYPE_CHECKING:
    from cubilete.web.hub import Hub

log = logging.getLogger("cubilete.web")
EXPIRED_FRAME = {"type": "error", "code": "expired",
                 "message": "nobody took the open seats in time: this table has expired (create a new one)"}


class TooManyWaiting(CubileteError):
    """The network that asks already has ``waiting_per_address`` tables waiting for players."""


async def expire_once(hub: Hub, now: float | None = None) -> int:
    """Expire the site's stale waiting tables and drop this process's expired ones; how many expired."""
    now = time.time() if now is None else now
    count = await asyncio.to_thread(hub.store.expire_waiting, now - hub.settings.waiting_expiry, now)
    # "expired" too: on a site, the expiry's version may have been caught up from another process already
    waiting = [table_id for table_id, room in hub.rooms.items() if room.status in ("waiting", "expired")]
    gone = await asyncio.to_thread(hub.store.expired_among, waiting) if waiting else []
    for table_id in gone:
        room = hub.rooms.pop(table_id, None)
        if room is None:
            continue
        room.status = "expired"
        for client in list(room.clients):
            client.send(EXPIRED_FRAME)
        await room.close()
    return count


async def expire_now_and_then(hub: Hub, every: float) -> None:
    """Run :func:`expire_once` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            count = await expire_once(hub)
        except Exception:  # a busy database: the next round does it
            log.warning("expiring waiting tables failed", exc_info=True)
            continue
        if count:
            log.info("%d waiting table(s) expired", count)


async def check_room_for(hub: Hub, network: str | None, waiting: bool) -> None:
    """Refuse a new table when the site is full of tables in play (:class:`SiteFull`), or, for a table that
    will wait for players, when ``network`` already has its share of waiting tables (:class:`TooManyWaiting`)."""
    from cubilete.web.hub import SiteFull

    playing = await asyncio.to_thread(hub.store.count_status, "playing")
    if playing >= hub.settings.max_live_tables:
        raise SiteFull(f"the site has {playing} tables in play, as many as it takes: try again later")
    if waiting and network is not None:
        mine = await asyncio.to_thread(hub.store.count_status, "waiting", network)
        if mine >= hub.settings.waiting_per_address:
            minutes = max(1, round(hub.settings.waiting_expiry / 60))
            raise TooManyWaiting(f"this address already has {mine} tables waiting for players, as many as it may:"
                                 f" fill or finish one first (a table nobody joins expires after {minutes} min)")
