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

The throws after the best box per hand are :mod:`cubilete.turn.core`'s (target mode:
:func:`~cubilete.turn.core.rethrows`, follow: :func:`~cubilete.turn.core.rethrows_by_last`).
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
from cubilete.turn.core import rethrows, rethrows_by_last


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
def vec_turn(
    T: KernelTables, mask: int, fl: int, u: int, W: F, V: F, follow: bool, lo: int,
    S1: F, S23: F, E: F, Ks: F, M: F, out: F,
) -> None:  # fmt: skip
    """out[i]: vector entry lo + i at the start of a turn in state (mask, fl, u).

    Leaves S1/S23 (per hand, scoring now on the first / a later throw) and Ks[t] (each keep
    thrown for throw t) for the advice of one decision.
    """
    n_hands = E.shape[0]
    vec_scores(T, mask, fl, u, W, V, follow, INT0, lo, S23)
    if T.servida:
        vec_scores(T, mask, fl, u, W, V, follow, INT1, lo, S1)
    else:
        S1[:] = S23
    if follow:  # the row of the larger expected points (the last column)
        rethrows_by_last(T, S1, S23, E, Ks, M)
    else:  # each target its own best
        rethrows(T, S1, S23, E, Ks, M)
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
