"""Compiling the solver's kernels into numba's on-disk cache: in a niced background process on a first run
(while :mod:`cubilete.solver.numpy_twin` answers), or in the foreground (``cubilete warmup``); and whether a
kernel is compiled already, read from numba's cache index (numba's internals: any surprise means "not yet").
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

MODE_ENV = "CUBILETE_FIRST_RUN"
COMPILE = "from cubilete.solver.warm import compile_kernels; compile_kernels(exclusive=True)"  # the child runs it

_LOCK = threading.Lock()
_CHILD: subprocess.Popen[bytes] | None = None


def on_disk(kernel: Any) -> bool:
    """True if the kernel is compiled in this process or numba's cache holds it for today's source."""
    if kernel.overloads:
        return True
    cache = getattr(kernel, "_cache", None)
    try:
        index = cache._cache_file._load_index()  # type: ignore[union-attr]
        codegen = kernel.targetctx.codegen()
        return any(cache._index_key(key[0], codegen) == key for key in index)  # type: ignore[union-attr]
    except Exception:  # another numba's internals: then assume not compiled
        return False


def compile_in_background() -> None:
    """Start (once per process) a niced process that compiles the kernels into numba's cache."""
    global _CHILD
    with _LOCK:
        if _CHILD is not None or os.environ.get("CUBILETE_NO_BACKGROUND_COMPILE") or os.name != "posix":
            return
        env = dict(os.environ, **{MODE_ENV: "numba"})
        try:
            _CHILD = subprocess.Popen(
                [sys.executable, "-c", COMPILE],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env, start_new_session=True, preexec_fn=_nice,
            )  # fmt: skip
        except (OSError, ValueError):
            _CHILD = None


def _nice() -> None:  # pragma: no cover - runs in the child
    os.nice(10)


def background_process() -> subprocess.Popen[bytes] | None:
    """The compiling process started by this one, if any."""
    return _CHILD


def lock_path() -> Path:
    """One lock file per numba cache folder (and per package folder, where numba's default cache lives)."""
    where = f"{os.environ.get('NUMBA_CACHE_DIR', '')}|{Path(__file__).resolve().parent}"
    return Path(tempfile.gettempdir()) / f"cubilete-compile-{hashlib.sha256(where.encode()).hexdigest()[:16]}.lock"
