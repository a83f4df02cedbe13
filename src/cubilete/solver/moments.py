"""Second moment of the final score under optimal play, for its standard deviation.

Once the values ``V`` are known, a second backward pass follows the same decisions
(the argmax of ``V``) and carries ``W = E[(points to come)^2]``: writing a hand with
reward ``r`` and next state ``s`` contributes ``r^2 + 2 r V[s] + W[s]``; throws average
``W`` like they average ``V``; choices take the ``W`` of the option that maximises ``V``.
Kept apart from :mod:`kernels` so the main pass stays as lean as it can be. Both moments are
carried in one pass (:func:`solve_layer12`); the separate second pass it replaced is the tests'
reference (``tests/solver/moments_reference.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome, upper_width
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows_pairs

# One pass for both moments: the values kernel's arithmetic for V (bit for bit what
# kernels.solve_layer writes), the second moment carried along the same argmax.
#
# Layout: every buffer row holds both moments of one hand or keep side by side, the first moment
# in [0, width) and the second in [width, 2 width) (width = upper totals solved). A loop then
# reads and writes a handful of rows (as the values kernel's loops do), not two arrays per moment:
# with ten arrays in a loop, two of them written, LLVM gives up the run-time alias checks and the
# loop stays scalar; with one written row it vectorises. The keep sums run over whole rows
# (both moments in one loop).


# best_scores12 carries, for the best write per hand and upper total, the variance still to come
# after it (D = W - V^2 of the sheet after): its second moment is then val^2 + D, where val is
# the write's value (points + bonuses + V after): (r + v)^2 + (w - v^2) = r^2 + 2 r v + w.
# A select per option instead of the second moment's arithmetic per option.


@njit(cache=True, inline="always")
def take12_plain(row: F, width: int, after: F, after_d: F, reward: float) -> None:
    """Where a write that leaves the upper total alone has a higher mean: its value, and the variance after it."""
    for u in range(width):
        val = reward + after[u]
        cur = row[u]
        d = after_d[u]  # every load outside the selects: a load inside one would be conditional, and scalar
        cur2 = row[width + u]
        better = val > cur  # branch-free, so that the loop vectorises
        row[width + u] = d if better else cur2
        row[u] = val if better else cur


@njit(cache=True, inline="always")
def take12_const(row: F, width: int, start: int, end: int, val: float, d: float) -> None:
    """Where one option worth the same at every upper total in start .. end - 1 is better: take it."""
    for u in range(start, end):
        cur = row[u]
        cur2 = row[width + u]
        better = val > cur
        row[width + u] = d if better else cur2
        row[u] = val if better else cur


@njit(cache=True, inline="always")
def take12_upper(
    row: F, width: int, after: F, after_d: F, reward: float, p: int, threshold: int, upper_bonus: int
) -> None:  # fmt: skip
    """Writing p points in an upper box (three ranges of u, as :func:`kernels.take_upper`)."""
    a_end = min(width, max(0, threshold - p))  # u + p < threshold: no bonus, no cap
    for u in range(a_end):
        val = reward + after[u + p]
        cur = row[u]
        d = after_d[u + p]
        cur2 = row[width + u]
        better = val > cur
        row[width + u] = d if better else cur2
        row[u] = val if better else cur
    b_end = min(width, max(a_end, threshold))  # u < threshold <= u + p: capped, bonus paid
    val = reward + after[threshold]
    val += upper_bonus
    take12_const(row, width, a_end, b_end, val, after_d[threshold])
    take12_const(row, width, b_end, width, reward + after[threshold], after_d[threshold])  # u == threshold


@njit(cache=True)
def best_scores12(T: KernelTables, mask: int, fl: int, V: F, D: F, first: int, out: F) -> None:
    """:func:`kernels.best_scores` (upper totals 0 .. width - 1) that also gives the best write's second
    moment (``D``: the variance still to come of every state, W - V^2); rows of ``out`` as above."""
    n_hands = out.shape[0]
    width = out.shape[1] // 2
    n_upper = V.shape[2]
    joker_on, extra_holds = sheet_context(T, mask, fl)
    threshold, upper_bonus, is_upper, usable, equal_face = (
        T.threshold, T.upper_bonus, T.is_upper, T.usable, T.equal_face,
    )  # fmt: skip
    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot = (
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face,
    )  # fmt: skip
    extra_bonus = T.extra_bonus
    n_slots = req.shape[0]
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
        row[:width] = NEG
        row[width:] = 0.0
        face = equal_face[h]
        if face == 0:
            for s in range(n_usable):
                j = slots[s]
                p = 0 if blocked[s] else pts[first, j, h]
                if p == 0:
                    take12_plain(row, width, V[mask0[s], fl], D[mask0[s], fl], 0.0)
                elif is_upper[j] == 1 and n_upper > 1:
                    m, f = mask1[s], fl1[s]
                    take12_upper(row, width, V[m, f], D[m, f], float(p), p, threshold, upper_bonus)
                else:
                    take12_plain(row, width, V[mask1[s], fl1[s]], D[mask1[s], fl1[s]], float(p))
        else:
            for j in range(n_slots):
                if (usable[mask, face] >> j) & 1 == 0:
                    continue
                p, nmask, nfl, reward = slot_outcome(
                    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, extra_bonus,
                    mask, fl, h, face, j, first, joker_on, extra_holds,
                )  # fmt: skip
                if is_upper[j] == 1 and n_upper > 1:
                    take12_upper(row, width, V[nmask, nfl], D[nmask, nfl], reward, p, threshold, upper_bonus)
                else:
                    take12_plain(row, width, V[nmask, nfl], D[nmask, nfl], reward)
        for u in range(width):
            x = row[u]
            row[width + u] += x * x


@njit(cache=True)
def turn_values12(
    T: KernelTables, mask: int, fl: int, V: F, D: F, A: F, B: F, E: F, Ks: F, M: F, out: F,
) -> None:  # fmt: skip
    """:func:`kernels.turn_values` (lo = 0, every upper total) for both moments at once: ``out[:width]``
    the values, ``out[width:]`` the second moments; Ks[t] each keep thrown for throw t, both moments."""
    n_hands, n_cols = E.shape
    best_scores12(T, mask, fl, V, D, INT0, B)  # later throws
    if T.servida:
        best_scores12(T, mask, fl, V, D, INT1, A)  # first throw
    else:
        A = B  # the same scores on every throw: no copy
    rethrows_pairs(T, A, B, E, Ks, M)
    out[:] = 0.0
    for h in range(n_hands):
        p = T.first_roll[h]
        row = E[h]
        for u in range(n_cols):
            out[u] += p * row[u]


@njit(cache=True, parallel=True)
def solve_layer12(T: KernelTables, masks: I, V: F, W: F, D: F) -> None:
    """Fill V and W (first and second moment of the points to come) for every state of one layer,
    and D = W - V^2 (the variance to come, read by the layers before)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_slots = T.req.shape[0]
    n_upper = V.shape[2]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        filled = 0
        flag_ok = 0
        for j in range(n_slots):
            if (mask >> j) & 1 == 1:
                filled += 1
                if T.flag_bit[j] >= 0:
                    flag_ok |= 1 << T.flag_bit[j]
        if filled >= T.rounds:
            continue
        width = upper_width(T, mask, n_upper)
        sh, sk = (n_hands, 2 * width), (n_keeps, 2 * width)
        A, B, E = np.empty(sh), np.empty(sh), np.empty(sh)
        Ks, M = np.empty((T.throws + 1, n_keeps, 2 * width)), np.empty(sk)
        out = np.empty(2 * width)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            turn_values12(T, mask, fl, V, D, A, B, E, Ks, M, out)
            for u in range(width):
                if T.reach[mask, u] == 1:
                    V[mask, fl, u] = out[u]
                    W[mask, fl, u] = out[width + u]
                    D[mask, fl, u] = out[width + u] - out[u] * out[u]
