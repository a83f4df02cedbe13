"""Processes the server starts end with it, however it ends (issue 26).

A thread that polls ``os.getppid()`` is not enough: the win-chance worker runs under ``SCHED_IDLE``, and on
a busy machine its threads may not run for hours, so it outlived a killed server (and kept multiprocessing's
resource tracker alive with it, through the tracker's pipe). The kernel's parent-death signal does not
depend on the child being scheduled.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent ``parent`` ends; exit at once if it
    already has (it died before the request was made). False where the kernel cannot (not Linux)."""
    done = False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0
    if os.getppid() != parent:
        os._exit(0)
    return done
