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


PARENT = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-m", "cubilete.solver.worker", "--cpu-seconds", "300",
                          "--memory-mb", "4096", "--parent", str(os.getpid())], stdin=subprocess.PIPE)
child.stdin.write(sys.argv[1].encode())
child.stdin.close()  # the rules are read: from here the worker solves, with nothing left to read
print(child.pid, flush=True)
time.sleep(3600)
"""
GONE_AT_ONCE = 3.0  # seconds: the kernel's signal is immediate; the solve left alone runs on for longer


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_solve_ends_when_the_server_that_asked_for_it_dies(tmp_path: Path) -> None:
    # a solve runs up to its CPU cap (300 s) at nice 19: on a killed server it used to run for all of it
    import subprocess
    import sys

    from cubilete.engine.rules import find_rules, rules_to_dict

    yatzy = find_rules("yatzy")
    extra = tuple(yatzy.box("chance").replace(id=f"chance{i}", name=f"Chance {i}") for i in (2, 3))
    big = yatzy.replace(name="yatzy-17", boxes=(*yatzy.boxes, *extra))  # 2^17 sheets: tens of seconds to solve
    rules = json.dumps(rules_to_dict(big))
    env = {**os.environ, "CUBILETE_CACHE_DIR": str(tmp_path / "cache")}  # nothing solved yet: a long solve
    parent = subprocess.Popen([sys.executable, "-c", PARENT, rules], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        deadline = time.monotonic() + 120
        while _alive({worker}) and _cpu_seconds(worker) < 1.0 and time.monotonic() < deadline:
            time.sleep(0.1)  # until it is at work (imports and tables), not only started
        assert _alive({worker}), "the solve ended before its parent was killed: nothing was tested"
        parent.kill()
        parent.wait(WAIT)
        end = time.monotonic() + GONE_AT_ONCE
        while _alive({worker}) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive({worker}), "the solve outlived the server that asked for it"
    finally:
        parent.kill()
        for pid in _alive({worker} if "worker" in locals() else set()):
            os.kill(pid, signal.SIGKILL)
