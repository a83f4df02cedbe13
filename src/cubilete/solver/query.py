"""Numba kernels of the advisor's query: every option of one situation, valued and ranked, compiled.

One call does what :func:`cubilete.solver.advisor.advise` used to do in Python per option:
usable slots, the points and bonuses of each write and the value of the sheet after it, the
keep values of the turn for the one upper total asked about, the distinct sub-keeps of the
hand, and the ranking (a stable sort, best first). Python only checks the input and wraps
the rows in :class:`~cubilete.solver.advisor.Option`.
The advisor calls :func:`options_packed`, which takes the tables as two arrays
(:func:`cubilete.solver.tables.pack`): numba unboxes every array passed from Python at each call.

The arithmetic is the solver's own, in the same order (``kernels.best_scores``,
``kernels.keep_values``, ``kernels.closure``, ``kernels.improve_with_rethrow``), on scalars
instead of rows of upper totals: the values are bit for bit those of ``kernels.turn_values``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import INT0, INT1, NEG, turn_values
from cubilete.solver.tables import KernelTables, unpack

KIND_SCORE = 0
KIND_KEEP = 1


@njit(cache=True, inline="always")
def _context(joker: bool, xs: int, flag_bit: I, mask: int, fl: int) -> tuple[bool, bool]:
    """:func:`kernels.sheet_context` from the three fields it reads: a call that takes ``T`` costs a reference
    count per table (about 0.3 us, more than a whole row of options)."""
    joker_on = joker and xs >= 0 and (mask >> xs) & 1 == 1
    extra_holds = xs >= 0 and flag_bit[xs] >= 0 and (fl >> flag_bit[xs]) & 1 == 1
    return joker_on, extra_holds


@njit(cache=True)
def best_scores_at(T: KernelTables, mask: int, fl: int, V: F, first: int, u: int, out: F) -> None:
    """out[h] = best (points + bonuses + value after) over the usable slots, for the upper total u.

    Slot by slot over the hands (the max does not depend on the order): the value of a write
    depends on the hand only through its points, so each slot first fills ``tab[p]``, the value
    of writing p points there (what the per-hand loop computed, the same expression), and the
    hands then read it (a gather, no branch but the max). Hands of one face (jokers, extra
    bonuses, their own usable slots) are recomputed on the general path afterwards.
    """
    n_hands = out.shape[0]
    n_upper = V.shape[2]
    joker_on, extra_holds = _context(T.joker, T.extra_slot, T.flag_bit, mask, fl)
    threshold, upper_bonus, is_upper, usable, equal_face = (
        T.threshold, T.upper_bonus, T.is_upper, T.usable, T.equal_face,
    )  # fmt: skip
    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot = (
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face,
    )  # fmt: skip
    extra_bonus = T.extra_bonus
    n_slots = req.shape[0]
    n_tab = T.max_points + 1
    tab = np.empty(n_tab)
    out[:] = NEG
    bits = usable[mask, 0]
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        r = req[j]
        blocked = r >= 0 and (fl >> flag_bit[r]) & 1 == 0
        mask1 = mask | (1 << j)
        mask0 = mask1 | closes[j]
        fl1 = fl | (1 << flag_bit[j]) if flag_bit[j] >= 0 else fl
        row = pts[first, j]
        a0 = 0.0 + V[mask0, fl, u]
        if blocked:  # every hand writes 0 here
            for h in range(n_hands):
                if a0 > out[h]:
                    out[h] = a0
            continue
        tab[0] = a0
        if is_upper[j] == 1 and n_upper > 1:
            for p in range(1, n_tab):
                val = float(p) + V[mask1, fl1, min(n_upper - 1, u + p)]
                if u < threshold <= u + p:
                    val += upper_bonus
                tab[p] = val
        else:
            a1 = V[mask1, fl1, u]
            for p in range(1, n_tab):
                tab[p] = float(p) + a1
        for h in range(n_hands):
            val = tab[row[h]]
            cur = out[h]
            out[h] = val if val > cur else cur  # branch-free: the loop vectorises
    for h in range(n_hands):
        face = equal_face[h]
        if face == 0:
            continue
        best = NEG
        fbits = usable[mask, face]
        for j in range(n_slots):
            if (fbits >> j) & 1 == 0:
                continue
            # kernels.slot_outcome written out: a call with array arguments, even inlined, costs a reference
            # count per array (about 7x the arithmetic here: most of a query's time before it was written out)
            if joker_on:
                us = upper_slot[face - 1]
                p = jpts[first, j, face - 1, 1 if us >= 0 and (mask >> us) & 1 == 1 else 0]
            else:
                p = pts[first, j, h]
            r = req[j]
            if r >= 0 and (fl >> flag_bit[r]) & 1 == 0:
                p = 0
            nmask = mask | (1 << j)
            if p == 0:
                nmask |= closes[j]
            nfl = fl
            if flag_bit[j] >= 0 and p > 0:
                nfl |= 1 << flag_bit[j]
            reward = float(p)
            if extra_holds and ebonus_ok[j] == 1:
                reward += extra_bonus
            if is_upper[j] == 1 and n_upper > 1:
                val = reward + V[nmask, nfl, min(n_upper - 1, u + p)]
                if u < threshold <= u + p:
                    val += upper_bonus
            else:
                val = reward + V[nmask, nfl, u]
            if val > best:
                best = val
        out[h] = best


@njit(cache=True)
def keep_values_1(E: F, add: I, remove: I, K: F, M: F, close: bool = True) -> None:
    """:func:`kernels.keep_values` for one upper total (1-d rows); the closure M only if ``close``."""
    n_hands = E.shape[0]
    n_keeps = K.shape[0]
    K[:n_hands] = E
    for k in range(n_hands, n_keeps):
        acc = 0.0
        for f in range(6):
            acc += K[add[k, f]]
        acc *= 1.0 / 6.0
        K[k] = acc
    if not close:
        return
    for k in range(n_keeps - 1, n_hands - 1, -1):
        best = K[k]
        for f in range(6):
            r = remove[k, f]
            if r >= 0 and M[r] > best:
                best = M[r]
        M[k] = best


@njit(cache=True)
def improve_1(S: F, M: F, remove: I, E: F) -> None:
    """:func:`kernels.improve_with_rethrow` for one upper total."""
    for h in range(E.shape[0]):
        best = S[h]
        for f in range(6):
            r = remove[h, f]
            if r >= 0 and M[r] > best:
                best = M[r]
        E[h] = best


@njit(cache=True)
def turn_keeps(T: KernelTables, mask: int, fl: int, u: int, V: F, Ks: F, down_to: int) -> None:
    """Ks[t, k] for t = throws .. down_to: the value of keep k thrown for throw t, at upper total u.

    Exactly ``kernels.turn_values(..., lo=u)``'s Ks for one upper total.
    """
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    throws = T.throws
    if T.locked:  # rare (locked holds): the general kernel on buffers one upper total wide
        W1, W23, WE = np.empty((n_hands, 1)), np.empty((n_hands, 1)), np.empty((n_hands, 1))
        K3 = np.zeros((throws + 1, n_keeps, 1))
        turn_values(T, mask, fl, u, V, W1, W23, WE, K3, np.empty((n_keeps, 1)), np.empty(1))
        Ks[:, :] = K3[:, :, 0]
        return
    S23 = np.empty(n_hands)
    best_scores_at(T, mask, fl, V, INT0, u, S23)
    if T.servida and down_to <= 2:
        S1 = np.empty(n_hands)
        best_scores_at(T, mask, fl, V, INT1, u, S1)
    else:
        S1 = S23
    E = S23.copy()
    M = np.empty(n_keeps)
    for t in range(throws, down_to - 1, -1):
        keep_values_1(E, T.add, T.remove, Ks[t], M, t > down_to)  # the last closure would go unused
        if t > down_to:
            improve_1(S1 if t == 2 else S23, M, T.remove, E)


@njit(cache=True)
def sub_keeps(remove: I, h: int, n_keeps: int) -> I:
    """The distinct proper sub-multisets of hand h, as keep numbers in ascending order
    (keeps are numbered by size, largest first, then by faces)."""
    seen = np.zeros(n_keeps, dtype=np.int64)
    stack = np.empty(n_keeps, dtype=np.int64)
    top = 0
    for f in range(6):
        r = remove[h, f]
        if r >= 0 and seen[r] == 0:
            seen[r] = 1
            stack[top] = r
            top += 1
    while top > 0:
        top -= 1
        k = stack[top]
        for f in range(6):
            r = remove[k, f]
            if r >= 0 and seen[r] == 0:
                seen[r] = 1
                stack[top] = r
                top += 1
    return np.nonzero(seen)[0]


@njit(cache=True, inline="always")  # inlined in options_packed: a call passing T costs ~0.4 us
def options(
    T: KernelTables, V: F, mask: int, fl: int, u: int, h: int, throw: int, so_far: int, Ks: F, fill: int, keeps: I,
    out: F,
) -> int:  # fmt: skip
    """Fill ``out`` with the options of hand h after throw ``throw`` in sheet (mask, fl, upper u), best first.

    Rows: (kind, slot or keep number, points written, expected final score). ``keeps`` lists
    the keep numbers to value (ascending; empty on the last throw), ``Ks`` the turn's keep
    values (:func:`turn_keeps`; filled first down to throw ``fill`` if ``fill`` > 0: one call
    does it all). ``so_far`` is the card's total now. Returns the number of rows.
    """
    if fill > 0:
        turn_keeps(T, mask, fl, u, V, Ks, fill)
    n_upper = V.shape[2]
    first = 1 if throw == 1 else 0
    joker_on, extra_holds = _context(T.joker, T.extra_slot, T.flag_bit, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    n_slots = T.req.shape[0]
    pts, jpts, req, flag_bit, closes, ebonus_ok = T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok
    upper_slot, is_upper = T.upper_slot_of_face, T.is_upper
    n = 0
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        # kernels.slot_outcome written out (see best_scores_at: a call costs a reference count per array)
        if face > 0 and joker_on:
            us = upper_slot[face - 1]
            p = jpts[first, j, face - 1, 1 if us >= 0 and (mask >> us) & 1 == 1 else 0]
        else:
            p = pts[first, j, h]
        r = req[j]
        if r >= 0 and (fl >> flag_bit[r]) & 1 == 0:
            p = 0
        nmask = mask | (1 << j)
        if p == 0:
            nmask |= closes[j]
        nfl = fl
        if flag_bit[j] >= 0 and p > 0:
            nfl |= 1 << flag_bit[j]
        reward = float(p)
        if face > 0 and extra_holds and ebonus_ok[j] == 1:
            reward += T.extra_bonus
        bonus = 0
        if reward != float(p):
            bonus += T.extra_bonus
        nu = u
        if is_upper[j] == 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                bonus += T.upper_bonus
        filled = 0
        for i in range(n_slots):
            filled += (nmask >> i) & 1
        future = V[nmask, nfl, nu] if filled < T.rounds else 0.0
        _put(out, n, KIND_SCORE, j, p, (so_far + p + bonus) + future)
        n += 1
    for i in range(keeps.shape[0]):
        _put(out, n, KIND_KEEP, keeps[i], 0, so_far + Ks[throw + 1, keeps[i]])
        n += 1
    return n


@njit(cache=True)
def options_packed(
    ints: I, floats: F, V: F, mask: int, fl: int, u: int, h: int, throw: int, so_far: int, Ks: F, fill: int, keeps: I,
    out: F,
) -> int:  # fmt: skip
    """:func:`options` on the tables packed in two arrays (:func:`cubilete.solver.tables.pack`): what the advisor
    calls, as two arrays cross from Python at each call where ``KernelTables`` has 19 (2 us of unboxing)."""
    return options(unpack(ints, floats), V, mask, fl, u, h, throw, so_far, Ks, fill, keeps, out)


@njit(cache=True, inline="always")
def _put(out: F, n: int, kind: int, number: int, points: int, value: float) -> None:
    """Insert row n (kind, number, points, value) into the rows 0 .. n - 1, sorted best first: after every
    row worth at least as much (a stable sort, so ties keep slots first, then keeps in order)."""
    at = n
    while at > 0 and out[at - 1, 3] < value:
        out[at, 0] = out[at - 1, 0]
        out[at, 1] = out[at - 1, 1]
        out[at, 2] = out[at - 1, 2]
        out[at, 3] = out[at - 1, 3]
        at -= 1
    out[at, 0] = kind
    out[at, 1] = number
    out[at, 2] = points
    out[at, 3] = value


# columns of a judged decision (:func:`judge`'s input rows and output rows)
J_MASK, J_FLAGS, J_UPPER, J_HAND, J_THROW, J_SO_FAR, J_KIND, J_NUMBER = range(8)
J_FOUND, J_POINTS, J_VALUE, J_BEST_KIND, J_BEST_NUMBER, J_BEST_POINTS, J_BEST_VALUE = range(7)


@njit(cache=True)
def judge(T: KernelTables, V: F, keep_list: I, keep_at: I, sit: I, out: F) -> None:
    """Judge many decisions in one call (a game review): for each row of ``sit`` (sheet mask, flags,
    capped upper total, hand, throw, points so far, chosen kind, chosen slot or keep number), the
    option chosen and the best one, as :func:`options` ranks them.

    ``out`` rows: (1 if the chosen option is one of the options else 0, its points, its expected final
    score, the best option's kind, number, points and expected final score). The sub-keeps of hand h are
    ``keep_list[keep_at[h]:keep_at[h + 1]]``. Consecutive decisions of one turn (same sheet) share the
    turn's keep values, as the advisor's memo does: the values are :func:`options`'s, bit for bit.
    """
    n_slots = T.req.shape[0]
    n_keeps = T.add.shape[0]
    throws = T.throws
    rows = np.empty((n_slots + n_keeps, 4))
    Ks = np.empty((throws + 1, n_keeps))
    no_keeps = keep_list[:0]
    last_mask, last_fl, last_u, filled = -1, -1, -1, 0
    for i in range(sit.shape[0]):
        mask, fl, u, h, throw = sit[i, J_MASK], sit[i, J_FLAGS], sit[i, J_UPPER], sit[i, J_HAND], sit[i, J_THROW]
        fill = 0
        keeps = no_keeps
        if throw < throws:
            keeps = keep_list[keep_at[h] : keep_at[h + 1]]
            same = mask == last_mask and fl == last_fl and u == last_u
            if not same or filled == 0 or filled > throw + 1:
                fill = throw + 1
                last_mask, last_fl, last_u, filled = mask, fl, u, fill
        n = options(T, V, mask, fl, u, h, throw, sit[i, J_SO_FAR], Ks, fill, keeps, rows)
        _judged(rows, n, sit[i, J_KIND], sit[i, J_NUMBER], out[i])


@njit(cache=True)
def _judged(rows: F, n: int, kind: int, number: int, out: F) -> None:
    """One output row of :func:`judge` from the ranked rows of one decision (the best is the first row of
    the largest value: row 0)."""
    out[J_FOUND] = 0.0
    out[J_POINTS] = 0.0
    out[J_VALUE] = 0.0
    best = 0
    for r in range(n):
        if rows[r, 3] > rows[best, 3]:
            best = r
        if rows[r, 0] == kind and rows[r, 1] == number:
            out[J_FOUND] = 1.0
            out[J_POINTS] = rows[r, 2]
            out[J_VALUE] = rows[r, 3]
    out[J_BEST_KIND] = rows[best, 0]
    out[J_BEST_NUMBER] = rows[best, 1]
    out[J_BEST_POINTS] = rows[best, 2]
    out[J_BEST_VALUE] = rows[best, 3]
