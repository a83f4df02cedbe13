"""The numpy twin of the solve's layer and the advisor's query: the kernels' arithmetic operation by operation
in the same order (sums of the six one-die extensions left to right, then times 1/6; the first-roll average hand
by hand; maxima in any order), over arrays of states instead of one state at a time, so the values are bit for
bit those of the compiled kernels (``tests/solver/test_firstrun.py`` compares them). It serves the first hint
while numba's kernels are not compiled yet (:mod:`cubilete.solver.firstrun` chooses).
"""

from __future__ import annotations

import numpy as np

from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.kernels import NEG
from cubilete.solver.tables import KernelTables

BATCH_CELLS = 1 << 21  # states x keeps x upper totals per numpy batch (16 MiB of float64)


# --- the solve ---------------------------------------------------------------------------------------


def best_scores(T: KernelTables, mk: IntArray, fl: IntArray, V: FloatArray, first: int) -> FloatArray:
    """out[b, h, u]: :func:`kernels.best_scores` for the states (mk[b], fl[b]) at every upper total."""
    n_hands = T.first_roll.shape[0]
    n_upper = V.shape[2]
    n_slots = T.req.shape[0]
    out = np.full((mk.shape[0], n_hands, n_upper), NEG)
    u = np.arange(n_upper)
    thr = T.threshold
    plain = T.equal_face == 0
    bits0 = T.usable[mk, 0]

    def upper_values(reward: FloatArray, p: IntArray, m1: IntArray, f1: IntArray) -> FloatArray:
        """reward + V[m1, f1, min(thr, u + p)], plus the bonus where u < thr <= u + p; shapes (B, X)."""
        up = u[None, None, :] + p[:, :, None]
        val: FloatArray = reward[:, :, None] + V[m1[:, None, None], f1[:, None, None], np.minimum(thr, up)]
        return np.where((u[None, None, :] < thr) & (thr <= up), val + T.upper_bonus, val)

    for j in range(n_slots):  # hands not of one face: the kernels' per-slot shortcut
        use = (bits0 >> j) & 1 == 1
        if not use.any():
            continue
        r = T.req[j]
        blocked = (fl >> T.flag_bit[r]) & 1 == 0 if r >= 0 else np.zeros(mk.shape[0], dtype=np.bool_)
        m1 = mk | (1 << j)
        m0 = m1 | T.closes[j]
        f1 = fl | (1 << T.flag_bit[j]) if T.flag_bit[j] >= 0 else fl
        p = np.where(blocked[:, None], 0, T.pts[first, j][None, :])
        if T.is_upper[j] == 1 and n_upper > 1:
            val = upper_values(p.astype(np.float64), p, m1, f1)
        else:
            val = p[:, :, None] + V[m1, f1][:, None, :]
        val = np.where((p == 0)[:, :, None], (0.0 + V[m0, fl])[:, None, :], val)
        np.maximum(out, np.where((use[:, None] & plain[None, :])[:, :, None], val, NEG), out=out)

    xs = T.extra_slot
    joker_on = (mk >> xs) & 1 == 1 if (T.joker and xs >= 0) else np.zeros(mk.shape[0], dtype=np.bool_)
    if xs >= 0 and T.flag_bit[xs] >= 0:
        extra_holds = (fl >> T.flag_bit[xs]) & 1 == 1
    else:
        extra_holds = np.zeros(mk.shape[0], dtype=np.bool_)
    for h in np.nonzero(~plain)[0]:  # hands of one face: the general path (jokers, extra bonuses)
        face = int(T.equal_face[h])
        fbits = T.usable[mk, face]
        row = np.full((mk.shape[0], 1, n_upper), NEG)
        us = T.upper_slot_of_face[face - 1]
        used = (mk >> us) & 1 if us >= 0 else np.zeros(mk.shape[0], dtype=np.int64)
        for j in range(n_slots):
            use = (fbits >> j) & 1 == 1
            if not use.any():
                continue
            p = np.where(joker_on, T.jpts[first, j, face - 1][used], T.pts[first, j, h])
            r = T.req[j]
            if r >= 0:
                p = np.where((fl >> T.flag_bit[r]) & 1 == 0, 0, p)
            nmask = np.where(p == 0, mk | (1 << j) | T.closes[j], mk | (1 << j))
            nfl = np.where(p > 0, fl | (1 << T.flag_bit[j]), fl) if T.flag_bit[j] >= 0 else fl
            reward = p.astype(np.float64)
            if T.ebonus_ok[j] == 1:
                reward = np.where(extra_holds, reward + T.extra_bonus, reward)
            if T.is_upper[j] == 1 and n_upper > 1:
                val = upper_values(reward[:, None], p[:, None], nmask, nfl)
            else:
                val = reward[:, None, None] + V[nmask, nfl][:, None, :]
            np.maximum(row, np.where(use[:, None, None], val, NEG), out=row)
        out[:, h] = row[:, 0]
    return out


