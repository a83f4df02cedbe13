"""Compile the solve's and the query's kernels into numba's cache by using them once on a two-box Generala
(instant): what ``cubilete warmup`` and the first run's background process run."""

from __future__ import annotations

import os

from cubilete.engine.rules import find_rules
from cubilete.solver.advisor import advise, judge
from cubilete.solver.compile_cache import MODE_ENV, lock_path
from cubilete.solver.solve import solve


def compile_kernels(exclusive: bool = False) -> int:
    """Compile the solve and the query into numba's cache (solving a two-box Generala: instant).

    With ``exclusive`` (the background process) nothing is done if another process is compiling
    into the same cache already: several first runs at once compile once."""
    os.environ[MODE_ENV] = "numba"
    if exclusive:
        import fcntl  # POSIX; the background compile starts only there (preexec_fn)

        lock = open(lock_path(), "a")  # noqa: SIM115 - held until this process ends
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0
    rules = find_rules("generala")
    tiny = solve(rules.replace(name="tiny", boxes=rules.boxes[:2]))
    advise(tiny, [None, None], (1, 1, 2, 2, 3), throw=2)
    judge(tiny, [([None, None], (1, 1, 2, 2, 3), 2, 0, "keep", (1, 1))])  # the review's batched query
    return 0
