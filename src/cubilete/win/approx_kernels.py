"""The compiled arithmetic of approximate heads-up win play (:mod:`cubilete.win.approx`), shared by the Python
bot and the measurement loop (``benchmarks/win_approx.py``) so that both play the same moves.

Every end of this turn (hand h written in box j) leads to a sheet. Early in the game its points still to
come, under expected-score play, are taken as normal with the solver's mean ``V`` and variance ``D``; late
in the game (at most ``k`` turns left: the *tail*, :func:`tail_fill`) their exact distribution is read from
a small table ``Wc`` (survival functions, the ``follow`` vectors of :mod:`cubilete.win.kernels` for the
sheets with few boxes open only, rows by ``idx[mask]``). The opponent's final score enters as ``G[s]`` =
P(Y < s) + P(Y = s) / 2 over integer scores s (:func:`share_table`): exact from its sheet in the tail
(a point mass once it is done), else normal with its own mean and variance. The share of the win of an end
is then sum_x P(X = x) G[points + x] in the tail, else P(X - Y > 0) + P(X = Y) / 2 for two independent
normals, Phi(m / s) with the continuity correction (m, s: mean and spread of X - Y). This turn is solved
exactly for the expected share (:func:`approx_turn`, the keeps by :func:`cubilete.turn.core.rethrows`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows, rethrows_by_last


@njit(cache=True, inline="always")
def normal_share(lead: float, var: float) -> float:
    """P(X - Y > 0) + P(X = Y) / 2 for integer scores whose difference has mean ``lead`` and variance ``var``."""
    if var <= 1e-9:  # both scores known: exact
        return 1.0 if lead > 0.5 else (0.0 if lead < -0.5 else 0.5)
    out: float = 0.5 * math.erfc(-lead / math.sqrt(2.0 * var))
    return out


@njit(cache=True)
def share_table(
    idx: I, Wc: F, mask: int, fl: int, u: int, so_far: int, mean: float, var: float, done: bool, G: F
) -> None:  # fmt: skip
    """G[s] = P(Y < s) + P(Y = s) / 2 for the opponent's final score Y (s = 0 .. len(G) - 1): a point mass
    at ``so_far`` once it is done, exact from its sheet (mask, fl, u) in the tail, else normal (mean, var)."""
    n = G.shape[0]
    if done:
        for s in range(n):
            G[s] = 1.0 if s > so_far else (0.5 if s == so_far else 0.0)
        return
    ci = idx[mask]
    if ci < 0:
        for s in range(n):
            G[s] = normal_share(s - mean, var)
        return
    S = Wc[ci, fl, u]
    L = S.shape[0]
    below = 0.0  # P(Y < s)
    for s in range(n):
        t = s - so_far
        p = 0.0
        if 0 <= t < L:
            p = S[t] - (S[t + 1] if t + 1 < L else 0.0)
        G[s] = below + 0.5 * p
        below += p


@njit(cache=True, inline="always")
def end_share(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, h: int, face: int, j: int, first: int,
    joker_on: bool, extra_holds: bool, lead: float, opp_var: float, so_far: int, idx: I, Wc: F, G: F,
) -> float:  # fmt: skip
    """The estimated share of the win writing hand h in box j (``so_far``: points so far; ``lead``: those minus
    the opponent's mean; ``G``: the opponent's :func:`share_table`)."""
    n_upper = V.shape[2]
    p, nmask, nfl, reward = slot_outcome(
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
        mask, fl, h, face, j, first, joker_on, extra_holds,
    )  # fmt: skip
    nu = u
    r = reward
    if T.is_upper[j] == 1 and n_upper > 1:
        nu = min(n_upper - 1, u + p)
        if u < T.threshold <= u + p:
            r += T.upper_bonus
    filled = 0
    for i in range(T.req.shape[0]):
        filled += (nmask >> i) & 1
    n = G.shape[0]
    base = so_far + int(r + 0.5)
    if filled >= T.rounds:
        out: float = G[min(n - 1, base)]
        return out
    if opp_var == 0.0 and lead + r > 0.5:  # a finished opponent passed: points never fall
        return 1.0
    ci = idx[nmask]
    if ci >= 0:  # the tail: this sheet's exact points to come
        S = Wc[ci, nfl, nu]
        L = S.shape[0]
        total = 0.0
        for t in range(L):
            pt = S[t] - (S[t + 1] if t + 1 < L else 0.0)
            if pt > 0.0:
                total += pt * G[min(n - 1, base + t)]
        return total
    return normal_share(lead + r + V[nmask, nfl, nu], D[nmask, nfl, nu] + opp_var)


@njit(cache=True)
def approx_scores(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float, so_far: int, idx: I,
    Wc: F, G: F, first: int, S: F,
) -> None:  # fmt: skip
    """S[h, 0] = the best estimated share of writing hand h now."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    n_slots = T.req.shape[0]
    for h in range(S.shape[0]):
        best = 0.0
        face = T.equal_face[h]
        bits = T.usable[mask, face]
        for j in range(n_slots):
            if (bits >> j) & 1 == 0:
                continue
            x = end_share(
                T, V, D, mask, fl, u, h, face, j, first, joker_on, extra_holds, lead, opp_var, so_far, idx, Wc, G
            )  # fmt: skip
            if x > best:
                best = x
        S[h, 0] = best


