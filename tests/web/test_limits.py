"""Issue 10, part B: each attack on the HTTP and WebSocket front door, reproduced, and shown not to hurt.

In-process (TestClient: the real app and database) where the app decides; a real ``cubilete serve``
where uvicorn's configuration matters (a body streamed over TCP, slow request heads).
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import sqlite_url
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket
from tests.web.servers import LiveServer, start_server

from cubilete.engine.errors import CubileteError
from cubilete.store.webdb import WebStore
from cubilete.web.app import STATIC
from cubilete.web.guard import client_address
from cubilete.web.hub import ByteLRU
from cubilete.web.settings import Settings

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'w.sqlite3'}"


@pytest.fixture(scope="module")
def front_door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A real ``cubilete serve`` with small limits: request heads must be complete within 1 s and hold at
    most 4 KB, bodies at most 64 KB, 20 connections at once."""
    folder = tmp_path_factory.mktemp("front-door")
    env = {"CUBILETE_MAX_BODY": "65536", "CUBILETE_HEADER_TIMEOUT": "1", "CUBILETE_LIMIT_CONCURRENCY": "20",
           "CUBILETE_MAX_HEADER_BYTES": "4096"}
    server = start_server(sqlite_url(folder / "web.sqlite3"), env=env, log_path=folder / "server.log")
    yield server
    server.stop()


# --- break 8: text/plain and cross-site posts, cross-origin WebSockets ---------------------------
def test_api_posts_must_be_json(tmp_path: Path) -> None:
    with running_app(_url(tmp_path)) as client:
        body = json.dumps({"rules": "generala", "seats": HUMANS})
        plain = client.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415 and "application/json" in plain.json()["error"]
        form = client.post("/api/tables", data={"rules": "generala"})
        assert form.status_code == 415
        ok = client.post("/api/tables", content=body, headers={"Content-Type": "application/json; charset=utf-8"})
        assert ok.status_code == 201


def test_cross_site_posts_are_refused_and_the_own_site_and_allowed_origins_pass(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), allowed_origins=("https://friends.example",)) as client:
        body = {"rules": "generala", "seats": HUMANS}
        evil = client.post("/api/tables", json=body, headers={"Origin": "https://evil.example"})
        assert evil.status_code == 403 and "Origin" in evil.json()["error"]
        assert client.post("/api/tables", json=body, headers={"Origin": "null"}).status_code == 403
        own = client.post("/api/tables", json=body, headers={"Origin": "http://testserver"})
        assert own.status_code == 201
        friend = client.post("/api/tables", json=body, headers={"Origin": "https://friends.example"})
        assert friend.status_code == 201
        # reading is not state-changing: another site's GET is answered (the browser keeps it from the site)
        assert client.get("/api/presets", headers={"Origin": "https://evil.example"}).status_code == 200


def test_cross_origin_websockets_are_refused(tmp_path: Path) -> None:
    with running_app(_url(tmp_path)) as client:
        table = create(client, HUMANS)
        with pytest.raises(WebSocketDisconnect) as refused, \
                client.websocket_connect(f"/ws/{table}", headers={"Origin": "https://evil.example"}):
            pass
        assert refused.value.code == 1008
        with table_socket(client, table, new_token(), headers={"Origin": "http://testserver"}) as ws:
            assert next_frame(ws, "welcome")["you"]["seat"] is None


def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), hello_timeout=0.3) as client:
        table = create(client, HUMANS)
        with client.websocket_connect(f"/ws/{table}") as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()  # nothing comes before the hello; then the server gives up on it
        assert closed.value.code == 4408


