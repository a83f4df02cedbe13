"""The separate second pass of the moments (what :func:`cubilete.solver.moments.solve_layer12` replaced):
once the values ``V`` are known, follow their argmax and carry ``W = E[(points to come)^2]``. Kept as the
one-pass solve's reference (tests/solver/test_moments.py), written apart from the code it checks."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome
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
