"""Exact final-score distributions without the (state x score) table: a forward pass.

From one turn-start state the pass carries the probability mass of (state, points gained so
far) layer by layer (by closed boxes) under the solver's policy. For each state it solves the
turn once more from the solver's values with exactly the floating-point operations of the
``follow`` table (:mod:`cubilete.win.kernels`: the same comparisons in the same order, so
the same choice among exact ties), follows the dice through that turn (keeps thrown again
by the one-die steps backwards), and so gets the probability of every (next state, points
scored) outcome; the state's mass vector is then added, shifted by the points, into its
successors'. Only the states reachable from the start hold mass, and each holds it over a
window of points it can have gained (bounded from the boxes closed since the start), so the
memory is two layers of windows: Yatzy 0.55 GB, Yahtzee 1.3 GB at the widest layers, where
the (state x score) tables would need 6.3 and 14 GB.

Each layer runs in chunks of sheets: first every state's outcomes (in parallel over sheets),
then the additions (in parallel over parts of the successor states, so no two threads ever
add into one vector).

Locked holds (held dice stay held) are not followed here; those rule sets are small enough
for the table (:func:`cubilete.win.distribution.distribution` picks).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from cubilete.engine.errors import ForwardError, SolverUnsupportedError
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.combinatorics import FloatArray as F
from cubilete.solver.combinatorics import IntArray as I
from cubilete.solver.kernels import NEG, sheet_context, slot_outcome
from cubilete.solver.solve import Solution
from cubilete.solver.space import StateSpace
from cubilete.solver.tables import KernelTables

CHUNK_STATES = 8_192  # states whose outcomes are held at once (x 2 x hands x 24 bytes: 100 MB)


def popcounts(n_slots: int) -> IntArray:
    """Closed boxes of every mask."""
    masks = np.arange(1 << n_slots, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n_slots)) & 1
    out: IntArray = bits.sum(axis=1).astype(np.int64)
    return out


def windows(space: StateSpace, mask0: int, fl0: int, u0: int) -> tuple[IntArray, IntArray]:
    """(lo, hi): for every state (mask, flags, upper), the points it can have gained since the start
    state (mask0, fl0, u0); hi < lo where the state cannot follow the start.

    Below the bonus threshold the upper total is known exactly; the lower boxes closed since
    the start add 0 .. their best; extra bonuses only where the five-of-a-kind box holds points.
    """
    S, Fn, U = space.n_slots, space.n_flags, space.n_upper
    masks = np.arange(1 << S, dtype=np.int64)
    best = np.maximum(space.pts.max(axis=(0, 2)), space.jpts.max(axis=(0, 2, 3))).astype(np.int64)
    upper = space.is_upper.astype(bool)
    closed = masks & ~mask0
    bits = (closed[:, None] >> np.arange(S)) & 1
    max_up = bits[:, upper] @ best[upper] if upper.any() else np.zeros(masks.size, dtype=np.int64)
    max_low = bits[:, ~upper] @ best[~upper]
    n_closed = bits.sum(axis=1)
    follows = (masks & mask0) == mask0
    flag_closed = np.zeros(masks.size, dtype=np.int64)  # flags whose box is closed (only those can be set)
    for j in range(S):
        if space.flag_bit[j] >= 0:
            flag_closed |= ((masks >> j) & 1) << int(space.flag_bit[j])
    lo = np.zeros((1 << S, 1 << Fn, U), dtype=np.int64)
    hi = np.full_like(lo, -1)
    xs = space.extra_slot
    for fl in range(1 << Fn):
        if fl & fl0 != fl0:
            continue
        extra = np.zeros(masks.size, dtype=np.int64)
        if xs >= 0 and space.flag_bit[xs] >= 0 and (fl >> int(space.flag_bit[xs])) & 1:
            extra = space.extra_bonus * n_closed
        for u in range(U):
            if U > 1:
                cap = U - 1
                if u < u0:
                    continue
                if u < cap:
                    low = np.full(masks.size, u - u0)
                    high = low + max_low + extra
                else:
                    bonus = 0 if u0 == cap else space.upper_bonus
                    low = np.full(masks.size, (0 if u0 == cap else cap - u0) + bonus)
                    high = max_up + bonus + max_low + extra
            else:
                low = np.zeros(masks.size, dtype=np.int64)
                high = max_up + max_low + extra
            ok = follows & (fl & ~flag_closed == 0) & (space.reach[:, u] == 1) & (high >= low)
            lo[:, fl, u] = np.where(ok, low, 0)
            hi[:, fl, u] = np.where(ok, high, -1)
    return lo, hi


@njit(cache=True)
def _scores(T: KernelTables, mask: int, fl: int, V: F, first: int, Sv: F, Sj: I) -> None:
    """Best box per hand and upper total (``Sv[h, u]``, ``Sj[h, u]``), deciding as
    :func:`cubilete.win.kernels.vec_scores` does in ``follow`` mode: the same sums, the same order."""
    n_hands, n_upper = Sv.shape
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes = T.pts, T.jpts, T.req, T.flag_bit, T.closes
    ebonus_ok, upper_slot, usable, equal_face, is_upper = (
        T.ebonus_ok, T.upper_slot_of_face, T.usable, T.equal_face, T.is_upper,
    )  # fmt: skip
    threshold, upper_bonus = T.threshold, T.upper_bonus
    for h in range(n_hands):
        row = Sv[h]
        arg = Sj[h]
        row[:] = NEG
        arg[:] = -1
        face = equal_face[h]
        bits = usable[mask, face]
        for j in range(req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            after = V[nmask, nfl]
            if is_upper[j] == 1 and n_upper > 1:
                for u in range(n_upper):
                    r = reward
                    if u < threshold <= u + p:
                        r += upper_bonus
                    val = r + after[min(n_upper - 1, u + p)]
                    if val > row[u]:
                        row[u] = val
                        arg[u] = j
            else:
                for u in range(n_upper):
                    val = reward + after[u]
                    if val > row[u]:
                        row[u] = val
                        arg[u] = j


@njit(cache=True)
def _policy(
    T: KernelTables, mask: int, fl: int, V: F,
    S1v: F, S1j: I, S23v: F, S23j: I, E: F, K: F, M: F, Marg: I, choice: I,
) -> None:  # fmt: skip
    """The solver's turn in one sheet, every upper total at once: ``choice[i, h, u]`` = the keep thrown
    again after throw i with hand h, or -1 to score (the box: S1j on the first throw, S23j later).
    The arithmetic is that of :func:`cubilete.win.kernels.vec_turn`'s last (expected points) column,
    element by element, so the choices are its."""
    n_hands, n_upper = E.shape
    n_keeps = K.shape[0]
    add, remove = T.add, T.remove
    _scores(T, mask, fl, V, 0, S23v, S23j)
    if T.servida:
        _scores(T, mask, fl, V, 1, S1v, S1j)
    else:
        S1v[:] = S23v
        S1j[:] = S23j
    choice[:] = -1
    E[:] = S23v
    for t in range(T.throws, 1, -1):
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
        for k in range(n_keeps - 1, n_hands - 1, -1):
            row = M[k]
            arg = Marg[k]
            row[:] = K[k]
            arg[:] = k
            for f in range(6):
                r = remove[k, f]
                if r >= 0:
                    sub = M[r]
                    subarg = Marg[r]
                    for u in range(n_upper):
                        if sub[u] > row[u]:
                            row[u] = sub[u]
                            arg[u] = subarg[u]
        S = S1v if t == 2 else S23v
        for h in range(n_hands):
            row = E[h]
            arg = choice[t - 1, h]
            row[:] = S[h]
            for f in range(6):
                r = remove[h, f]
                if r >= 0:
                    sub = M[r]
                    subarg = Marg[r]
                    for u in range(n_upper):
                        if sub[u] > row[u]:
                            row[u] = sub[u]
                            arg[u] = subarg[u]


@njit(cache=True)
def _follow_dice(T: KernelTables, choice: I, hm: F, km: F, scored: F) -> None:
    """``scored[first, h, u]``: the probability of scoring hand h (on the first throw or a later one)
    under ``choice``, per upper total; the keeps thrown again go to the hands by the one-die steps."""
    n_hands, n_upper = hm.shape
    n_keeps = km.shape[0]
    add = T.add
    throws = T.throws
    scored[:] = 0.0
    for h in range(n_hands):
        hm[h, :] = T.first_roll[h]
    for i in range(1, throws + 1):
        km[:] = 0.0
        dest = scored[1 if i == 1 else 0]
        for h in range(n_hands):
            for u in range(n_upper):
                c = choice[i, h, u] if i < throws else -1
                if c < 0:
                    dest[h, u] += hm[h, u]
                else:
                    km[c, u] += hm[h, u]
        if i < throws:
            for k in range(n_keeps - 1, n_hands - 1, -1):
                row = km[k]
                for u in range(n_upper):
                    row[u] *= 1.0 / 6.0
                for f in range(6):
                    child = km[add[k, f]]
                    for u in range(n_upper):
                        child[u] += row[u]
            hm[:] = km[:n_hands]


@njit(cache=True)
def _outcome_keys(T: KernelTables, mask: int, fl: int, keys: I) -> None:
    """``keys[first, j, h]`` = 2 x points + (1 if an extra bonus is paid) for hand h written in box j."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    pts, jpts, req, flag_bit, closes = T.pts, T.jpts, T.req, T.flag_bit, T.closes
    ebonus_ok, upper_slot, usable, equal_face = T.ebonus_ok, T.upper_slot_of_face, T.usable, T.equal_face
    for first in range(2):
        pf = 1 if first == 1 and T.servida else 0
        for h in range(keys.shape[2]):
            face = equal_face[h]
            bits = usable[mask, face]
            for j in range(req.shape[0]):
                if (bits >> j) & 1 == 0:
                    continue
                p, _nmask, _nfl, reward = slot_outcome(
                    pts, jpts, req, flag_bit, closes, ebonus_ok, upper_slot, T.extra_bonus,
                    mask, fl, h, face, j, pf, joker_on, extra_holds,
                )  # fmt: skip
                keys[first, j, h] = 2 * p + (1 if reward != float(p) else 0)


