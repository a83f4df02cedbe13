"""Issue 26: the site on a hostile internet. Each attack reproduced (bounded, against the app in process or
127.0.0.1), and shown not to hurt: waiting tables that fill the site, one IPv6 /64 acting as 2^64 clients,
names that grow in normalisation, unlimited profile checks.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.conftest import sqlite_url
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket
from tests.web.servers import ServerFactory, start_server

from cubilete.store.webdb import WebStore
from cubilete.web.expiry import expire_once
from cubilete.web.guard import Gate, network_key, relative_location
from cubilete.web.names import check_name
from cubilete.web.protocol import ProtocolError
from cubilete.web.settings import Settings

HUMANS = [{"kind": "human"}, {"kind": "human"}]
NEW = {"rules": "generala", "seats": HUMANS}


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'w.sqlite3'}"


# --- networks, not addresses ------------------------------------------------------------------------
def test_network_key_groups_ipv6_by_64_and_ipv4_by_address() -> None:
    assert network_key("2001:db8:1:2:aaaa::1") == network_key("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert network_key("2001:db8:1:3::1") != network_key("2001:db8:1:2::1")
    assert network_key("203.0.113.7") == "203.0.113.7/32" != network_key("203.0.113.8")
    assert network_key("::ffff:203.0.113.7") == network_key("203.0.113.7")  # IPv4-mapped IPv6 is IPv4
    assert network_key("203.0.113.7", v4_prefix=24) == network_key("203.0.113.200", v4_prefix=24)
    assert network_key("2001:db8:1:2::1", v6_prefix=48) == network_key("2001:db8:1:ffff::1", v6_prefix=48)
    assert network_key("fe80::1%eth0") == "fe80::/64"
    assert network_key("testclient") == "testclient"  # not an address: its own key


def test_creations_from_one_ipv6_64_are_limited_together(tmp_path: Path) -> None:
    """The attack: 60 of 60 creations from 60 addresses of one /64 were accepted within a minute."""
    bots = {"rules": "generala", "seats": [{"kind": "bot", "level": "random"}] * 2}
    with running_app(_url(tmp_path), tables_per_address="5/minute", bot_delay=60.0) as client:
        answers = [TestClient(client.app, client=(f"2001:db8:7:7::{i:x}", 4000)).post("/api/tables", json=bots)
                   for i in range(1, 61)]
        assert [a.status_code for a in answers].count(201) == 5
        assert answers[-1].status_code == 429 and "too many tables" in answers[-1].json()["error"]
        other = TestClient(client.app, client=("2001:db8:7:8::1", 4000))  # the next /64 is someone else
        assert other.post("/api/tables", json=bots).status_code == 201


def test_sockets_and_connections_count_by_network() -> None:
    gate = Gate(Settings(db_url="sqlite://", sockets_per_address=3, connects_per_address="1000/minute"))
    for i in range(3):
        assert gate.socket_opened(f"2001:db8::{i + 1}") is None
    assert gate.socket_opened("2001:db8::ffff") is not None  # a fourth address of the /64: refused
    assert gate.socket_opened("2001:db9::1") is None
    gate.socket_closed("2001:db8::2")  # closed under another address of the same /64: the count is shared
    assert gate.socket_opened("2001:db8::abcd") is None
    connects = Gate(Settings(db_url="sqlite://", connects_per_address="2/minute"))
    assert connects.socket_opened("::ffff:198.51.100.1") is None
    assert connects.socket_opened("198.51.100.1") is None
    assert connects.socket_opened("198.51.100.1") == "too many connections opened from this address: wait a little"


def test_profile_checks_are_rate_limited_by_network(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), profile_checks_per_address="3/minute") as client:
        one = TestClient(client.app, client=("2001:db8:5:5::1", 4000))
        two = TestClient(client.app, client=("2001:db8:5:5::2", 4000))
        body = {"profile": "base = \"generala\"\n", "lang": "en"}
        answers = [c.post("/api/profiles/check", json=body) for c in (one, two, one, two)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert "too many profile checks" in answers[-1].json()["error"] and int(answers[-1].headers["Retry-After"]) >= 1
        assert client.post("/api/profiles/check", json=body).status_code == 200  # another network


# --- names after normalisation --------------------------------------------------------------------
def test_names_are_limited_after_nfkc() -> None:
    with pytest.raises(ProtocolError, match="at most 24 characters"):
        check_name("\ufdfa" * 24, [])  # each becomes 18 characters: 432 were stored
    with pytest.raises(ProtocolError, match="at most 24 characters"):
        check_name("\ufdfa" * 2, [])  # 36 characters once normalised
    with pytest.raises(ProtocolError, match="96 bytes"):
        check_name("𝔸" * 24 + "a", [])
    assert check_name("Ｍａｒíａ", []) == "María"  # full-width folded, within the limits
    assert check_name("😀" * 24, []) == "😀" * 24  # 24 characters, 96 bytes: the most


def test_a_name_that_grows_in_normalisation_takes_no_seat(tmp_path: Path) -> None:
    with running_app(_url(tmp_path)) as client:
        table = create(client, HUMANS)
        with table_socket(client, table, new_token()) as a:
            next_frame(a, "welcome")
            a.send_json({"type": "sit", "seat": 0, "name": "\ufdfa" * 24})
            error = next_frame(a, "error")
            assert error["code"] == "bad-name" and "24 characters" in error["message"]
        assert client.get(f"/api/tables/{table}").json()["state"]["seats"][0]["name"] is None


# --- waiting tables ---------------------------------------------------------------------------------
def test_waiting_tables_count_against_their_network(tmp_path: Path) -> None:
    """The attack: 1,998 tables nobody sits at, from 100 addresses, made the site refuse everyone."""
    with running_app(_url(tmp_path), waiting_per_address=3, max_live_tables=5) as client:
        mine = [TestClient(client.app, client=(f"2001:db8:9:9::{i}", 4000)) for i in range(1, 6)]
        answers = [c.post("/api/tables", json=NEW) for c in mine]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
        assert "3 tables waiting for players" in answers[-1].json()["error"]
        for i in range(10):  # other networks still create (the site cap counts tables in play, not these)
            assert TestClient(client.app, client=(f"198.51.100.{i}", 4000)).post("/api/tables", json=NEW).status_code \
                == 201
        # a table of the network fills up: it is in play, and the network may open another waiting one
        table = answers[0].json()["id"]
        for seat, name in enumerate(("Ana", "Bea")):
            with table_socket(client, table, new_token()) as ws:
                next_frame(ws, "welcome")
                ws.send_json({"type": "sit", "seat": seat, "name": name})
                state_at_least(ws, seat + 1)
        assert mine[4].post("/api/tables", json=NEW).status_code == 201


def test_a_waiting_table_expires_and_never_comes_back(tmp_path: Path) -> None:
    url = _url(tmp_path)
    with running_app(url, waiting_per_address=2, waiting_expiry=900.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        stale, seated = create(client, HUMANS), create(client, HUMANS)
        assert client.post("/api/tables", json=NEW).status_code == 429  # two waiting: the network's share
        with table_socket(client, seated, new_token()) as ana:
            next_frame(ana, "welcome")
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(ana, 1)
            # 15 minutes after the creation: the table nobody sat at expires; the one touched later waits on
            assert client.portal.call(expire_once, hub, time.time() + 899.0) == 0
            store: WebStore = hub.store
            with store.engine.begin() as conn:  # both made 16 minutes ago; a seat of one was taken just now
                conn.exec_driver_sql("UPDATE web_tables SET created_at = created_at - 1000")
                conn.exec_driver_sql("UPDATE web_tables SET touched_at = touched_at - 1000 WHERE id = ?", (stale,))
            assert client.portal.call(expire_once, hub) == 1
            assert stale not in hub.rooms and seated in hub.rooms
            assert client.get(f"/api/tables/{stale}").status_code == 404
            create(client, HUMANS)  # the network has room again
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE web_tables SET touched_at = touched_at - 1000 WHERE id = ?", (seated,))
        with table_socket(client, seated, new_token()) as bea:  # connected when it expires: told so
            next_frame(bea, "welcome")
            assert client.portal.call(expire_once, hub) == 1
            assert next_frame(bea, "error")["code"] == "expired"
    with running_app(url) as client:  # a restart loads neither, and refuses nothing because of them
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert stale not in hub.rooms and seated not in hub.rooms
        assert client.get(f"/api/tables/{seated}").status_code == 404
        statuses = dict(hub.store.engine.connect().exec_driver_sql("SELECT id, status FROM web_tables").all())
        assert statuses[stale] == statuses[seated] == "expired"


def test_a_restart_expires_old_waiting_tables_before_loading_them(tmp_path: Path) -> None:
    """The attack: after a restart the server loaded every waiting table again and refused creations."""
    url = _url(tmp_path)
    with running_app(url, waiting_per_address=1000, tables_per_address="100/minute") as client:
        tables = [create(client, HUMANS) for _ in range(30)]
    store = WebStore(url)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE web_tables SET created_at = created_at - 3600, touched_at = touched_at - 3600")
    store.close()
    with running_app(url, max_live_tables=1, waiting_per_address=1) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert not set(tables) & set(hub.rooms)
        create(client, HUMANS)  # neither the site cap nor the network's share counts the expired ones


# --- Host headers --------------------------------------------------------------------------------------
def test_redirects_never_echo_the_host_header(tmp_path: Path) -> None:
    with running_app(_url(tmp_path)) as client:
        for path, where in (("/api/presets/", "/api/presets"), ("/games/?preset=generala", "/games?preset=generala")):
            moved = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
            assert moved.status_code in (307, 308) and moved.headers["location"] == where
        assert relative_location(b"http://evil.example//other.example/x") == b"/other.example/x"


def test_allowed_hosts_refuse_other_host_headers(tmp_path: Path) -> None:
    with running_app(_url(tmp_path), allowed_hosts=("dados.example", "127.0.0.1")) as client:
        assert client.get("/api/health", headers={"Host": "dados.example"}).status_code == 200
        assert client.get("/api/health", headers={"Host": "dados.example:8443"}).status_code == 200
        other = client.get("/api/health", headers={"Host": "evil.example"})
        assert other.status_code == 400 and "Host" in other.json()["error"] and "evil" not in other.text
        assert client.post("/api/tables", json=NEW, headers={"Host": "evil.example"}).status_code == 400
        elsewhere = {"Host": "evil.example"}
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/abcd2345", headers=elsewhere):
            pass
    with running_app(_url(tmp_path)) as client:  # empty (the default): any Host
        assert client.get("/api/health", headers={"Host": "anything.example"}).status_code == 200


# --- a site of two processes on PostgreSQL: the database decides ----------------------------------------
def _until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within {timeout:.0f} s: {what}"
        time.sleep(0.1)


def test_expiry_and_the_caps_hold_across_two_processes(fresh_pg_url: str, server_factory: ServerFactory) -> None:
    env = {"CUBILETE_SITE_POLL": "0.2", "CUBILETE_WAITING_EXPIRY": "3", "CUBILETE_WAITING_PER_ADDRESS": "3",
           "CUBILETE_MAX_LIVE_TABLES": "2"}
    one, two = (server_factory(fresh_pg_url, bot_delay=10.0, env=env) for _ in range(2))
    with httpx.Client(timeout=10) as http:
        waiting = [http.post(f"{s.url}/api/tables", json=NEW) for s in (one, two, one)]
        assert [w.status_code for w in waiting] == [201, 201, 201]
        refused = http.post(f"{two.url}/api/tables", json=NEW)  # the network's share, counted in the database
        assert refused.status_code == 429 and "3 tables waiting" in refused.json()["error"]
        ids = [w.json()["id"] for w in waiting]

        def all_gone() -> bool:
            return all(http.get(f"{s.url}/api/tables/{t}").status_code == 404 for s in (one, two) for t in ids)

        _until(all_gone, "the waiting tables expire on both processes")
        assert http.post(f"{two.url}/api/tables", json=NEW).status_code == 201  # room again
        bots = {"rules": "generala", "seats": [{"kind": "bot", "level": "random"}] * 2}
        assert http.post(f"{one.url}/api/tables", json=bots).status_code == 201
        assert http.post(f"{two.url}/api/tables", json=bots).status_code == 201
        full = http.post(f"{one.url}/api/tables", json=bots)  # two in play on the site, one through each process
        assert full.status_code == 503 and "2 tables in play" in full.json()["error"]
        assert "Traceback" not in one.log() + two.log()  # the other process caught the expiry up cleanly
        one.kill()
        two.kill()
        one.restart()  # a restart brings back no expired table, and counts only the two tables in play
        assert all(http.get(f"{one.url}/api/tables/{t}").status_code == 404 for t in ids)
        again = http.post(f"{one.url}/api/tables", json=NEW)
        assert again.status_code == 503 and "2 tables in play" in again.json()["error"]


# --- a refused body costs no memory (a real server) ------------------------------------------------------
def _rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children, in MB (from /proc)."""
    from tests.web.test_process_lifetime import _children

    total = 0
    for each in {pid, *_children(pid)}:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def test_refused_bodies_cost_no_memory(tmp_path: Path) -> None:
    """The attack: a 200 MB body streamed in was refused with 413, but the server had grown 90 MB meanwhile."""
    server = start_server(sqlite_url(tmp_path / "w.sqlite3"), log_path=tmp_path / "server.log")
    try:
        assert server.proc is not None
        server.wait_warm()  # the chances' worker, a child, grows while it starts: measure after
        before = _rss_mb(server.proc.pid)
        chunk = b"x" * 65536
        for path in ("/api/tables", "/api/profiles/check", "/", "/api/tables/abcd2345/rematch"):
            for declared in (False, True):
                head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + ("Content-Length: 209715200\r\n\r\n" if declared else "Transfer-Encoding: chunked\r\n\r\n"))
                sent = 0
                with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
                    sock.sendall(head.encode())
                    try:
                        while sent < 200 * 1024 * 1024:
                            sock.sendall(chunk if declared else b"%x\r\n%s\r\n" % (len(chunk), chunk))
                            sent += len(chunk)
                    except OSError:  # answered and closed: the rest is never read
                        pass
                    answer = sock.recv(64)
                assert answer.split(b" ")[1] in (b"404", b"405", b"413"), (path, declared, answer)
                assert sent < 50 * 1024 * 1024, (path, declared, sent)
        assert _rss_mb(server.proc.pid) - before < 20, server.tail()
        assert server.alive()
    finally:
        server.stop()
