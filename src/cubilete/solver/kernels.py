"""Numba kernels: one turn ("widget") solved exactly, and backward induction layer by layer.

A widget turns the values of the states after the turn into the value of the state
before it: best box for each hand (with servida values on the first throw), then for
each earlier throw the keep values by the one-die recursion and the best sub-keep by a
downward closure. All upper totals of a sheet are handled at once (the innermost,
contiguous axis, so the loops vectorise), and every sheet of a layer (same number of
closed slots) is independent, so a layer runs in parallel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I

NEG = -1.0e18


@njit(cache=True)
def best_scores(
    mask: int, fl: int, V: F, threshold: int, upper_bonus: int, extra_slot: int, extra_bonus: int, joker: bool,
    flag_bit: I, req: I, closes: I, is_upper: I, ebonus_ok: I, upper_slot_of_face: I, pts: I, jpts: I, usable: I,
    equal_face: I, first: int, out: F,
) -> None:  # fmt: skip
    """out[h, u] = best (points + bonuses + value after) over the usable slots, per hand and upper total."""
    n_slots = req.shape[0]
    n_hands, n_upper = out.shape
    joker_on = joker and extra_slot >= 0 and (mask >> extra_slot) & 1 == 1
    extra_holds = extra_slot >= 0 and flag_bit[extra_slot] >= 0 and (fl >> flag_bit[extra_slot]) & 1 == 1
    for h in range(n_hands):
        row = out[h]
        row[:] = NEG
        face = equal_face[h]
        bits = usable[mask, face]
        for j in range(n_slots):
            if (bits >> j) & 1 == 0:
                continue
            if face > 0 and joker_on:
                used = 0
                us = upper_slot_of_face[face - 1]
                if us >= 0 and (mask >> us) & 1 == 1:
                    used = 1
                p = jpts[first, j, face - 1, used]
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
                reward += extra_bonus
            after = V[nmask, nfl]
            if is_upper[j] == 1 and n_upper > 1:
                for u in range(n_upper):
                    nu = min(n_upper - 1, u + p)
                    val = reward + after[nu]
                    if u < threshold <= u + p:
                        val += upper_bonus
                    if val > row[u]:
                        row[u] = val
            else:
                for u in range(n_upper):
                    val = reward + after[u]
                    if val > row[u]:
                        row[u] = val


@njit(cache=True)
def keep_values(E: F, add: I, remove: I, K: F, M: F) -> None:
    """K[k]: expected E after throwing the dice not in keep k; M[k]: best K over sub-keeps of k."""
    n_hands, n_upper = E.shape
    n_keeps = K.shape[0]
    K[:n_hands] = E
    for k in range(n_hands, n_keeps):
        row = K[k]
        row[:] = 0.0
        for f in range(6):
            child = K[add[k, f]]
            for u in range(n_upper):
                row[u] += child[u]
        for u in range(n_upper):
            row[u] *= 1.0 / 6.0
    closure(K, remove, n_hands, M)


@njit(cache=True)
def closure(K: F, remove: I, n_hands: int, M: F) -> None:
    """M[k] = best K over the sub-keeps of k (keeps smaller than a hand)."""
    n_keeps, n_upper = K.shape
    for k in range(n_keeps - 1, n_hands - 1, -1):
        row = M[k]
        row[:] = K[k]
        for f in range(6):
            r = remove[k, f]
            if r >= 0:
                sub = M[r]
                for u in range(n_upper):
                    if sub[u] > row[u]:
                        row[u] = sub[u]


@njit(cache=True)
def locked_keep_values(
    S23: F, K: F, Knew: F, n_hands: int, edge_ptr: I, edge_hand: I, edge_prob: F, between_ptr: I, between: I
) -> None:
    """Knew[k]: value of keep k one throw earlier when held dice stay held (the next keep must contain k)."""
    n_keeps, n_upper = K.shape
    best = np.empty(n_upper)
    for k in range(n_hands, n_keeps):
        row = Knew[k]
        row[:] = 0.0
        for e in range(edge_ptr[k], edge_ptr[k + 1]):
            best[:] = S23[edge_hand[e]]
            for b in range(between_ptr[e], between_ptr[e + 1]):
                sub = K[between[b]]
                for u in range(n_upper):
                    if sub[u] > best[u]:
                        best[u] = sub[u]
            p = edge_prob[e]
            for u in range(n_upper):
                row[u] += p * best[u]


@njit(cache=True)
def improve_with_rethrow(S: F, M: F, remove: I, E: F) -> None:
    """E[h] = max(score now, best proper sub-keep thrown again)."""
    n_hands, n_upper = E.shape
    for h in range(n_hands):
        row = E[h]
        row[:] = S[h]
        for f in range(6):
            r = remove[h, f]
            if r >= 0:
                sub = M[r]
                for u in range(n_upper):
                    if sub[u] > row[u]:
                        row[u] = sub[u]


@njit(cache=True)
def turn_values(
    mask: int, fl: int, V: F, throws: int, servida: bool, threshold: int, upper_bonus: int, extra_slot: int,
    extra_bonus: int, joker: bool, flag_bit: I, req: I, closes: I, is_upper: I, ebonus_ok: I,
    upper_slot_of_face: I, pts: I, jpts: I, usable: I, equal_face: I,
    add: I, remove: I, first_roll: F, locked: bool, edge_ptr: I, edge_hand: I, edge_prob: F, between_ptr: I,
    between: I, S1: F, S23: F, E: F, K: F, M: F, Knew: F, out: F,
) -> None:  # fmt: skip
    """out[u] = expected points to come from the start of a turn in sheet (mask, fl), every upper total u."""
    n_hands, n_upper = E.shape
    best_scores(mask, fl, V, threshold, upper_bonus, extra_slot, extra_bonus, joker, flag_bit, req, closes,
                is_upper, ebonus_ok, upper_slot_of_face, pts, jpts, usable, equal_face, 0, S23)  # fmt: skip
    if servida:
        best_scores(mask, fl, V, threshold, upper_bonus, extra_slot, extra_bonus, joker, flag_bit, req, closes,
                    is_upper, ebonus_ok, upper_slot_of_face, pts, jpts, usable, equal_face, 1, S1)  # fmt: skip
    else:
        S1[:] = S23
    if throws == 1:
        E[:] = S1
    elif locked:
        keep_values(S23, add, remove, K, M)  # keeps before the last throw
        for _ in range(throws - 2):  # earlier throws: the next keep must contain this one
            locked_keep_values(S23, K, Knew, n_hands, edge_ptr, edge_hand, edge_prob, between_ptr, between)
            K[n_hands:] = Knew[n_hands:]
        closure(K, remove, n_hands, M)
        improve_with_rethrow(S1, M, remove, E)
    else:
        E[:] = S23
        for t in range(throws, 1, -1):  # E holds the values after throw t
            keep_values(E, add, remove, K, M)
            improve_with_rethrow(S1 if t - 1 == 1 else S23, M, remove, E)
    out[:] = 0.0
    for h in range(n_hands):
        p = first_roll[h]
        row = E[h]
        for u in range(n_upper):
            out[u] += p * row[u]


@njit(cache=True, parallel=True)
def solve_layer(
    masks: I, V: F, rounds: int, throws: int, servida: bool, n_flags: int, threshold: int, upper_bonus: int,
    extra_slot: int, extra_bonus: int, joker: bool, flag_bit: I, req: I, closes: I, is_upper: I, ebonus_ok: I,
    upper_slot_of_face: I, pts: I, jpts: I, usable: I, reach: I, equal_face: I, add: I, remove: I, first_roll: F,
    locked: bool, edge_ptr: I, edge_hand: I, edge_prob: F, between_ptr: I, between: I,
) -> None:  # fmt: skip
    """Fill V for every state whose mask is in ``masks`` (one layer: all independent)."""
    n_hands = first_roll.shape[0]
    n_keeps = add.shape[0]
    n_slots = req.shape[0]
    n_upper = V.shape[2]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        filled = 0
        for j in range(n_slots):
            filled += (mask >> j) & 1
        if filled >= rounds:
            continue  # terminal: nothing more to score
        flag_ok = 0  # flags whose box is closed
        for j in range(n_slots):
            if flag_bit[j] >= 0 and (mask >> j) & 1 == 1:
                flag_ok |= 1 << flag_bit[j]
        S1 = np.empty((n_hands, n_upper))
        S23 = np.empty((n_hands, n_upper))
        E = np.empty((n_hands, n_upper))
        K = np.empty((n_keeps, n_upper))
        M = np.empty((n_keeps, n_upper))
        Knew = np.empty((n_keeps, n_upper))
        out = np.empty(n_upper)
        for fl in range(1 << n_flags):
            if fl & ~flag_ok:
                continue
            turn_values(mask, fl, V, throws, servida, threshold, upper_bonus, extra_slot, extra_bonus, joker,
                        flag_bit, req, closes, is_upper, ebonus_ok, upper_slot_of_face, pts, jpts, usable,
                        equal_face, add, remove, first_roll, locked, edge_ptr, edge_hand, edge_prob, between_ptr,
                        between, S1, S23, E, K, M, Knew, out)  # fmt: skip
            for u in range(n_upper):
                if reach[mask, u] == 1:
                    V[mask, fl, u] = out[u]
