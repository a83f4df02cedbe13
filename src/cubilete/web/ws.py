"""The WebSocket endpoints (a table, the lobby): limits per address, a hello frame with the identity, then
frames in, frames out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from cubilete.web.guard import Gate, client_address
from cubilete.web.hub import Hub, player_id, token_hash
from cubilete.web.protocol import Hello, ProtocolError, parse_frame, parse_hello, parse_lobby_frame
from cubilete.web.room import Client, refuse
from cubilete.web.waits import within
from cubilete.web.words import web_language

log = logging.getLogger("cubilete.web")
FLOOD_LIMIT = 200  # frames refused in a row for rate before the connection is closed


def _text(message: Mapping[str, Any]) -> str | bytes:
    text = message.get("text")
    if isinstance(text, str):
        return text
    raw = message.get("bytes", b"")
    return raw if isinstance(raw, bytes) else b""


async def _hello(websocket: WebSocket, timeout: float) -> Hello | None:
    """The connection's first frame; None (after closing the connection) if it is late or wrong."""
    try:
        message = await within(websocket.receive(), timeout)
    except TimeoutError:
        await websocket.close(code=4408, reason="no hello frame in time")
        return None
    if message["type"] == "websocket.disconnect":
        return None
    try:
        return parse_hello(_text(message))
    except ProtocolError as exc:
        await websocket.close(code=4400, reason=exc.message[:120])
        return None


async def _guarded(websocket: WebSocket, serve: Callable[[Hub], Awaitable[None]]) -> None:
    """Accept, refuse a token in the URL and an address over its socket limits, then ``serve``."""
    hub: Hub = websocket.app.state.hub
    gate: Gate = websocket.app.state.gate
    await websocket.accept()
    if "token" in websocket.query_params:
        await websocket.close(code=4400, reason="the token goes in the hello frame, never in the URL")
        return
    address = client_address(websocket.scope, hub.settings)
    refused = gate.socket_opened(address)
    if refused is not None:
        await websocket.close(code=4429, reason=refused)
        return
    try:
        await serve(hub)
    finally:
        gate.socket_closed(address)


def _client(websocket: WebSocket, hub: Hub, hello: Hello) -> Client:
    token = hello.token
    return Client(websocket.send_text, token_hash(token) if token else None, player_id(token) if token else None,
                  web_language(hello.lang or websocket.query_params.get("lang")), hub.settings)


_finishing: set[asyncio.Task[None]] = set()  # frames whose connection went while they were handled


async def _finished_even_if_gone(work: Awaitable[None]) -> None:
    """Handle a frame in a task of its own: if the connection's task is cancelled meanwhile (the person closed
    the tab just after their last move, or the server stops), the frame's work still finishes: a move being
    written is written AND counted (the table's version, the result, the ratings, the tournament), never left
    half done in memory while the database has it."""
    task = asyncio.ensure_future(work)
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.done():
            _finishing.add(task)
            task.add_done_callback(_forget)
        raise


def _forget(task: asyncio.Task[None]) -> None:
    _finishing.discard(task)
    if not task.cancelled() and task.exception() is not None:  # nobody is left to answer: the log says it
        exc = task.exception()
        if not isinstance(exc, ProtocolError):
            log.error("a frame of a connection that went failed: %r", exc)


async def _frames(websocket: WebSocket, client: Client, handle: Callable[[str | bytes], Awaitable[None]],
                  where: str) -> None:
    """Send the client's queued frames and hand it every frame it sends (rate-limited; a refused one is
    answered), until it goes, floods or cannot keep up."""
    pump = asyncio.create_task(client.pump())
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
                await _finished_even_if_gone(handle(_text(message)))
            except ProtocolError as exc:
                refuse(client, exc)
            except Exception:  # a bug must not take the table (or the lobby) down: answer and log
                log.exception("%s: frame failed", where)
                refuse(client, ProtocolError("server-error", "the server could not handle that frame"))
    except WebSocketDisconnect:
        pass
    finally:
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
        if client.dropped or flooded:
            with contextlib.suppress(Exception):
                await websocket.close(code=1008)


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """One client at one table, until it goes."""
    await _guarded(websocket, lambda hub: _serve(websocket, table_id, hub))


async def _serve(websocket: WebSocket, table_id: str, hub: Hub) -> None:
    hello = await _hello(websocket, hub.settings.hello_timeout)
    if hello is None:
        return
    try:
        room = await hub.room(table_id)
    except (ValueError, KeyError):  # stored moves that no longer replay (logged at start)
        await websocket.close(code=1011, reason="table cannot be loaded")
        return
    if room is None:
        await websocket.close(code=4404, reason="no such table")
        return
    client = _client(websocket, hub, hello)
    if room.private() and not any(s.token_hash == client.token_hash and s.name for s in room.seats):
        await websocket.close(code=4403, reason="a daily challenge game is private until its day ends")
        return
    if not room.join(client):
        await websocket.close(code=4429, reason="this table has as many spectators as it takes")
        return
    try:
        await _frames(websocket, client, lambda text: room.handle(client, parse_frame(text)), f"table {table_id}")
    finally:
        room.leave(client)


async def lobby_socket(websocket: WebSocket) -> None:
    """One browser in the lobby (web/lobby.py): the list of open and live tables, and quick match."""
    await _guarded(websocket, lambda hub: _serve_lobby(websocket, hub))


async def _serve_lobby(websocket: WebSocket, hub: Hub) -> None:
    lobby = hub.lobby
    hello = await _hello(websocket, hub.settings.hello_timeout)
    if hello is None or lobby is None:
        return
    client = _client(websocket, hub, hello)
    await lobby.join(client)
    try:
        await _frames(websocket, client, lambda text: lobby.handle(client, parse_lobby_frame(text)), "lobby")
    finally:
        try:  # even if this task is being cancelled: a seek left in the database would be matched until stale
            await _finished_even_if_gone(lobby.leave(client))
        except Exception:
            log.exception("lobby: a leaving client's seek could not be withdrawn")
