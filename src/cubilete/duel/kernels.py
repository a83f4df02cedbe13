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

from cubilete.duel import simd
from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows


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
    row_lo: I
    row_off: I
    iw_slot: I
    iw_hand: I
    iw_flag: I
    tie: F  # (2, C * C): P(mover wins) after a final tie, the mover first / second, [mover's class * C + other's]
    servida_hand: I  # (H,): 1 if some box pays this hand differently on the first throw
    tie_class: I  # (sheets,): a final sheet's tie class (bit w: instant-win box w still wins at once; C = 2**W)


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
            # wins after a scratch too (flag -1), open, or holds points
            if D.iw_flag[w] < 0 or (mask >> j) & 1 == 0 or (fl >> D.iw_flag[w]) & 1 == 1:
                return True
    return False


@njit(cache=True)
def joint_scores(
    T: KernelTables, D: DuelTables, V: F, voff: int, lo: int, m: int, s: int, o: int, first: int, out: F
) -> None:
    """out[h, i] = best P(mover wins) over the usable slots for hand h and the lead lo + i.

    Row r's values are V[row_off[r] - voff :] (V may hold only the levels read)."""
    n_hands, width = out.shape
    mask, fl, u = D.sheet_mask[s], D.sheet_fl[s], D.sheet_u[s]
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
            shift = rew + lo  # lead after scoring, for index 0
            if not other_done:
                nr = D.pair_row[1 - m, o, s2]
                if nr < 0:
                    raise ValueError("duel: a successor position is missing from the table")
                base = D.row_off[nr] - voff
                top = D.row_off[nr + 1] - D.row_off[nr] - 1
                max_other(row, V, base, -shift - D.row_lo[nr], top, width)  # index -(lead) - lo' = c - i
            elif D.sheet_done[s2] == 0:
                nr = D.pair_row[m, s2, o]
                if nr < 0:
                    raise ValueError("duel: a successor position is missing from the table")
                base = D.row_off[nr] - voff
                top = D.row_off[nr + 1] - D.row_off[nr] - 1
                max_same(row, V, base, shift - D.row_lo[nr], top, width)
            else:
                tie = D.tie[m, D.tie_class[s2] * (1 << D.iw_slot.shape[0]) + D.tie_class[o]]
                for i in range(width):
                    lead = shift + i
                    val = 1.0 if lead > 0 else (tie if lead == 0 else 0.0)
                    if val > row[i]:
                        row[i] = val


@njit(cache=True)
def row_widget(T: KernelTables, D: DuelTables, V: F, voff: int, r: int, S1: F, S23: F, E: F, Ks: F, M: F) -> None:
    """The mover's turn in row r over its leads: S1/S23 (best box per hand, first / later throw),
    Ks[t] (each keep thrown for throw t) and E (each first-throw hand, instant wins aside)."""
    m, s, o = D.row_m[r], D.row_s[r], D.row_o[r]
    lo = D.row_lo[r]
    joint_scores(T, D, V, voff, lo, m, s, o, INT0, S23)
    S1[:] = S23
    if T.servida:
        joint_scores(T, D, V, voff, lo, m, s, o, INT1, S1)
    rethrows(T, S1, S23, E, Ks, M)


