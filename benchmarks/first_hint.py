"""The first hint after a fresh install: empty numba and solver caches, each run in a new process.

    .venv/bin/python benchmarks/first_hint.py [--rounds 3] [--no-compile-peer]

Each run is a new Python with ``NUMBA_CACHE_DIR`` and ``CUBILETE_CACHE_DIR`` pointing at new empty
folders (nothing compiled, nothing solved), timed from the process start to the answer:

- ``advise``: ``cubilete advise --dice 1 1 3 4 5 --throw 2`` (Generala, the default rules);
- ``coach``: what the terminal game does: the setup screen's solve, then ``coach.hint`` after a throw.

They run the default way (numpy while the kernels are not compiled, a niced process compiling them
meanwhile: its CPU is counted apart, it is not waited for). The peers, in the same rounds:

- ``python -c "import numpy"``: the floor of any Python command here;
- ``advise, compiled on first use``: the same command with ``CUBILETE_FIRST_RUN=numba``, i.e. numba
  compiles the kernels before the first answer (what a fresh install did before; ~40 s of CPU);
- ``advise, warm``: the same command once numba's cache holds the kernels and the table is solved.

Prints wall seconds and CPU seconds (the process and its children) per run, the medians, the ratio
of the first hint to the warm one, and the load average. Runs alternate so that load changes hit all.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cubilete.solver.compile_cache import COMPILE

ROOT = Path(__file__).resolve().parents[1]
ADVISE = [sys.executable, "-m", "cubilete", "advise", "--dice", "1", "1", "3", "4", "5", "--throw", "2", "--top", "1"]
COACH = r"""
from cubilete import Game, find_rules
from cubilete.play import coach
from cubilete.engine.actions import Roll
rules = find_rules("generala")
game = Game(rules, ["Ana"], seed=1)
coach.solution_for(rules)  # the setup screen prepares the solver
game.apply(next(a for a in game.legal_actions() if isinstance(a, Roll)))
print(coach.hint(game, top=1)[0][0])
"""


def run(cmd: list[str], caches: Path, **env: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process) of one command with the given cache folders."""
    environ = dict(os.environ, NUMBA_CACHE_DIR=str(caches / "numba"), CUBILETE_CACHE_DIR=str(caches / "solver"))
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), environ.get("PYTHONPATH")]))
    environ.pop("CUBILETE_FIRST_RUN", None)
    environ.update(env)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=environ, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{cmd}: {done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def background_cpu(caches: Path, timeout: float = 900) -> float:
    """Wait for the compiling process of a first run (it fills ``caches``' numba folder); its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(caches / "numba"), CUBILETE_FIRST_RUN="numba")
    env["PYTHONPATH"] = str(ROOT / "src")
    subprocess.run([sys.executable, "-c", COMPILE], env=env, check=True, timeout=timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Time the first hint next to its peers and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-compile-peer", action="store_true", help="skip the ~40 s compile-on-first-use run")
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {}
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="first-hint-") as tmp:
        base = Path(tmp)
        for r in range(args.rounds):
            quiet = {"CUBILETE_NO_BACKGROUND_COMPILE": "1"}  # the compile is measured apart, not left running
            results.setdefault("python -c 'import numpy'", []).append(
                run([sys.executable, "-c", "import numpy"], base / f"n{r}")
            )
            results.setdefault("advise, first run (empty caches)", []).append(run(ADVISE, base / f"a{r}", **quiet))
            results.setdefault("coach hint, first run (empty caches)", []).append(
                run([sys.executable, "-c", COACH], base / f"c{r}", **quiet)
            )
            if r == 0:
                results["background compile (niced, not waited for)"] = [(0.0, background_cpu(base / "a0"))]
                run(ADVISE, base / "a0")  # solve into the table cache: the warm runs below load it
            results.setdefault("advise, warm (compiled, solved)", []).append(run(ADVISE, base / "a0"))
            if r == 0 and not args.no_compile_peer:
                results["advise, compiled on first use (before)"] = [
                    run(ADVISE, base / "p0", CUBILETE_FIRST_RUN="numba")
                ]
            loads.append(os.getloadavg()[0])
    print(f"{'run':48s} {'wall s':>8s} {'cpu s':>8s}   (medians of {args.rounds} fresh processes)")
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name:48s} {wall:8.2f} {cpu:8.2f}")
    first = statistics.median(w for w, _ in results["advise, first run (empty caches)"])
    warm = statistics.median(w for w, _ in results["advise, warm (compiled, solved)"])
    floor = statistics.median(w for w, _ in results["python -c 'import numpy'"])
    print(f"first hint / warm hint: {first / warm:.2f}; first hint / import numpy: {first / floor:.2f}")
    print(f"load average (1 min) during the runs: {min(loads):.1f} to {max(loads):.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