@njit(cache=True)
def _outcomes(
    T: KernelTables, mask: int, fl: int, u: int, n_upper: int, n_fl: int, keys: I, S1j: I, S23j: I,
    scored: F, acc: F, touched: I, out_dest: I, out_r: I, out_p: F,
) -> int:  # fmt: skip
    """Every (next state, points) outcome of the turn at upper total u with its probability, into
    out_*; returns how many. ``acc`` (zeros: box x key) and ``touched`` are scratch."""
    n_hands = scored.shape[1]
    closes, flag_bit, is_upper = T.closes, T.flag_bit, T.is_upper
    n_touched = 0
    width = acc.shape[1]
    for first in range(2):
        slots = S1j if first == 1 else S23j
        for h in range(n_hands):
            m = scored[first, h, u]
            if m == 0.0:
                continue
            j = slots[h, u]
            key = keys[first, j, h]
            if acc[j, key] == 0.0:
                touched[n_touched] = j * width + key
                n_touched += 1
            acc[j, key] += m
    n = 0
    for q in range(n_touched):
        j = touched[q] // width
        key = touched[q] % width
        m = acc[j, key]
        acc[j, key] = 0.0
        p = key // 2
        reward = float(p) + (T.extra_bonus if key % 2 == 1 else 0.0)
        nmask = mask | (1 << j)
        if p == 0:
            nmask |= closes[j]
        nfl = fl
        if flag_bit[j] >= 0 and p > 0:
            nfl |= 1 << flag_bit[j]
        nu = u
        r = reward
        if is_upper[j] == 1 and n_upper > 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                r += T.upper_bonus
        out_dest[n] = ((nmask * n_fl) + nfl) * n_upper + nu
        out_r[n] = int(r + 0.5)
        out_p[n] = m
        n += 1
    return n


