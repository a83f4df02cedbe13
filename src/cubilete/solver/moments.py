"""Second moment of the final score under optimal play, for its standard deviation.

Once the values ``V`` are known, a second backward pass follows the same decisions
(the argmax of ``V``) and carries ``W = E[(points to come)^2]``: writing a hand with
reward ``r`` and next state ``s`` contributes ``r^2 + 2 r V[s] + W[s]``; throws average
``W`` like they average ``V``; choices take the ``W`` of the option that maximises ``V``.
Kept apart from :mod:`kernels` so the main pass stays as lean as it can be.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome, subs_of, upper_width
from cubilete.solver.tables import KernelTables


@njit(cache=True)
def best_scores2(T: KernelTables, mask: int, fl: int, V: F, W: F, first: int, out1: F, out2: F) -> None:
    """Like :func:`kernels.best_scores`, also carrying the second moment of the best option."""
    n_hands, n_upper = out1.shape
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes = T.pts, T.jpts, T.req, T.flag_bit, T.closes
    ebonus_ok, upper_slot, usable, equal_face, is_upper = (
        T.ebonus_ok, T.upper_slot_of_face, T.usable, T.equal_face, T.is_upper,
    )  # fmt: skip
    for h in range(n_hands):
        out1[h, :] = NEG
        out2[h, :] = 0.0
        face = equal_face[h]
        bits = usable[mask, face]
        for j in range(req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            for u in range(n_upper):
                nu = u
                r = reward
                if is_upper[j] == 1 and n_upper > 1:
                    nu = min(n_upper - 1, u + p)
                    if u < T.threshold <= u + p:
                        r += T.upper_bonus
                v = V[nmask, nfl, nu]
                val = r + v
                if val > out1[h, u]:
                    out1[h, u] = val
                    out2[h, u] = r * r + 2.0 * r * v + W[nmask, nfl, nu]


@njit(cache=True)
def keep_values2(E1: F, E2: F, add: I, remove: I, K1: F, K2: F, M1: F, M2: F) -> None:
    """Keep values (mean over the next die) and the best sub-keep, for both moments."""
    n_hands = E1.shape[0]
    n_keeps = K1.shape[0]
    K1[:n_hands] = E1
    K2[:n_hands] = E2
    for k in range(n_hands, n_keeps):
        K1[k] = 0.0
        K2[k] = 0.0
        for f in range(6):
            K1[k] += K1[add[k, f]] / 6.0
            K2[k] += K2[add[k, f]] / 6.0
    closure2(K1, K2, remove, n_hands, M1, M2)


@njit(cache=True)
def closure2(K1: F, K2: F, remove: I, n_hands: int, M1: F, M2: F) -> None:
    """Best sub-keep by the first moment, carrying the second."""
    n_keeps, n_upper = K1.shape
    for k in range(n_keeps - 1, n_hands - 1, -1):
        M1[k] = K1[k]
        M2[k] = K2[k]
        for f in range(6):
            r = remove[k, f]
            if r >= 0:
                for u in range(n_upper):
                    if M1[r, u] > M1[k, u]:
                        M1[k, u] = M1[r, u]
                        M2[k, u] = M2[r, u]


@njit(cache=True)
def locked_keep_values2(T: KernelTables, S1: F, S2: F, K1: F, K2: F, N1: F, N2: F) -> None:
    """Like :func:`kernels.locked_keep_values`, for both moments."""
    n_keeps, n_upper = K1.shape
    n_hands = S1.shape[0]
    b1 = np.empty(n_upper)
    b2 = np.empty(n_upper)
    for k in range(n_hands, n_keeps):
        N1[k] = 0.0
        N2[k] = 0.0
        for e in range(T.edge_ptr[k], T.edge_ptr[k + 1]):
            b1[:] = S1[T.edge_hand[e]]
            b2[:] = S2[T.edge_hand[e]]
            for b in range(T.between_ptr[e], T.between_ptr[e + 1]):
                kk = T.between[b]
                for u in range(n_upper):
                    if K1[kk, u] > b1[u]:
                        b1[u] = K1[kk, u]
                        b2[u] = K2[kk, u]
            p = T.edge_prob[e]
            N1[k] += p * b1
            N2[k] += p * b2


@njit(cache=True)
def improve2(S1: F, S2: F, M1: F, M2: F, remove: I, E1: F, E2: F) -> None:
    """Score now or throw a proper sub-keep again, whichever is worth more; both moments."""
    n_hands, n_upper = E1.shape
    E1[:] = S1
    E2[:] = S2
    for h in range(n_hands):
        for f in range(6):
            r = remove[h, f]
            if r >= 0:
                for u in range(n_upper):
                    if M1[r, u] > E1[h, u]:
                        E1[h, u] = M1[r, u]
                        E2[h, u] = M2[r, u]


@njit(cache=True)
def turn_moments(T: KernelTables, mask: int, fl: int, V: F, W: F, out2: F) -> None:
    """out2[u] = E[(points to come)^2] from the start of a turn, playing the moves that maximise V."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_upper = V.shape[2]
    shape_h = (n_hands, n_upper)
    shape_k = (n_keeps, n_upper)
    A1, A2, B1, B2 = np.empty(shape_h), np.empty(shape_h), np.empty(shape_h), np.empty(shape_h)
    E1, E2 = np.empty(shape_h), np.empty(shape_h)
    K1, K2, M1, M2 = np.empty(shape_k), np.empty(shape_k), np.empty(shape_k), np.empty(shape_k)
    best_scores2(T, mask, fl, V, W, INT0, B1, B2)  # later throws
    if T.servida:
        best_scores2(T, mask, fl, V, W, INT1, A1, A2)  # first throw
    else:
        A1[:] = B1
        A2[:] = B2
    if T.throws == 1:
        E1[:] = A1
        E2[:] = A2
    elif T.locked:
        N1, N2 = np.empty(shape_k), np.empty(shape_k)
        keep_values2(B1, B2, T.add, T.remove, K1, K2, M1, M2)
        for _ in range(T.throws - 2):
            locked_keep_values2(T, B1, B2, K1, K2, N1, N2)
            K1[n_hands:] = N1[n_hands:]
            K2[n_hands:] = N2[n_hands:]
        closure2(K1, K2, T.remove, n_hands, M1, M2)
        improve2(A1, A2, M1, M2, T.remove, E1, E2)
    else:
        E1[:] = B1
        E2[:] = B2
        for t in range(T.throws, 1, -1):
            keep_values2(E1, E2, T.add, T.remove, K1, K2, M1, M2)
            if t == 2:
                improve2(A1, A2, M1, M2, T.remove, E1, E2)
            else:
                improve2(B1, B2, M1, M2, T.remove, E1, E2)
    out2[:] = 0.0
    for h in range(n_hands):
        out2 += T.first_roll[h] * E2[h]


