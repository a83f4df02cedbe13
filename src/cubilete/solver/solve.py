"""Backward induction over the sheet states of a rule set: the optimal expected final score.

Objective: expected final score for one player. Instant wins are not modelled: a
servida Generala scores as a normal (servida) Generala and play goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cubilete.rules.model import Rules
from cubilete.solver import kernels
from cubilete.solver.combinatorics import FloatArray
from cubilete.solver.space import StateSpace, build_space
from cubilete.solver.tables import kernel_tables

Progress = Callable[[int, int], None]  # (layers done, layers in all)


@dataclass(eq=False)
class Solution:
    """The value of every turn-start state: ``values[mask, flags, upper]`` = expected points to come."""

    space: StateSpace
    values: FloatArray
    seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The rules solved."""
        return self.space.rules

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a whole game."""
        return float(self.values[0, 0, 0]) + self.space.const_bonus


def layers(n_slots: int) -> list[np.ndarray]:
    """Masks grouped by the number of closed slots, most closed first."""
    masks = np.arange(1 << n_slots, dtype=np.int64)
    counts = np.array([bin(m).count("1") for m in range(1 << n_slots)])
    return [masks[counts == c] for c in range(n_slots, -1, -1)]


def solve_space(space: StateSpace, progress: Progress | None = None) -> Solution:
    """Run backward induction over every layer of the state space."""
    start = time.perf_counter()
    values = np.zeros((1 << space.n_slots, 1 << space.n_flags, space.n_upper))
    all_layers = layers(space.n_slots)
    tables = kernel_tables(space)
    for done, masks in enumerate(all_layers, 1):
        if masks.size:
            kernels.solve_layer(tables, masks, values)
        if progress is not None:
            progress(done, len(all_layers))
    return Solution(space, values, time.perf_counter() - start)


def solve(rules: Rules, progress: Progress | None = None) -> Solution:
    """Solve ``rules`` exactly (no cache; see :func:`cubilete.solver.load_or_solve`)."""
    return solve_space(build_space(rules), progress)
