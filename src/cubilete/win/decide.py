"""The arithmetic of one win-bot or target-bot decision, compiled once and shared by the Python bots
(:func:`cubilete.win.play.win_options`, :func:`cubilete.win.play.target_options`) and the compiled
simulation (:mod:`cubilete.simulate.fastsim.loop`),
so that both compute the same floating-point numbers in the same order and play the same moves.

* :func:`utility`: ``u[x - start]`` = share of the win for a final score x against independent
  opponents (ties split evenly), and ``du`` its increments with the range where they are not zero;
  :func:`step_utility` the target bot's: 1 from the target on (then E[u(final)] = P(final >= T));
* :func:`sheet_share`: E[u(final)] after reaching a sheet with ``c`` points gained this turn:
  ``u[c] + sum over t >= 1 of P(reach t more) * du[c + t]`` (the target table's row);
* :func:`win_turn`: this turn solved exactly for E[u(final)] (the keep values, width 1), as
  :func:`cubilete.win.kernels.vec_turn` does over a table of end-of-turn values, but each value
  computed when first needed and kept in a memo for the turn (``memo``/``stamps``: one cell per
  slot, closing variant, flag variant, upper step and points);
* :func:`slot_shares`: the share of each box written with a hand now.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows


@njit(cache=True)
def utility(pmfs: F, sizes: I, offsets: I, start: int, u: F, du: F) -> tuple[int, int]:
    """u[i] = share of the win finishing on start + i against opponents k (``pmfs[k, :sizes[k]]`` from
    ``offsets[k]``, in seat order), ties split evenly; du[i] = u[i] - u[i - 1] (du[0] = u[0]).
    Returns (lo, hi): du is zero outside lo .. hi - 1."""
    K = sizes.shape[0]
    n = u.shape[0]
    width = pmfs.shape[1] if K > 0 else 0
    cdf = np.zeros((K, width + 1))
    for k in range(K):
        acc = 0.0
        for i in range(sizes[k]):
            acc += pmfs[k, i]
            cdf[k, i + 1] = acc
    c = np.empty(K + 1)
    nxt = np.empty(K + 1)
    for i in range(n):
        x = start + i
        c[0] = 1.0
        m = 1
        for k in range(K):
            idx = x - offsets[k]
            size = sizes[k]
            below = cdf[k, min(max(idx, 0), size)]
            equal = pmfs[k, idx] if 0 <= idx < size else 0.0
            for j in range(m + 1):
                v = c[j] * below if j < m else 0.0
                if j >= 1:
                    v = v + c[j - 1] * equal
                nxt[j] = v
            m += 1
            for j in range(m):
                c[j] = nxt[j]
        total = 0.0
        for j in range(m):
            total += (1.0 / (j + 1)) * c[j]
        u[i] = total
    lo = n
    hi = 0
    prev = 0.0
    for i in range(n):
        du[i] = u[i] - prev
        prev = u[i]
        if du[i] != 0.0:
            lo = min(lo, i)
            hi = i + 1
    return lo, hi


@njit(cache=True)
def step_utility(need: int, u: F, du: F) -> tuple[int, int]:
    """The target bot's utility: u[i] = 1 when i more points reach the target (i >= need), else 0; du its
    increments (one step at ``need``). Returns (lo, hi) as :func:`utility`: du is zero outside lo .. hi - 1."""
    n = u.shape[0]
    lo = n
    hi = 0
    prev = 0.0
    for i in range(n):
        u[i] = 1.0 if i >= need else 0.0
        du[i] = u[i] - prev
        prev = u[i]
        if du[i] != 0.0:
            lo = min(lo, i)
            hi = i + 1
    return lo, hi


@njit(cache=True, inline="always")
def sheet_share(row: F, terminal: bool, u: F, du: F, lo: int, hi: int, c: int) -> float:
    """E[u(final)] reaching a sheet (its target row, or a finished sheet) with c points gained this turn.
    Terms where du is zero are left out (they add exactly nothing)."""
    s = 0.0
    if not terminal:
        L = row.shape[0]
        for t in range(max(1, lo - c), min(L, hi - c)):
            r = row[t]
            if r != 0.0:
                s += r * du[c + t]
    out: float = u[c] + s
    return out


@njit(cache=True, inline="always")
def share_of_slot(
    T: KernelTables, mask: int, fl: int, u: int, Wt: F, uu: F, du: F, lo: int, hi: int, memo: F, stamps: I,
    stamp: int, h: int, face: int, j: int, first: int, joker_on: bool, extra_holds: bool,
) -> float:  # fmt: skip
    """The share of writing hand h in slot j (memoised for the turn)."""
    return _share(
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus, T.is_upper,
        T.threshold, T.upper_bonus, T.rounds, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, h, face, j,
        first, joker_on, extra_holds,
    )  # fmt: skip


@njit(cache=True, inline="always")
def _share(
    pts: I, jpts: I, req: I, flag_bit: I, closes: I, ebonus_ok: I, upper_slot_of_face: I, extra_bonus: int,
    is_upper: I, threshold: int, upper_bonus: int, rounds: int, mask: int, fl: int, u: int, Wt: F, uu: F, du: F,
    lo: int, hi: int, memo: F, stamps: I, stamp: int, h: int, face: int, j: int, first: int, joker_on: bool,
    extra_holds: bool,
) -> float:  # fmt: skip
    """:func:`share_of_slot` on the tables one by one (no named tuple in the inner loop)."""
    n_upper = Wt.shape[2]
    p, nmask, nfl, reward = slot_outcome(
        pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot_of_face, extra_bonus,
        mask, fl, h, face, j, first, joker_on, extra_holds,
    )  # fmt: skip
    nu = u
    r = reward
    if is_upper[j] == 1 and n_upper > 1:
        nu = min(n_upper - 1, u + p)
        if u < threshold <= u + p:
            r += upper_bonus
    ri = int(r + 0.5)
    a = 0 if nmask == mask | (1 << j) else 1
    b = 0 if nfl == fl else 1
    if stamps[j, a, b, nu - u, ri] == stamp:
        got: float = memo[j, a, b, nu - u, ri]
        return got
    filled = 0
    for i in range(req.shape[0]):
        filled += (nmask >> i) & 1
    val = sheet_share(Wt[nmask, nfl, nu], filled >= rounds, uu, du, lo, hi, ri)
    memo[j, a, b, nu - u, ri] = val
    stamps[j, a, b, nu - u, ri] = stamp
    return val


def memo_shape(T: KernelTables, n_upper: int, most: int) -> tuple[int, int, int, int, int]:
    """The memo's shape: slots x closing x flag x upper steps x points (0 .. ``most``, the most a turn adds)."""
    return (int(T.req.shape[0]), 2, 2, n_upper, most + 1)


