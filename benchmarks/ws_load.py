"""WebSocket load: many tables of real players on one ``cubilete serve`` process, next to a bare echo peer.

    .venv/bin/python benchmarks/ws_load.py [--tables 250] [--seconds 60] [--think 0.5] [--db URL]
    .venv/bin/python benchmarks/ws_load.py --churn 600 [--tables 50] [--think 0.1]   (memory over time)
    .venv/bin/python benchmarks/ws_load.py --pg ...        (a throw-away PostgreSQL, as the tests start it)
    .venv/bin/python benchmarks/ws_load.py --idle 2000     (memory per idle WebSocket)

Starts ``cubilete serve`` (a SQLite file in a temp folder unless ``--db``; ``--bot-delay 0``),
creates ``--tables`` 2-human tables over HTTP and plays them with real asyncio ``websockets``
clients on loopback: each player, on its turn, thinks ``--think`` seconds (uniform 0.5x-1.5x)
and acts; a finished game is replaced by a new table. Latency is the time from sending an act
to receiving the broadcast state that carries the new version.

The peer is a bare echo server on the same stack (FastAPI + uvicorn + websockets, defined
below): on an act it broadcasts a state-sized JSON frame with the next version to both players
of the room; no game, no database. The same clients drive it the same way, and the script
prints our p99 / echo p99. The clients run in their own process(es) so that on a small machine
the server and the load do not share one interpreter.

``--churn SECONDS`` is the memory run: the same players (every game played to its end, then a new
table, new connections) for that long against our server only, sampling the server's resident memory
(RSS, from /proc) every few seconds; it prints RSS over time and the SQLite log's size at the end.
Idle tables leave the server's memory after ``CUBILETE_IDLE_UNLOAD`` seconds (60 in this mode).

``--idle SOCKETS`` opens that many WebSockets (tables of 2 seated players and 8 spectators, within the
spectator cap; the per-address caps are raised as for every mode) that then say nothing, and reports the
server's resident memory growth per socket (target: under 50 KB).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
import websockets
from fastapi import FastAPI, WebSocket, WebSocketDisconnect  # module level: FastAPI resolves the annotations

TARGET_PLAYERS = 500
TARGET_P99_MS = 100.0
RULES = "generala-sin-gana"  # every game lasts all its rounds: no sudden ends on a servida Generala
START_TIMEOUT = 60.0


# --- servers ------------------------------------------------------------------------------
def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    """Wait until ``url`` answers 200; stop with the log's tail if the process dies or takes too long."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited with code {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as resp:
            if resp.status == 200:
                return
        time.sleep(0.2)
    stop(proc)
    sys.exit(f"server not ready after {START_TIMEOUT:.0f} s:\n{log.read_text(errors='replace')[-3000:]}")


# every player of the load comes from 127.0.0.1: the per-address limits are those of a proxy's many users
LOAD_ENV = {"CUBILETE_TABLES_PER_ADDRESS": "100000/minute", "CUBILETE_CONNECTS_PER_ADDRESS": "100000/minute",
            "CUBILETE_SOCKETS_PER_ADDRESS": "100000", "CUBILETE_MAX_LIVE_TABLES": "100000",
            "CUBILETE_LIMIT_CONCURRENCY": "100000", "CUBILETE_WAITING_PER_ADDRESS": "100000"}


