"""Numba kernels of the two-player solve: one turn ("widget") of the player to move, over
every lead in the row's window at once (the innermost, contiguous axis), and a whole level
of joint positions in parallel.

The widget is the solitaire one (:mod:`cubilete.solver.kernels`: keep values by the one-die
recursion, best sub-keep by a downward closure) with two changes: a box's worth is the
probability of winning read in the next position at the lead shifted by the points, and a
first-throw hand that wins at once is worth 1.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import (
    INT0,
    INT1,
    NEG,
    closure,
    improve_with_rethrow,
    keep_values,
    locked_keep_values,
    sheet_context,
    slot_outcome,
)
from cubilete.solver.tables import KernelTables


class DuelTables(NamedTuple):
    """The joint space's arrays read by the kernels (see :class:`cubilete.duel.space.JointSpace`)."""

    sheet_mask: I
    sheet_fl: I
    sheet_u: I
    sheet_R: I
    sheet_done: I
    sheet_id: I
    pair_row: I
    row_m: I
    row_s: I
    row_o: I
    row_off: I
    iw_slot: I
    iw_hand: I
    iw_flag: I
    tie: F  # (2,): P(mover wins) after a final tie, for the first / the second player
    servida_hand: I  # (H,): 1 if some box pays this hand differently on the first throw


@njit(cache=True, inline="always")
def max_other(row: F, V: F, base: int, c: int, top: int, width: int) -> None:
    """row[i] = max(row[i], 1 - V[base + clip(c - i, 0, top)]): the other player's row, lead reversed."""
    a = min(width, max(0, c - top + 1))
    v = 1.0 - V[base + top]
    for i in range(a):
        if v > row[i]:
            row[i] = v
    b = min(width, max(a, c))
    for i in range(a, b):
        v = 1.0 - V[base + c - i]
        if v > row[i]:
            row[i] = v
    v = 1.0 - V[base]
    for i in range(b, width):
        if v > row[i]:
            row[i] = v


@njit(cache=True, inline="always")
def max_same(row: F, V: F, base: int, c: int, top: int, width: int) -> None:
    """row[i] = max(row[i], V[base + clip(c + i, 0, top)]): the mover's own next row (the other is done)."""
    a = min(width, max(0, 1 - c))
    v = V[base]
    for i in range(a):
        if v > row[i]:
            row[i] = v
    b = min(width, max(a, top - c))
    for i in range(a, b):
        v = V[base + c + i]
        if v > row[i]:
            row[i] = v
    v = V[base + top]
    for i in range(b, width):
        if v > row[i]:
            row[i] = v


@njit(cache=True)
def instant_wins(D: DuelTables, s: int, h: int) -> bool:
    """True if first-throw hand h wins at once for a player with sheet s."""
    mask, fl = D.sheet_mask[s], D.sheet_fl[s]
    for w in range(D.iw_slot.shape[0]):
        if D.iw_hand[w, h] == 1:
            j = D.iw_slot[w]
            if (mask >> j) & 1 == 0 or (fl >> D.iw_flag[w]) & 1 == 1:  # open, or holds points
                return True
    return False


