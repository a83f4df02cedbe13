"""The value of a many-column sheet as the sum of its columns, each solved exactly on its own.

A sheet of several columns (the 52-round General) is far too large to solve (2^52 sheet states),
but each column alone is a one-column game the solver handles in seconds (General's free column is
the ``general`` preset; the down, up and first-throw-only columns are the same boxes with that
order). When every slot gets exactly one turn, the sum of the columns' values is what a player
earns by giving the turns to the columns in a fixed rotation, so it is a value some policy reaches:
a one-turn search on top of it (the approximate bots) plays at least that well, and in practice far
better than a per-box estimate, because it knows what each column's order and remaining boxes
still allow.

>>> from cubilete.engine.rules import find_rules
>>> [r.columns[0].value for r in column_rules(find_rules("general-4-columns"))]
['down', 'up', 'free', 'first-throw']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules.model import Rules
from cubilete.solver.advisor import sheet_state
from cubilete.solver.cache import shared_solution
from cubilete.solver.solve import Solution

COLUMN_MARK = "--column-"  # in the name of a column's rule set; a profile's name (a slug) never holds "--"


def column_rules(rules: Rules) -> tuple[Rules, ...]:
    """One one-column rule set per column of the sheet (same boxes, dice and bonuses; that column's order)."""
    return tuple(
        rules.replace(name=f"{rules.name}{COLUMN_MARK}{c + 1}", columns=(order,), rounds=None)
        for c, order in enumerate(rules.columns)
    )


def is_column(rules: Rules) -> bool:
    """True for a rule set made by :func:`column_rules` (one column of a larger sheet)."""
    return COLUMN_MARK in rules.name


def decomposes(rules: Rules) -> bool:
    """True if the sheet has several columns and every slot gets one turn (no carried throws)."""
    return len(rules.columns) > 1 and rules.turns == len(rules.slots) and not rules.carry_over_throws


MEMO_ENTRIES = 200_000  # column entries remembered per column (a few tens of MB at most)


class ColumnValues:
    """Expected points still to come of a sheet: the sum over its columns of each one's exact value."""

    def __init__(self, rules: Rules, solutions: Sequence[Solution]) -> None:
        self.rules = rules
        self.solutions = tuple(solutions)
        self._width = len(rules.boxes)
        self._memo: list[dict[tuple[int | None, ...], float]] = [{} for _ in self.solutions]

    def column_value(self, column: int, part: tuple[int | None, ...]) -> float:
        """Expected points still to come in one column, from its entries so far."""
        memo = self._memo[column]
        value = memo.get(part)
        if value is None:
            if len(memo) >= MEMO_ENTRIES:
                memo.clear()
            solution = self.solutions[column]
            mask, flags, upper = sheet_state(solution, part)
            value = memo[part] = float(solution.values[mask, flags, upper])
        return value

    def future(self, card: Sequence[int | None]) -> float:
        """Expected points still to come on the whole sheet."""
        w = self._width
        return sum(self.column_value(c, tuple(card[c * w:(c + 1) * w])) for c in range(len(self.solutions)))


@lru_cache(maxsize=8)
def _column_values(rules: Rules) -> ColumnValues:
    return ColumnValues(rules, [shared_solution(r) for r in column_rules(rules)])


def column_values(rules: Rules) -> ColumnValues | None:
    """The column values of ``rules``, or None where the sheet does not decompose or a column cannot be
    solved here (too large, or not solved yet on a server that never solves in its own process)."""
    if not decomposes(rules):
        return None
    try:
        return _column_values(rules)
    except SolverUnsupportedError:
        return None