def launch(argv: list[str], health: str, log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start a server process (own process group, output to ``log``) and wait until it is healthy."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, env={**os.environ, **LOAD_ENV, **(env or {})})  # fmt: skip
    wait_healthy(proc, health, log)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group; SIGKILL if it lingers."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def serve_echo(port: int, frame_bytes: int) -> None:
    """The peer: FastAPI + uvicorn + websockets, broadcasting a state-sized frame per act to its room."""
    app = FastAPI()
    rooms: dict[str, list[WebSocket]] = {}
    versions: Counter[str] = Counter()
    pad = "x" * max(0, frame_bytes - 120)  # the rest of the frame is ~120 bytes

    def frame(room: str) -> str:
        v = versions[room]
        return json.dumps({"type": "state", "version": v, "status": "playing", "current": v % 2, "pad": pad})

    @app.get("/api/health")
    def health() -> dict[str, bool]:
        return {"ok": True}

    @app.websocket("/ws/{room}")
    async def ws(socket: WebSocket, room: str) -> None:
        await socket.accept()
        members = rooms.setdefault(room, [])
        members.append(socket)
        await socket.send_text(json.dumps({"type": "welcome"}))
        await socket.send_text(frame(room))
        try:
            while True:
                data = json.loads(await socket.receive_text())
                if data.get("type") == "act":
                    versions[room] += 1
                    text = frame(room)
                    for member in list(members):
                        with contextlib.suppress(Exception):  # a member that left is not our concern
                            await member.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            members.remove(socket)

    # the same uvicorn settings as `cubilete serve` (web/server.py), so only the app differs
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False)


