"""The compiled arithmetic of approximate heads-up win play (:mod:`cubilete.win.approx`), shared by the Python
bot and the measurement loop (``benchmarks/win_approx.py``) so that both play the same moves.

Every end of this turn (hand h written in box j) leads to a sheet whose points still to come, under
expected-score play, have mean ``V`` and variance ``D`` (the solver's moments). The player's final score
is taken as normal with that mean (plus the points so far and gained now) and variance, the opponent's
as normal with its own (a point mass once it is done), independent: the share of the win is then
P(X - Y > 0) + P(X = Y) / 2, which for integer scores is Phi(m / s) with the continuity correction
(m, s: mean and spread of X - Y). This turn is solved exactly for the expected share
(:func:`approx_turn`, the keeps by :func:`cubilete.turn.core.rethrows`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.kernels import INT0, INT1, sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows


@njit(cache=True, inline="always")
def normal_share(lead: float, var: float) -> float:
    """P(X - Y > 0) + P(X = Y) / 2 for integer scores whose difference has mean ``lead`` and variance ``var``."""
    if var <= 1e-9:  # both scores known: exact
        return 1.0 if lead > 0.5 else (0.0 if lead < -0.5 else 0.5)
    out: float = 0.5 * math.erfc(-lead / math.sqrt(2.0 * var))
    return out


@njit(cache=True, inline="always")
def end_share(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, h: int, face: int, j: int, first: int,
    joker_on: bool, extra_holds: bool, lead: float, opp_var: float,
) -> float:  # fmt: skip
    """The estimated share of the win writing hand h in box j (``lead``: points so far minus the opponent's mean)."""
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
    if filled >= T.rounds or (opp_var == 0.0 and lead + r > 0.5):  # a finished opponent passed: points never fall
        return normal_share(lead + r, opp_var)
    return normal_share(lead + r + V[nmask, nfl, nu], D[nmask, nfl, nu] + opp_var)


@njit(cache=True)
def approx_scores(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float, first: int, S: F
) -> None:
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
            x = end_share(T, V, D, mask, fl, u, h, face, j, first, joker_on, extra_holds, lead, opp_var)
            if x > best:
                best = x
        S[h, 0] = best


@njit(cache=True)
def approx_slot_shares(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float, h: int, first: int,
    out: F,
) -> None:  # fmt: skip
    """out[j] = the estimated share of writing hand h in box j now (NaN where the box cannot take it)."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    for j in range(T.req.shape[0]):
        if (bits >> j) & 1 == 0:
            out[j] = np.nan
        else:
            out[j] = end_share(T, V, D, mask, fl, u, h, face, j, first, joker_on, extra_holds, lead, opp_var)


@njit(cache=True)
def approx_turn(
    T: KernelTables, V: F, D: F, mask: int, fl: int, u: int, lead: float, opp_var: float,
    S1: F, S23: F, E: F, Ks: F, M: F,
) -> None:  # fmt: skip
    """Ks[t, k, 0] = the estimated share throwing keep k for throw t, this turn played for it;
    E[h, 0] the share of each first-throw hand (as :func:`cubilete.win.decide.win_turn`)."""
    approx_scores(T, V, D, mask, fl, u, lead, opp_var, INT0, S23)
    if T.servida:
        approx_scores(T, V, D, mask, fl, u, lead, opp_var, INT1, S1)
    else:
        S1[:] = S23
    rethrows(T, S1, S23, E, Ks, M)