# --- break 9: table creation unlimited ------------------------------------------------------------
def test_table_creation_is_rate_limited_per_address(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), tables_per_address="3/minute") as client:
        for _ in range(3):
            create(client, HUMANS)
        refused = client.post("/api/tables", json={"rules": "generala", "seats": HUMANS})
        assert refused.status_code == 429 and "too many tables" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) >= 1
    # another address is counted apart (a second client of the same app)
    with running_app(_url(tmp_path), tables_per_address="1/minute") as client:
        create(client, HUMANS)
        other = TestClient(client.app, client=("203.0.113.9", 4000))
        assert other.post("/api/tables", json={"rules": "generala", "seats": HUMANS}).status_code == 201
        assert other.post("/api/tables", json={"rules": "generala", "seats": HUMANS}).status_code == 429


def test_the_site_caps_tables_in_play(tmp_path: Path) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 2  # in play at once; slow bots keep them so
    with running_app(_url(tmp_path), max_live_tables=2, bot_delay=60.0) as client:
        for _ in range(3):  # tables waiting for players are not in play (their creator's network counts them)
            create(client, HUMANS)
        create(client, bots)
        create(client, bots)
        full = client.post("/api/tables", json={"rules": "generala", "seats": bots})
        assert full.status_code == 503 and "2 tables in play" in full.json()["error"]
        assert "try again later" in full.json()["error"]


# --- connections per address, spectators per table (break 11) -------------------------------------
def test_websockets_per_address_are_capped_and_freed_when_they_close(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), sockets_per_address=2) as client:
        table = create(client, HUMANS)
        with table_socket(client, table) as a, table_socket(client, table) as b:
            next_frame(a, "welcome")
            next_frame(b, "welcome")
            with table_socket(client, table) as c, pytest.raises(WebSocketDisconnect) as refused:
                c.receive_json()
            assert refused.value.code == 4429
        with table_socket(client, table) as again:  # both closed: room for new ones
            assert next_frame(again, "welcome")


def test_connections_opened_per_address_are_rate_limited(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), connects_per_address="3/minute") as client:
        table = create(client, HUMANS)
        for _ in range(3):
            with table_socket(client, table) as ws:
                next_frame(ws, "welcome")
        with table_socket(client, table) as ws, pytest.raises(WebSocketDisconnect) as refused:
            ws.receive_json()
        assert refused.value.code == 4429 and "too many connections" in str(refused.value.reason)


def test_spectators_per_table_are_capped_but_players_always_get_in(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), spectators_per_table=2) as client:
        table = create(client, HUMANS)
        ana = new_token()
        with table_socket(client, table, ana) as a:
            next_frame(a, "welcome")
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
        with table_socket(client, table) as s1, table_socket(client, table) as s2:
            next_frame(s1, "welcome")
            next_frame(s2, "welcome")
            with table_socket(client, table) as s3, pytest.raises(WebSocketDisconnect) as refused:
                s3.receive_json()
            assert refused.value.code == 4429
            with table_socket(client, table, ana) as back:  # a seated player is not a spectator
                assert next_frame(back, "welcome")["you"]["seat"] == 0


def test_spectators_coming_and_going_send_nothing_to_the_others(tmp_path: Path) -> None:
    # 300 spectators used to cost 45,450 full-state frames; now a spectator's arrival costs the others nothing
    with running_app(_url(tmp_path)) as client:
        table = create(client, HUMANS)
        ana, bea = new_token(), new_token()
        with table_socket(client, table, ana) as a:
            next_frame(a, "welcome")
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            sat = state_at_least(a, 1)
            for _ in range(20):
                with table_socket(client, table) as watcher:
                    next_frame(watcher, "welcome")
                    next_frame(watcher, "state")  # the newcomer gets the whole state once
            # a seated player's connection coming and going: one small presence frame each, not a state
            with table_socket(client, table, bea) as b:
                next_frame(b, "welcome")
            a.send_json({"type": "ping"})
            frames = []
            while (frame := a.receive_json())["type"] != "pong":
                frames.append(frame)
            assert frames == []  # Bea had no seat yet: she was a spectator
            with table_socket(client, table, bea) as b:
                next_frame(b, "welcome")
                b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
                assert next_frame(a, "state")["version"] == sat["version"] + 1
            assert a.receive_json() == {"type": "presence", "seat": 1, "connected": False}
            with table_socket(client, table, bea) as b:
                next_frame(b, "welcome")
                assert a.receive_json() == {"type": "presence", "seat": 1, "connected": True}