@njit(cache=True, parallel=True)
def forward_outcomes(
    T: KernelTables, V: F, masks: I, fl0: int, lo: I, hi: I, off: I, pool: F, max_p: int,
    src_state: I, src_a: I, src_b: I, out_n: I, out_dest: I, out_r: I, out_p: F,
) -> None:  # fmt: skip
    """Phase 1 for a chunk of sheets: every state with mass gets its outcomes (row ``i`` of out_*,
    ``src_state[i]``; -1 where the state holds no mass) and the extent [a, b) of its mass."""
    n_hands = T.first_roll.shape[0]
    n_keeps = T.add.shape[0]
    n_slots = T.req.shape[0]
    n_fl = 1 << T.n_flags
    n_upper = V.shape[2]
    per_mask = n_fl * n_upper
    for i in prange(masks.shape[0]):
        mask = masks[i]
        sh, sk = (n_hands, n_upper), (n_keeps, n_upper)
        S1v, S23v, E, hm = np.empty(sh), np.empty(sh), np.empty(sh), np.empty(sh)
        S1j, S23j = np.empty(sh, dtype=np.int64), np.empty(sh, dtype=np.int64)
        K, M, km = np.empty(sk), np.empty(sk), np.empty(sk)
        Marg = np.empty(sk, dtype=np.int64)
        choice = np.empty((T.throws + 1, n_hands, n_upper), dtype=np.int64)
        scored = np.empty((2, n_hands, n_upper))
        keys = np.zeros((2, n_slots, n_hands), dtype=np.int64)
        acc = np.zeros((n_slots, 2 * (max_p + 1)))
        touched = np.empty(2 * n_hands, dtype=np.int64)
        for fl in range(n_fl):
            any_mass = False
            for u in range(n_upper):
                row = i * per_mask + fl * n_upper + u
                src_state[row] = -1
                out_n[row] = 0
                if fl & fl0 != fl0:
                    continue
                s = (mask * n_fl + fl) * n_upper + u
                w = hi[s] - lo[s] + 1
                if w <= 0:
                    continue
                base = off[s]
                a = 0
                while a < w and pool[base + a] == 0.0:
                    a += 1
                if a == w:
                    continue
                b = w
                while pool[base + b - 1] == 0.0:
                    b -= 1
                src_state[row] = s
                src_a[row] = a
                src_b[row] = b
                any_mass = True
            if not any_mass:
                continue
            _policy(T, mask, fl, V, S1v, S1j, S23v, S23j, E, K, M, Marg, choice)
            _follow_dice(T, choice, hm, km, scored)
            _outcome_keys(T, mask, fl, keys)
            for u in range(n_upper):
                row = i * per_mask + fl * n_upper + u
                if src_state[row] >= 0:
                    out_n[row] = _outcomes(
                        T, mask, fl, u, n_upper, n_fl, keys, S1j, S23j, scored, acc, touched,
                        out_dest[row], out_r[row], out_p[row],
                    )  # fmt: skip


