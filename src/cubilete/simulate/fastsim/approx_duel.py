"""Compiled paired heads-up games: the approximate win bot (:mod:`cubilete.win.approx`) against the
expected-score optimum, in each seat, with optimal against optimal as the control.

Duplicate dice: die j of throw k of turn t of seat s depends on (deal, s, t, k, j) only, never on how
many throws came before, so a seat sees the same dice whoever plays the other seat, and both players
see the same dice as in the control game until the win bot first decides otherwise. The optimal
player ignores its opponent, so one optimal game per seat serves the control and both pairings: the
win bot's game is played against the optimal opponent's recorded course (its final score's mean and
variance after each of its turns). Seat 0 moves first; there are no instant wins (Yahtzee, Yatzy).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.simulate.fastsim.kernels import SCORE_BASE, Params, choose_optimal, die, hand_code, sort_faces
from cubilete.simulate.fastsim.win_kernels import seat_total
from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.query import turn_keeps
from cubilete.solver.tables import KernelTables
from cubilete.win.approx_kernels import approx_turn, end_share, share_table


@njit(cache=True)
def choose_approx(
    T: KernelTables, V: np.ndarray, D: np.ndarray, Ks: np.ndarray, Kw: np.ndarray, sub_ptr: np.ndarray,
    sub_list: np.ndarray, mask: int, fl: int, u: int, h: int, throw: int, so_far: int, lead: float, opp_var: float,
    idx: np.ndarray, Wc: np.ndarray, G: np.ndarray, have_ks: np.ndarray,
) -> int:  # fmt: skip
    """The approximate win bot's option (as :func:`cubilete.win.approx.approx_win_options` ranks them):
    SCORE_BASE + box, or a keep number. ``Ks`` (the keep values for points) is filled only when a keep
    ties the best chance (``have_ks[0]`` says whether it holds this turn's): it costs a turn's pass."""
    first = 1 if throw == 1 else 0
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    n_slots = T.req.shape[0]
    n_upper = V.shape[2]
    best_key = -np.inf
    best_exp = -np.inf
    choice = -1
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        p, nmask, nfl, reward = slot_outcome(
            T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
            mask, fl, h, face, j, first, joker_on, extra_holds,
        )  # fmt: skip
        r = reward
        nu = u
        if T.is_upper[j] == 1 and n_upper > 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                r += T.upper_bonus
        filled = 0
        for i in range(n_slots):
            filled += (nmask >> i) & 1
        expected = so_far + r + (V[nmask, nfl, nu] if filled < T.rounds else 0.0)
        w = end_share(
            T, V, D, mask, fl, u, h, face, j, first, joker_on, extra_holds, lead, opp_var, so_far, idx, Wc, G
        )  # fmt: skip
        w = min(1.0, max(0.0, w))
        key = np.floor(w * 1e12 + 0.5)
        if key > best_key or (key == best_key and expected > best_exp):
            best_key, best_exp, choice = key, expected, SCORE_BASE + j
    if throw < T.throws:
        for i in range(sub_ptr[h], sub_ptr[h + 1]):
            k = sub_list[i]
            w = min(1.0, max(0.0, Kw[throw + 1, k, 0]))
            key = np.floor(w * 1e12 + 0.5)
            if key < best_key:
                continue
            if key == best_key and not have_ks[0]:  # a tie: the points decide, from the keep values (once a turn)
                turn_keeps(T, mask, fl, u, V, Ks, 2)
                have_ks[0] = True
                if 0 <= choice < SCORE_BASE:
                    best_exp = so_far + Ks[throw + 1, choice]
            expected = so_far + Ks[throw + 1, k] if have_ks[0] else -np.inf
            if key > best_key or expected > best_exp:
                best_key, best_exp, choice = key, expected, k
    return choice


@njit(cache=True, inline="always")
def dice_index(seat: int, turn: int, throw: int) -> int:
    """The throw number of the dice stream: by seat, turn and throw only (duplicate dice)."""
    return (seat * 256 + turn) * 8 + throw


@njit(cache=True)
def solo_game(
    T: KernelTables, V: np.ndarray, D: np.ndarray, P: Params, key: np.uint64, deal: int, seat: int,
    approx: bool, idx: np.ndarray, Wc: np.ndarray, opp: np.ndarray, mom: np.ndarray,
) -> int:  # fmt: skip
    """One seat's whole game on its dice; returns its final score. Optimal (``approx`` False), or the
    approximate win bot against ``opp[k]`` = the opponent's sheet after k of its turns (seat 0 moves first):
    (final mean, variance, points so far, mask, flags, upper, done). ``mom[k]`` receives this seat's own."""
    n = P.n_dice
    n_slots = T.req.shape[0]
    n_upper = V.shape[2]
    full = (1 << n_slots) - 1
    card = np.full((1, n_slots), -1, dtype=np.int64)
    upraw = np.zeros(1, dtype=np.int64)
    extras = np.zeros(1, dtype=np.int64)
    hand = np.zeros(n, dtype=np.int64)
    Ks = np.zeros((T.throws + 1, P.n_keeps))
    n_hands = T.first_roll.shape[0]
    S1, S23, E = np.empty((n_hands, 1)), np.empty((n_hands, 1)), np.empty((n_hands, 1))
    Kw = np.zeros((T.throws + 1, P.n_keeps, 1))
    M = np.empty((P.n_keeps, 1))
    have_ks = np.zeros(1, dtype=np.bool_)
    G = np.empty(T.rounds * (T.max_points + T.extra_bonus) + T.upper_bonus + Wc.shape[3] + 1)
    m = 0
    f0 = 0
    last = opp.shape[0] - 1
    t = 0
    while t < P.turns and m != full:
        u = min(upraw[0], n_upper - 1)
        so_far = seat_total(T, P, card, upraw, extras, 0)
        mom[t, 0] = so_far + V[m, f0, u]
        mom[t, 1] = D[m, f0, u]
        mom[t, 2], mom[t, 3], mom[t, 4], mom[t, 5], mom[t, 6] = so_far, m, f0, u, 0.0
        have_ks[0] = False
        if T.throws > 1 and not approx:
            turn_keeps(T, m, f0, u, V, Ks, 2)
        lead = 0.0
        ov = 0.0
        if approx:
            k = min(last, t if seat == 0 else t + 1)
            lead = so_far - opp[k, 0]
            ov = opp[k, 1]
            o = opp[k]
            share_table(idx, Wc, int(o[3]), int(o[4]), int(o[5]), int(o[2]), o[0], o[1], o[6] == 1.0, G)
            approx_turn(T, V, D, m, f0, u, lead, ov, so_far, idx, Wc, G, S1, S23, E, Kw, M)
        for j in range(n):
            hand[j] = die(key, deal, dice_index(seat, t, 0), j)
        sort_faces(hand, n)
        h = P.code_index[hand_code(hand, n)]
        throw: int = np.int64(1)  # type: ignore[assignment]  # int64 to numba: one compilation of the callees
        while True:
            if approx:
                c = choose_approx(
                    T, V, D, Ks, Kw, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far, lead, ov, idx, Wc, G, have_ks
                )  # fmt: skip
            else:
                c = choose_optimal(T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far)
            if c >= SCORE_BASE:
                break
            kl = P.keep_len[c]
            for j in range(kl):
                hand[j] = P.keep_faces[c, j]
            for j in range(n - kl):
                hand[kl + j] = die(key, deal, dice_index(seat, t, throw), j)
            sort_faces(hand, n)
            h = P.code_index[hand_code(hand, n)]
            throw += 1
        j = c - SCORE_BASE
        face = T.equal_face[h]
        joker_on, extra_holds = sheet_context(T, m, f0)
        p, nmask, nfl, reward = slot_outcome(
            T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
            m, f0, h, face, j, 1 if throw == 1 else 0, joker_on, extra_holds,
        )  # fmt: skip
        if reward != float(p):
            extras[0] += 1
        card[0, j] = p
        for s in range(n_slots):
            if s != j and (nmask >> s) & 1 == 1 and (m >> s) & 1 == 0:
                card[0, s] = 0
        if T.is_upper[j] == 1:
            upraw[0] += p
        m, f0 = nmask, nfl
        t += 1
    final = seat_total(T, P, card, upraw, extras, 0)
    for k in range(t, mom.shape[0]):
        mom[k, 0] = final
        mom[k, 1] = 0.0
        mom[k, 2], mom[k, 3], mom[k, 4], mom[k, 5], mom[k, 6] = final, m, f0, 0.0, 1.0
    return final


@njit(cache=True, parallel=True)
def play_pairs(
    T: KernelTables, V: np.ndarray, D: np.ndarray, idx: np.ndarray, Wc: np.ndarray, P: Params, key: np.uint64,
    start: int, out: np.ndarray,
) -> None:  # fmt: skip
    """out[i] = final scores of deal start + i: (optimal seat 0, optimal seat 1, win bot seat 0 against the
    optimal seat 1, win bot seat 1 against the optimal seat 0)."""
    for i in prange(out.shape[0]):
        deal = start + i
        mom0 = np.zeros((P.turns + 1, 7))
        mom1 = np.zeros((P.turns + 1, 7))
        scratch = np.zeros((P.turns + 1, 7))
        out[i, 0] = solo_game(T, V, D, P, key, deal, 0, False, idx, Wc, mom1, mom0)
        out[i, 1] = solo_game(T, V, D, P, key, deal, 1, False, idx, Wc, mom0, mom1)
        out[i, 2] = solo_game(T, V, D, P, key, deal, 0, True, idx, Wc, mom1, scratch)
        out[i, 3] = solo_game(T, V, D, P, key, deal, 1, True, idx, Wc, mom0, scratch)
