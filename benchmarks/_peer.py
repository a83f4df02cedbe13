"""The named peer of the benchmarks: the ``yatzy-solver`` package from PyPI (Rust core, Python API).

If it can't be imported here it is installed with pip into a throw-away virtual environment
(``$TMPDIR/cubilete-bench-peer``) and driven in a subprocess of that environment's Python,
which answers one JSON request per line. Nothing here is imported by the package or its tests.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any

PACKAGE = "yatzy-solver"
VENV = Path(tempfile.gettempdir()) / "cubilete-bench-peer"

# Runs inside the peer's Python: one JSON request per stdin line, one JSON answer per stdout line.
WORKER = r"""
import json, sys, time
import yatzy_solver as ys

solvers = {}
for line in sys.stdin:
    req = json.loads(line)
    op = req["op"]
    if op == "version":
        out = {"version": getattr(ys, "SOLVER_VERSION", "?"), "variants": list(ys.builtin_variants())}
    elif op == "build":
        variant = ys.Variant(req["variant"])
        start = time.perf_counter()
        solver = ys.Solver.build(variant)
        seconds = time.perf_counter() - start
        solvers[req["variant"]] = solver
        out = {"seconds": seconds, "value": solver.state_value("upper 0 | filled -")}
    elif op == "options":
        solver = solvers[req["variant"]]
        times, best = [], []
        for text in req["situations"]:
            start = time.perf_counter()
            values = solver.option_values(text)
            times.append(time.perf_counter() - start)
            best.append(max(v for _, v in values))
        out = {"times": times, "best": best}
    else:
        out = {"error": "unknown op " + op}
    print(json.dumps(out), flush=True)
"""


def _importable(python: str) -> bool:
    probe = subprocess.run([python, "-c", "import yatzy_solver"], capture_output=True, check=False)
    return probe.returncode == 0


def peer_python() -> str:
    """A Python that can import ``yatzy_solver``: this one, or a throw-away venv with it installed."""
    if importlib.util.find_spec("yatzy_solver") is not None:
        return sys.executable
    python = VENV / "bin" / "python"
    if python.exists() and _importable(str(python)):
        return str(python)
    print(f"installing {PACKAGE} from PyPI into {VENV} (once) ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    subprocess.run([str(python), "-m", "pip", "install", "-q", PACKAGE], check=True)
    return str(python)


class Peer:
    """A long-lived peer process: ``build(variant)`` times the peer's full solve, ``options`` its queries."""

    def __init__(self, threads: int) -> None:
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        self.proc = subprocess.Popen(
            [peer_python(), "-c", WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def ask(self, **request: Any) -> dict[str, Any]:
        """Send one request and wait for its answer."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer

    def close(self) -> None:
        """End the peer process."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def ms(seconds: list[float], q: float) -> float:
    """A quantile of timings, in milliseconds."""
    ordered = sorted(seconds)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def median(values: list[float]) -> float:
    """The median."""
    return statistics.median(values)