@njit(cache=True, parallel=True)
def moments_layer(T: KernelTables, masks: I, V: F, W: F) -> None:
    """Fill W for every state of one layer (V must be complete)."""
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
        out2 = np.empty(n_upper)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            turn_moments(T, mask, fl, V, W, out2)
            for u in range(n_upper):
                if T.reach[mask, u] == 1:
                    W[mask, fl, u] = out2[u]


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
def keep_values12(E: F, add: I, remove: I, K: F, M: F) -> None:
    """:func:`kernels.keep_values` for both moments (the first exactly as there: same sums, same order)."""
    n_hands, n_cols = E.shape
    n_keeps = K.shape[0]
    K[:n_hands] = E
    sixth = 1.0 / 6.0
    for k in range(n_hands, n_keeps):  # both moments in one loop over the whole row
        row = K[k]
        c0, c1, c2 = K[add[k, 0]], K[add[k, 1]], K[add[k, 2]]
        c3, c4, c5 = K[add[k, 3]], K[add[k, 4]], K[add[k, 5]]
        for u in range(n_cols):
            acc = 0.0 + c0[u]
            acc += c1[u]
            acc += c2[u]
            acc += c3[u]
            acc += c4[u]
            acc += c5[u]
            row[u] = acc * sixth
    closure12(K, remove, n_hands, M)


