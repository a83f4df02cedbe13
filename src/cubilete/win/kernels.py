"""Numba kernels over a vector of remaining targets: one turn and backward induction, like
:mod:`cubilete.solver.kernels`, but each state carries a whole vector ``P[t]`` =
probability that the points still to come reach ``t`` (``P[0] = 1``).

Two modes share the code:

* **target** (``follow=False``): every choice takes the element-wise maximum, so ``P[t]`` is
  the best probability of scoring at least ``t`` more points, each ``t`` with its own policy;
* **follow** (``follow=True``): every choice is the one that maximises the expected score
  (the solver's value table ``V``); the vector is carried along, so ``P[t]`` is the
  survival function of the points to come under expected-score-optimal play. The buffers
  then have one more column at the end holding the expected points, which decides.

Scoring ``r`` points shifts the vector: ``P_before[t] = P_after[max(0, t - r)]``.
The state table is ``W[mask, flags, upper, t]``; terminal states hold ``[1, 0, 0, ...]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables


@njit(cache=True)
def vec_scores(
    T: KernelTables, mask: int, fl: int, u: int, W: F, V: F, follow: bool, first: int, lo: int, out: F
) -> None:
    """out[h, i] = best vector entry lo + i after scoring hand h now (follow: last column = expected points)."""
    n_hands, width = out.shape
    n_upper = W.shape[2]
    L = W.shape[3]
    cols = width - 1 if follow else width
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes = T.pts, T.jpts, T.req, T.flag_bit, T.closes
    ebonus_ok, upper_slot, usable, equal_face, is_upper = (
        T.ebonus_ok, T.upper_slot_of_face, T.usable, T.equal_face, T.is_upper,
    )  # fmt: skip
    for h in range(n_hands):
        row = out[h]
        row[:] = 0.0
        best = NEG
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
            after = W[nmask, nfl, nu]
            if follow:
                val = r + V[nmask, nfl, nu]
                if val > best:
                    best = val
                    row[cols] = val
                    for i in range(cols):
                        t = lo + i - ri
                        row[i] = after[t] if 0 < t < L else (1.0 if t <= 0 else 0.0)
            else:
                for i in range(cols):
                    t = lo + i - ri
                    x = after[t] if 0 < t < L else (1.0 if t <= 0 else 0.0)
                    if x > row[i]:
                        row[i] = x


@njit(cache=True)
def vec_keep_values(E: F, add: I, K: F) -> None:
    """K[k]: mean of E over the throw of the dice not in keep k (hands first, then smaller keeps)."""
    n_hands = E.shape[0]
    n_keeps = K.shape[0]
    K[:n_hands] = E
    for k in range(n_hands, n_keeps):
        row = K[k]
        row[:] = 0.0
        for f in range(6):
            row += K[add[k, f]]
        row *= 1.0 / 6.0  # as the solver's one-pass moments (and values) do: same rounding, same ties


@njit(cache=True)
def _better(a: F, b: F, follow: bool) -> None:
    """a = better of a and b: element-wise max, or (follow) the row with the larger last column."""
    if follow:
        if b[-1] > a[-1]:
            a[:] = b
    else:
        for i in range(a.shape[0]):
            if b[i] > a[i]:
                a[i] = b[i]


@njit(cache=True)
def vec_closure(K: F, remove: I, n_hands: int, follow: bool, M: F) -> None:
    """M[k] = best K over the sub-keeps of k."""
    n_keeps = K.shape[0]
    for k in range(n_keeps - 1, n_hands - 1, -1):
        M[k] = K[k]
        for f in range(6):
            r = remove[k, f]
            if r >= 0:
                _better(M[k], M[r], follow)


@njit(cache=True)
def vec_improve(S: F, M: F, remove: I, follow: bool, E: F) -> None:
    """E[h] = better of scoring now and throwing a proper sub-keep again."""
    n_hands = E.shape[0]
    for h in range(n_hands):
        E[h] = S[h]
        for f in range(6):
            r = remove[h, f]
            if r >= 0:
                _better(E[h], M[r], follow)


@njit(cache=True)
def vec_locked_keep_values(T: KernelTables, S23: F, K: F, follow: bool, Knew: F) -> None:
    """Like :func:`cubilete.solver.kernels.locked_keep_values`, over vectors."""
    n_keeps, width = K.shape
    n_hands = S23.shape[0]
    best = np.empty(width)
    for k in range(n_hands, n_keeps):
        row = Knew[k]
        row[:] = 0.0
        for e in range(T.edge_ptr[k], T.edge_ptr[k + 1]):
            best[:] = S23[T.edge_hand[e]]
            for b in range(T.between_ptr[e], T.between_ptr[e + 1]):
                _better(best, K[T.between[b]], follow)
            row += T.edge_prob[e] * best


@njit(cache=True)
def vec_turn(
    T: KernelTables, mask: int, fl: int, u: int, W: F, V: F, follow: bool, lo: int,
    S1: F, S23: F, E: F, Ks: F, M: F, out: F,
) -> None:  # fmt: skip
    """out[i]: vector entry lo + i at the start of a turn in state (mask, fl, u).

    Leaves S1/S23 (per hand, scoring now on the first / a later throw) and Ks[t] (each keep
    thrown for throw t) for the advice of one decision.
    """
    n_hands = E.shape[0]
    throws = T.throws
    vec_scores(T, mask, fl, u, W, V, follow, INT0, lo, S23)
    if T.servida:
        vec_scores(T, mask, fl, u, W, V, follow, INT1, lo, S1)
    else:
        S1[:] = S23
    if throws == 1:
        E[:] = S1
    elif T.locked:
        vec_keep_values(S23, T.add, Ks[throws])
        for t in range(throws - 1, 1, -1):
            vec_locked_keep_values(T, S23, Ks[t + 1], follow, Ks[t])
            Ks[t, :n_hands] = S23
        vec_closure(Ks[2], T.remove, n_hands, follow, M)
        vec_improve(S1, M, T.remove, follow, E)
    else:
        E[:] = S23
        for t in range(throws, 1, -1):
            vec_keep_values(E, T.add, Ks[t])
            vec_closure(Ks[t], T.remove, n_hands, follow, M)
            vec_improve(S1 if t == 2 else S23, M, T.remove, follow, E)
    out[:] = 0.0
    for h in range(n_hands):
        out += T.first_roll[h] * E[h]


@njit(cache=True, parallel=True)
def vec_layer(T: KernelTables, masks: I, W: F, V: F, follow: bool) -> None:
    """Fill W for every state of one layer (all later layers done)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_slots = T.req.shape[0]
    n_upper = W.shape[2]
    L = W.shape[3]
    width = L + 1 if follow else L
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
            for fl in range(1 << T.n_flags):
                for u in range(n_upper):
                    W[mask, fl, u, 0] = 1.0
            continue
        S1 = np.empty((n_hands, width))
        S23 = np.empty((n_hands, width))
        E = np.empty((n_hands, width))
        Ks = np.empty((T.throws + 1, n_keeps, width))
        M = np.empty((n_keeps, width))
        out = np.empty(width)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            for u in range(n_upper):
                if T.reach[mask, u] == 1:
                    vec_turn(T, mask, fl, u, W, V, follow, INT0, S1, S23, E, Ks, M, out)
                    W[mask, fl, u, :] = out[:L]