@njit(cache=True)
def _part(dest: int, parts: int) -> int:
    return int((dest * 2654435761) % 4294967296) % parts


@njit(cache=True, parallel=True)
def forward_push(
    rounds: int, n_slots_pop: I, per_mask: int, lo: I, hi: I, off: I, src_pool: F, dst_pool: F, finals: F,
    src_state: I, src_a: I, src_b: I, out_n: I, out_dest: I, out_r: I, out_p: F, errors: I,
) -> None:  # fmt: skip
    """Phase 2: add every state's mass into its successors' windows (terminal ones into ``finals[part]``),
    each part of the successors by one thread."""
    parts = finals.shape[0]
    n_final = finals.shape[1]
    for part in prange(parts):
        fin = finals[part]
        for row in range(src_state.shape[0]):
            s = src_state[row]
            if s < 0:
                continue
            a = src_a[row]
            b = src_b[row]
            src = src_pool[off[s] + a : off[s] + b]
            g0 = lo[s] + a  # points gained at src[0]
            for q in range(out_n[row]):
                d = out_dest[row, q]
                pr = out_p[row, q]
                start = g0 + out_r[row, q]
                if n_slots_pop[d // per_mask] >= rounds:
                    if row % parts != part:
                        continue
                    if start + (b - a) > n_final:
                        errors[part] += 1
                        continue
                    for x in range(b - a):
                        fin[start + x] += pr * src[x]
                    continue
                if _part(d, parts) != part:
                    continue
                k = start - lo[d]
                if k < 0 or k + (b - a) > hi[d] - lo[d] + 1:
                    errors[part] += 1
                    continue
                dst = dst_pool[off[d] + k : off[d] + k + (b - a)]
                for x in range(b - a):
                    dst[x] += pr * src[x]


def points_to_come(solution: Solution, mask0: int, fl0: int, u0: int) -> FloatArray:
    """P(exactly g more points) for g = 0, 1, ... from the start of a turn in state (mask0, fl0, u0),
    under the solver's policy; raises SolverUnsupportedError for locked holds."""
    space = solution.space
    T = solution.tables
    if space.rules.locked_holds:
        raise SolverUnsupportedError(f"{space.rules.name}: the forward pass does not follow locked holds")
    pop = popcounts(space.n_slots)
    if pop[mask0] >= space.rounds:
        return np.ones(1)
    lo, hi = windows(space, mask0, fl0, u0)
    width = np.maximum(hi - lo + 1, 0)
    n_fl = 1 << space.n_flags
    per_mask = n_fl * space.n_upper
    final_size = int(hi.max()) + 1
    jump = 1 + max(int(pop[int(c)]) for c in space.closes)
    start_layer = int(pop[mask0])
    sources = list(range(start_layer, space.rounds))
    layer_of = np.repeat(pop, per_mask).reshape(width.shape)
    off = np.zeros(width.shape, dtype=np.int64)
    pools: dict[int, FloatArray] = {}

    def allocate(layers: list[int]) -> FloatArray:
        sel = np.isin(layer_of, layers) & (width > 0)
        sizes = np.where(sel, width, 0).ravel()
        starts = np.cumsum(sizes) - sizes
        off.ravel()[sel.ravel()] = starts[sel.ravel()]
        return np.zeros(int(sizes.sum()))

    if jump > 1:  # scratches that close other boxes: one pool for every layer (small rule sets)
        arena = allocate(sources)
        for c in sources:
            pools[c] = arena
    else:
        pools[start_layer] = allocate([start_layer])
    pools[start_layer][off[mask0, fl0, u0]] = 1.0
    parts = max(1, 4 * get_num_threads())
    finals = np.zeros((parts, final_size))
    errors = np.zeros(parts, dtype=np.int64)
    states_per_chunk = max(per_mask, CHUNK_STATES // per_mask * per_mask)
    cap = 2 * space.dice.n_hands
    max_p = int(max(space.pts.max(), space.jpts.max()))
    all_masks = np.arange(1 << space.n_slots, dtype=np.int64)
    lo1, hi1, off1 = lo.ravel(), hi.ravel(), off.ravel()  # views: off is filled layer by layer
    step = states_per_chunk // per_mask
    rows = min(step, len(all_masks)) * per_mask
    src_state = np.empty(rows, dtype=np.int64)
    src_a, src_b, out_n = (np.empty(rows, dtype=np.int64) for _ in range(3))
    out_dest, out_r = np.empty((rows, cap), dtype=np.int64), np.empty((rows, cap), dtype=np.int64)
    out_p = np.empty((rows, cap))
    for c in sources:
        if c + 1 < space.rounds and c + 1 not in pools:
            pools[c + 1] = allocate([c + 1])
        src_pool = pools[c]
        dst_pool = pools.get(c + 1, src_pool)
        masks = all_masks[(pop == c) & ((all_masks & mask0) == mask0)]
        for i in range(0, masks.size, step):
            chunk = masks[i : i + step]
            n = chunk.size * per_mask
            forward_outcomes(
                T, solution.values, chunk, fl0, lo1, hi1, off1, src_pool, max_p,
                src_state[:n], src_a[:n], src_b[:n], out_n[:n], out_dest[:n], out_r[:n], out_p[:n],
            )  # fmt: skip
            forward_push(
                space.rounds, pop, per_mask, lo1, hi1, off1, src_pool, dst_pool, finals,
                src_state[:n], src_a[:n], src_b[:n], out_n[:n], out_dest[:n], out_r[:n], out_p[:n], errors,
            )  # fmt: skip
        if jump == 1:
            del pools[c]
    if errors.any():
        raise ForwardError(f"{space.rules.name}: {int(errors.sum())} outcomes outside their windows")
    out: FloatArray = finals.sum(axis=0)
    return out
