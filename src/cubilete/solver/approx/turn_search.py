"""An exact search over one turn: every keep and every throw left, for any value of the final hand.

The turn "widget" of the solver, in numpy and for one sheet at a time: a keep is worth the
mean of its one-die extensions; a hand is worth the best of stopping (a value given by the
caller) and keeping a proper part of it to throw again. The bots use it with the points of
the turn plus an approximate value of the future (rules too large to solve exactly), and for
tie-break hands.

>>> import numpy as np
>>> from cubilete.solver.combinatorics import dice_tables
>>> t = dice_tables(1)
>>> values = np.array([float(k[0]) for k in t.keeps[: t.n_hands]])  # one die, worth its face
>>> float(keep_values(t, values)[t.index(())])  # throw it: 3.5 on average
3.5
>>> round(float(hand_values(t, values, throws_left=1)[t.index((1,))]), 2)  # a 1 is thrown again
3.5
"""

from __future__ import annotations

import numpy as np

from cubilete.solver.combinatorics import DiceTables, FloatArray


def keep_values(tables: DiceTables, final: FloatArray) -> FloatArray:
    """The expected value of every keep when the other dice are thrown and the hand is worth ``final``."""
    values = np.empty(tables.n_keeps)
    values[: tables.n_hands] = final
    for size in range(tables.n - 1, -1, -1):
        idx = np.flatnonzero(tables.sizes == size)
        values[idx] = values[tables.add[idx]].mean(axis=1)
    return values


def best_sub_keep(tables: DiceTables, keeps: FloatArray) -> FloatArray:
    """For every hand, the value of its best proper sub-keep (a part of it kept, the rest thrown)."""
    best = keeps.copy()
    for size in range(1, tables.n):
        idx = np.flatnonzero(tables.sizes == size)
        rem = tables.remove[idx]
        below = np.where(rem >= 0, best[np.maximum(rem, 0)], -np.inf).max(axis=1)
        best[idx] = np.maximum(best[idx], below)
    rem = tables.remove[: tables.n_hands]
    out: FloatArray = np.where(rem >= 0, best[np.maximum(rem, 0)], -np.inf).max(axis=1)
    return out


def hand_values(tables: DiceTables, stop: FloatArray, throws_left: int) -> FloatArray:
    """The value of each hand with ``throws_left`` throws still allowed, stopping worth ``stop``."""
    values = stop
    for _ in range(throws_left):
        values = np.maximum(stop, best_sub_keep(tables, keep_values(tables, values)))
    return values


def next_keep_values(tables: DiceTables, stop: FloatArray, throws_left: int) -> FloatArray:
    """The value of every keep now, when ``throws_left`` throws are left (the next one included)."""
    return keep_values(tables, hand_values(tables, stop, throws_left - 1))
