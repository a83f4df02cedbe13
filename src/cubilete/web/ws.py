"""The WebSocket endpoint: identity from the query, then frames in, frames out."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import WebSocket, WebSocketDisconnect

from cubilete.web.hub import TOKEN, Hub, player_id, token_hash
from cubilete.web.protocol import ProtocolError, parse_frame
from cubilete.web.room import Client, refuse
from cubilete.web.words import web_language

log = logging.getLogger("cubilete.web")
FLOOD_LIMIT = 200  # frames refused in a row for rate before the connection is closed


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One client at one table, until it goes."""
    hub: Hub = websocket.app.state.hub
    token = websocket.query_params.get("token")
    await websocket.accept()
    if token is not None and not TOKEN.match(token):
        await websocket.close(code=4400, reason="bad token")
        return
    try:
        room = await hub.room(table_id)
    except (ValueError, KeyError):  # stored moves that no longer replay (logged at start)
        await websocket.close(code=1011, reason="table cannot be loaded")
        return
    if room is None:
        await websocket.close(code=4404, reason="no such table")
        return
    lang = web_language(websocket.query_params.get("lang"))
    client = Client(websocket.send_text, token_hash(token) if token else None, player_id(token) if token else None,
                    lang, hub.settings)
    pump = asyncio.create_task(client.pump())
    room.join(client)
    flooded = 0
    try:
        while not client.dropped and not pump.done():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not client.bucket.take():
                flooded += 1
                if flooded >= FLOOD_LIMIT:
                    break
                refuse(client, ProtocolError("rate-limited", "too many frames: slow down"))
                continue
            flooded = 0
            try:
                frame = parse_frame(message["text"] if message.get("text") is not None else message.get("bytes", b""))
                await room.handle(client, frame)
            except ProtocolError as exc:
                refuse(client, exc)
            except Exception:  # a bug must not take the table down: answer and log
                log.exception("table %s: frame failed", table_id)
                refuse(client, ProtocolError("server-error", "the server could not handle that frame"))
    except WebSocketDisconnect:
        pass
    finally:
        room.leave(client)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
        if client.dropped or flooded:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008)