# --- break 4: a streamed body over the limit (a real server) ---------------------------------------
def test_a_streamed_body_is_refused_before_it_is_read_whole(front_door: LiveServer) -> None:
    server = front_door
    chunk = b"x" * 65536
    total = 256 * 1024 * 1024  # the attack sent 512 MB; a server that buffers it all would read every byte
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < total:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:  # the server answered and closed: the rest is never read
            pass
        answer = b""
        while b"\r\n\r\n" not in answer:
            part = sock.recv(65536)
            if not part:
                break
            answer += part
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < total // 4, f"{sent} bytes were taken in before the refusal"
    assert server.alive()


def test_a_declared_length_over_the_limit_is_refused_without_reading(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), max_body=1000) as client:
        big = client.post("/api/tables", content=b"{" + b" " * 5000 + b"}",
                          headers={"Content-Type": "application/json"})
        assert big.status_code == 413 and "1000 bytes" in big.json()["error"]


# --- break 5: slow request heads and too many connections (a real server) -------------------------
def _slow_head(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def test_a_request_head_that_never_ends_is_cut_off(front_door: LiveServer) -> None:
    server = front_door
    sock = _slow_head(server.port)
    closed = False
    with sock:
        for i in range(300):  # one header byte now and then: before, the server waited forever
            try:
                sock.sendall(b"X" if i % 2 else b"-")
                time.sleep(0.1)
            except OSError:
                closed = True
                break
            sock.settimeout(0.0)
            try:
                if sock.recv(1) == b"":
                    closed = True
                    break
            except BlockingIOError:
                pass
            finally:
                sock.settimeout(30)
    assert closed, "the server kept a connection whose request head never ended"


def test_slow_connections_do_not_lock_others_out(front_door: LiveServer) -> None:
    server = front_door
    slow = [_slow_head(server.port) for _ in range(60)]  # three times what the server takes at once
    try:
        answered = False
        for _ in range(200):  # the slow ones are cut off after 1 s; then a normal request gets through
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    if sock.recv(4096).startswith(b"HTTP/1.1 200"):
                        answered = True
                        break
            except OSError:
                pass
            time.sleep(0.1)
        assert answered
    finally:
        for sock in slow:
            sock.close()


def test_a_request_head_too_large_is_refused(front_door: LiveServer) -> None:
    server = front_door
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        with contextlib.suppress(OSError):  # the server may close before it has read everything
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 431")
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:  # one header line at a time
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(OSError):
            for i in range(200):
                sock.sendall(b"X-Line-%d: %s\r\n" % (i, b"b" * 100))
        assert sock.recv(4096).startswith(b"HTTP/1.1 431")


# --- headers and secrets (item 3) ------------------------------------------------------------------
def test_pages_and_answers_carry_the_security_headers(tmp_path: Path) -> None:
    with running_app(_url(tmp_path)) as client:
        for path in ("/", "/t/abcdefgh", "/static/app.js", "/api/presets", "/api/tables/nosuch"):
            r = client.get(path)
            csp = r.headers["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
            assert "frame-ancestors 'none'" in csp
            assert r.headers["X-Content-Type-Options"] == "nosniff"
            assert r.headers["Referrer-Policy"] == "same-origin"
            assert r.headers["X-Frame-Options"] == "DENY"


def test_the_pages_hold_no_inline_script_or_event_handler() -> None:
    # the CSP forbids inline script: anything inline would silently stop working
    for page in STATIC.glob("*.html"):
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html, re.I):
            assert "src=" in tag, (page.name, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, re.I), page.name  # no body between the tags
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), page.name
        assert "javascript:" not in html.lower()
    for script in STATIC.glob("*.js"):
        text = script.read_text()
        assert ".innerHTML" not in text and "eval(" not in text and "new Function" not in text, script.name


