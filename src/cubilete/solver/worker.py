"""``python -m cubilete.solver.worker``: solve one rule set into the solver cache, within limits.

The rules arrive as JSON (``rules_to_dict``) on standard input. Before anything heavy is imported
the process caps itself: ``--cpu-seconds`` of CPU time (the kernel ends it past that) and
``--memory-mb`` of address space (allocations beyond it fail). A server starts one such process per
new rule set (see ``cubilete.web.solving``), so a costly profile never runs in the server itself.

With ``--parent PID`` it ends with that process (the kernel's parent-death signal), however the server ends.

Exit status: 0 solved (the tables are in the cache), 2 bad input, 3 out of memory,
4 too large to solve; killed by SIGXCPU when over its CPU time.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cubilete.engine.rules.model import Rules

MEMORY_ERROR = 3
UNSUPPORTED = 4


def limit(cpu_seconds: int, memory_mb: int) -> None:
    """Cap this process's CPU time and address space."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    memory = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def main(argv: list[str] | None = None, after: Callable[[Rules], dict[str, object]] | None = None) -> int:
    """Solve the rules read from standard input; ``after`` runs on them once solved, within the same caps
    (a layer above adds its own tables: ``python -m cubilete.win.worker``)."""
    parser = argparse.ArgumentParser(prog="python -m cubilete.solver.worker")
    parser.add_argument("--cpu-seconds", type=int, required=True)
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--parent", type=int, default=0, help="end with this process (the server that asked)")
    args = parser.parse_args(argv)
    limit(args.cpu_seconds, args.memory_mb)
    if args.parent:  # a killed server must not leave its solves running for their whole CPU time
        from cubilete.solver.lifetime import die_with_parent

        die_with_parent(args.parent)
    try:
        from cubilete.engine.errors import CubileteError, SolverUnsupportedError
        from cubilete.engine.rules.codec import rules_from_dict
        from cubilete.solver.cache import load_or_solve, table_path

        try:
            rules = rules_from_dict(json.loads(sys.stdin.read()), "rules to solve")
        except (ValueError, CubileteError) as exc:
            print(f"bad rules: {exc}", file=sys.stderr)
            return 2
        try:
            solution = load_or_solve(rules, moments=False)
        except SolverUnsupportedError as exc:
            print(str(exc), file=sys.stderr)
            return UNSUPPORTED
        extra = after(rules) if after is not None else {}
        print(json.dumps({"path": str(table_path(rules)), "seconds": round(solution.seconds, 2), **extra}))
        return 0
    except MemoryError:
        print(f"out of memory (the cap is {args.memory_mb} MB)", file=sys.stderr)
        return MEMORY_ERROR


if __name__ == "__main__":
    sys.exit(main())
