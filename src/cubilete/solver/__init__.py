"""Exact optimal play for the Generala family: backward induction over sheet states."""

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.solver.solve import Solution, solve
from cubilete.solver.space import build_space, check_solvable

__all__ = ["Solution", "SolverUnsupportedError", "build_space", "check_solvable", "solve"]
