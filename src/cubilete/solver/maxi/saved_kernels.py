"""Numba kernels for Maxi Yatzy WITH saved throws, the bank capped at ``cap`` (:mod:`cubilete.solver.maxi.saved`).

State at the start of a turn: ``(mask, bank, upper)``; the table is ``V[mask, bank, upper]`` with
``bank`` = 0..cap (throws saved from earlier turns). A turn has ``throws + bank`` throws; after a
throw with ``r`` throws left, the player scores (the next turn starts with ``r`` saved) or keeps
dice and throws again (``r - 1`` left). One widget pass over ``r = 0, 1, ..., bmax + throws - 1``
gives the turn-start values of every bank 0..bmax at once:

    E_0[h] = S_0[h];  E_r[h] = max(S_r[h], max over proper sub-keeps k of h of K_{r-1}[k]),
    K_{r-1}[k] = mean of E_{r-1} over the six one-die extensions of k;  W[b] = sum_h P(h) E_{b+throws-1}[h]

where ``S_r[h]`` is the best box for hand ``h`` followed by a turn that starts with ``r`` saved.
A next bank ``r > cap`` is valued by the bound's rule (``upper_mode``):

* lower (0): the throws beyond the cap are lost: ``V[., cap, .]``. A legal policy of the real game
  (it never throws more than it believes it has), so its optimum is a lower bound.
* upper (1): ``min(V[., cap, u] + (r - cap) * delta, every open box at its maximum + the bonus if
  still reachable)``, an over-estimate of the real value (the proof is in docs/generated/OPTIMAL.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.maxi.kernels import NEG, Values, reachable


@njit(cache=True)
def sheet_bounds(nmask: int, maxpts: I, is_upper: I, rounds: int) -> tuple[float, int, float, float, int]:
    """For the sheet ``nmask``: (sum of the open boxes' maxima, sum of the open upper boxes' maxima,
    the largest open maximum, the largest open maximum of an upper box, turns left). Every turn
    closes exactly one box (no prerequisites), so the turns left are min(rounds, boxes) - closed."""
    total = 0.0
    up_rem = 0
    d0 = 0.0
    du = 0.0
    filled = 0
    for j in range(maxpts.shape[0]):
        if (nmask >> j) & 1 == 1:
            filled += 1
            continue
        total += maxpts[j]
        d0 = max(d0, np.float64(maxpts[j]))
        if is_upper[j] == 1:
            up_rem += maxpts[j]
            du = max(du, np.float64(maxpts[j]))
    return total, up_rem, d0, du, max(0, min(rounds, maxpts.shape[0]) - filled)


@njit(cache=True)
def over_estimate(base: float, saved: int, excess: int, u: int, sb: tuple[float, int, float, float, int],
                  threshold: int, bonus: int, n_upper: int, throws: int, priced: Values, nmask: int,
                  lams: F) -> float:  # fmt: skip
    """A proven over-estimate of the value of a turn start with ``saved`` = cap + ``excess`` throws saved,
    given ``base`` >= its value with ``cap`` saved, upper total ``u`` (capped), sheet bounds ``sb``, and
    ``priced[l, nmask, u]`` >= the value of that turn start when throws are unlimited but cost ``lams[l]`` each."""
    total, up_rem, d0, du, turns_left = sb
    if turns_left == 0:
        return 0.0
    bonus_open = n_upper > 1 and bonus > 0 and u < threshold and u + up_rem >= threshold
    best = total + (bonus if bonus_open else 0.0)  # every open box at its maximum
    delta = max(d0, du + bonus) if bonus_open else d0  # what one more throw can be worth
    best = min(best, base + excess * delta)
    for k in range(lams.shape[0]):  # at most saved + throws * turns_left throws remain to be made
        best = min(best, np.float64(priced[k, nmask, u]) + lams[k] * (saved + throws * turns_left))
    return best


@njit(cache=True)
def _next(
    after: Values, r: int, cap: int, upper_mode: int, nu: int, sb: tuple[float, int, float, float, int],
    threshold: int, bonus: int, n_upper: int, throws: int, priced: Values, nmask: int, lams: F,
) -> float:  # fmt: skip
    """Value of the next turn start (sheet rows ``after``) with ``r`` throws saved and upper total ``nu``."""
    if r <= cap:
        return np.float64(after[r, nu])
    base = np.float64(after[cap, nu])
    if upper_mode == 0:
        return base
    return over_estimate(base, r, r - cap, nu, sb, threshold, bonus, n_upper, throws, priced, nmask, lams)


@njit(cache=True)
def _best_boxes(
    mask: int, r: int, cap: int, upper_mode: int, ulist: I, w: int, V: Values, pts: I, is_upper: I, slot_face: I,
    closes: I, maxpts: I, rounds: int, threshold: int, bonus: int, throws: int, priced: Values, lams: F, S: F, G: F,
) -> None:  # fmt: skip
    """S[h, i] = best over open boxes of (points + bonus + next turn start with r saved)."""
    n_slots, n_hands = pts.shape
    n_upper = V.shape[2]
    for h in range(n_hands):
        for i in range(w):
            S[h, i] = NEG
    for j in range(n_slots):
        if (mask >> j) & 1 == 1:
            continue
        upper_box = is_upper[j] == 1 and n_upper > 1
        if closes[j] == 0:
            nmask = mask | (1 << j)
            after = V[nmask]
            sb = sheet_bounds(nmask, maxpts, is_upper, rounds)
            if upper_box:
                face = slot_face[j]
                for c in range(G.shape[0]):
                    p = face * c
                    for i in range(w):
                        u = ulist[i]
                        nu = min(n_upper - 1, u + p)
                        val = p + _next(
                            after, r, cap, upper_mode, nu, sb, threshold, bonus, n_upper, throws, priced, nmask, lams
                        )
                        if u < threshold <= u + p:
                            val += bonus
                        G[c, i] = val
                for h in range(n_hands):
                    g = G[pts[j, h] // face]
                    for i in range(w):
                        if g[i] > S[h, i]:
                            S[h, i] = g[i]
            else:
                for i in range(w):
                    G[0, i] = _next(
                        after, r, cap, upper_mode, ulist[i], sb, threshold, bonus, n_upper, throws, priced, nmask, lams
                    )
                for h in range(n_hands):
                    p = pts[j, h]
                    for i in range(w):
                        val = p + G[0, i]
                        if val > S[h, i]:
                            S[h, i] = val
            continue
        for h in range(n_hands):  # a scratch closes other slots too: the sheet after depends on the hand
            p = pts[j, h]
            nmask = mask | (1 << j)
            if p == 0:
                nmask |= closes[j]
            after = V[nmask]
            sb = sheet_bounds(nmask, maxpts, is_upper, rounds)
            for i in range(w):
                u = ulist[i]
                nu = min(n_upper - 1, u + p) if upper_box else u
                val = p + _next(
                    after, r, cap, upper_mode, nu, sb, threshold, bonus, n_upper, throws, priced, nmask, lams
                )
                if upper_box and u < threshold <= u + p:
                    val += bonus
                if val > S[h, i]:
                    S[h, i] = val


@njit(cache=True)
def saved_widget(
    mask: int, ulist: I, w: int, bmax: int, cap: int, upper_mode: int, V: Values, pts: I, is_upper: I,
    slot_face: I, closes: I, maxpts: I, rounds: int, threshold: int, bonus: int, throws: int, add: I, remove: I,
    first_roll: F, priced: Values, lams: F, S: F, E: F, Kv: F, M: F, G: F, out: F,
) -> None:  # fmt: skip
    """out[b, i] = expected points to come from a turn start in sheet ``mask`` with ``b`` throws saved
    (b = 0..bmax) and upper total ulist[i]."""
    n_hands = pts.shape[1]
    n_keeps = add.shape[0]
    top = bmax + throws - 1  # throws left after the first throw of a turn with bmax saved
    for r in range(top + 1):
        if r == 0 or upper_mode == 1 or r <= cap:  # lower bound: S_r = S_cap for every r > cap
            _best_boxes(mask, r, cap, upper_mode, ulist, w, V, pts, is_upper, slot_face, closes, maxpts, rounds,
                        threshold, bonus, throws, priced, lams, S, G)  # fmt: skip
        if r == 0:
            for h in range(n_hands):
                for i in range(w):
                    E[h, i] = S[h, i]
        else:
            for h in range(n_hands):
                for i in range(w):
                    Kv[h, i] = E[h, i]
            for k in range(n_hands, n_keeps):  # the mean of the six one-die extensions, in face order
                row = Kv[k]
                k0, k1, k2 = Kv[add[k, 0]], Kv[add[k, 1]], Kv[add[k, 2]]
                k3, k4, k5 = Kv[add[k, 3]], Kv[add[k, 4]], Kv[add[k, 5]]
                for i in range(w):
                    row[i] = (k0[i] + k1[i] + k2[i] + k3[i] + k4[i] + k5[i]) * (1.0 / 6.0)
            for k in range(n_keeps - 1, n_hands - 1, -1):
                row = M[k]
                src = Kv[k]
                for i in range(w):
                    row[i] = src[i]
                for f in range(6):
                    q = remove[k, f]
                    if q >= 0:
                        sub = M[q]
                        for i in range(w):
                            row[i] = max(row[i], sub[i])
            for h in range(n_hands):
                row = E[h]
                src = S[h]
                for i in range(w):
                    row[i] = src[i]
                for f in range(6):
                    q = remove[h, f]
                    if q >= 0:
                        sub = M[q]
                        for i in range(w):
                            row[i] = max(row[i], sub[i])
        b = r - (throws - 1)
        if b >= 0:
            for i in range(w):
                out[b, i] = 0.0
            for h in range(n_hands):
                p = first_roll[h]
                for i in range(w):
                    out[b, i] += p * E[h, i]


@njit(cache=True)
def _store(x: float, rounding: int) -> float:
    """x nudged so that storing it in float32 (round to nearest) rounds it down (-1) or up (+1); 0: as is."""
    if rounding < 0 and np.float64(np.float32(x)) > x:
        return x - abs(x) * 2.0**-23  # at least one float32 step below x: its nearest float32 is < x
    if rounding > 0 and np.float64(np.float32(x)) < x:
        return x + abs(x) * 2.0**-23
    return x


@njit(cache=True, parallel=True)
def solve_block_saved(
    masks: I, V: Values, cap: int, upper_mode: int, rounding: int, rounds: int, pts: I, is_upper: I, slot_face: I,
    closes: I, maxpts: I, upper_slot: I, upper_face: I, dice: int, threshold: int, bonus: int, throws: int, add: I,
    remove: I, first_roll: F, priced: Values, lams: F, chunk: int,
) -> None:  # fmt: skip
    """Fill V[mask, b, u] for every mask of ``masks`` (one layer: independent), every bank b that can
    occur (at most (throws - 1) per turn played, at most ``cap``) and every reachable u."""
    n_slots, n_hands = pts.shape
    n_keeps = add.shape[0]
    n_upper = V.shape[2]
    n_chunks = (masks.shape[0] + chunk - 1) // chunk
    for c in prange(n_chunks):
        S = np.empty((n_hands, n_upper))
        E = np.empty((n_hands, n_upper))
        Kv = np.empty((n_keeps, n_upper))
        M = np.empty((n_keeps, n_upper))
        G = np.empty((7, n_upper))
        out = np.empty((cap + 1, n_upper))
        ulist = np.empty(n_upper, dtype=np.int64)
        for b in range(c * chunk, min(masks.shape[0], (c + 1) * chunk)):
            mask = masks[b]
            filled = 0
            for j in range(n_slots):
                filled += (mask >> j) & 1
            if filled >= rounds:
                continue
            bmax = min(cap, (throws - 1) * filled)
            w = reachable(mask, upper_slot, upper_face, dice, n_upper, ulist)
            saved_widget(mask, ulist, w, bmax, cap, upper_mode, V, pts, is_upper, slot_face, closes, maxpts,
                         rounds, threshold, bonus, throws, add, remove, first_roll, priced, lams, S, E, Kv, M, G,
                         out)  # fmt: skip
            rows = V[mask]
            for bank in range(bmax + 1):
                for i in range(w):
                    rows[bank, ulist[i]] = _store(out[bank, i], rounding)


@njit(cache=True)
def priced_widget(
    mask: int, ulist: I, w: int, lam: float, W: Values, pts: I, is_upper: I, slot_face: I, closes: I, maxpts: I,
    rounds: int, threshold: int, bonus: int, add: I, remove: I, first_roll: F, iterations: int, S: F, E: F, Kv: F,
    M: F, G: F, out: F,
) -> None:  # fmt: skip
    """out[i] >= the value of a turn start (sheet ``mask``, upper total ulist[i]) in the game where a turn
    has as many throws as the player likes, each (the first too) costing ``lam`` points; ``W[mask, 0, u]``
    holds the same for later sheets.

    Value iteration from ABOVE: E starts at the best box value of any hand (no hand is worth more:
    every turn ends by writing some hand), and the Bellman operator is monotone, so every iterate
    stays >= the fixed point: stopping after ``iterations`` (or when nothing changes) is safe."""
    n_hands = pts.shape[1]
    n_keeps = add.shape[0]
    empty = np.zeros(0)
    _best_boxes(mask, 0, 0, 0, ulist, w, W, pts, is_upper, slot_face, closes, maxpts, rounds, threshold, bonus, 1,
                W, empty, S, G)  # fmt: skip
    for i in range(w):
        top = NEG
        for h in range(n_hands):
            top = max(top, S[h, i])
        for h in range(n_hands):
            E[h, i] = top
    for _ in range(iterations):
        for h in range(n_hands):
            for i in range(w):
                Kv[h, i] = E[h, i]
        for k in range(n_hands, n_keeps):
            row = Kv[k]
            k0, k1, k2 = Kv[add[k, 0]], Kv[add[k, 1]], Kv[add[k, 2]]
            k3, k4, k5 = Kv[add[k, 3]], Kv[add[k, 4]], Kv[add[k, 5]]
            for i in range(w):
                row[i] = (k0[i] + k1[i] + k2[i] + k3[i] + k4[i] + k5[i]) * (1.0 / 6.0)
        for k in range(n_keeps - 1, n_hands - 1, -1):
            row = M[k]
            src = Kv[k]
            for i in range(w):
                row[i] = src[i]
            for f in range(6):
                q = remove[k, f]
                if q >= 0:
                    sub = M[q]
                    for i in range(w):
                        row[i] = max(row[i], sub[i])
        change = 0.0
        for h in range(n_hands):
            for i in range(w):
                val = S[h, i]
                for f in range(6):
                    q = remove[h, f]
                    if q >= 0:
                        val = max(val, M[q, i] - lam)
                change = max(change, E[h, i] - val)
                E[h, i] = val
        if change <= 1e-10:
            break
    for i in range(w):
        out[i] = -lam
    for h in range(n_hands):
        p = first_roll[h]
        for i in range(w):
            out[i] += p * E[h, i]


@njit(cache=True, parallel=True)
def solve_block_priced(
    masks: I, W: Values, lams: F, rounding: int, rounds: int, pts: I, is_upper: I, slot_face: I, closes: I,
    maxpts: I, upper_slot: I, upper_face: I, dice: int, threshold: int, bonus: int, add: I, remove: I,
    first_roll: F, iterations: int, chunk: int,
) -> None:  # fmt: skip
    """Fill W[l, mask, 0, u] (the priced game with price lams[l]) for every mask of ``masks`` and reachable u."""
    n_slots, n_hands = pts.shape
    n_keeps = add.shape[0]
    n_upper = W.shape[3]
    n_chunks = (masks.shape[0] + chunk - 1) // chunk
    for c in prange(n_chunks):
        S = np.empty((n_hands, n_upper))
        E = np.empty((n_hands, n_upper))
        Kv = np.empty((n_keeps, n_upper))
        M = np.empty((n_keeps, n_upper))
        G = np.empty((7, n_upper))
        out = np.empty(n_upper)
        ulist = np.empty(n_upper, dtype=np.int64)
        for b in range(c * chunk, min(masks.shape[0], (c + 1) * chunk)):
            mask = masks[b]
            filled = 0
            for j in range(n_slots):
                filled += (mask >> j) & 1
            if filled >= rounds:
                continue
            w = reachable(mask, upper_slot, upper_face, dice, n_upper, ulist)
            for lk in range(lams.shape[0]):
                Wl = W[lk]
                priced_widget(mask, ulist, w, lams[lk], Wl, pts, is_upper, slot_face, closes, maxpts, rounds,
                              threshold, bonus, add, remove, first_roll, iterations, S, E, Kv, M, G, out)  # fmt: skip
                for i in range(w):
                    Wl[mask, 0, ulist[i]] = _store(out[i], rounding)


@njit(cache=True)
def saved_turn(
    mask: int, u: int, top: int, cap: int, V: Values, pts: I, is_upper: I, slot_face: I, closes: I, maxpts: I,
    rounds: int, threshold: int, bonus: int, throws: int, add: I, remove: I, Ks: F,
) -> None:  # fmt: skip
    """Ks[r, k] = expected points to come from throwing the dice not in keep ``k`` with ``r`` throws left
    (r = 1..top; keep k a proper sub-keep of a hand), in the lower-bound game of :func:`solve_block_saved`
    (sheet ``mask``, capped upper total ``u``): the same passes as :func:`saved_widget`, for the advice."""
    n_hands = pts.shape[1]
    n_keeps = add.shape[0]
    ulist = np.array([u], dtype=np.int64)
    S = np.empty((n_hands, 1))
    E = np.empty((n_hands, 1))
    Kv = np.empty((n_keeps, 1))
    M = np.empty((n_keeps, 1))
    G = np.empty((7, 1))
    priced = np.zeros((0, 1, 1))
    lams = np.zeros(0)
    for r in range(top + 1):
        if r == 0 or r <= cap:
            _best_boxes(mask, r, cap, 0, ulist, 1, V, pts, is_upper, slot_face, closes, maxpts, rounds, threshold,
                        bonus, throws, priced, lams, S, G)  # fmt: skip
        if r == 0:
            for h in range(n_hands):
                E[h, 0] = S[h, 0]
            continue
        for h in range(n_hands):
            Kv[h, 0] = E[h, 0]
        for k in range(n_hands, n_keeps):
            Kv[k, 0] = (Kv[add[k, 0], 0] + Kv[add[k, 1], 0] + Kv[add[k, 2], 0] + Kv[add[k, 3], 0]
                        + Kv[add[k, 4], 0] + Kv[add[k, 5], 0]) * (1.0 / 6.0)  # fmt: skip
            Ks[r, k] = Kv[k, 0]
        for k in range(n_keeps - 1, n_hands - 1, -1):
            M[k, 0] = Kv[k, 0]
            for f in range(6):
                q = remove[k, f]
                if q >= 0:
                    M[k, 0] = max(M[k, 0], M[q, 0])
        for h in range(n_hands):
            E[h, 0] = S[h, 0]
            for f in range(6):
                q = remove[h, f]
                if q >= 0:
                    E[h, 0] = max(E[h, 0], M[q, 0])
