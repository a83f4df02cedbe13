"""Numba kernels of the layered solver (:mod:`cubilete.solver.maxi.layered`): one turn over the reachable
upper totals only, for one-column free-order sheets without flags, jokers, servida values or
locked holds (Maxi Yatzy without saved throws: 6 dice, 462 hands, 924 keeps, 20 boxes).

State at the start of a turn: ``(mask, upper)``. The value table ``V[mask, u]`` may be stored
in float32 (memory-mapped on disk); every turn is computed in float64 and only its result is
rounded to the table's type. The upper totals of a sheet are restricted to the ones its
closed upper boxes can reach (``ulist``): 57.5 million of Maxi's 89 million (mask, upper)
pairs, so the widget is about a third cheaper than over every upper total.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I

Values = npt.NDArray[Any]  # the value table: float32 (stored) or float64

NEG = -1.0e18


@njit(cache=True)
def reachable(mask: int, upper_slot: I, upper_face: I, dice: int, n_upper: int, ulist: I) -> int:
    """Fill ulist[:w] with the upper totals (capped at n_upper - 1) reachable with the closed upper
    boxes of ``mask``, ascending; return w."""
    seen = np.zeros(n_upper, dtype=np.uint8)
    seen[0] = 1
    for a in range(upper_slot.shape[0]):
        if (mask >> upper_slot[a]) & 1 == 0:
            continue
        face = upper_face[a]
        nxt = np.zeros(n_upper, dtype=np.uint8)
        for u in range(n_upper):
            if seen[u] == 1:
                for c in range(dice + 1):
                    nxt[min(n_upper - 1, u + face * c)] = 1
        seen = nxt
    w = 0
    for u in range(n_upper):
        if seen[u] == 1:
            ulist[w] = u
            w += 1
    return w


@njit(cache=True)
def widget(
    mask: int, ulist: I, w: int, V: Values, pts: I, is_upper: I, slot_face: I, closes: I, threshold: int, bonus: int,
    throws: int, add: I, remove: I, first_roll: F, S: F, E: F, Ks: F, M: F, out: F,
) -> None:  # fmt: skip
    """out[i] = expected points to come from the start of a turn in sheet ``mask``, upper total ulist[i].

    Upper boxes score ``slot_face[j]`` times the dice showing it (at most 6 dice).
    S, E: (hands, >= w); Ks: (throws + 1, keeps, >= w); M: (keeps, >= w); only the first w columns
    are used. Leaves S[h] (best box for hand h) and Ks[t, k] (keep k thrown for throw t, t >= 2).
    """
    n_slots, n_hands = pts.shape
    n_keeps = add.shape[0]
    n_upper = V.shape[1]
    # best box per hand: S[h, i]. Per slot, what a write adds is gathered once into G (one row per
    # count of the upper box's face; one row for any other box), so the loop over hands is contiguous.
    for h in range(n_hands):
        for i in range(w):
            S[h, i] = NEG
    G = np.empty((7, w))
    for j in range(n_slots):
        if (mask >> j) & 1 == 1:
            continue
        upper_box = is_upper[j] == 1 and n_upper > 1
        if closes[j] == 0:
            after = V[mask | (1 << j)]
            if upper_box:
                face = slot_face[j]
                for c in range(G.shape[0]):
                    p = face * c
                    for i in range(w):
                        u = ulist[i]
                        val = p + np.float64(after[min(n_upper - 1, u + p)])
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
                    G[0, i] = np.float64(after[ulist[i]])
                for h in range(n_hands):
                    p = pts[j, h]
                    for i in range(w):
                        val = p + G[0, i]
                        if val > S[h, i]:
                            S[h, i] = val
            continue
        for h in range(n_hands):  # a scratch here closes other slots too: the sheet after depends on the hand
            p = pts[j, h]
            nmask = mask | (1 << j)
            if p == 0:
                nmask |= closes[j]
            after = V[nmask]
            for i in range(w):
                u = ulist[i]
                nu = min(n_upper - 1, u + p) if upper_box else u
                val = p + np.float64(after[nu])
                if upper_box and u < threshold <= u + p:
                    val += bonus
                if val > S[h, i]:
                    S[h, i] = val
    # E[h]: value of holding hand h after the last throw, then earlier throws
    for h in range(n_hands):
        for i in range(w):
            E[h, i] = S[h, i]
    for t in range(throws, 1, -1):
        K = Ks[t]
        for h in range(n_hands):
            for i in range(w):
                K[h, i] = E[h, i]
        for k in range(n_hands, n_keeps):  # the mean of the six one-die extensions, summed in face order
            row = K[k]
            k0, k1, k2 = K[add[k, 0]], K[add[k, 1]], K[add[k, 2]]
            k3, k4, k5 = K[add[k, 3]], K[add[k, 4]], K[add[k, 5]]
            for i in range(w):
                row[i] = (k0[i] + k1[i] + k2[i] + k3[i] + k4[i] + k5[i]) * (1.0 / 6.0)
        for k in range(n_keeps - 1, n_hands - 1, -1):
            row = M[k]
            src = K[k]
            for i in range(w):
                row[i] = src[i]
            for f in range(6):
                r = remove[k, f]
                if r >= 0:
                    sub = M[r]
                    for i in range(w):
                        row[i] = max(row[i], sub[i])
        for h in range(n_hands):
            row = E[h]
            src = S[h]
            for i in range(w):
                row[i] = src[i]
            for f in range(6):
                r = remove[h, f]
                if r >= 0:
                    sub = M[r]
                    for i in range(w):
                        row[i] = max(row[i], sub[i])
    for i in range(w):
        out[i] = 0.0
    for h in range(n_hands):
        p = first_roll[h]
        for i in range(w):
            out[i] += p * E[h, i]


@njit(cache=True, parallel=True)
def solve_block(
    masks: I, V: Values, rounds: int, pts: I, is_upper: I, slot_face: I, closes: I, upper_slot: I, upper_face: I,
    dice: int, threshold: int, bonus: int, throws: int, add: I, remove: I, first_roll: F, chunk: int,
) -> None:  # fmt: skip
    """Fill V[mask, u] for every mask of ``masks`` (all of one layer: independent) and reachable u."""
    n_slots, n_hands = pts.shape
    n_keeps = add.shape[0]
    n_upper = V.shape[1]
    n_chunks = (masks.shape[0] + chunk - 1) // chunk
    for c in prange(n_chunks):
        S = np.empty((n_hands, n_upper))
        E = np.empty((n_hands, n_upper))
        Ks = np.empty((throws + 1, n_keeps, n_upper))
        M = np.empty((n_keeps, n_upper))
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
            widget(mask, ulist, w, V, pts, is_upper, slot_face, closes, threshold, bonus, throws, add, remove,
                   first_roll, S, E, Ks, M, out)  # fmt: skip
            row = V[mask]
            for i in range(w):
                row[ulist[i]] = out[i]


@njit(cache=True)
def reachable_count(n_masks: int, upper_slot: I, upper_face: I, dice: int, n_upper: int) -> int:
    """How many (mask, upper) pairs are reachable: the states the table really holds."""
    ulist = np.empty(n_upper, dtype=np.int64)
    total = 0
    for mask in range(n_masks):
        total += reachable(mask, upper_slot, upper_face, dice, n_upper, ulist)
    return total