@njit(cache=True)
def row_value(T: KernelTables, D: DuelTables, V: F, voff: int, Vo: F, ooff: int, r: int, buf: F) -> None:
    """Fill row r of Vo (at row_off[r] - ooff; Vo may be V): P(mover wins) from the start of the mover's turn,
    for every lead of the row, from the levels read in V."""
    s = D.row_s[r]
    base = D.row_off[r] - ooff
    width = D.row_off[r + 1] - D.row_off[r]
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
    row_widget(T, D, V, voff, r, S1, S23, E, Ks, M)
    out = Vo[base : base + width]
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
def solve_level(
    T: KernelTables, D: DuelTables, V: F, voff: int, Vo: F, ooff: int, lo: int, hi: int, chunks: int, max_width: int
) -> None:
    """Fill rows lo..hi-1 (one level: independent of each other) of Vo in ``chunks`` parallel strands,
    one row at a time over all its leads (the reference kernel; :func:`solve_level_blocked` is faster)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    size = (3 * n_hands + (T.throws + 2) * n_keeps) * max_width
    for c in prange(chunks):
        buf = np.empty(size)
        for r in range(lo + c, hi, chunks):
            row_value(T, D, V, voff, Vo, ooff, r, buf)


# --- the blocked kernel: the same widget over blocks of B leads, in explicit 8-lane vectors (cubilete.duel.simd) ---

BLOCK = 128  # most leads per block (a multiple of 8): the innermost axis of the scratch rows, in vectors of 8


@njit(cache=True)
def sheet_moves(T: KernelTables, D: DuelTables) -> tuple[I, I, I, I, I, I, I, I]:
    """Every box a hand can be written in, per sheet: (ptr, next sheet, points with bonuses, instant win,
    uid, u_ptr, u_next, u_rew).

    Moves of sheet s, first throw ``first`` (0/1), hand h are ``ptr[k]:ptr[k + 1]`` with
    ``k = (s * 2 + first) * H + h``; first-throw moves are listed only for the hands some box pays
    differently on the first throw (else the later-throw ones apply). ``iw[s * H + h]`` is 1 if the
    first-throw hand h wins at once for sheet s. Many moves of a sheet lead to the same (next sheet,
    points) (every hand scratched in a box, every Full in the Full): those distinct pairs are
    ``u_next[a], u_rew[a]`` for ``a`` in ``u_ptr[s]:u_ptr[s + 1]``, and move q is pair
    ``u_ptr[s] + uid[q]``.
    """
    n_sheets = D.sheet_mask.shape[0]
    n_hands = T.first_roll.shape[0]
    n_slots = T.req.shape[0]
    n_upper = D.sheet_id.shape[2]
    ptr = np.zeros(n_sheets * 2 * n_hands + 1, dtype=np.int64)
    nxt = np.empty(n_sheets * 2 * n_hands * n_slots, dtype=np.int64)
    rew_out = np.empty(n_sheets * 2 * n_hands * n_slots, dtype=np.int64)
    iw = np.zeros(n_sheets * n_hands, dtype=np.int64)
    at = 0
    for s in range(n_sheets):
        mask, fl, u = D.sheet_mask[s], D.sheet_fl[s], D.sheet_u[s]
        joker_on, extra_holds = sheet_context(T, mask, fl)
        for h in range(n_hands):
            if instant_wins(D, s, h):
                iw[s * n_hands + h] = 1
        for first in range(2):
            for h in range(n_hands):
                k = (s * 2 + first) * n_hands + h
                ptr[k] = at
                if D.sheet_done[s] == 1 or (first == 1 and (not T.servida or D.servida_hand[h] == 0)):
                    continue
                face = T.equal_face[h]
                bits = T.usable[mask, face]
                for j in range(n_slots):
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
                    nxt[at] = D.sheet_id[nmask, nfl, nu]
                    rew_out[at] = rew
                    at += 1
    ptr[n_sheets * 2 * n_hands] = at
    uid = np.empty(at, dtype=np.int64)
    u_ptr = np.zeros(n_sheets + 1, dtype=np.int64)
    u_next = np.empty(at, dtype=np.int64)
    u_rew = np.empty(at, dtype=np.int64)
    nu_all = 0
    for s in range(n_sheets):
        u_ptr[s] = nu_all
        for q in range(ptr[s * 2 * n_hands], ptr[(s + 1) * 2 * n_hands]):
            a = u_ptr[s]
            while a < nu_all and (u_next[a] != nxt[q] or u_rew[a] != rew_out[q]):
                a += 1
            if a == nu_all:
                u_next[a] = nxt[q]
                u_rew[a] = rew_out[q]
                nu_all += 1
            uid[q] = a - u_ptr[s]
    u_ptr[n_sheets] = nu_all
    return ptr, nxt[:at], rew_out[:at], iw, uid, u_ptr, u_next[:nu_all].copy(), u_rew[:nu_all].copy()


@njit(cache=True)
def row_reads(
    D: DuelTables, u_ptr: I, u_next: I, u_rew: I, r: int, voff: int, e_kind: I, e_base: I, e_c: I, e_top: I
) -> int:
    """Where each distinct (next sheet, points) pair of row r's mover reads its value (returns how many):
    kind 0 (the other's row: 1 - V[base + clip(c - i, 0, top)] for lead index i), 1 (the mover's
    own row, the other done: V[base + clip(c + i, 0, top)]) or 2 (both done: the lead c + i decides, a
    tie by the tie-break's value at index base of the row's ties)."""
    m, s, o = D.row_m[r], D.row_s[r], D.row_o[r]
    lo = D.row_lo[r]
    other_done = D.sheet_done[o] == 1
    at = 0
    for a in range(u_ptr[s], u_ptr[s + 1]):
        s2 = u_next[a]
        shift = u_rew[a] + lo
        if not other_done:
            nr = D.pair_row[1 - m, o, s2]
            if nr < 0:
                raise ValueError("duel: a successor position is missing from the table")
            e_kind[at] = 0
            e_base[at] = D.row_off[nr] - voff
            e_top[at] = D.row_off[nr + 1] - D.row_off[nr] - 1
            e_c[at] = -shift - D.row_lo[nr]
        elif D.sheet_done[s2] == 0:
            nr = D.pair_row[m, s2, o]
            if nr < 0:
                raise ValueError("duel: a successor position is missing from the table")
            e_kind[at] = 1
            e_base[at] = D.row_off[nr] - voff
            e_top[at] = D.row_off[nr + 1] - D.row_off[nr] - 1
            e_c[at] = shift - D.row_lo[nr]
        else:
            e_kind[at] = 2
            e_base[at] = D.tie_class[s2] * (1 << D.iw_slot.shape[0]) + D.tie_class[o]
            e_top[at] = 0
            e_c[at] = shift
        at += 1
    return at


@njit(cache=True)
def block_entries(B: int, V: F, tie: F, b0: int, n_u: int, e_kind: I, e_base: I, e_c: I, e_top: I, X: F) -> None:
    """X[a * B + ln] = P(mover wins) after move pair a for lead index b0 + ln.

    (Every lane loop runs over slices indexed by the loop variable alone: numba then needs no
    negative-index check and LLVM vectorises it.)"""
    for a in range(n_u):
        acc = X[a * B : a * B + B]
        kind = e_kind[a]
        base = e_base[a]
        top = e_top[a]
        if kind == 0:
            c = e_c[a] - b0
            if c - (B - 1) >= 0 and c <= top:
                src = V[base + c - (B - 1) : base + c + 1]  # lane ln reads src[B - 1 - ln]
                for ln in range(B):
                    acc[ln] = 1.0 - src[B - 1 - ln]
            else:
                row = V[base : base + top + 1]
                for ln in range(B):
                    acc[ln] = 1.0 - row[min(max(c - ln, 0), top)]
        elif kind == 1:
            c = e_c[a] + b0
            if c >= 0 and c + (B - 1) <= top:
                src = V[base + c : base + c + B]
                for ln in range(B):
                    acc[ln] = src[ln]
            else:
                row = V[base : base + top + 1]
                for ln in range(B):
                    acc[ln] = row[min(max(c + ln, 0), top)]
        else:
            c = e_c[a] + b0
            t = tie[base]
            for ln in range(B):
                lead = c + ln
                acc[ln] = 1.0 if lead > 0 else (t if lead == 0 else 0.0)


@njit(cache=True)
def simd_sources(T: KernelTables) -> tuple[I, I]:
    """Rows of the scratch array the closure and the rethrow read (see :func:`row_simd`): for keep
    k >= H, ``close[k - H]`` = (count, K row of k, M rows of its sub-keeps); for hand h, ``again[h]`` =
    (count, M rows of its sub-keeps); the rows listed first, the rest unused."""
    n_keeps = T.add.shape[0]
    n_hands = T.first_roll.shape[0]
    close = np.zeros((n_keeps - n_hands, 8), dtype=np.int64)
    for k in range(n_hands, n_keeps):
        c = close[k - n_hands]
        c[1] = k
        c[0] = 1
        for f in range(6):
            r = T.remove[k, f]
            if r >= 0:
                c[1 + c[0]] = n_keeps + r - n_hands
                c[0] += 1
    again = np.zeros((n_hands, 7), dtype=np.int64)
    for h in range(n_hands):
        for f in range(6):
            r = T.remove[h, f]
            if r >= 0:
                again[h, 1 + again[h, 0]] = n_keeps + r - n_hands
                again[h, 0] += 1
    return close, again


@njit(cache=True, inline="always")
def simd_max_rows(W: F, B: int, d: int, n: int, r0: int, r1: int, r2: int, r3: int, r4: int, r5: int, r6: int) -> None:
    """Row d of W = the largest of rows r0..r(n-1) (n = 1..7), lane by lane."""
    d, r0, r1, r2, r3, r4, r5, r6 = d * B, r0 * B, r1 * B, r2 * B, r3 * B, r4 * B, r5 * B, r6 * B
    if n == 1:
        for v in range(0, B, 8):
            simd.vcopy(W, d + v, r0 + v)
    elif n == 2:
        for v in range(0, B, 8):
            simd.vmax2(W, d + v, r0 + v, r1 + v)
    elif n == 3:
        for v in range(0, B, 8):
            simd.vmax3(W, d + v, r0 + v, r1 + v, r2 + v)
    elif n == 4:
        for v in range(0, B, 8):
            simd.vmax4(W, d + v, r0 + v, r1 + v, r2 + v, r3 + v)
    elif n == 5:
        for v in range(0, B, 8):
            simd.vmax5(W, d + v, r0 + v, r1 + v, r2 + v, r3 + v, r4 + v)
    elif n == 6:
        for v in range(0, B, 8):
            simd.vmax6(W, d + v, r0 + v, r1 + v, r2 + v, r3 + v, r4 + v, r5 + v)
    else:
        for v in range(0, B, 8):
            simd.vmax7(W, d + v, r0 + v, r1 + v, r2 + v, r3 + v, r4 + v, r5 + v, r6 + v)


@njit(cache=True)
def simd_best(W: F, B: int, RX: int, uid: I, q0: int, q1: int, d: int) -> None:
    """Row d of W = the best X row over the move pairs of moves q0..q1-1 (NEG if none)."""
    if q1 <= q0:
        for v in range(0, B, 8):
            simd.vfill(W, d * B + v, NEG)
        return
    a0 = RX + uid[q0]
    a1 = RX + uid[q0 + 1] if q0 + 1 < q1 else a0
    a2 = RX + uid[q0 + 2] if q0 + 2 < q1 else a0
    a3 = RX + uid[q0 + 3] if q0 + 3 < q1 else a0
    for v in range(0, B, 8):
        simd.vmax4(W, d * B + v, a0 * B + v, a1 * B + v, a2 * B + v, a3 * B + v)
    for q in range(q0 + 4, q1, 3):
        a1 = RX + uid[q]
        a2 = RX + uid[q + 1] if q + 1 < q1 else a1
        a3 = RX + uid[q + 2] if q + 2 < q1 else a1
        for v in range(0, B, 8):
            simd.vmax4(W, d * B + v, d * B + v, a1 * B + v, a2 * B + v, a3 * B + v)


@njit(cache=True)
def simd_rethrow(W: F, B: int, again: I, RS: int, n_hands: int) -> None:
    """E[h] (K row h) = max(S row RS + h, the M rows of its sub-keeps)."""
    for h in range(n_hands):
        a = again[h]
        simd_max_rows(W, B, h, a[0] + 1, RS + h, a[1], a[2], a[3], a[4], a[5], a[6])


@njit(cache=True)
def simd_keeps(W: F, B: int, add: I, close: I, n_hands: int) -> None:
    """K rows of the keeps smaller than a hand (the one-die recursion, the same sums in the same
    order), then their M rows (best over sub-keeps)."""
    n_keeps = add.shape[0]
    sixth = 1.0 / 6.0
    for k in range(n_hands, n_keeps):
        a0, a1, a2 = add[k, 0] * B, add[k, 1] * B, add[k, 2] * B
        a3, a4, a5 = add[k, 3] * B, add[k, 4] * B, add[k, 5] * B
        for v in range(0, B, 8):
            simd.vavg6(W, k * B + v, a0 + v, a1 + v, a2 + v, a3 + v, a4 + v, a5 + v, sixth)
    for k in range(n_keeps - 1, n_hands - 1, -1):
        c = close[k - n_hands]
        simd_max_rows(W, B, n_keeps + k - n_hands, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7])


@njit(cache=True)
def row_simd(
    T: KernelTables, D: DuelTables, mv_ptr: I, mv_iw: I, uid: I, u_ptr: I, u_next: I, u_rew: I, close: I, again: I,
    V: F, voff: int, Vo: F, ooff: int, r: int, B: int, e: I, W: F,
) -> None:  # fmt: skip
    """Fill row r of Vo (at row_off[r] - ooff; Vo may be V) block by block, as :func:`row_value` (the same values
    bit for bit; the distinct (next sheet, points) pairs of the mover's moves read once per block, each
    hand's best box taken over them), on one scratch array W of rows of B lanes: K (rows 0..n_keeps-1, the hands' first:
    E), M (the keeps smaller than a hand), S23, S1, X (the move pairs' values) and the sum."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_e = e.shape[0] // 4
    RS = 2 * n_keeps - n_hands
    RS1 = RS + n_hands
    RX = RS1 + n_hands
    RA = RX + n_e
    s = D.row_s[r]
    width = D.row_off[r + 1] - D.row_off[r]
    out_at = D.row_off[r] - ooff
    tie = D.tie[D.row_m[r]]
    e_kind, e_base, e_c, e_top = e[:n_e], e[n_e : 2 * n_e], e[2 * n_e : 3 * n_e], e[3 * n_e :]
    n_u = row_reads(D, u_ptr, u_next, u_rew, r, voff, e_kind, e_base, e_c, e_top)
    servida = T.servida
    iw = mv_iw[s * n_hands : (s + 1) * n_hands]
    k0 = s * 2 * n_hands  # later-throw moves of hand h: mv_ptr[k0 + h] : mv_ptr[k0 + h + 1]
    k1 = k0 + n_hands  # first-throw moves
    throws = T.throws
    n_blocks = (width + B - 1) // B
    B = ((width + n_blocks - 1) // n_blocks + 7) // 8 * 8  # blocks of equal width (a multiple of 8), at most B
    for b0 in range(0, width, B):
        block_entries(B, V, tie, b0, n_u, e_kind, e_base, e_c, e_top, W[RX * B : RA * B])
        for h in range(n_hands):
            simd_best(W, B, RX, uid, mv_ptr[k0 + h], mv_ptr[k0 + h + 1], RS + h)
        for h in range(n_hands):
            if servida and mv_ptr[k1 + h + 1] > mv_ptr[k1 + h] and iw[h] == 0:
                simd_best(W, B, RX, uid, mv_ptr[k1 + h], mv_ptr[k1 + h + 1], RS1 + h)
            else:  # hands without first-throw moves keep the later-throw scores
                for v in range(0, B, 8):
                    simd.vcopy(W, (RS1 + h) * B + v, (RS + h) * B + v)
        first_src = RS1 if throws == 1 else RS
        for h in range(n_hands):  # E = K[:H]
            for v in range(0, B, 8):
                simd.vcopy(W, h * B + v, (first_src + h) * B + v)
        for t in range(throws, 1, -1):  # E holds the values after throw t
            simd_keeps(W, B, T.add, close, n_hands)
            simd_rethrow(W, B, again, RS1 if t == 2 else RS, n_hands)
        ra = RA * B
        for v in range(0, B, 8):
            simd.vfill(W, ra + v, 0.0)
        for h in range(n_hands):
            p = T.first_roll[h]
            if iw[h] == 1:
                for v in range(0, B, 8):
                    simd.vaddc(W, ra + v, ra + v, p)
            else:
                for v in range(0, B, 8):
                    simd.vaxpy(W, ra + v, ra + v, h * B + v, p)
        dst = Vo[out_at + b0 : out_at + min(width, b0 + B)]
        for ln in range(dst.shape[0]):
            dst[ln] = W[ra + ln]


@njit(cache=True, parallel=True)
def solve_level_blocked(
    T: KernelTables, D: DuelTables, mv_ptr: I, mv_next: I, mv_rew: I, mv_iw: I, uid: I, u_ptr: I, u_next: I,
    u_rew: I, V: F, voff: int, Vo: F, ooff: int, lo: int, hi: int, chunks: int, B: int = BLOCK,
) -> None:  # fmt: skip
    """Fill rows lo..hi-1 (one level) of Vo (at row_off - ooff) from the levels read in V (at row_off - voff)
    in ``chunks`` parallel strands with :func:`row_simd`, in blocks of at
    most B leads (rounded down to a multiple of 8; ``mv_next``, ``mv_rew``: unused here, the moves as
    :func:`sheet_moves` lists them)."""
    B = max(8, B // 8 * 8)
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_e = int(np.diff(u_ptr).max()) + 1
    close, again = simd_sources(T)
    rows = 2 * n_keeps + n_hands + n_e + 1
    for c in prange(chunks):
        e = np.empty(4 * n_e, dtype=np.int64)
        W = np.zeros(rows * B + 8)
        for r in range(lo + c, hi, chunks):
            row_simd(T, D, mv_ptr, mv_iw, uid, u_ptr, u_next, u_rew, close, again, V, voff, Vo, ooff, r, B, e, W)