@njit(cache=True)
def joint_scores(T: KernelTables, D: DuelTables, V: F, m: int, s: int, o: int, first: int, out: F) -> None:
    """out[h, i] = best P(mover wins) over the usable slots for hand h and the lead of window index i."""
    n_hands, width = out.shape
    mask, fl, u = D.sheet_mask[s], D.sheet_fl[s], D.sheet_u[s]
    Rs = D.sheet_R[s]
    Ro = D.sheet_R[o]
    n_upper = D.sheet_id.shape[2]
    joker_on, extra_holds = sheet_context(T, mask, fl)
    other_done = D.sheet_done[o] == 1
    for h in range(n_hands):
        if first == 1 and (D.servida_hand[h] == 0 or instant_wins(D, s, h)):
            continue  # the caller has copied the later-throw scores (an instant win's are never read)
        row = out[h]
        row[:] = NEG
        face = T.equal_face[h]
        bits = T.usable[mask, face]
        for j in range(T.req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            rew = int(reward)
            nu = u
            if T.is_upper[j] == 1 and n_upper > 1:
                nu = min(n_upper - 1, u + p)
                if u < T.threshold <= u + p:
                    rew += T.upper_bonus
            s2 = D.sheet_id[nmask, nfl, nu]
            shift = rew - (Rs + 1)  # lead after scoring, for window index 0
            if not other_done:
                nr = D.pair_row[1 - m, o, s2]
                if nr < 0:
                    raise ValueError("duel: a successor position is missing from the table")
                base = D.row_off[nr]
                top = D.row_off[nr + 1] - base - 1
                max_other(row, V, base, Ro + 1 - shift, top, width)  # index -(lead) + Ro + 1 = c - i
            elif D.sheet_done[s2] == 0:
                nr = D.pair_row[m, s2, o]
                if nr < 0:
                    raise ValueError("duel: a successor position is missing from the table")
                base = D.row_off[nr]
                top = D.row_off[nr + 1] - base - 1
                max_same(row, V, base, shift + D.sheet_R[s2] + 1, top, width)
            else:
                tie = D.tie[m]
                for i in range(width):
                    lead = shift + i
                    val = 1.0 if lead > 0 else (tie if lead == 0 else 0.0)
                    if val > row[i]:
                        row[i] = val


@njit(cache=True)
def throws_widget(T: KernelTables, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """E[h] = value of the hand after the first throw (rethrows as the rules allow), from the box values."""
    n_hands = S1.shape[0]
    throws = T.throws
    if throws == 1:
        E[:] = S1
    elif T.locked:
        keep_values(S23, T.add, T.remove, Ks[throws], M)
        for t in range(throws - 1, 1, -1):
            locked_keep_values(T, S23, Ks[t + 1], Ks[t])
            Ks[t, :n_hands] = S23
        closure(Ks[2], T.remove, n_hands, M)
        improve_with_rethrow(S1, M, T.remove, E)
    else:
        E[:] = S23
        for t in range(throws, 1, -1):
            keep_values(E, T.add, T.remove, Ks[t], M)
            improve_with_rethrow(S1 if t == 2 else S23, M, T.remove, E)


@njit(cache=True)
def row_widget(T: KernelTables, D: DuelTables, V: F, r: int, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """The mover's turn in row r over the window: S1/S23 (best box per hand, first / later throw),
    Ks[t] (each keep thrown for throw t) and E (each first-throw hand, instant wins aside)."""
    m, s, o = D.row_m[r], D.row_s[r], D.row_o[r]
    joint_scores(T, D, V, m, s, o, INT0, S23)
    S1[:] = S23
    if T.servida:
        joint_scores(T, D, V, m, s, o, INT1, S1)
    throws_widget(T, S1, S23, E, Ks, M)


@njit(cache=True)
def row_value(T: KernelTables, D: DuelTables, V: F, r: int, buf: F) -> None:
    """Fill row r of V: P(mover wins) from the start of the mover's turn, for every lead in the window."""
    s = D.row_s[r]
    base = D.row_off[r]
    width = D.row_off[r + 1] - base
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    size = n_hands * width
    S1 = buf[:size].reshape(n_hands, width)
    S23 = buf[size : 2 * size].reshape(n_hands, width)
    E = buf[2 * size : 3 * size].reshape(n_hands, width)
    ksize = n_keeps * width
    at = 3 * size
    M = buf[at : at + ksize].reshape(n_keeps, width)
    at += ksize
    Ks = buf[at : at + (T.throws + 1) * ksize].reshape(T.throws + 1, n_keeps, width)
    row_widget(T, D, V, r, S1, S23, E, Ks, M)
    out = V[base : base + width]
    out[:] = 0.0
    for h in range(n_hands):
        p = T.first_roll[h]
        if instant_wins(D, s, h):
            for i in range(width):
                out[i] += p
        else:
            row = E[h]
            for i in range(width):
                out[i] += p * row[i]


def buffer_size(n_hands: int, n_keeps: int, throws: int, width: int) -> int:
    """Floats of scratch space one row of ``width`` leads needs."""
    return (3 * n_hands + (throws + 2) * n_keeps) * width


@njit(cache=True, parallel=True)
def solve_level(T: KernelTables, D: DuelTables, V: F, lo: int, hi: int, chunks: int, max_width: int) -> None:
    """Fill rows lo..hi-1 (one level: independent of each other) in ``chunks`` parallel strands."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    size = (3 * n_hands + (T.throws + 2) * n_keeps) * max_width
    for c in prange(chunks):
        buf = np.empty(size)
        for r in range(lo + c, hi, chunks):
            row_value(T, D, V, r, buf)
