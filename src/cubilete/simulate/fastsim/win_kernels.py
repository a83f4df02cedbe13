"""Numba kernels of the compiled win bot's decisions (its seats play in :func:`cubilete.simulate.fastsim.loop._play`).

At the start of a win seat's turn the game loop builds, as :func:`cubilete.win.play.game_win_options` does
from the game:

* every opponent's final-score distribution (seat order): the ``follow`` table's row of its sheet
  (its points so far as the offset), or its total when its sheet is done;
* the instant wins to come (:func:`turn_odds`, as :func:`cubilete.win.odds.instant_of_game`): each
  seat's chance of a servida with its sheet, seats in the order of the turns to come, each with its turns left;
* ``u`` and the turn's keep values by :mod:`cubilete.win.decide`, the very kernels the Python bot calls.

At each throw it plays the option with the largest ``won + alive * clip(share)`` (equal to 12 decimals
by :func:`cubilete.win.play.win_key`), then the larger expected final score (the advisor's value), then
the advisor's order (slots in sheet order, then keeps), as :func:`cubilete.win.play.ranked_by_chance` sorts
(:func:`choose_win`; the target bot's seats use it too, with the step utility and no instant wins).
In tie-break rounds and alone at the table it plays the optimal bot's moves, as the Python bot does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cubilete.simulate.fastsim.kernels import SCORE_BASE, WIN, Params, made_instant_win
from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.tables import KernelTables
from cubilete.win.decide import share_of_slot

__all__ = ["WIN", "boxes_filled", "choose_win", "seat_total", "turn_odds"]


@njit(cache=True)
def seat_total(T: KernelTables, P: Params, card: np.ndarray, upraw: np.ndarray, extras: np.ndarray, s: int) -> int:
    total = 0
    for j in range(card.shape[1]):
        if card[s, j] > 0:
            total += card[s, j]
    if P.bonus > 0 and upraw[s] >= T.threshold:
        total += P.bonus
    out: int = total + extras[s] * T.extra_bonus
    return out


@njit(cache=True)
def boxes_filled(mask: int, n_slots: int) -> int:
    c = 0
    for j in range(n_slots):
        c += (mask >> j) & 1
    return c


@njit(cache=True)
def turn_odds(
    T: KernelTables, P: Params, card: np.ndarray, mask: np.ndarray, turns: np.ndarray, order: np.ndarray, cur: int,
    n_seats: int,
) -> tuple[float, float]:  # fmt: skip
    """(P(cur wins instantly later), P(nobody wins instantly)) once cur's dice are thrown (instant_of_game)."""
    n_slots = T.req.shape[0]
    n_hands = T.first_roll.shape[0]
    q = np.zeros(n_seats)
    left = np.zeros(n_seats, dtype=np.int64)
    at = 0
    for a in range(n_seats):
        s = order[a]
        if s == cur:
            at = a + 1
        filled = boxes_filled(mask[s], n_slots)
        if not (filled >= P.turns or turns[s] >= P.turns):
            left[s] = min(P.turns - turns[s], n_slots - filled)
        if P.iw_slot.shape[0] > 0:
            acc = 0.0
            for h in range(n_hands):
                if made_instant_win(P, card, s, h):
                    acc += T.first_roll[h]
            q[s] = acc
    left[cur] -= 1
    seq = np.empty(n_seats, dtype=np.int64)
    for k in range(n_seats):
        seq[k] = order[(at + k) % n_seats]
    won = 0.0
    alive = 1.0
    step = 0
    while alive > 1e-15:
        more = False
        for k in range(n_seats):
            if left[seq[k]] > 0:
                more = True
        if not more:
            break
        i = seq[step % n_seats]
        step += 1
        if left[i] <= 0:
            continue
        left[i] -= 1
        if i == cur:
            won += alive * q[i]
        alive *= 1.0 - q[i]
    return won, alive


@njit(cache=True)
def choose_win(
    T: KernelTables, V: np.ndarray, Ks: np.ndarray, sub_ptr: np.ndarray, sub_list: np.ndarray,
    mask: int, fl: int, u: int, h: int, throw: int, so_far: int,
    Wt: np.ndarray, uu: np.ndarray, du: np.ndarray, lo: int, hi: int, memo: np.ndarray, stamps: np.ndarray,
    stamp: int, Kw: np.ndarray, iwon: float, ialive: float,
) -> int:  # fmt: skip
    """The win bot's option (win_options ranked): SCORE_BASE + slot, or a keep number."""
    n_upper = V.shape[2]
    first = 1 if throw == 1 else 0
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    n_slots = T.req.shape[0]
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
        bonus = 0
        if reward != float(p):
            bonus += T.extra_bonus
        nu = u
        if T.is_upper[j] == 1:
            nu = min(n_upper - 1, u + p)
            if u < T.threshold <= u + p:
                bonus += T.upper_bonus
        future = V[nmask, nfl, nu] if boxes_filled(nmask, n_slots) < T.rounds else 0.0
        expected = (so_far + p + bonus) + future
        share = share_of_slot(T, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, h, face, j, first,
                            joker_on, extra_holds)  # fmt: skip
        sh = share if share > 0.0 else 0.0
        w = iwon + ialive * (sh if sh < 1.0 else 1.0)
        key = np.floor(w * 1e12 + 0.5)
        if key > best_key or (key == best_key and expected > best_exp):
            best_key = key
            best_exp = expected
            choice = SCORE_BASE + j
    if throw < T.throws:
        for i in range(sub_ptr[h], sub_ptr[h + 1]):
            k = sub_list[i]
            expected = so_far + Ks[throw + 1, k]
            share = Kw[throw + 1, k, 0]
            sh = share if share > 0.0 else 0.0
            w = iwon + ialive * (sh if sh < 1.0 else 1.0)
            key = np.floor(w * 1e12 + 0.5)
            if key > best_key or (key == best_key and expected > best_exp):
                best_key = key
                best_exp = expected
                choice = k
    return choice
