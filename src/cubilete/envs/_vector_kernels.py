"""Numba kernels of the vector environment: every env of a batch stepped in one compiled call.

The state of each env is the solver's ``(mask, flags, capped upper)`` plus the card, the dice
by position, the throw count and the held positions; scoring reads the solver's tables (built by
:mod:`cubilete.engine.rules.scoring`), so the vector env scores exactly as the engine. Exact regret
takes the keep values of the turn (the advisor's :func:`~cubilete.solver.query.turn_keeps`) once per turn.
Dice come from one xorshift64* stream per env.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.query import turn_keeps
from cubilete.solver.tables import KernelTables

NEG = -1.0e18


@njit(cache=True, inline="always")
def _die(rng: np.ndarray, i: int) -> int:
    x = rng[i]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[i] = x
    return int(((x * np.uint64(2685821657736338717)) >> np.uint64(40)) % np.uint64(6)) + 1


@njit(cache=True, inline="always")
def _code(dice: np.ndarray, keep: int, n: int) -> int:
    """Base-7 code of the sorted faces of the dice whose position bit is in ``keep``."""
    code = 0
    for f in range(1, 7):
        for p in range(n):
            if (keep >> p) & 1 == 1 and dice[p] == f:
                code = code * 7 + f
    return code


@njit(cache=True)
def _turn_start(
    T: KernelTables, i: int, mask: np.ndarray, fl: np.ndarray, upc: np.ndarray, V: np.ndarray, regret: bool,
    Ks: np.ndarray,
) -> None:  # fmt: skip
    if regret:  # the advisor's own keep values, so the regret is its regret bit for bit
        turn_keeps(T, mask[i], fl[i], upc[i], V, Ks[i], 2)


@njit(cache=True)
def _score_value(
    T: KernelTables, V: np.ndarray, mask: int, fl: int, u: int, h: int, face: int, j: int, first: int, so_far: int
) -> float:
    """The expected final score of writing hand h in slot j with ``so_far`` points on the card, summed as
    the advisor sums it (points and bonuses, then the value of the sheet after), so regrets agree bit for bit."""
    joker_on, extra_holds = sheet_context(T, mask, fl)
    p, nmask, nfl, reward = slot_outcome(
        T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
        mask, fl, h, face, j, first, joker_on, extra_holds,
    )  # fmt: skip
    points = so_far + int(reward)  # reward: the points and any extra bonus, a whole number
    nu = u
    if T.is_upper[j] == 1:
        nu = min(V.shape[2] - 1, u + p)
        if u < T.threshold <= u + p:
            points += T.upper_bonus
    return float(points + V[nmask, nfl, nu])  # a finished sheet's value is 0 in the table


@njit(cache=True)
def _best_option(
    T: KernelTables, V: np.ndarray, Ks: np.ndarray, code_index: np.ndarray, dice: np.ndarray, n: int,
    mask: int, fl: int, u: int, throws: int, held: int, h: int, face: int, so_far: int,
) -> float:  # fmt: skip
    """The value of the best option with these dice after throw ``throws`` (as the advisor ranks them)."""
    first = 1 if throws == 1 else 0
    best = NEG
    bits = T.usable[mask, face]
    for j in range(T.req.shape[0]):
        if (bits >> j) & 1 == 1:
            v = _score_value(T, V, mask, fl, u, h, face, j, first, so_far)
            if v > best:
                best = v
    if throws < T.throws:
        return max(best, so_far + _best_keep(Ks, code_index, dice, n, throws, held, T.locked))
    return best


@njit(cache=True)
def _best_keep(
    Ks: np.ndarray, code_index: np.ndarray, dice: np.ndarray, n: int, throws: int, held: int, locked: bool
) -> float:
    """The best keep after throw ``throws`` (each proper subset of the dice; with locked holds, of the held ones)."""
    best = NEG
    for k in range((1 << n) - 1):
        if locked and (k & held) != held:
            continue
        v = Ks[throws + 1, code_index[_code(dice, k, n)]]
        if v > best:
            best = v
    return best


@njit(cache=True)
def _fill(
    T: KernelTables, i: int, n: int, slot_base: int, n_keeps: int, face_down: bool, const_bonus: int,
    mask: np.ndarray, card: np.ndarray, dice: np.ndarray, held: np.ndarray, throws: np.ndarray,
    upraw: np.ndarray, total: np.ndarray, turns: np.ndarray, obs: np.ndarray, amask: np.ndarray,
    code_index: np.ndarray,
) -> None:  # fmt: skip
    """Observation (SheetLayout) and action mask of env i."""
    S = T.req.shape[0]
    o = obs[i]
    o[:] = 0.0
    for j in range(S):
        if card[i, j] >= 0:
            o[j] = 1.0
            o[S + j] = card[i, j]
    base = 2 * S
    for p in range(n):
        f = dice[i, p]
        o[base + p] = f
        if f > 0:
            o[base + n + f - 1] += 1.0
        if T.locked and (held[i] >> p) & 1 == 1:
            o[base + n + 6 + p] = 1.0
    tail = base + 2 * n + 6
    o[tail] = throws[i]
    o[tail + 1] = T.throws - throws[i]
    o[tail + 2] = upraw[i]
    o[tail + 3] = total[i]
    o[tail + 4] = T.rounds - turns[i]
    m = amask[i]
    m[:] = 0
    if turns[i] >= T.rounds:
        return
    if throws[i] < T.throws:
        for k in range((1 << n) - 1):
            if T.locked and (k & held[i]) != held[i]:
                continue
            m[k] = 1
            if face_down:
                m[n_keeps + k] = 1
    h = code_index[_code(dice[i], (1 << n) - 1, n)]
    bits = T.usable[mask[i], T.equal_face[h]]
    for j in range(S):
        if (bits >> j) & 1 == 1:
            m[slot_base + j] = 1


@njit(cache=True)
def _new_game(i: int, rng: np.ndarray, n: int, const_bonus: int, mask: np.ndarray, fl: np.ndarray, upc: np.ndarray,
              card: np.ndarray, dice: np.ndarray, held: np.ndarray, throws: np.ndarray, upraw: np.ndarray,
              total: np.ndarray, turns: np.ndarray) -> None:  # fmt: skip
    mask[i] = 0
    fl[i] = 0
    upc[i] = 0
    card[i, :] = -1
    held[i] = 0
    throws[i] = 1
    upraw[i] = 0
    total[i] = const_bonus
    turns[i] = 0
    for p in range(n):
        dice[i, p] = _die(rng, i)


@njit(cache=True)
def reset_envs(
    T: KernelTables, V: np.ndarray, which: np.ndarray, regret: bool, n: int, slot_base: int, n_keeps: int,
    face_down: bool, const_bonus: int, code_index: np.ndarray, rng: np.ndarray,
    mask: np.ndarray, fl: np.ndarray, upc: np.ndarray, card: np.ndarray, dice: np.ndarray, held: np.ndarray,
    throws: np.ndarray, upraw: np.ndarray, total: np.ndarray, turns: np.ndarray,
    Ks: np.ndarray,
    obs: np.ndarray, amask: np.ndarray,
) -> None:  # fmt: skip
    """Start a new game in every env i with which[i] != 0."""
    for i in range(which.shape[0]):
        if which[i] == 0:
            continue
        _new_game(i, rng, n, const_bonus, mask, fl, upc, card, dice, held, throws, upraw, total, turns)
        _turn_start(T, i, mask, fl, upc, V, regret, Ks)
        _fill(T, i, n, slot_base, n_keeps, face_down, const_bonus, mask, card, dice, held, throws, upraw, total,
              turns, obs, amask, code_index)  # fmt: skip


@njit(cache=True)
def step_envs(
    T: KernelTables, V: np.ndarray, actions: np.ndarray, regret: bool, n: int, slot_base: int, n_keeps: int,
    face_down: bool, const_bonus: int, code_index: np.ndarray, rng: np.ndarray,
    mask: np.ndarray, fl: np.ndarray, upc: np.ndarray, card: np.ndarray, dice: np.ndarray, held: np.ndarray,
    throws: np.ndarray, upraw: np.ndarray, total: np.ndarray, turns: np.ndarray, pending: np.ndarray,
    Ks: np.ndarray,
    obs: np.ndarray, amask: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, regrets: np.ndarray,
    illegal: np.ndarray,
) -> None:  # fmt: skip
    """Step every env; an env given an illegal action stays as it was (``illegal[i]`` set)."""
    N = actions.shape[0]
    full = (1 << n) - 1
    n_upper = V.shape[2]
    for i in range(N):
        rewards[i] = 0.0
        terminated[i] = False
        regrets[i] = 0.0
        illegal[i] = pending[i] == 0 and amask[i, actions[i]] == 0
        if illegal[i]:
            continue
        if pending[i] == 1:  # the episode ended at the last step: this step starts a new one
            pending[i] = 0
            _new_game(i, rng, n, const_bonus, mask, fl, upc, card, dice, held, throws, upraw, total, turns)
            _turn_start(T, i, mask, fl, upc, V, regret, Ks)
            _fill(T, i, n, slot_base, n_keeps, face_down, const_bonus, mask, card, dice, held, throws, upraw,
                  total, turns, obs, amask, code_index)  # fmt: skip
            continue
        a = actions[i]
        d = dice[i]
        h = code_index[_code(d, full, n)]
        face = T.equal_face[h]
        best = 0.0
        if regret:
            best = _best_option(
                T, V, Ks[i], code_index, d, n, mask[i], fl[i], upc[i], throws[i], held[i], h, face, total[i]
            )
        if a < slot_base:
            k = a % n_keeps
            if regret:
                regrets[i] = max(0.0, best - (total[i] + Ks[i, throws[i] + 1, code_index[_code(d, k, n)]]))
            flip = a >= n_keeps
            for p in range(n):
                if (k >> p) & 1 == 0:
                    f = _die(rng, i)
                    d[p] = 7 - f if flip else f
            throws[i] += 1
            held[i] = k
        else:
            j = a - slot_base
            first = 1 if throws[i] == 1 else 0
            if regret:
                regrets[i] = max(0.0, best - _score_value(T, V, mask[i], fl[i], upc[i], h, face, j, first, total[i]))
            m, f0 = mask[i], fl[i]
            joker_on = T.joker and T.extra_slot >= 0 and (m >> T.extra_slot) & 1 == 1
            xs = T.extra_slot
            extra_holds = xs >= 0 and T.flag_bit[xs] >= 0 and (f0 >> T.flag_bit[xs]) & 1 == 1
            p, nmask, nfl, reward = slot_outcome(
                T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
                m, f0, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            if T.is_upper[j] == 1:
                if T.threshold > 0 and upraw[i] < T.threshold <= upraw[i] + p:
                    reward += T.upper_bonus
                upraw[i] += p
                upc[i] = min(n_upper - 1, upc[i] + p)
            card[i, j] = p
            for s in range(T.req.shape[0]):
                if s != j and (nmask >> s) & 1 == 1 and (m >> s) & 1 == 0:
                    card[i, s] = 0
            mask[i] = nmask
            fl[i] = nfl
            total[i] += int(reward)
            rewards[i] = reward
            turns[i] += 1
            filled = 0
            for s in range(T.req.shape[0]):
                if (nmask >> s) & 1 == 1:
                    filled += 1
            if filled >= T.rounds or turns[i] >= T.rounds:
                terminated[i] = True
                pending[i] = 1
                turns[i] = T.rounds
                for p2 in range(n):
                    d[p2] = 0
                throws[i] = 0
                held[i] = 0
            else:
                throws[i] = 1
                held[i] = 0
                for p2 in range(n):
                    d[p2] = _die(rng, i)
                _turn_start(T, i, mask, fl, upc, V, regret, Ks)
        _fill(T, i, n, slot_base, n_keeps, face_down, const_bonus, mask, card, dice, held, throws, upraw, total,
              turns, obs, amask, code_index)  # fmt: skip


@njit(cache=True)
def all_regrets(
    T: KernelTables, V: np.ndarray, regret: bool, n: int, slot_base: int, n_keeps: int, face_down: bool,
    const_bonus: int, code_index: np.ndarray, rng: np.ndarray,
    mask: np.ndarray, fl: np.ndarray, upc: np.ndarray, card: np.ndarray, dice: np.ndarray, held: np.ndarray,
    throws: np.ndarray, upraw: np.ndarray, total: np.ndarray, turns: np.ndarray, pending: np.ndarray,
    Ks: np.ndarray, amask: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """out[i, a]: the regret ``step_envs`` would report for action a in env i (computed the same way, so
    equal bit for bit); NaN where a is not legal or env i waits to start a new game."""
    full = (1 << n) - 1
    for i in range(amask.shape[0]):
        out[i, :] = np.nan
        if pending[i] == 1:
            continue
        d = dice[i]
        h = code_index[_code(d, full, n)]
        face = T.equal_face[h]
        best = _best_option(
            T, V, Ks[i], code_index, d, n, mask[i], fl[i], upc[i], throws[i], held[i], h, face, total[i]
        )
        first = 1 if throws[i] == 1 else 0
        for a in range(amask.shape[1]):
            if amask[i, a] == 0:
                continue
            if a < slot_base:
                k = a % n_keeps
                out[i, a] = max(0.0, best - (total[i] + Ks[i, throws[i] + 1, code_index[_code(d, k, n)]]))
            else:
                j = a - slot_base
                out[i, a] = max(0.0, best - _score_value(T, V, mask[i], fl[i], upc[i], h, face, j, first, total[i]))
