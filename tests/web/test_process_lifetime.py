"""Issue 26: a server that is stopped or killed leaves no process of its own behind (the win-chance worker,
multiprocessing's resource tracker): each one is started for real, then signalled, and its children must
be gone within a bounded wait."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest
from tests.web.conftest import sqlite_url
from tests.web.servers import LiveServer, start_server

WAIT = 20.0  # seconds the children have to go (the worker checks on its parent every second)


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.add(pid)
    return left


def _server_with_a_win_worker(tmp_path: Path) -> tuple[LiveServer, set[int]]:
    """A live server whose win-chance worker (and resource tracker) are running: a table of two slow bots."""
    server = start_server(sqlite_url(tmp_path / "web.sqlite3"), bot_delay=0.3, log_path=tmp_path / "server.log")
    body = json.dumps({"rules": "generala", "seats": [{"kind": "bot", "level": "random"}] * 2}).encode()
    request = urllib.request.Request(f"{server.url}/api/tables", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as resp:
        assert resp.status == 201
    assert server.proc is not None
    deadline = time.monotonic() + 60
    children: set[int] = set()
    while time.monotonic() < deadline and len(children) < 2:  # the spawned worker and the resource tracker
        time.sleep(0.2)
        children = _children(server.proc.pid)
    assert len(children) >= 2, f"the server started no win-chance worker: {children}\n{server.tail()}"
    return server, children


def _wait_gone(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + WAIT
    while (left := _alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_the_servers_children_end_with_it(tmp_path: Path, sig: signal.Signals) -> None:
    server, children = _server_with_a_win_worker(tmp_path)
    assert server.proc is not None
    try:
        os.kill(server.proc.pid, sig)  # the server alone, not its process group
        server.proc.wait(WAIT)
        left = _wait_gone(children)
        assert not left, f"still running {WAIT:.0f} s after {sig.name}: " + ", ".join(
            Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:200] for pid in left)
    finally:
        for pid in _alive(children):  # never leave them behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
        server.kill()