# --- the players --------------------------------------------------------------------------
def choose(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action from a state frame: roll keeping the most common face, then score the first writable slot."""
    if state["phase"] == "tiebreak":
        return {"stand": True} if state["can_stand"] else {"roll": []}
    dice: list[int] = state["turn"]["dice"]
    if not dice:
        return {"roll": []}
    face, count = Counter(dice).most_common(1)[0]
    if state["can_roll"] and count < len(dice):
        return {"roll": [i for i, d in enumerate(dice) if d == face]}
    for slot in state["sheet"]:
        if slot["state"] in ("usable", "scratch-only"):
            return {"score": slot["slot"]}
    raise RuntimeError(f"no slot to write: {state}")


@dataclass
class Tally:
    """What one client process measured (latencies in ms, inside the measured window only)."""

    latencies: list[float] = field(default_factory=list)
    connected: int = 0
    peak_connected: int = 0
    games: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    frame_bytes: list[int] = field(default_factory=list)


class Load:
    """The players of one client process."""

    def __init__(self, conf: dict[str, Any], tally: Tally) -> None:
        self.conf = conf
        self.tally = tally
        self.echo = conf["kind"] == "echo"
        self.window: tuple[float, float] = (float("inf"), float("inf"))  # wall-clock start/end of measuring

    async def new_table(self) -> str:
        """A 2-human table (ours: over HTTP; echo: a room name)."""
        if self.echo:
            return secrets.token_hex(4)
        body = json.dumps({"rules": RULES, "seats": [{"kind": "human"}] * 2, "timer": None, "coach": False})
        req = urllib.request.Request(f"{self.conf['http']}/api/tables", body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
        answer = await asyncio.to_thread(lambda: urllib.request.urlopen(req, timeout=60).read())
        return str(json.loads(answer)["id"])

    async def player(self, table: str, seat: int, seated: asyncio.Event, both: asyncio.Event) -> bool:
        """One player: connect, sit, then act on every own turn until the game ends (True) or time is up."""
        token = secrets.token_hex(16)
        rng = random.Random()
        think = self.conf["think"]
        async with websockets.connect(f"{self.conf['ws']}/ws/{table}?lang=en", max_size=None,
                                      open_timeout=60, ping_interval=None, proxy=None) as ws:  # fmt: skip
            if not self.echo:
                await ws.send(json.dumps({"type": "hello", "token": token}))  # the token never goes in the URL
            self.tally.connected += 1
            self.tally.peak_connected = max(self.tally.peak_connected, self.tally.connected)
            try:
                finished = False
                sent_at: dict[int, float] = {}  # version acted on -> when the act was sent
                acted_on = -1
                if not self.echo:
                    await ws.send(json.dumps({"type": "sit", "seat": seat, "name": f"P{seat}"}))
                seated.set()
                await both.wait()
                pending: asyncio.Task[None] | None = None
                action: dict[str, Any] = {}

                async def act(version: int, action: dict[str, Any], delay: float) -> None:
                    await asyncio.sleep(delay)
                    sent_at[version] = time.time()
                    with contextlib.suppress(websockets.ConnectionClosed):  # the run ended while it thought
                        await ws.send(json.dumps({"type": "act", "version": version, "action": action}))

                async for text in ws:
                    frame = json.loads(text)
                    now = time.time()
                    kind = frame.get("type")
                    if kind == "error":
                        self.tally.errors[frame.get("code", "?")] += 1
                        if frame.get("code") == "rate-limited" and acted_on in sent_at:
                            sent_at.pop(acted_on)  # ignored by the server: send it again a little later
                            pending = asyncio.create_task(act(acted_on, action, 0.2))
                        continue
                    if kind != "state":
                        continue
                    version = frame["version"]
                    for v in [v for v in sent_at if v < version]:
                        t = sent_at.pop(v)
                        if self.window[0] <= t <= self.window[1]:  # sent inside the window; acked whenever
                            self.tally.latencies.append((now - t) * 1000)
                            self.tally.frame_bytes.append(len(text))
                    if frame["status"] == "finished":
                        finished = True
                        break
                    if now > self.window[1]:
                        break
                    if frame["status"] == "playing" and frame["current"] == seat and version > acted_on:
                        acted_on = version
                        action = {"roll": []} if self.echo else choose(frame)
                        pending = asyncio.create_task(act(version, action, think * rng.uniform(0.5, 1.5)))
                if pending is not None:
                    pending.cancel()
            finally:
                self.tally.connected -= 1
        return finished

    async def table(self, ready: asyncio.Event) -> None:
        """Games one after another at fresh tables until the measuring window ends."""
        first = True
        while time.time() < self.window[1]:
            tasks: list[asyncio.Task[bool]] = []
            try:
                table = await self.new_table()
                seated = [asyncio.Event(), asyncio.Event()]
                both = asyncio.Event()
                tasks = [asyncio.create_task(self.player(table, s, seated[s], both)) for s in (0, 1)]
                await seated[0].wait()
                await seated[1].wait()
                if first:  # everyone connects and sits before the clock starts
                    first = False
                    self.arrive(ready)
                    await self.go.wait()
                both.set()
                done = await asyncio.gather(*tasks)
                self.tally.games += int(done[0])
            except Exception as exc:  # one broken table must not stop the load; it is counted
                self.tally.errors[type(exc).__name__] += 1
                for task in tasks:
                    task.cancel()
                if first:  # a table that could not even start must not hold up the others
                    first = False
                    self.arrive(ready)
                    await self.go.wait()
                await asyncio.sleep(0.5)

    def arrive(self, ready: asyncio.Event) -> None:
        """One more table is set up (or gave up); the last one sets ``ready``."""
        self.ready_count += 1
        if self.ready_count == self.conf["tables"]:
            ready.set()

    async def run(self, ready_flag: Any, go_flag: Any, progress: Any) -> None:
        """Connect every table, report ready, wait for go, play through the window."""
        self.ready_count = 0
        self.go = asyncio.Event()
        ready = asyncio.Event()
        tables = []
        for _ in range(self.conf["tables"]):
            tables.append(asyncio.create_task(self.table(ready)))
            await asyncio.sleep(0.005)  # a gentle ramp: no thundering herd on connect
        await ready.wait()
        ready_flag.set()
        while not go_flag.is_set():
            await asyncio.sleep(0.01)
        self.window = (time.time(), time.time() + self.conf["seconds"])
        self.go.set()
        while time.time() < self.window[1]:
            await asyncio.sleep(1.0)
            progress.put(
                (os.getpid(), len(self.tally.latencies), self.tally.connected, sum(self.tally.errors.values()))
            )
        # every table stops at its next frame after the window; one still waiting then is cut off
        _, late = await asyncio.wait(tables, timeout=10 + 2 * self.conf["think"])
        for task in late:
            task.cancel()


def client_process(conf: dict[str, Any], ready_flag: Any, go_flag: Any, progress: Any, results: Any) -> None:
    """Entry point of a client process: play, then send the tally back."""
    tally = Tally()
    asyncio.run(Load(conf, tally).run(ready_flag, go_flag, progress))
    results.put((tally.latencies, tally.peak_connected, tally.games, dict(tally.errors), tally.frame_bytes))


# --- one run ------------------------------------------------------------------------------
@dataclass
class Result:
    """One side's figures."""

    name: str
    players: int
    seconds: float
    latencies: list[float]
    games: int
    errors: dict[str, int]
    frame_bytes: int

    def pct(self, p: float) -> float:
        """The p-th percentile of latency in ms."""
        if not self.latencies:
            return float("nan")
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]

    @property
    def rate(self) -> float:
        """Acknowledged actions per second."""
        return len(self.latencies) / self.seconds

    def line(self) -> str:
        """One summary line."""
        errors = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items())) or "none"
        return (f"{self.name:<9} players {self.players:4d}  actions/s {self.rate:7.1f}  "
                f"p50 {self.pct(50):6.1f} ms  p99 {self.pct(99):6.1f} ms  max {max(self.latencies, default=0):6.1f} ms"
                f"  games {self.games}  errors: {errors}")  # fmt: skip


