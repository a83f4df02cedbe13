"""Target play where the (state x target) table does not fit (Yahtzee, Yatzy): one target at a time,
from one position.

For a final-score target ``T`` and a root position (a turn-start sheet with its points so far),
only the states that can follow the root matter, and in each only the points still needed that
its possible totals leave: with ``g`` points gained since the root somewhere in the state's window
(:func:`cubilete.win.forward.windows`), the need is ``T - so_far - g``; needs of 0 or less are
sure, needs above the most the state can still make are hopeless. So each state stores
P(reach n) for its own range of needs ("ragged" rows), built by the same backward induction as
the ``target`` table (:mod:`cubilete.win.kernels`: element-wise best over every choice), the
successors read from their rows. Exact (float64); the same values as the full table where both
exist (checked on Generala and on reduced games).

Cost: from the empty Yatzy sheet and T = 250, 115 million cells (0.9 GB) and minutes of CPU; from
a position later in the game, far fewer. A table rooted at the empty sheet serves every position
of a game (the bot's case); ``advise --target`` roots it at the position asked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from cubilete.engine.rules.model import Rules
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.solve import Solution
from cubilete.solver.space import StateSpace
from cubilete.solver.tables import KernelTables
from cubilete.solver.tablestore import TableStore
from cubilete.turn.core import rethrows
from cubilete.win.forward import popcounts, windows


def max_to_come(space: StateSpace) -> IntArray:
    """An upper bound on the points still to come from every sheet (mask): the best of every open box,
    the upper bonus and an extra bonus per open box; 0 on finished sheets."""
    S = space.n_slots
    masks = np.arange(1 << S, dtype=np.int64)
    best = np.maximum(space.pts.max(axis=(0, 2)), space.jpts.max(axis=(0, 2, 3))).astype(np.int64)
    open_ = ((~masks[:, None]) >> np.arange(S)) & 1
    n_open = open_.sum(axis=1)
    bound = open_ @ best + space.upper_bonus + space.extra_bonus * n_open
    out: IntArray = np.where(popcounts(S) >= space.rounds, 0, bound).astype(np.int64)
    return out


@njit(cache=True)
def _read(pool: F, base: int, a: int, b: int, t: int, terminal: bool) -> float:
    """P(reach need t) of a successor whose row holds needs a..b from pool[base]."""
    if t <= 0:
        return 1.0
    if terminal or t > b:
        return 0.0
    if t < a:  # cannot happen: the windows hold every total a successor can have
        return -1.0e9
    return float(pool[base + t - a])


@njit(cache=True)
def rag_scores(
    T: KernelTables, mask: int, fl: int, u: int, nlo: I, nhi: I, off: I, pool: F, pop: I,
    first: int, lo: int, out: F,
) -> None:  # fmt: skip
    """out[h, i] = best P(reach need lo + i) after scoring hand h now."""
    n_hands, width = out.shape
    n_upper = nlo.shape[0] // ((1 << T.n_flags) * (1 << T.req.shape[0]))
    n_fl = 1 << T.n_flags
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes = T.pts, T.jpts, T.req, T.flag_bit, T.closes
    ebonus_ok, upper_slot, usable, equal_face, is_upper = (
        T.ebonus_ok, T.upper_slot_of_face, T.usable, T.equal_face, T.is_upper,
    )  # fmt: skip
    for h in range(n_hands):
        row = out[h]
        row[:] = 0.0
        face = equal_face[h]
        bits = usable[mask, face]
        for j in range(req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            nu = u
            r = reward
            if is_upper[j] == 1 and n_upper > 1:
                nu = min(n_upper - 1, u + p)
                if u < T.threshold <= u + p:
                    r += T.upper_bonus
            ri = int(r + 0.5)
            d = (nmask * n_fl + nfl) * n_upper + nu
            terminal = pop[nmask] >= T.rounds
            a, b, base = nlo[d], nhi[d], off[d]
            for i in range(width):
                x = _read(pool, base, a, b, lo + i - ri, terminal)
                if x > row[i]:
                    row[i] = x


@njit(cache=True)
def rag_turn(
    T: KernelTables, mask: int, fl: int, u: int, nlo: I, nhi: I, off: I, pool: F, pop: I, lo: int,
    S1: F, S23: F, E: F, Ks: F, M: F, out: F,
) -> None:  # fmt: skip
    """out[i] = best P(reach need lo + i) from the start of a turn in (mask, fl, u); like
    :func:`cubilete.win.kernels.vec_turn` (target mode), leaving S1/S23 and Ks[t] for one decision."""
    n_hands = E.shape[0]
    rag_scores(T, mask, fl, u, nlo, nhi, off, pool, pop, 0, lo, S23)
    if T.servida:
        rag_scores(T, mask, fl, u, nlo, nhi, off, pool, pop, 1, lo, S1)
    else:
        S1[:] = S23
    rethrows(T, S1, S23, E, Ks, M)
    out[:] = 0.0
    for h in range(n_hands):
        out += T.first_roll[h] * E[h]


@njit(cache=True, parallel=True)
def rag_layer(T: KernelTables, masks: I, nlo: I, nhi: I, off: I, pool: F, pop: I, n_upper: int) -> None:
    """Fill the rows of every state of one layer (all later layers done)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_fl = 1 << T.n_flags
    for i in prange(masks.shape[0]):
        mask = masks[i]
        for fl in range(n_fl):
            for u in range(n_upper):
                s = (mask * n_fl + fl) * n_upper + u
                w = nhi[s] - nlo[s] + 1
                if w <= 0:
                    continue
                S1, S23, E = np.empty((n_hands, w)), np.empty((n_hands, w)), np.empty((n_hands, w))
                Ks = np.zeros((T.throws + 1, n_keeps, w))
                M, out = np.empty((n_keeps, w)), np.empty(w)
                rag_turn(T, mask, fl, u, nlo, nhi, off, pool, pop, nlo[s], S1, S23, E, Ks, M, out)
                pool[off[s] : off[s] + w] = out


