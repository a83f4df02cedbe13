"""Numba kernels: one turn ("widget") solved exactly, and backward induction layer by layer.

A widget turns the values of the states after the turn into the value of the state
before it: best box for each hand (with servida values on the first throw), then for
each earlier throw the keep values by the one-die recursion and the best sub-keep by a
downward closure (:func:`cubilete.turn.core.rethrows`, shared with the other families).
All upper totals of a sheet are handled at once (the innermost, contiguous axis, so the
loops vectorise), and every sheet of a layer (same number of closed slots) is
independent, so a layer runs in parallel.

Every table comes in one :class:`~cubilete.solver.tables.KernelTables` named tuple ``T``.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows

# Constant arguments from one kernel to another (``first``, ``lo``): numpy int64s, never a bare 0 or 1,
# which numba types Literal[int](0) and Literal[int](1), compiling the callee once per value (slower
# first use). The cast keeps the kernels' int signatures for mypy.
INT0 = cast(int, np.int64(0))
INT1 = cast(int, np.int64(1))

NEG = -1.0e18


@njit(cache=True)
def sheet_context(T: KernelTables, mask: int, fl: int) -> tuple[bool, bool]:
    """(joker active, five-of-a-kind box holds points) for a sheet."""
    xs = T.extra_slot
    joker_on = T.joker and xs >= 0 and (mask >> xs) & 1 == 1
    extra_holds = xs >= 0 and T.flag_bit[xs] >= 0 and (fl >> T.flag_bit[xs]) & 1 == 1
    return joker_on, extra_holds


@njit(cache=True, inline="always")
def slot_outcome(
    pts: I, jpts: I, req: I, flag_bit: I, closes: I, ebonus_ok: I, upper_slot_of_face: I, extra_bonus: int,
    mask: int, fl: int, h: int, face: int, j: int, first: int, joker_on: bool, extra_holds: bool,
) -> tuple[int, int, int, float]:  # fmt: skip
    """Writing hand h in slot j: (points, closed mask after, flags after, reward before any upper bonus).

    Takes the tables one by one, not the named tuple: passing the tuple in the innermost
    loop costs a reference count per array per call.
    """
    if face > 0 and joker_on:
        used = 0
        us = upper_slot_of_face[face - 1]
        if us >= 0 and (mask >> us) & 1 == 1:
            used = 1
        p = jpts[first, j, face - 1, used]
    else:
        p = pts[first, j, h]
    r = req[j]
    if r >= 0 and (fl >> flag_bit[r]) & 1 == 0:
        p = 0
    nmask = mask | (1 << j)
    if p == 0:
        nmask |= closes[j]
    nfl = fl
    if flag_bit[j] >= 0 and p > 0:
        nfl |= 1 << flag_bit[j]
    reward = float(p)
    if face > 0 and extra_holds and ebonus_ok[j] == 1:
        reward += extra_bonus
    return p, nmask, nfl, reward


@njit(cache=True, inline="always")
def take_plain(row: F, after: F, reward: float, lo: int) -> None:
    """row[i] = max(row[i], reward + after[lo + i]): a box whose points leave the upper total alone."""
    for i in range(row.shape[0]):
        val = reward + after[lo + i]
        cur = row[i]
        row[i] = val if val > cur else cur  # branch-free, so that the loop vectorises


@njit(cache=True, inline="always")
def take_upper(row: F, after: F, reward: float, p: int, lo: int, threshold: int, upper_bonus: int) -> None:
    """row[i] = max(row[i], value of writing p points in an upper box at upper total u = lo + i).

    The upper total after is min(threshold, u + p) and the bonus is paid when u < threshold <= u + p
    (upper totals are capped at the threshold): three ranges of u, each a contiguous loop.
    """
    width = row.shape[0]
    a_end = min(width, max(0, threshold - p - lo))  # u + p < threshold: no bonus, no cap
    for i in range(a_end):
        val = reward + after[lo + i + p]
        cur = row[i]
        row[i] = val if val > cur else cur
    b_end = min(width, max(a_end, threshold - lo))  # u < threshold <= u + p: capped, bonus paid
    val = reward + after[threshold]
    val += upper_bonus
    for i in range(a_end, b_end):
        cur = row[i]
        row[i] = val if val > cur else cur
    val = reward + after[threshold]  # u == threshold (already paid)
    for i in range(b_end, width):
        cur = row[i]
        row[i] = val if val > cur else cur


@njit(cache=True)
def best_scores(T: KernelTables, mask: int, fl: int, V: F, first: int, lo: int, out: F) -> None:
    """out[h, i] = best (points + bonuses + value after) over the usable slots, per hand and upper total lo + i.

    The slots' sheets after a write are worked out once per slot (for the hands not of one face,
    they depend on the hand only through "points or not"); hands of one face (jokers, extra
    bonuses, their own usable slots) go through :func:`slot_outcome`.
    """
    n_hands = out.shape[0]
    n_upper = V.shape[2]
    joker_on, extra_holds = sheet_context(T, mask, fl)
    threshold, upper_bonus, is_upper, usable, equal_face = (
        T.threshold,
        T.upper_bonus,
        T.is_upper,
        T.usable,
        T.equal_face,
    )
    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot = (
        T.pts,
        T.jpts,
        T.req,
        T.flag_bit,
        T.closes,
        T.ebonus_ok,
        T.upper_slot_of_face,
    )
    extra_bonus = T.extra_bonus
    n_slots = req.shape[0]
    # per usable slot (hands not of one face): slot, blocked, sheet if 0 points, sheet if points
    slots = np.empty(n_slots, dtype=np.int64)
    blocked = np.empty(n_slots, dtype=np.bool_)
    mask0 = np.empty(n_slots, dtype=np.int64)
    mask1 = np.empty(n_slots, dtype=np.int64)
    fl1 = np.empty(n_slots, dtype=np.int64)
    n_usable = 0
    bits = usable[mask, 0]
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        r = req[j]
        slots[n_usable] = j
        blocked[n_usable] = r >= 0 and (fl >> flag_bit[r]) & 1 == 0
        mask1[n_usable] = mask | (1 << j)
        mask0[n_usable] = mask | (1 << j) | closes[j]
        fl1[n_usable] = fl | (1 << flag_bit[j]) if flag_bit[j] >= 0 else fl
        n_usable += 1
    for h in range(n_hands):
        row = out[h]
        row[:] = NEG
        face = equal_face[h]
        if face == 0:
            for s in range(n_usable):
                j = slots[s]
                p = 0 if blocked[s] else pts[first, j, h]
                if p == 0:
                    take_plain(row, V[mask0[s], fl], 0.0, lo)
                elif is_upper[j] == 1 and n_upper > 1:
                    take_upper(row, V[mask1[s], fl1[s]], float(p), p, lo, threshold, upper_bonus)
                else:
                    take_plain(row, V[mask1[s], fl1[s]], float(p), lo)
            continue
        fbits = usable[mask, face]
        for j in range(n_slots):
            if (fbits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            if is_upper[j] == 1 and n_upper > 1:
                take_upper(row, V[nmask, nfl], reward, p, lo, threshold, upper_bonus)
            else:
                take_plain(row, V[nmask, nfl], reward, lo)


@njit(cache=True)
def turn_values(T: KernelTables, mask: int, fl: int, lo: int, V: F, S1: F, S23: F, E: F, Ks: F, M: F, out: F) -> None:
    """out[i] = expected points to come from the start of a turn in sheet (mask, fl), upper total lo + i.

    The buffers' last axis is as wide as the upper totals wanted (all of them from 0, or just one).
    Also leaves S1/S23 (best score per hand on the first / a later throw) and Ks[t] (the value of
    each keep thrown for throw t, t = 2..throws) for the advisor.
    """
    n_hands, n_upper = E.shape
    best_scores(T, mask, fl, V, INT0, lo, S23)
    if T.servida:
        best_scores(T, mask, fl, V, INT1, lo, S1)
    else:
        S1[:] = S23
    rethrows(T, S1, S23, E, Ks, M)
    out[:] = 0.0
    for h in range(n_hands):
        p = T.first_roll[h]
        row = E[h]
        for u in range(n_upper):
            out[u] += p * row[u]


@njit(cache=True)
def upper_width(T: KernelTables, mask: int, n_upper: int) -> int:
    """1 + the highest upper total the closed upper boxes of ``mask`` can reach: the turn is solved for
    upper totals 0 .. width - 1 only (with few upper boxes closed, the high totals can't happen)."""
    width = 1
    for u in range(n_upper):
        if T.reach[mask, u] == 1:
            width = u + 1
    return width


@njit(cache=True, parallel=True)
def solve_layer(T: KernelTables, masks: I, V: F) -> None:
    """Fill V for every state whose mask is in ``masks`` (one layer: all independent)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_slots = T.req.shape[0]
    n_upper = V.shape[2]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        filled = 0
        flag_ok = 0  # flags whose box is closed
        for j in range(n_slots):
            if (mask >> j) & 1 == 1:
                filled += 1
                if T.flag_bit[j] >= 0:
                    flag_ok |= 1 << T.flag_bit[j]
        if filled >= T.rounds:
            continue  # terminal: nothing more to score
        width = upper_width(T, mask, n_upper)
        S1 = np.empty((n_hands, width))
        S23 = np.empty((n_hands, width))
        E = np.empty((n_hands, width))
        Ks = np.empty((T.throws + 1, n_keeps, width))
        M = np.empty((n_keeps, width))
        out = np.empty(width)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            turn_values(T, mask, fl, INT0, V, S1, S23, E, Ks, M, out)
            for u in range(width):
                if T.reach[mask, u] == 1:
                    V[mask, fl, u] = out[u]