def _levels(T: KernelTables) -> list[IntArray]:
    """The keeps smaller than a hand grouped by size, largest first (the order the recursion needs)."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    # keeps are numbered by size, largest first; a keep's extension (add) has one die more
    depth = np.zeros(n_keeps, dtype=np.int64)
    for k in range(n_hands, n_keeps):
        depth[k] = depth[T.add[k, 0]] + 1
    return [np.nonzero(depth == d)[0] for d in range(1, int(depth.max()) + 1)]


def keep_values(T: KernelTables, E: FloatArray, levels: list[IntArray]) -> tuple[FloatArray, FloatArray]:
    """(K, M) of :func:`kernels.keep_values` for a batch: K[b, k, u] and the closure M."""
    n_hands = E.shape[1]
    K = np.empty((E.shape[0], T.add.shape[0], E.shape[2]))
    K[:, :n_hands] = E
    sixth = 1.0 / 6.0
    for idx in levels:
        add = T.add[idx]
        acc = 0.0 + K[:, add[:, 0]]
        for f in range(1, 6):
            acc += K[:, add[:, f]]
        K[:, idx] = acc * sixth
    M = np.empty_like(K)
    for idx in reversed(levels):  # smallest keeps first: their sub-keeps are done
        best = K[:, idx].copy()
        for f in range(6):
            r = T.remove[idx, f]
            ok = r >= 0
            if ok.any():
                best[:, ok] = np.maximum(best[:, ok], M[:, r[ok]])
        M[:, idx] = best
    return K, M


def improve(T: KernelTables, S: FloatArray, M: FloatArray) -> FloatArray:
    """:func:`kernels.improve_with_rethrow`: max(score now, best sub-keep thrown again), per hand."""
    E = S.copy()
    rem = T.remove[: S.shape[1]]
    for f in range(6):
        r = rem[:, f]
        ok = r >= 0
        if ok.any():
            E[:, ok] = np.maximum(E[:, ok], M[:, r[ok]])
    return E


def turn(
    T: KernelTables, mk: IntArray, fl: IntArray, V: FloatArray, keeps: bool = False
) -> tuple[FloatArray, dict[int, FloatArray]]:
    """:func:`kernels.turn_values` for a batch of states: (out[b, u], {t: Ks[b, keep, u]} if ``keeps``)."""
    if T.locked:
        raise ValueError("locked holds are solved by the compiled kernels only")
    S23 = best_scores(T, mk, fl, V, 0)
    S1 = best_scores(T, mk, fl, V, 1) if T.servida else S23
    Ks: dict[int, FloatArray] = {}
    if T.throws == 1:
        E = S1
    else:
        levels = _levels(T)
        E = S23
        for t in range(T.throws, 1, -1):
            K, M = keep_values(T, E, levels)
            if keeps:
                Ks[t] = K
            E = improve(T, S1 if t == 2 else S23, M)
    out = np.zeros((mk.shape[0], V.shape[2]))
    for h in range(E.shape[1]):
        out += T.first_roll[h] * E[:, h]
    return out, Ks


def solve_layer(T: KernelTables, masks: IntArray, V: FloatArray) -> None:
    """:func:`kernels.solve_layer` in numpy: fill V for every state of one layer, in batches."""
    n_slots = T.req.shape[0]
    flag_slots = [j for j in range(n_slots) if T.flag_bit[j] >= 0]
    mk_list: list[int] = []
    fl_list: list[int] = []
    for mask in masks.tolist():
        if bin(mask).count("1") >= T.rounds:
            continue  # terminal: nothing more to score
        flag_ok = 0
        for j in flag_slots:
            if (mask >> j) & 1:
                flag_ok |= 1 << int(T.flag_bit[j])
        for f in range(1 << T.n_flags):
            if not f & ~flag_ok:
                mk_list.append(mask)
                fl_list.append(f)
    if not mk_list:
        return
    mk_all = np.array(mk_list, dtype=np.int64)
    fl_all = np.array(fl_list, dtype=np.int64)
    batch = max(1, BATCH_CELLS // (T.add.shape[0] * V.shape[2]))
    for start in range(0, mk_all.shape[0], batch):
        mk, fl = mk_all[start : start + batch], fl_all[start : start + batch]
        out, _ = turn(T, mk, fl, V)
        V[mk, fl] = np.where(T.reach[mk] == 1, out, 0.0)


# --- the advisor's query -----------------------------------------------------------------------------


def sub_keeps(remove: IntArray, h: int, n_keeps: int) -> IntArray:
    """:func:`query.sub_keeps` in Python: the distinct proper sub-multisets of hand h, ascending."""
    seen = np.zeros(n_keeps, dtype=np.bool_)
    stack = [int(r) for r in remove[h] if r >= 0]
    for r in stack:
        seen[r] = True
    while stack:
        k = stack.pop()
        for r in remove[k].tolist():
            if r >= 0 and not seen[r]:
                seen[r] = True
                stack.append(r)
    return np.nonzero(seen)[0].astype(np.int64)


def options(
    T: KernelTables, V: FloatArray, mask: int, fl: int, u: int, h: int, throw: int, so_far: int, Ks: FloatArray,
    fill: int, keeps: IntArray, out: FloatArray,
) -> int:  # fmt: skip
    """:func:`query.options` in numpy: the same rows, the same values, the same order."""
    if fill > 0:
        _, turn_ks = turn(T, np.array([mask]), np.array([fl]), V, keeps=True)
        for t, K in turn_ks.items():
            if t >= fill:
                Ks[t] = K[0, :, u]
    n_upper = V.shape[2]
    first = 1 if throw == 1 else 0
    xs = T.extra_slot
    joker_on = bool(T.joker and xs >= 0 and (mask >> xs) & 1 == 1)
    extra_holds = bool(xs >= 0 and T.flag_bit[xs] >= 0 and (fl >> int(T.flag_bit[xs])) & 1 == 1)
    face = int(T.equal_face[h])
    bits = int(T.usable[mask, face])
    n_slots = T.req.shape[0]
    values: list[float] = []
    rows: list[tuple[int, int, int]] = []
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        if face > 0 and joker_on:
            us = int(T.upper_slot_of_face[face - 1])
            used = 1 if us >= 0 and (mask >> us) & 1 == 1 else 0
            p = int(T.jpts[first, j, face - 1, used])
        else:
            p = int(T.pts[first, j, h])
        r = int(T.req[j])
        if r >= 0 and (fl >> int(T.flag_bit[r])) & 1 == 0:
            p = 0
        nmask = mask | (1 << j)
        if p == 0:
            nmask |= int(T.closes[j])
        nfl = fl | (1 << int(T.flag_bit[j])) if T.flag_bit[j] >= 0 and p > 0 else fl
        bonus = T.extra_bonus if face > 0 and extra_holds and T.ebonus_ok[j] == 1 else 0
        nu = u
        if T.is_upper[j] == 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                bonus += T.upper_bonus
        future = float(V[nmask, nfl, nu]) if bin(nmask).count("1") < T.rounds else 0.0
        rows.append((0, j, p))
        values.append((so_far + p + bonus) + future)
    for k in keeps.tolist():
        rows.append((1, k, 0))
        values.append(so_far + float(Ks[throw + 1, k]))
    n = len(rows)
    order = np.argsort(-np.array(values), kind="mergesort")  # stable, as the kernel's
    for i, o in enumerate(order.tolist()):
        out[i, 0], out[i, 1], out[i, 2] = rows[o]
        out[i, 3] = values[o]
    return n


def judge(
    T: KernelTables, V: FloatArray, keep_list: IntArray, keep_at: IntArray, sit: IntArray, out: FloatArray
) -> None:
    """:func:`query.judge` in numpy: each decision by :func:`options`, the turn's keep values shared alike."""
    n_keeps = T.add.shape[0]
    rows = np.empty((T.req.shape[0] + n_keeps, 4))
    Ks = np.empty((T.throws + 1, n_keeps))
    last: tuple[int, int, int] | None = None
    filled = 0
    for i, (mask, fl, u, h, throw, so_far, kind, number) in enumerate(sit.tolist()):
        fill = 0
        keeps = keep_list[:0]
        if throw < T.throws:
            keeps = keep_list[keep_at[h] : keep_at[h + 1]]
            if last != (mask, fl, u) or filled == 0 or filled > throw + 1:
                fill = filled = throw + 1
                last = (mask, fl, u)
        n = options(T, V, mask, fl, u, h, throw, so_far, Ks, fill, keeps, rows)
        out[i, :3] = 0.0
        for r in range(n):
            if rows[r, 0] == kind and rows[r, 1] == number:
                out[i, :3] = (1.0, rows[r, 2], rows[r, 3])
                break
        out[i, 3:] = rows[0]