@dataclass(eq=False)
class TargetTable:
    """Best P(reach ``target``) from every state that can follow a root position, over its own needs:
    ``value(mask, flags, upper, need)``."""

    solution: Solution
    target: int
    root: tuple[int, int, int]
    so_far: int  # points (with bonuses) at the root
    nlo: IntArray
    nhi: IntArray
    off: IntArray
    pool: FloatArray
    pop: IntArray  # closed boxes per mask
    seconds: float = 0.0

    @property
    def cells(self) -> int:
        """Probabilities stored."""
        return int(self.pool.size)

    def value(self, mask: int, flags: int, upper: int, need: int) -> float:
        """Best P(points to come >= need) from the start of a turn in (mask, flags, upper)."""
        space = self.solution.space
        if need <= 0:
            return 1.0
        if self.pop[mask] >= space.rounds:
            return 0.0
        s = (mask * (1 << space.n_flags) + flags) * space.n_upper + upper
        a, b = int(self.nlo[s]), int(self.nhi[s])
        if need > b:
            return 0.0
        if need < a:
            raise ValueError(f"need {need} is outside what the state can have left from the root ({a}..{b})")
        return float(self.pool[int(self.off[s]) + need - a])


def build_target_table(solution: Solution, target: int, root: tuple[int, int, int], so_far: int) -> TargetTable:
    """Backward induction over the states that can follow ``root`` (each over its own needs)."""
    start = time.perf_counter()
    space = solution.space
    mask0, fl0, u0 = root
    need0 = target - so_far
    lo, hi = windows(space, mask0, fl0, u0)
    pop = popcounts(space.n_slots)
    rem = np.broadcast_to(max_to_come(space)[:, None, None], lo.shape)
    valid = (hi >= lo) & (pop[:, None, None] < space.rounds)
    nlo = np.where(valid, np.maximum(1, need0 - hi), 1).ravel()
    nhi = np.where(valid, np.minimum(need0 - lo, rem), 0).ravel()
    width = np.maximum(nhi - nlo + 1, 0)
    off = (np.cumsum(width) - width).astype(np.int64)
    pool = np.full(int(width.sum()), -1.0)
    masks = np.arange(1 << space.n_slots, dtype=np.int64)
    follows = (masks & mask0) == mask0
    for c in range(space.rounds - 1, int(pop[mask0]) - 1, -1):
        layer = masks[(pop == c) & follows]
        if layer.size:
            rag_layer(solution.tables, layer, nlo, nhi, off, pool, pop, space.n_upper)
    if pool.size and pool.min() < 0.0:
        raise AssertionError("a target row read a need outside its successor's window")  # pragma: no cover
    return TargetTable(solution, target, root, so_far, nlo, nhi, off, pool, pop, time.perf_counter() - start)


KEEP = 2  # tables kept in memory (the least recently used go first)
TargetKey = tuple[Rules, int, tuple[int, int, int], int]  # rules, target, root sheet state, points so far
_SHARED: TableStore[TargetKey, TargetTable] = TableStore("target tables", max_items=KEEP)


def target_table(solution: Solution, target: int, root: tuple[int, int, int], so_far: int) -> TargetTable:
    """:func:`build_target_table`, kept in memory for the last few (rules, target, root) asked."""
    key = (solution.rules, target, root, so_far)
    return _SHARED.get_or_make(key, lambda: build_target_table(solution, target, root, so_far))
