"""A throw-away PostgreSQL server from the Debian ``postgresql`` package, for tests.

``initdb`` into a temp folder, ``pg_ctl start`` on a free loopback port with trust auth,
databases made with ``createdb``; everything is stopped and removed by :meth:`TempPostgres.stop`.
PostgreSQL refuses to run as root, so as root every command runs as the ``postgres`` user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PACKAGE = "postgresql"
USER = "postgres"  # the database superuser made by initdb (-U)
PREFIX = "cubilete-pg-"  # temp folders of these servers
OWNER = "owner.pid"  # in each folder: the process that started it, to sweep servers of killed test runs


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed."""


def find_bindir(root: str | Path = "/usr/lib/postgresql") -> Path:
    """The ``bin`` folder of the newest PostgreSQL under ``root`` (Debian's layout: ``root/15/bin``)."""
    found = []
    for initdb in glob.glob(f"{glob.escape(str(root))}/*/bin/initdb"):
        version = Path(initdb).parent.parent.name
        key = tuple(int(p) for p in re.findall(r"\d+", version))
        found.append((key, Path(initdb).parent))
    if not found:
        raise PostgresMissing(
            f"PostgreSQL is not installed (no {root}/*/bin/initdb): "
            f"install the Debian package {PACKAGE!r} (`apt-get install {PACKAGE}`; `./dev test` does it)"
        )
    return max(found)[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class TempPostgres:
    """One PostgreSQL server in a temp folder; use as a context manager or call start/stop."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.as_root = os.geteuid() == 0
        self.port = 0
        self.dir: Path | None = None
        self._started = False
        self._count = 0

    # --- running commands -------------------------------------------------------------
    def _cmd(self, name: str, *args: str) -> list[str]:
        argv = [str(self.bindir / name), *args]
        # as root: PostgreSQL will not run, so run it as the postgres user made by the package
        return ["runuser", "-u", USER, "--", *argv] if self.as_root else argv

    def _run(self, name: str, *args: str, timeout: float = 120) -> str:
        proc = subprocess.run(
            self._cmd(name, *args),
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "LC_ALL": "C.UTF-8", "PGTZ": "UTC"},
            cwd="/",  # runuser keeps the cwd, which the postgres user may not be allowed to read
        )
        if proc.returncode != 0:
            output = f"{proc.stdout}\n{proc.stderr}".strip()
            raise RuntimeError(f"{name} failed (exit {proc.returncode}):\n{output}\n{self.log_tail()}")
        return proc.stdout

    def log_tail(self, lines: int = 30) -> str:
        """The end of the server's log (empty if there is none yet)."""
        if self.dir is None or not (self.dir / "server.log").exists():
            return ""
        text = (self.dir / "server.log").read_text(errors="replace").splitlines()
        return "server log:\n" + "\n".join(text[-lines:])

    # --- life cycle --------------------------------------------------------------------
    def start(self) -> TempPostgres:
        """initdb, start on a free port, wait until it answers, create database ``cubilete``."""
        self.sweep()
        # the system temp dir, not pytest's: its folders are 0700 and root-owned, closed to the postgres user
        self.dir = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.dir / OWNER).write_text(str(os.getpid()))
        if self.as_root:
            pw = pwd.getpwnam(USER)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        try:
            self._boot()
        except BaseException:
            self.stop()  # a half-started server must not outlive the failure
            raise
        return self

    def _boot(self) -> None:
        assert self.dir is not None
        data = self.dir / "data"
        self._run("initdb", "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
        self.port = free_port()
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=on"
        # -w: pg_ctl returns once the server accepts connections
        self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(data), "-l", str(self.dir / "server.log"), "-o", opts)
        self._started = True
        self.create_database("cubilete")

    def create_database(self, name: str) -> str:
        """Create an empty database; its SQLAlchemy URL."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"database name {name!r} must be lowercase letters, digits and _")
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", USER, name)
        return self.url(name)

    def fresh_database(self) -> str:
        """A new, empty database with a name not used before on this server; its URL."""
        self._count += 1
        return self.create_database(f"test_{self._count}")

    def url(self, database: str = "cubilete") -> str:
        """SQLAlchemy URL (psycopg 3 driver) of a database on this server."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop the server and remove its folder. Immediate mode: its data is thrown away, so no shutdown
        checkpoint is owed; a fast stop's checkpoint outlasted pg_ctl's 60 s on a machine busy writing to disk
        (an error at the session's end in a CI run)."""
        try:
            if self._started and self.dir is not None:
                self._started = False
                self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.dir / "data"))
        finally:
            if self.dir is not None:
                shutil.rmtree(self.dir, ignore_errors=True)
                self.dir = None

    def sweep(self) -> None:
        """Stop and remove the servers of test runs that were killed before their cleanup ran."""
        for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
            try:
                owner = int((folder / OWNER).read_text())
            except (OSError, ValueError):
                continue  # not ours, or still being set up
            if _alive(owner):
                continue
            if (folder / "data" / "postmaster.pid").exists():
                with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                    self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(folder / "data"), timeout=30)
            shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
