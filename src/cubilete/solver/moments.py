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
# kernels.solve_layer writes), the second moment carried along the same argmax. The rows are
# 1-d views over the upper totals (contiguous), so the loops vectorise and nothing is allocated
# inside them.


# best_scores12 carries, for the best write per hand and upper total, the variance still to come
# after it (D = W - V^2 of the sheet after): its second moment is then val^2 + D, where val is
# the write's value (points + bonuses + V after): (r + v)^2 + (w - v^2) = r^2 + 2 r v + w.
# A select per option instead of the second moment's arithmetic per option.


@njit(cache=True, inline="always")
def take12_plain(row: F, row2: F, after: F, after_d: F, reward: float) -> None:
    """Where a write that leaves the upper total alone has a higher mean: its value, and the variance after it."""
    for u in range(row.shape[0]):
        val = reward + after[u]
        better = val > row[u]  # branch-free, so that the loop vectorises
        row2[u] = after_d[u] if better else row2[u]
        row[u] = val if better else row[u]


@njit(cache=True, inline="always")
def take12_const(row: F, row2: F, start: int, end: int, val: float, d: float) -> None:
    """Where one option worth the same at every upper total in start .. end - 1 is better: take it."""
    for u in range(start, end):
        better = val > row[u]
        row2[u] = d if better else row2[u]
        row[u] = val if better else row[u]


@njit(cache=True, inline="always")
def take12_upper(
    row: F, row2: F, after: F, after_d: F, reward: float, p: int, threshold: int, upper_bonus: int
) -> None:  # fmt: skip
    """Writing p points in an upper box (three ranges of u, as :func:`kernels.take_upper`)."""
    width = row.shape[0]
    a_end = min(width, max(0, threshold - p))  # u + p < threshold: no bonus, no cap
    for u in range(a_end):
        val = reward + after[u + p]
        better = val > row[u]
        row2[u] = after_d[u + p] if better else row2[u]
        row[u] = val if better else row[u]
    b_end = min(width, max(a_end, threshold))  # u < threshold <= u + p: capped, bonus paid
    val = reward + after[threshold]
    val += upper_bonus
    take12_const(row, row2, a_end, b_end, val, after_d[threshold])
    take12_const(row, row2, b_end, width, reward + after[threshold], after_d[threshold])  # u == threshold


@njit(cache=True)
def best_scores12(T: KernelTables, mask: int, fl: int, V: F, D: F, first: int, out1: F, out2: F) -> None:
    """:func:`kernels.best_scores` (upper totals 0 .. width - 1) that also gives the best write's second
    moment (``D``: the variance still to come of every state, W - V^2)."""
    n_hands = out1.shape[0]
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
        row = out1[h]
        row2 = out2[h]
        row[:] = NEG
        row2[:] = 0.0
        face = equal_face[h]
        if face == 0:
            for s in range(n_usable):
                j = slots[s]
                p = 0 if blocked[s] else pts[first, j, h]
                if p == 0:
                    take12_plain(row, row2, V[mask0[s], fl], D[mask0[s], fl], 0.0)
                elif is_upper[j] == 1 and n_upper > 1:
                    m, f = mask1[s], fl1[s]
                    take12_upper(row, row2, V[m, f], D[m, f], float(p), p, threshold, upper_bonus)
                else:
                    take12_plain(row, row2, V[mask1[s], fl1[s]], D[mask1[s], fl1[s]], float(p))
        else:
            for j in range(n_slots):
                if (usable[mask, face] >> j) & 1 == 0:
                    continue
                p, nmask, nfl, reward = slot_outcome(
                    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, extra_bonus,
                    mask, fl, h, face, j, first, joker_on, extra_holds,
                )  # fmt: skip
                if is_upper[j] == 1 and n_upper > 1:
                    take12_upper(row, row2, V[nmask, nfl], D[nmask, nfl], reward, p, threshold, upper_bonus)
                else:
                    take12_plain(row, row2, V[nmask, nfl], D[nmask, nfl], reward)
        for u in range(row.shape[0]):
            row2[u] += row[u] * row[u]


@njit(cache=True)
def keep_values12(E1: F, E2: F, add: I, remove: I, K1: F, K2: F, M1: F, M2: F) -> None:
    """:func:`kernels.keep_values` for both moments (the first exactly as there: same sums, same order)."""
    n_hands, n_upper = E1.shape
    n_keeps = K1.shape[0]
    K1[:n_hands] = E1
    K2[:n_hands] = E2
    sixth = 1.0 / 6.0
    for k in range(n_hands, n_keeps):
        for K in (K1, K2):
            row = K[k]
            c0, c1, c2 = K[add[k, 0]], K[add[k, 1]], K[add[k, 2]]
            c3, c4, c5 = K[add[k, 3]], K[add[k, 4]], K[add[k, 5]]
            for u in range(n_upper):
                acc = 0.0 + c0[u]
                acc += c1[u]
                acc += c2[u]
                acc += c3[u]
                acc += c4[u]
                acc += c5[u]
                row[u] = acc * sixth
    closure12(K1, K2, remove, n_hands, M1, M2)


@njit(cache=True, inline="always")
def take3(row: F, row2: F, base: F, base2: F, a: F, a2: F, b: F, b2: F, c: F, c2: F) -> None:
    """(row, row2) = the option of highest mean among base, a, b, c (earliest on ties), in one pass."""
    for u in range(row.shape[0]):
        m = base[u]
        m2 = base2[u]
        x = a[u]
        better = x > m
        m2 = a2[u] if better else m2
        m = x if better else m
        x = b[u]
        better = x > m
        m2 = b2[u] if better else m2
        m = x if better else m
        x = c[u]
        better = x > m
        m2 = c2[u] if better else m2
        m = x if better else m
        row[u] = m
        row2[u] = m2