@njit(cache=True)
def win_scores(
    T: KernelTables, mask: int, fl: int, u: int, Wt: F, uu: F, du: F, lo: int, hi: int, memo: F, stamps: I,
    stamp: int, first: int, S: F,
) -> None:  # fmt: skip
    """S[h, 0] = best share of scoring hand h now (0 when nothing is better), as vec_scores in target mode."""
    n_hands = S.shape[0]
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes, ebonus_ok, usf = (
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face,
    )  # fmt: skip
    extra_bonus, is_upper, threshold, upper_bonus, rounds = (
        T.extra_bonus,
        T.is_upper,
        T.threshold,
        T.upper_bonus,
        T.rounds,
    )
    usable, equal_face = T.usable, T.equal_face
    n_slots = req.shape[0]
    for h in range(n_hands):
        best = 0.0
        face = equal_face[h]
        bits = usable[mask, face]
        for j in range(n_slots):
            if (bits >> j) & 1 == 0:
                continue
            x = _share(
                pts, jpts, req, flag_bit, closes, ebonus_ok, usf, extra_bonus, is_upper, threshold, upper_bonus,
                rounds, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, h, face, j, first, joker_on,
                extra_holds,
            )  # fmt: skip
            if x > best:
                best = x
        S[h, 0] = best


@njit(cache=True)
def slot_shares(
    T: KernelTables, mask: int, fl: int, u: int, Wt: F, uu: F, du: F, lo: int, hi: int, memo: F, stamps: I,
    stamp: int, h: int, first: int, out: F,
) -> None:  # fmt: skip
    """out[j] = the share of writing hand h in slot j now (NaN where the slot cannot take it)."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    for j in range(T.req.shape[0]):
        if (bits >> j) & 1 == 0:
            out[j] = np.nan
        else:
            out[j] = share_of_slot(T, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, h, face, j, first,
                                 joker_on, extra_holds)  # fmt: skip


@njit(cache=True)
def win_turn(
    T: KernelTables, mask: int, fl: int, u: int, Wt: F, uu: F, du: F, lo: int, hi: int, memo: F, stamps: I,
    stamp: int, S1: F, S23: F, E: F, Ks: F, M: F,
) -> None:  # fmt: skip
    """Ks[t, k, 0] = E[u(final)] throwing keep k for throw t, this turn played for the share
    (the flow of :func:`cubilete.win.kernels.vec_turn`, target mode, width 1)."""
    win_scores(T, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, INT0, S23)
    if T.servida:
        win_scores(T, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, INT1, S1)
    else:
        S1[:] = S23
    rethrows(T, S1, S23, E, Ks, M)