@njit(cache=True)
def approx_slot_shares(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float, so_far: int, idx: I,
    Wc: F, G: F, h: int, first: int, out: F,
) -> None:  # fmt: skip
    """out[j] = the estimated share of writing hand h in box j now (NaN where the box cannot take it)."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    for j in range(T.req.shape[0]):
        if (bits >> j) & 1 == 0:
            out[j] = np.nan
        else:
            out[j] = end_share(
                T, V, D, mask, fl, u, h, face, j, first, joker_on, extra_holds, lead, opp_var, so_far, idx, Wc, G
            )  # fmt: skip


@njit(cache=True)
def approx_turn(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float, so_far: int, idx: I,
    Wc: F, G: F, S1: F, S23: F, E: F, Ks: F, M: F,
) -> None:  # fmt: skip
    """Ks[t, k, 0] = the estimated share throwing keep k for throw t, this turn played for it;
    E[h, 0] the share of each first-throw hand (as :func:`cubilete.win.decide.win_turn`)."""
    approx_scores(T, V, D, mask, fl, u, lead, opp_var, so_far, idx, Wc, G, INT0, S23)
    if T.servida:
        approx_scores(T, V, D, mask, fl, u, lead, opp_var, so_far, idx, Wc, G, INT1, S1)
    else:
        S1[:] = S23
    rethrows(T, S1, S23, E, Ks, M)


@njit(cache=True)
def tail_scores(T: KernelTables, mask: int, fl: int, u: int, idx: I, Wc: F, V: F, first: int, out: F) -> None:
    """out[h] = (P(points to come >= i) for i < L, expected points) after writing hand h in the box of the most
    expected points (as :func:`cubilete.win.kernels.vec_scores` in ``follow`` mode, on the tail's rows)."""
    n_hands, width = out.shape
    n_upper = V.shape[2]
    L = width - 1
    joker_on, extra_holds = sheet_context(T, mask, fl)
    for h in range(n_hands):
        row = out[h]
        row[:] = 0.0
        best = NEG
        face = T.equal_face[h]
        bits = T.usable[mask, face]
        for j in range(T.req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            nu = u
            r = reward
            if T.is_upper[j] == 1 and n_upper > 1:
                nu = min(n_upper - 1, u + p)
                if u < T.threshold <= u + p:
                    r += T.upper_bonus
            val = r + V[nmask, nfl, nu]
            if val > best:
                best = val
                row[L] = val
                ri = int(r + 0.5)
                after = Wc[idx[nmask], nfl, nu]
                for i in range(L):
                    t = i - ri
                    row[i] = after[t] if 0 < t < L else (1.0 if t <= 0 else 0.0)


@njit(cache=True, parallel=True)
def tail_fill(T: KernelTables, masks: I, idx: I, Wc: F, V: F) -> None:
    """Fill the tail's rows Wc[idx[mask]] of one layer (all later layers done): under expected-score play,
    P(points still to come >= t) from the start of a turn (terminal sheets: [1, 0, 0, ...])."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_slots = T.req.shape[0]
    n_upper = Wc.shape[2]
    L = Wc.shape[3]
    width = L + 1
    for i in prange(masks.shape[0]):
        mask = masks[i]
        ci = idx[mask]
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
                    Wc[ci, fl, u, 0] = 1.0
            continue
        S1 = np.empty((n_hands, width))
        S23 = np.empty((n_hands, width))
        E = np.empty((n_hands, width))
        Ks = np.empty((T.throws + 1, n_keeps, width))
        M = np.empty((n_keeps, width))
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            for u in range(n_upper):
                if T.reach[mask, u] != 1:
                    continue
                tail_scores(T, mask, fl, u, idx, Wc, V, INT0, S23)
                if T.servida:
                    tail_scores(T, mask, fl, u, idx, Wc, V, INT1, S1)
                else:
                    S1[:] = S23
                rethrows_by_last(T, S1, S23, E, Ks, M)
                row = Wc[ci, fl, u]
                row[:] = 0.0
                for h in range(n_hands):
                    for t in range(L):
                        row[t] += T.first_roll[h] * E[h, t]
