"""The web app in the test process (FastAPI's TestClient: real app, real database, real WebSockets
over an in-memory transport), and small players that pick legal moves from state frames."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cubilete.web.app import create_app
from cubilete.web.settings import Settings


@contextmanager
def running_app(db_url: str, **settings: Any) -> Iterator[TestClient]:
    """The app on ``db_url`` with lifespan (migrations, resume) run; bots move at once by default, and the
    chances to win (a second state frame per version) only where a test asks for them."""
    settings.setdefault("bot_delay", 0.0)
    settings.setdefault("win_chances", False)
    settings.setdefault("waiting_per_address", 1000)  # tests make many waiting tables from one address
    settings.setdefault("undo_window", 0.0)  # bots throw at once after a box (tests of undo set a window)
    # the chances' worker at the normal priority: idle-only, it starved on a busy machine (tests wait for it)
    settings.setdefault("win_nice", 0)
    with TestClient(create_app(Settings(db_url=db_url, **settings))) as client:
        yield client


def new_token() -> str:
    """A browser token like the page makes."""
    return secrets.token_hex(16)


@contextmanager
def table_socket(client: TestClient, table: str, token: str | None = None, lang: str | None = None,
                 **connect: Any) -> Iterator[WebSocketTestSession]:
    """A WebSocket to ``table`` that has said hello (with ``token``: a browser; without: a spectator)."""
    with client.websocket_connect(f"/ws/{table}", **connect) as ws:
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello["token"] = token
        if lang is not None:
            hello["lang"] = lang
        ws.send_json(hello)
        yield ws


def create(client: TestClient, seats: list[dict[str, Any]], rules: str = "generala", **extra: Any) -> str:
    """Create a table over HTTP; its id."""
    r = client.post("/api/tables", json={"rules": rules, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


FRAME_TIMEOUT = 120.0  # a bound for a hung test, never a speed check: frames take milliseconds, but a bot may
# solve or compile its tables first on a loaded machine


def receive_json(ws: WebSocketTestSession, timeout: float = FRAME_TIMEOUT, waiting_for: str = "a frame") -> Any:
    """``ws.receive_json()`` that fails the test after ``timeout`` seconds instead of waiting for ever.

    The wait runs in the TestClient's own event loop (its portal) under ``anyio.fail_after``, so a frame
    that never comes cancels cleanly and the socket can still be closed. A close frame raises
    ``WebSocketDisconnect`` as ``receive_json`` does.
    """

    async def bounded() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(bounded)
    except TimeoutError:
        pytest.fail(f"no frame from the server within {timeout:.2g} s while waiting for {waiting_for}", pytrace=False)
    ws._raise_on_close(message)
    return json.loads(message["text"])


def next_frame(ws: WebSocketTestSession, kind: str, timeout: float = FRAME_TIMEOUT) -> dict[str, Any]:
    """The next frame of ``kind`` (frames of other kinds before it are skipped), within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = max(deadline - time.monotonic(), 0.0)
        frame: dict[str, Any] = receive_json(ws, left, f"a frame of type {kind!r}")
        if frame["type"] == kind:
            return frame


def state_at_least(ws: WebSocketTestSession, version: int, timeout: float = FRAME_TIMEOUT) -> dict[str, Any]:
    """The first state frame at ``version`` or later, within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        frame = next_frame(ws, "state", max(deadline - time.monotonic(), 0.0))
        if frame["version"] >= version:
            return frame


def choose(state: dict[str, Any], throws_wanted: int = 2) -> dict[str, Any]:
    """A legal action for the player to move: throw (keeping the first die) up to ``throws_wanted``, then
    write the first slot the sheet allows; stand in a tie-break."""
    turn = state["turn"]
    if state["phase"] == "tiebreak":
        return {"stand": True} if state["can_stand"] else {"roll": []}
    if turn["throws"] == 0 or (turn["throws"] < min(throws_wanted, turn["allowance"]) and state["can_roll"]):
        keep = sorted(set(turn["held"]) | ({0} if turn["throws"] else set()))
        return {"roll": keep}
    slot = next(s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only"))
    return {"score": slot}
