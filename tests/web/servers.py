"""Real ``cubilete serve`` processes for tests: start, wait until healthy, kill -9, restart."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from tests.web.pg import free_port

START_TIMEOUT = 60.0  # seconds for a fresh server (Alembic migrations, imports) to answer /api/health


class ServerError(RuntimeError):
    """The server did not come up (the message carries its log's tail)."""


class LiveServer:
    """One ``cubilete serve`` subprocess in its own process group, logging to a file."""

    def __init__(self, db_url: str, port: int, log_path: Path, bot_delay: float, env: dict[str, str]) -> None:
        self.db_url = db_url
        self.port = port
        self.log_path = log_path
        self.bot_delay = bot_delay
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Base HTTP URL, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """Base WebSocket URL, without a trailing slash."""
        return f"ws://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        """The command line of the server."""
        return [
            sys.executable, "-m", "cubilete", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db_url, "--bot-delay", str(self.bot_delay),
        ]  # fmt: skip

    def start(self) -> LiveServer:
        """Start the process and wait until ``GET /api/health`` answers ``{"ok": true}``."""
        if self.alive():
            raise ServerError(f"server on port {self.port} is already running")
        with open(self.log_path, "ab") as log:
            log.write(f"\n=== start {' '.join(self.argv())}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                self.argv(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, **self.env},
                start_new_session=True,  # own process group: a kill reaches anything it spawned
            )
        self._wait_healthy()
        return self

    def wait_warm(self, timeout: float = 600.0) -> None:
        """Wait until the server's chances' worker has started and computed its first position (its process
        tree stops growing then); a bound only for a server that never gets there."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with urllib.request.urlopen(f"{self.url}/api/health", timeout=10) as resp:
                if json.loads(resp.read()).get("warm") is True:
                    return
            time.sleep(0.2)
        raise ServerError(f"the chances' worker not warm after {timeout:.0f} s\n{self.tail()}")

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        last = "no answer"
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise ServerError(f"server exited with code {self.proc.returncode} before it was ready\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as resp:
                    body = json.loads(resp.read())
                if isinstance(body, dict) and body.get("ok") is True:
                    return
                last = f"health answered {body!r}"
            except (OSError, ValueError) as exc:  # refused while starting, or not JSON yet
                last = str(exc)
            time.sleep(0.1)
        self.kill()
        raise ServerError(f"server not healthy after {START_TIMEOUT:.0f} s ({last})\n{self.tail()}")

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    def _signal(self, sig: signal.Signals) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL, as a crash would: no shutdown code runs. Waits for the process to be gone."""
        self._signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(10)  # a SIGKILLed process is gone at once; raises TimeoutExpired if it is not

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (a clean shutdown), then SIGKILL if it is still there after ``timeout`` seconds."""
        self._signal(signal.SIGTERM)
        if self.proc is not None:
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> LiveServer:
        """Start again on the same port and database (after :meth:`kill` or :meth:`stop`)."""
        if self.alive():
            self.stop()
        return self.start()

    def log(self) -> str:
        """Everything the server printed so far (all runs)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, lines: int = 40) -> str:
        """The end of the log, for error messages."""
        return f"--- server log ({self.log_path}) ---\n" + "\n".join(self.log().splitlines()[-lines:])


ServerFactory = Callable[..., LiveServer]  # the ``server_factory`` fixture: (db_url=None, *, bot_delay, env)


def start_server(
    db_url: str,
    *,
    bot_delay: float = 0.0,
    env: dict[str, str] | None = None,
    port: int | None = None,
    log_path: Path | None = None,
) -> LiveServer:
    """Start ``cubilete serve`` on a free loopback port with database ``db_url``; wait until it is healthy."""
    if log_path is None:
        fd, name = tempfile.mkstemp(prefix="cubilete-serve-", suffix=".log")
        os.close(fd)
        log_path = Path(name)
    # tests make many waiting tables from 127.0.0.1: the per-network cap is tested where a test sets it
    # and bots throw at once after a person's box (a test of undo sets its own window: web/undo.py)
    server = LiveServer(db_url, port or free_port(), log_path, bot_delay,
                        {"CUBILETE_WAITING_PER_ADDRESS": "1000", "CUBILETE_UNDO_WINDOW": "0",
                         "CUBILETE_WIN_NICE": "0", **(env or {})})
    return server.start()
