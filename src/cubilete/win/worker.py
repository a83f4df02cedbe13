"""``python -m cubilete.win.worker``: the solver's capped worker (:mod:`cubilete.solver.worker`) that also
builds the win tables (score distributions, targets) where they fit, so that a server's chances to win and
win bots load them and never build them in the server process itself."""

from __future__ import annotations

import sys

from cubilete.engine.rules.model import Rules
from cubilete.solver.worker import main as solver_main


def win_tables(rules: Rules) -> dict[str, object]:
    """Build and cache both win tables of ``rules``; ``{"win": False}`` where they are too large."""
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.win.tables import KINDS, check_tables, vector_table

    try:
        check_tables(rules)
        for kind in KINDS:
            vector_table(rules, kind)
    except SolverUnsupportedError:
        return {"win": False}
    return {"win": True}


def main(argv: list[str] | None = None) -> int:
    """The solver worker's command line, with the win tables built after the solve."""
    return solver_main(argv, after=win_tables)


if __name__ == "__main__":
    sys.exit(main())
