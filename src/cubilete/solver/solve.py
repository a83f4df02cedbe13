"""Backward induction over the sheet states of a rule set: the optimal expected final score.

Objective: expected final score for one player. Instant wins are not modelled: a
servida Generala scores as a normal (servida) Generala and play goes on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from cubilete.engine.rules.model import Rules
from cubilete.solver import firstrun, kernels
from cubilete.solver.combinatorics import FloatArray
from cubilete.solver.moments import solve_layer12
from cubilete.solver.space import StateSpace, build_space
from cubilete.solver.tables import KernelTables, kernel_tables

Progress = Callable[[int, int], None]  # (layers done, layers in all)


@dataclass(eq=False)
class Solution:
    """The value of every turn-start state: ``values[mask, flags, upper]`` = expected points to come."""

    space: StateSpace
    values: FloatArray
    second_moments: FloatArray | None = None  # E[(points to come)^2] under optimal play
    seconds: float = 0.0
    turn_memo: dict[tuple[int, int, int], FloatArray] = field(default_factory=dict, repr=False)

    @cached_property
    def tables(self) -> KernelTables:
        """The kernels' tables for this state space (built once)."""
        return kernel_tables(self.space)

    @property
    def rules(self) -> Rules:
        """The rules solved."""
        return self.space.rules

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        return float(self.values[0, 0, 0]) + self.space.const_bonus

    @property
    def std_dev(self) -> float | None:
        """The standard deviation of the final score under optimal play (None if not computed)."""
        if self.second_moments is None:
            return None
        mean = float(self.values[0, 0, 0])
        return math.sqrt(max(0.0, float(self.second_moments[0, 0, 0]) - mean * mean))


def layers(n_slots: int) -> list[np.ndarray]:
    """Masks grouped by the number of closed slots, most closed first."""
    masks = np.arange(1 << n_slots, dtype=np.int64)
    counts = np.array([bin(m).count("1") for m in range(1 << n_slots)])
    return [masks[counts == c] for c in range(n_slots, -1, -1)]


def solve_space(space: StateSpace, progress: Progress | None = None, moments: bool = False) -> Solution:
    """Run backward induction over every layer; with ``moments`` the same pass also carries the score's spread."""
    start = time.perf_counter()
    shape = (1 << space.n_slots, 1 << space.n_flags, space.n_upper)
    values = np.zeros(shape)
    all_layers = layers(space.n_slots)
    tables = kernel_tables(space)
    second = np.zeros(shape) if moments else None
    variance = np.zeros(shape) if moments else None  # W - V^2, what the layers before read
    # numpy (the same values) while the kernels are not compiled yet, for small rules
    solve_layer = kernels.solve_layer if moments else firstrun.layer_kernel(tables, space.n_states)
    for done, masks in enumerate(all_layers, 1):
        if masks.size:
            if second is None or variance is None:
                solve_layer(tables, masks, values)
            else:  # one pass: the same values, and the second moment along the same decisions
                solve_layer12(tables, masks, values, second, variance)
        if progress is not None:
            progress(done, len(all_layers))
    return Solution(space, values, second, time.perf_counter() - start)


def solve(rules: Rules, progress: Progress | None = None, moments: bool = False) -> Solution:
    """Solve ``rules`` exactly (no cache; see :func:`cubilete.solver.cache.load_or_solve`)."""
    return solve_space(build_space(rules), progress, moments)