# --- memory that comes back (item 4) ---------------------------------------------------------------
def test_idle_tables_leave_memory_and_come_back_on_demand(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), idle_unload=0.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = create(client, HUMANS)
        ana = new_token()
        with table_socket(client, table, ana) as a:
            next_frame(a, "welcome")
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
            assert client.portal.call(hub.unload_idle) == 0  # someone is connected: it stays
        assert client.portal.call(hub.unload_idle) == 1
        assert table not in hub.rooms
        answer = client.get(f"/api/tables/{table}").json()  # loaded again from the database
        assert answer["state"]["seats"][0]["name"] == "Ana" and table in hub.rooms
        with table_socket(client, table, ana) as a:  # and the seat is still Ana's
            assert next_frame(a, "welcome")["you"]["seat"] == 0


def test_bot_tables_in_play_stay_in_memory(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), idle_unload=0.0, bot_delay=30.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = create(client, [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
        assert client.portal.call(hub.unload_idle) == 0 and table in hub.rooms


def test_the_review_cache_is_bounded_by_bytes() -> None:
    cache = ByteLRU(100)
    cache.put("a", "x" * 40)  # 42 bytes of JSON
    cache.put("b", "y" * 40)
    assert cache.get("a") == "x" * 40  # a is now the most recently used
    cache.put("c", "z" * 40)  # over 100 bytes: b (least recently used) goes
    assert cache.get("b") is None and cache.get("a") is not None and cache.get("c") is not None
    assert cache.size <= 100
    cache.put("huge", "w" * 500)  # larger than the whole cache: not kept, nothing else lost
    assert cache.get("huge") is None and len(cache) == 2


def test_the_sqlite_log_is_truncated(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    with running_app(f"sqlite:///{path}") as client:
        for _ in range(10):
            create(client, HUMANS)
        wal = Path(f"{path}-wal")
        assert wal.stat().st_size > 0
        store: WebStore = client.app.state.hub.store  # type: ignore[attr-defined]
        size = wal.stat().st_size
        store.checkpoint(size)  # not over the size kept: the file stays (truncating holds off writers)
        assert wal.stat().st_size == size
        store.checkpoint(size - 1)
        assert wal.stat().st_size == 0


# --- settings and addresses -----------------------------------------------------------------------
def test_limits_come_from_the_environment_with_clear_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBILETE_MAX_BODY", "1234")
    monkeypatch.setenv("CUBILETE_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    settings = Settings.from_environment(db_url="sqlite://")
    assert settings.max_body == 1234 and settings.allowed_origins == ("https://a.example", "https://b.example")
    monkeypatch.setenv("CUBILETE_MAX_BODY", "lots")
    with pytest.raises(CubileteError, match="CUBILETE_MAX_BODY='lots': expected a number"):
        Settings.from_environment(db_url="sqlite://")


def test_forwarded_addresses_count_only_behind_a_trusted_proxy() -> None:
    def scope(peer: str, forwarded: str | None) -> dict[str, object]:
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        return {"client": (peer, 5000), "headers": headers}

    plain = Settings(db_url="sqlite://")
    assert client_address(scope("198.51.100.7", "1.2.3.4"), plain) == "198.51.100.7"  # not trusted: ignored
    proxied = Settings(db_url="sqlite://", trusted_proxies=("127.0.0.1", "10.0.0.0/8"))
    assert client_address(scope("127.0.0.1", "203.0.113.5"), proxied) == "203.0.113.5"
    # a client's own X-Forwarded-For is kept by the proxy on the left: the last untrusted hop counts
    assert client_address(scope("127.0.0.1", "6.6.6.6, 203.0.113.5, 10.1.2.3"), proxied) == "203.0.113.5"
    assert client_address(scope("198.51.100.7", "203.0.113.5"), proxied) == "198.51.100.7"