@njit(cache=True, inline="always")
def take_subs(row: F, row2: F, base: F, base2: F, remove: I, k: int, M1: F, M2: F) -> None:
    """(row, row2) = the best of base and the sub-keeps of k with one die less (three a pass)."""
    n, s0, s1, s2, s3, s4, s5 = subs_of(remove, k)
    if n == 0:
        row[:] = base
        row2[:] = base2
        return
    take3(row, row2, base, base2, M1[s0], M2[s0], M1[s1], M2[s1], M1[s2], M2[s2])
    if n > 3:
        take3(row, row2, row, row2, M1[s3], M2[s3], M1[s4], M2[s4], M1[s5], M2[s5])


@njit(cache=True)
def closure12(K1: F, K2: F, remove: I, n_hands: int, M1: F, M2: F) -> None:
    """:func:`kernels.closure`, carrying the second moment of the best sub-keep."""
    n_keeps = K1.shape[0]
    for k in range(n_keeps - 1, n_hands - 1, -1):
        take_subs(M1[k], M2[k], K1[k], K2[k], remove, k, M1, M2)


@njit(cache=True)
def improve12(S1: F, S2: F, M1: F, M2: F, remove: I, E1: F, E2: F) -> None:
    """:func:`kernels.improve_with_rethrow` for both moments."""
    for h in range(E1.shape[0]):
        take_subs(E1[h], E2[h], S1[h], S2[h], remove, h, M1, M2)


@njit(cache=True)
def locked_keep_values12(T: KernelTables, S1: F, S2: F, K1: F, K2: F, N1: F, N2: F) -> None:
    """:func:`kernels.locked_keep_values` for both moments."""
    n_keeps, n_upper = K1.shape
    n_hands = S1.shape[0]
    b1 = np.empty(n_upper)
    b2 = np.empty(n_upper)
    for k in range(n_hands, n_keeps):
        row = N1[k]
        row2 = N2[k]
        row[:] = 0.0
        row2[:] = 0.0
        for e in range(T.edge_ptr[k], T.edge_ptr[k + 1]):
            b1[:] = S1[T.edge_hand[e]]
            b2[:] = S2[T.edge_hand[e]]
            for b in range(T.between_ptr[e], T.between_ptr[e + 1]):
                sub = K1[T.between[b]]
                sub2 = K2[T.between[b]]
                for u in range(n_upper):
                    better = sub[u] > b1[u]
                    b2[u] = sub2[u] if better else b2[u]
                    b1[u] = sub[u] if better else b1[u]
            p = T.edge_prob[e]
            for u in range(n_upper):
                row[u] += p * b1[u]
                row2[u] += p * b2[u]


@njit(cache=True)
def turn_values12(
    T: KernelTables, mask: int, fl: int, V: F, D: F,
    A1: F, A2: F, B1: F, B2: F, E1: F, E2: F, K1: F, K2: F, M1: F, M2: F, out1: F, out2: F,
) -> None:  # fmt: skip
    """:func:`kernels.turn_values` (lo = 0, every upper total) for both moments at once."""
    n_hands, n_upper = E1.shape
    throws = T.throws
    best_scores12(T, mask, fl, V, D, INT0, B1, B2)  # later throws
    if T.servida:
        best_scores12(T, mask, fl, V, D, INT1, A1, A2)  # first throw
    else:
        A1[:] = B1
        A2[:] = B2
    if throws == 1:
        E1[:] = A1
        E2[:] = A2
    elif T.locked:
        n_keeps = K1.shape[0]
        K1[:] = 0.0
        K2[:] = 0.0
        keep_values12(B1, B2, T.add, T.remove, K1, K2, M1, M2)  # Ks[throws]
        N1, N2 = np.empty((n_keeps, n_upper)), np.empty((n_keeps, n_upper))
        for _t in range(throws - 1, 1, -1):  # earlier throws: the next keep must contain this one
            locked_keep_values12(T, B1, B2, K1, K2, N1, N2)
            K1[n_hands:] = N1[n_hands:]
            K2[n_hands:] = N2[n_hands:]
            K1[:n_hands] = B1
            K2[:n_hands] = B2
        closure12(K1, K2, T.remove, n_hands, M1, M2)
        improve12(A1, A2, M1, M2, T.remove, E1, E2)
    else:
        E1[:] = B1
        E2[:] = B2
        for t in range(throws, 1, -1):  # E holds the values after throw t
            keep_values12(E1, E2, T.add, T.remove, K1, K2, M1, M2)
            if t == 2:
                improve12(A1, A2, M1, M2, T.remove, E1, E2)
            else:
                improve12(B1, B2, M1, M2, T.remove, E1, E2)
    out1[:] = 0.0
    out2[:] = 0.0
    for h in range(n_hands):
        p = T.first_roll[h]
        row = E1[h]
        row2 = E2[h]
        for u in range(n_upper):
            out1[u] += p * row[u]
            out2[u] += p * row2[u]


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
        sh, sk = (n_hands, width), (n_keeps, width)
        A1, A2, B1, B2, E1, E2 = (np.empty(sh), np.empty(sh), np.empty(sh), np.empty(sh), np.empty(sh), np.empty(sh))
        K1, K2, M1, M2 = np.empty(sk), np.empty(sk), np.empty(sk), np.empty(sk)
        out1 = np.empty(width)
        out2 = np.empty(width)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            turn_values12(T, mask, fl, V, D, A1, A2, B1, B2, E1, E2, K1, K2, M1, M2, out1, out2)
            for u in range(width):
                if T.reach[mask, u] == 1:
                    V[mask, fl, u] = out1[u]
                    W[mask, fl, u] = out2[u]
                    D[mask, fl, u] = out2[u] - out1[u] * out1[u]
