"""``cubilete serve --workers N``: N server processes behind one port on one machine (PostgreSQL only).

The parent binds the listening socket, then forks N children; each runs its own app and event loop
on the shared socket (the kernel hands each new connection to one of them). Together they are one
site (:mod:`cubilete.web.site`): any child serves any table. The parent only supervises: SIGTERM or
SIGINT to it stops every child cleanly; a child that dies (even by SIGKILL) is replaced, and its
tables are taken over by the others meanwhile (a child that exits by itself at once, e.g. on an
unreachable database, stops them all instead). Children end with their parent (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable

log = logging.getLogger("cubilete.web")
PR_SET_PDEATHSIG = 1
EARLY = 5.0  # seconds: a child that exits by itself this soon after its start is not replaced (a broken setup)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket every worker shares."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _die_with_parent() -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def supervise(workers: int, run_child: Callable[[socket.socket], None], sock: socket.socket) -> int:
    """Fork ``workers`` children running ``run_child(sock)``; replace those that die; stop them all on
    SIGTERM/SIGINT. Returns the exit code."""
    children: dict[int, float] = {}  # pid -> start time
    stopping = False

    def spawn() -> None:
        pid = os.fork()
        if pid == 0:  # the child: default signals (uvicorn installs its own), serve, never return
            code = 0
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _die_with_parent()
                run_child(sock)
            except BaseException:
                log.exception("worker %d failed", os.getpid())
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        children[pid] = time.monotonic()

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        spawn()
    code = 0
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:  # pragma: no cover (PEP 475 retries)
            continue
        started = children.pop(pid, None)
        if started is None or stopping:
            continue
        how = f"signal {-os.waitstatus_to_exitcode(status)}" if os.WIFSIGNALED(status) else \
            f"exit code {os.waitstatus_to_exitcode(status)}"
        if not os.WIFSIGNALED(status) and time.monotonic() - started < EARLY:
            print(f"cubilete: worker {pid} stopped ({how}) right after its start; stopping the others", file=sys.stderr,
                  flush=True)
            stop(signal.SIGTERM, None)
            code = 1
            continue
        print(f"cubilete: worker {pid} stopped ({how}); starting another", file=sys.stderr, flush=True)
        spawn()
    sock.close()
    return code