@njit(cache=True, inline="always")
def take3(row: F, base: F, a: F, b: F, c: F) -> None:
    """row = the option of highest mean among base, a, b, c (earliest on ties), both moments, in one pass."""
    width = row.shape[0] // 2
    for u in range(width):
        m = base[u]
        m2 = base[width + u]
        x, x2 = a[u], a[width + u]  # loads outside the selects (a conditional load stays scalar)
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = b[u], b[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = c[u], c[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        row[u] = m
        row[width + u] = m2


@njit(cache=True, inline="always")
def take6(row: F, base: F, a: F, b: F, c: F, d: F, e: F, f: F) -> None:
    """:func:`take3` over six options (a second pass of three would read ``row`` while writing it: LLVM's
    run-time alias check then fails and the loop runs scalar)."""
    width = row.shape[0] // 2
    for u in range(width):
        m = base[u]
        m2 = base[width + u]
        x, x2 = a[u], a[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = b[u], b[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = c[u], c[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = d[u], d[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = e[u], e[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        x, x2 = f[u], f[width + u]
        better = x > m
        m2 = x2 if better else m2
        m = x if better else m
        row[u] = m
        row[width + u] = m2


@njit(cache=True, inline="always")
def take_subs(row: F, base: F, remove: I, k: int, M: F) -> None:
    """row = the best of base and the sub-keeps of k with one die less, in one pass (the same choice on
    ties as the values kernel's two passes of three: the earliest option)."""
    n, s0, s1, s2, s3, s4, s5 = subs_of(remove, k)
    if n == 0:
        row[:] = base
    elif n <= 3:
        take3(row, base, M[s0], M[s1], M[s2])
    else:
        take6(row, base, M[s0], M[s1], M[s2], M[s3], M[s4], M[s5])


@njit(cache=True)
def closure12(K: F, remove: I, n_hands: int, M: F) -> None:
    """:func:`kernels.closure`, carrying the second moment of the best sub-keep."""
    n_keeps = K.shape[0]
    for k in range(n_keeps - 1, n_hands - 1, -1):
        take_subs(M[k], K[k], remove, k, M)


@njit(cache=True)
def improve12(S: F, M: F, remove: I, E: F) -> None:
    """:func:`kernels.improve_with_rethrow` for both moments."""
    for h in range(E.shape[0]):
        take_subs(E[h], S[h], remove, h, M)


@njit(cache=True)
def locked_keep_values12(T: KernelTables, S: F, K: F, N: F) -> None:
    """:func:`kernels.locked_keep_values` for both moments."""
    n_keeps, n_cols = K.shape
    width = n_cols // 2
    n_hands = S.shape[0]
    b = np.empty(n_cols)
    for k in range(n_hands, n_keeps):
        row = N[k]
        row[:] = 0.0
        for e in range(T.edge_ptr[k], T.edge_ptr[k + 1]):
            b[:] = S[T.edge_hand[e]]
            for i in range(T.between_ptr[e], T.between_ptr[e + 1]):
                sub = K[T.between[i]]
                for u in range(width):
                    x, x2, cur, cur2 = sub[u], sub[width + u], b[u], b[width + u]
                    better = x > cur
                    b[width + u] = x2 if better else cur2
                    b[u] = x if better else cur
            p = T.edge_prob[e]
            for u in range(n_cols):
                row[u] += p * b[u]


@njit(cache=True)
def turn_values12(
    T: KernelTables, mask: int, fl: int, V: F, D: F, A: F, B: F, E: F, K: F, M: F, out: F,
) -> None:  # fmt: skip
    """:func:`kernels.turn_values` (lo = 0, every upper total) for both moments at once: ``out[:width]``
    the values, ``out[width:]`` the second moments."""
    n_hands, n_cols = E.shape
    throws = T.throws
    best_scores12(T, mask, fl, V, D, INT0, B)  # later throws
    if T.servida:
        best_scores12(T, mask, fl, V, D, INT1, A)  # first throw
    else:
        A = B  # the same scores on every throw: no copy
    if throws == 1:
        E[:] = A
    elif T.locked:
        n_keeps = K.shape[0]
        K[:] = 0.0
        keep_values12(B, T.add, T.remove, K, M)  # Ks[throws]
        N = np.empty((n_keeps, n_cols))
        for _t in range(throws - 1, 1, -1):  # earlier throws: the next keep must contain this one
            locked_keep_values12(T, B, K, N)
            K[n_hands:] = N[n_hands:]
            K[:n_hands] = B
        closure12(K, T.remove, n_hands, M)
        improve12(A, M, T.remove, E)
    else:
        E[:] = B
        for t in range(throws, 1, -1):  # E holds the values after throw t
            keep_values12(E, T.add, T.remove, K, M)
            if t == 2:
                improve12(A, M, T.remove, E)
            else:
                improve12(B, M, T.remove, E)
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
        K, M = np.empty(sk), np.empty(sk)
        out = np.empty(2 * width)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            turn_values12(T, mask, fl, V, D, A, B, E, K, M, out)
            for u in range(width):
                if T.reach[mask, u] == 1:
                    V[mask, fl, u] = out[u]
                    W[mask, fl, u] = out[width + u]
                    D[mask, fl, u] = out[width + u] - out[u] * out[u]