def drive(name: str, conf: dict[str, Any], procs: int) -> Result:
    """Spread the tables over ``procs`` client processes, start them together, collect their tallies."""
    ctx = mp.get_context("spawn")
    ready_flags = [ctx.Event() for _ in range(procs)]
    go_flag = ctx.Event()
    progress: Any = ctx.Queue()
    results: Any = ctx.Queue()
    shares = [conf["tables"] // procs + (i < conf["tables"] % procs) for i in range(procs)]
    workers = [
        ctx.Process(target=client_process, args=({**conf, "tables": share}, flag, go_flag, progress, results))
        for share, flag in zip(shares, ready_flags, strict=True)
    ]
    for w in workers:
        w.start()
    t0 = time.monotonic()
    while not all(f.is_set() for f in ready_flags):
        if any(not w.is_alive() for w in workers):
            sys.exit(f"{name}: a client process died while connecting")
        time.sleep(0.2)
    print(f"{name}: {conf['tables'] * 2} players connected and seated in {time.monotonic() - t0:.1f} s", flush=True)
    go_flag.set()
    last: dict[int, tuple[int, int, int]] = {}
    got: list[Any] = []
    while len(got) < procs:
        while not progress.empty():
            pid, acts, connected, errors = progress.get()
            last[pid] = (acts, connected, errors)
            acts_all = sum(v[0] for v in last.values())
            connected, errors = sum(v[1] for v in last.values()), sum(v[2] for v in last.values())
            line = f"{connected:4d} connected, {acts_all:6d} actions, {errors} errors ({time.monotonic() - t0:.0f} s)"
            print(f"\r  {name}: {line}", end="", file=sys.stderr, flush=True)
        with contextlib.suppress(Exception):
            got.append(results.get(timeout=0.5))
    print(file=sys.stderr)
    for w in workers:
        w.join(30)
    latencies = [x for g in got for x in g[0]]
    errors: Counter[str] = Counter()
    for g in got:
        errors.update(g[3])
    sizes = [x for g in got for x in g[4]]
    return Result(name, sum(g[1] for g in got), conf["seconds"], latencies, sum(g[2] for g in got), dict(errors),
                  int(statistics.median(sizes)) if sizes else 2000)  # fmt: skip


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux /proc)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def churn(args: argparse.Namespace, tmp: str) -> None:
    """The memory run: play and replace games for ``args.churn`` seconds, sampling the server's RSS."""
    import threading

    db = args.db or f"sqlite:///{Path(tmp) / 'web.sqlite3'}"
    port = free_port()
    log = Path(tmp) / "serve.log"
    print(f"ws_load --churn: {args.tables} tables x 2 players for {args.churn:.0f} s, think {args.think} s, "
          f"db {db.split(':')[0]}, {os.cpu_count()} cores", flush=True)  # fmt: skip
    argv = [sys.executable, "-m", "cubilete", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--db", db, "--bot-delay", "0"]  # fmt: skip
    server = launch(argv, f"http://127.0.0.1:{port}/api/health", log, {"CUBILETE_IDLE_UNLOAD": "60"})
    samples: list[tuple[float, float]] = []
    done = threading.Event()
    t0 = time.monotonic()

    def sample() -> None:
        while not done.wait(args.sample):
            with contextlib.suppress(OSError):
                samples.append((time.monotonic() - t0, rss_mb(server.pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    conf = {"tables": args.tables, "seconds": args.churn, "think": args.think, "kind": "ours",
            "http": f"http://127.0.0.1:{port}", "ws": f"ws://127.0.0.1:{port}"}  # fmt: skip
    try:
        result = drive("cubilete", conf, args.procs)
        time.sleep(max(args.sample, 70.0))  # idle tables leave memory after 60 s: one more sample after that
    finally:
        done.set()
        sampler.join()
        stop(server)
    print(result.line(), flush=True)
    print("\n  minute   RSS MB (min / median / max of the samples)")
    by_minute: dict[int, list[float]] = {}
    for t, mb in samples:
        by_minute.setdefault(int(t // 60), []).append(mb)
    for minute, values in sorted(by_minute.items()):
        print(f"  {minute:6d}   {min(values):7.1f} / {statistics.median(values):7.1f} / {max(values):7.1f}")
    if db.startswith("sqlite:///"):
        wal = Path(db.removeprefix("sqlite:///") + "-wal")
        print(f"\nSQLite log after the run: {wal.stat().st_size if wal.exists() else 0} bytes")
    loaded = [line for line in log.read_text(errors="replace").splitlines() if "left memory" in line]
    if loaded:
        print(f"server: {loaded[-1].strip()}")


# --- idle sockets: memory per connection -----------------------------------------------------
IDLE_PER_TABLE = 10  # sockets per table in --idle: its 2 seated players and 8 spectators (cap: 50)


def idle_plan(sockets: int, per_table: int = IDLE_PER_TABLE) -> list[int]:
    """Sockets per table for ``sockets`` idle connections: full tables of ``per_table`` (2 players, the rest
    spectators), and a smaller table for what is left (every table has its 2 players).

    >>> idle_plan(25, 10)
    [10, 10, 5]
    >>> idle_plan(21, 10)
    [10, 9, 2]
    """
    if sockets < 2 or per_table < 2:
        raise ValueError("--idle needs at least 2 sockets, 2 per table")
    plan = [per_table] * (sockets // per_table)
    rest = sockets - sum(plan)
    if rest == 1:  # a table of one: take a spectator from the last full table instead
        plan[-1] -= 1
        rest = 2
    if rest:
        plan.append(rest)
    return plan


def bytes_per_socket(rss_before_mb: float, rss_after_mb: float, sockets: int) -> float:
    """The server's resident memory growth per open socket, in bytes.

    >>> bytes_per_socket(100.0, 150.0, 2000)
    26214.4
    """
    return (rss_after_mb - rss_before_mb) * 1024 * 1024 / sockets


async def idle_table(conf: dict[str, Any], size: int, sockets: list[Any]) -> None:
    """One table: 2 players who sit, ``size - 2`` spectators; each socket is kept once it has its state."""
    load = Load({**conf, "kind": "ours"}, Tally())
    table = await load.new_table()
    for i in range(size):
        ws = await websockets.connect(f"{conf['ws']}/ws/{table}?lang=en", max_size=None, open_timeout=120,
                                      ping_interval=None, proxy=None)  # fmt: skip
        sockets.append(ws)
        hello: dict[str, Any] = {"type": "hello"}
        if i < 2:
            hello["token"] = secrets.token_hex(16)
        await ws.send(json.dumps(hello))
        if i < 2:
            await ws.send(json.dumps({"type": "sit", "seat": i, "name": f"P{i}"}))
        while json.loads(await ws.recv()).get("type") != "state":
            pass


def idle_process(conf: dict[str, Any], plan: list[int], ready_flag: Any, stop_flag: Any, results: Any) -> None:
    """Client process of ``--idle``: open every socket of the plan, report, hold them until told to stop."""

    async def run() -> None:
        sockets: list[Any] = []
        errors: Counter[str] = Counter()
        todo = [asyncio.create_task(idle_table(conf, size, sockets)) for size in plan]
        for task in asyncio.as_completed(todo):
            try:
                await task
            except Exception as exc:
                errors[type(exc).__name__] += 1
        results.put((len(sockets), dict(errors)))
        ready_flag.set()
        while not stop_flag.is_set():
            await asyncio.sleep(0.2)  # idle: nothing sent (the server pings every 20 s; the client answers)
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)

    asyncio.run(run())


def idle(args: argparse.Namespace, tmp: str) -> None:
    """``--idle N``: the server's resident memory growth per idle WebSocket."""
    db = args.db or f"sqlite:///{Path(tmp) / 'web.sqlite3'}"
    port = free_port()
    log = Path(tmp) / "serve.log"
    plan = idle_plan(args.idle)
    argv = [sys.executable, "-m", "cubilete", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--db", db, "--bot-delay", "0"]  # fmt: skip
    server = launch(argv, f"http://127.0.0.1:{port}/api/health", log, {"CUBILETE_WIN_CHANCES": "0"})
    conf = {"http": f"http://127.0.0.1:{port}", "ws": f"ws://127.0.0.1:{port}", "think": 0.0}
    ctx = mp.get_context("spawn")
    try:
        # warm-up: one table with its sockets, so lazy imports and first-use caches are not counted
        warm = (ctx.Event(), ctx.Event(), ctx.Queue())
        p = ctx.Process(target=idle_process, args=(conf, [IDLE_PER_TABLE], warm[0], warm[1], warm[2]))
        p.start()
        warm[0].wait(120)
        warm[1].set()
        p.join(30)
        time.sleep(3)
        before = statistics.median(rss_mb(server.pid) for _ in range(3))
        ready, stop_flag, results = ctx.Event(), ctx.Event(), ctx.Queue()
        clients = ctx.Process(target=idle_process, args=(conf, plan, ready, stop_flag, results))
        t0 = time.monotonic()
        clients.start()
        if not ready.wait(600):
            sys.exit("--idle: the sockets did not open in 10 minutes")
        opened, errors = results.get()
        took = time.monotonic() - t0
        print(f"{opened} sockets open at {len(plan)} tables in {took:.1f} s; errors: {errors or 'none'}")
        time.sleep(5)  # idle
        samples = []
        for _ in range(5):
            samples.append(rss_mb(server.pid))
            time.sleep(1)
        after = statistics.median(samples)
        stop_flag.set()
        clients.join(60)
    finally:
        stop(server)
    per = bytes_per_socket(before, after, max(1, opened))
    print(f"server RSS {before:.1f} MB -> {after:.1f} MB with {opened} idle sockets: {per / 1024:.1f} KB per socket "
          f"(target < 50 KB: {'met' if per < 50 * 1024 else 'NOT met'})")  # fmt: skip


def main() -> None:
    """Parse arguments, run ours then the echo peer under the same load, print the comparison."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=250, help="concurrent 2-player tables (default 250 = 500 players)")
    ap.add_argument("--seconds", type=float, default=60.0, help="measured seconds per side (default 60)")
    ap.add_argument("--think", type=float, default=0.5, help="mean think time before each act, s (default 0.5)")
    ap.add_argument("--db", default=None, help="database URL for our server (default: SQLite file in a temp folder)")
    ap.add_argument("--procs", type=int, default=1, help="client processes (default 1)")
    ap.add_argument("--no-peer", action="store_true", help="skip the echo peer")
    ap.add_argument("--churn", type=float, default=0.0, metavar="SECONDS",
                    help="memory run of this many seconds (ours only): RSS over time")
    ap.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples with --churn (default 5)")
    ap.add_argument("--pg", action="store_true",
                    help="PostgreSQL: a throw-away server from Debian's postgresql package (tests/web/pg.py)")
    ap.add_argument("--idle", type=int, default=0, metavar="SOCKETS",
                    help="memory run: open this many idle WebSockets (10 a table) and report bytes per socket")
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes behind one port (`serve --workers N`; PostgreSQL only, default 1)")
    ap.add_argument("--serve-echo", nargs=2, type=int, metavar=("PORT", "BYTES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve_echo:
        serve_echo(*args.serve_echo)
        return
    if args.tables < 1 or args.seconds <= 0 or args.think < 0 or args.procs < 1 or args.workers < 1:
        ap.error("--tables, --procs and --workers must be >= 1, --seconds > 0, --think >= 0")

    if args.pg:
        if args.db:
            ap.error("--pg and --db: choose one")
        with throwaway_postgres() as url:
            args.db, args.pg = url, False
            run(args)
        return
    run(args)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server in a temp folder (what the tests start), with an empty database; its URL."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests/web/pg.py
    from tests.web.pg import TempPostgres

    with TempPostgres() as pg:
        yield pg.fresh_database()


def run(args: argparse.Namespace) -> None:
    """One run of the mode the arguments ask for."""
    if args.idle:
        with tempfile.TemporaryDirectory(prefix="cubilete-ws-idle-") as tmp:
            idle(args, tmp)
        return
    if args.churn > 0:
        with tempfile.TemporaryDirectory(prefix="cubilete-ws-churn-") as tmp:
            churn(args, tmp)
        return
    with tempfile.TemporaryDirectory(prefix="cubilete-ws-load-") as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'web.sqlite3'}"
        port = free_port()
        log = Path(tmp) / "serve.log"
        env_note = (
            f"db {db.split(':')[0]}, {args.workers} server process(es), think {args.think} s, "
            f"{args.procs} client process(es), {os.cpu_count()} cores"
        )
        print(f"ws_load: {args.tables} tables x 2 players, {args.seconds:.0f} s per side; {env_note}", flush=True)
        argv = [sys.executable, "-m", "cubilete", "serve", "--host", "127.0.0.1", "--port", str(port),
                "--db", db, "--bot-delay", "0"]  # fmt: skip
        if args.workers > 1:
            argv += ["--workers", str(args.workers)]
        server = launch(argv, f"http://127.0.0.1:{port}/api/health", log)
        conf = {"tables": args.tables, "seconds": args.seconds, "think": args.think, "kind": "ours",
                "http": f"http://127.0.0.1:{port}", "ws": f"ws://127.0.0.1:{port}"}  # fmt: skip
        try:
            ours = drive("cubilete", conf, args.procs)
        finally:
            stop(server)
        print(ours.line(), flush=True)
        if ours.errors:
            print(f"server log tail:\n{log.read_text(errors='replace')[-2000:]}")
        peer = None
        if not args.no_peer:
            port = free_port()
            elog = Path(tmp) / "echo.log"
            echo = launch([sys.executable, __file__, "--serve-echo", str(port), str(ours.frame_bytes)],
                          f"http://127.0.0.1:{port}/api/health", elog)  # fmt: skip
            try:
                peer = drive("echo", {**conf, "kind": "echo", "http": "", "ws": f"ws://127.0.0.1:{port}"}, args.procs)
            finally:
                stop(echo)
            print(peer.line(), flush=True)

    print()
    ok = ours.players >= TARGET_PLAYERS and ours.pct(99) < TARGET_P99_MS
    print(f"target: {TARGET_PLAYERS} players, p99 < {TARGET_P99_MS:.0f} ms -> "
          f"{ours.players} players, p99 {ours.pct(99):.1f} ms: {'met' if ok else 'NOT met'}")  # fmt: skip
    if peer is not None:
        print(f"ratio p99 ours/echo = {ours.pct(99) / peer.pct(99):.2f}  (state frame ~{ours.frame_bytes} bytes)")


if __name__ == "__main__":
    main()
