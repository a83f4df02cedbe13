"""Numba kernels of the compiled win bot: whole games where some seats play ``win`` (the others ``optimal``).

The game flow is :func:`cubilete.fastsim.kernels._play`'s (start throws, turn order, instant wins,
tie-break rounds, shared wins), with a third kind of seat. At the start of a win seat's turn it builds,
as :func:`cubilete.win.play.game_win_options` does from the game:

* every opponent's final-score distribution (seat order): the ``follow`` table's row of its sheet
  (its points so far as the offset), or its total when its sheet is done;
* the instant wins to come (:func:`cubilete.win.odds.instant_of_game`): each seat's chance of a
  servida with its sheet, seats in the order of the turns to come, each with its turns left;
* ``u`` and the turn's keep values by :mod:`cubilete.win.decide`, the very kernels the Python bot calls.

At each throw it plays the option with the largest ``won + alive * clip(share)`` (equal to 12 decimals
by :func:`cubilete.win.play.win_key`), then the larger expected final score (the advisor's value), then
the advisor's order (slots in sheet order, then keeps), as :func:`cubilete.win.play._ranked` sorts.
In tie-break rounds and alone at the table it plays the optimal bot's moves, as the Python bot does.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.fastsim.kernels import (
    FIRST_ROLL,
    INSTANT,
    MAX_TIEBREAK_ROUNDS,
    POINTS,
    SCORE_BASE,
    SHARED,
    STAND,
    TIEBREAK,
    Params,
    _choose,
    _hand,
    _instant,
    _sort,
    die,
)  # fmt: skip
from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.query import turn_keeps
from cubilete.solver.tables import KernelTables
from cubilete.win.decide import _slot_share, utility, win_turn

OPTIMAL, WIN = 0, 2


@njit(cache=True)
def _total(T: KernelTables, P: Params, card: np.ndarray, upraw: np.ndarray, extras: np.ndarray, s: int) -> int:
    total = 0
    for j in range(card.shape[1]):
        if card[s, j] > 0:
            total += card[s, j]
    if P.bonus > 0 and upraw[s] >= T.threshold:
        total += P.bonus
    out: int = total + extras[s] * T.extra_bonus
    return out


@njit(cache=True)
def _filled(mask: int, n_slots: int) -> int:
    c = 0
    for j in range(n_slots):
        c += (mask >> j) & 1
    return c


@njit(cache=True)
def _turn_odds(
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
        filled = _filled(mask[s], n_slots)
        if not (filled >= P.turns or turns[s] >= P.turns):
            left[s] = min(P.turns - turns[s], n_slots - filled)
        if P.iw_slot.shape[0] > 0:
            acc = 0.0
            for h in range(n_hands):
                if _instant(P, card, s, h):
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
def _choose_win(
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
        future = V[nmask, nfl, nu] if _filled(nmask, n_slots) < T.rounds else 0.0
        expected = (so_far + p + bonus) + future
        share = _slot_share(T, mask, fl, u, Wt, uu, du, lo, hi, memo, stamps, stamp, h, face, j, first,
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


@njit(cache=True)
def _play_win(
    T: KernelTables, V: np.ndarray, Kc: np.ndarray, cached: bool, P: Params, Wf: np.ndarray, Wt: np.ndarray,
    most: int, kinds: np.ndarray, key: np.uint64, deal: int, seats: np.ndarray, n_seats: int, scores: np.ndarray,
    won: np.ndarray, info: np.ndarray, trace: np.ndarray, dep: np.ndarray,
) -> None:  # fmt: skip
    """One game of deal ``deal``: seat s played by bot ``seats[s]`` of kind ``kinds[seats[s]]`` (0 optimal,
    2 win). ``Wf``/``Wt``: the follow and target tables; ``most``: the most points a turn adds.

    ``dep[t, c]`` counts the win seats' decisions in their turn t (0-based): c = 0 every decision, 1 those
    where the optimal bot would choose otherwise, 2 + j those of them where the win bot writes box j,
    2 + slots those where it throws again (an empty ``dep``: no counting)."""
    n = P.n_dice
    n_slots = T.req.shape[0]
    n_upper = V.shape[2]
    n_f = V.shape[1]
    full = (1 << n_slots) - 1
    card = np.full((n_seats, n_slots), -1, dtype=np.int64)
    mask = np.zeros(n_seats, dtype=np.int64)
    fl = np.zeros(n_seats, dtype=np.int64)
    upraw = np.zeros(n_seats, dtype=np.int64)
    extras = np.zeros(n_seats, dtype=np.int64)
    turns = np.zeros(n_seats, dtype=np.int64)
    hand = np.zeros(n, dtype=np.int64)
    Ks = np.zeros((T.throws + 1, P.n_keeps)) if not cached else Kc[0]
    order = np.zeros(n_seats, dtype=np.int64)
    values = np.zeros(n_seats, dtype=np.int64)
    alive = np.ones(n_seats, dtype=np.int64)
    # the win bot's buffers
    n_hands = T.first_roll.shape[0]
    Lf = Wf.shape[3]
    Lt = Wt.shape[3]
    nu_ = Wt.shape[2]
    span = most + Lt + 1
    uu = np.empty(span)
    du = np.empty(span)
    pmfs = np.zeros((max(1, n_seats - 1), Lf))
    sizes = np.zeros(n_seats - 1, dtype=np.int64)
    offsets = np.zeros(n_seats - 1, dtype=np.int64)
    memo = np.zeros((n_slots, 2, 2, nu_, most + 1))
    stamps = np.zeros((n_slots, 2, 2, nu_, most + 1), dtype=np.int64)
    stamp = 0
    S1 = np.empty((n_hands, 1))
    S23 = np.empty((n_hands, 1))
    E = np.empty((n_hands, 1))
    Kw = np.zeros((T.throws + 1, P.n_keeps, 1))
    M = np.empty((P.n_keeps, 1))
    lo = hi = 0
    iwon = 0.0
    ialive = 1.0
    idx = 0
    steps = 0
    # --- the opening: who starts (as kernels._play) ---
    starter = 0
    if n_seats > 1 and P.start != 2:
        count = 1 if P.start == 0 else n
        left = n_seats
        thrown = 0
        while left > 1 and thrown < 50 * n_seats:
            best = -(1 << 40)
            for s in range(n_seats):
                if alive[s] == 0:
                    continue
                total = 0
                for j in range(count):
                    total += die(key, deal, idx, j)
                idx += 1
                thrown += 1
                values[s] = total if P.start == 0 else -total
                if values[s] > best:
                    best = values[s]
            left = 0
            for s in range(n_seats):
                if alive[s] == 1 and values[s] != best:
                    alive[s] = 0
                left += alive[s]
        for s in range(n_seats):
            if alive[s] == 1:
                starter = s
                break
    for k in range(n_seats):
        order[k] = (starter + P.step * k) % n_seats
        if order[k] < 0:
            order[k] += n_seats
    info[0] = starter
    # --- the game ---
    at = 0
    cur = order[0]
    winner = -1
    while True:
        m, f0 = mask[cur], fl[cur]
        u = min(upraw[cur], n_upper - 1)
        so_far = _total(T, P, card, upraw, extras, cur)
        kind = kinds[seats[cur]]
        if kind == WIN and n_seats == 1:
            kind = OPTIMAL
        if cached:
            Ks = Kc[(m * n_f + f0) * n_upper + u]
        elif T.throws > 1:
            turn_keeps(T, m, f0, u, V, Ks, 2)
        if kind == WIN:
            k = 0
            for s in range(n_seats):
                if s == cur:
                    continue
                offsets[k] = _total(T, P, card, upraw, extras, s)
                if _filled(mask[s], n_slots) >= P.turns or turns[s] >= P.turns:
                    pmfs[k, 0] = 1.0
                    sizes[k] = 1
                else:
                    row = Wf[mask[s], fl[s], min(upraw[s], n_upper - 1)]
                    for t in range(Lf):
                        x = row[t] - (row[t + 1] if t + 1 < Lf else 0.0)
                        pmfs[k, t] = x if x > 0.0 else 0.0
                    sizes[k] = Lf
                k += 1
            lo, hi = utility(pmfs, sizes, offsets, so_far, uu, du)
            iwon, ialive = _turn_odds(T, P, card, mask, turns, order, cur, n_seats)
            stamp += 1
            if T.throws > 1:
                win_turn(T, m, f0, u, Wt, uu, du, lo, hi, memo, stamps, stamp, S1, S23, E, Kw, M)
        # first throw
        for j in range(n):
            hand[j] = die(key, deal, idx, j)
        idx += 1
        if steps < trace.shape[0]:
            trace[steps] = FIRST_ROLL
        steps += 1
        _sort(hand, n)
        h = P.code_index[_hand(hand, n)]
        if _instant(P, card, cur, h):
            winner = cur
            break
        throw = 1
        while True:
            if kind == WIN:
                c = _choose_win(
                    T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far, Wt, uu, du, lo, hi, memo, stamps,
                    stamp, Kw, iwon, ialive,
                )  # fmt: skip
                if dep.shape[0] > 0:
                    t_ = turns[cur]
                    dep[t_, 0] += 1
                    if c != _choose(T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far):
                        dep[t_, 1] += 1
                        dep[t_, 2 + (c - SCORE_BASE if c >= SCORE_BASE else n_slots)] += 1
            else:
                c = _choose(T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far)
            if steps < trace.shape[0]:
                trace[steps] = c
            steps += 1
            if c >= SCORE_BASE:
                break
            kl = P.keep_len[c]
            for j in range(kl):
                hand[j] = P.keep_faces[c, j]
            for j in range(n - kl):
                hand[kl + j] = die(key, deal, idx, j)
            idx += 1
            _sort(hand, n)
            h = P.code_index[_hand(hand, n)]
            throw += 1
        j = c - SCORE_BASE
        face = T.equal_face[h]
        joker_on, extra_holds = sheet_context(T, m, f0)
        p, nmask, nfl, reward = slot_outcome(
            T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
            m, f0, h, face, j, 1 if throw == 1 else 0, joker_on, extra_holds,
        )  # fmt: skip
        if reward != float(p):
            extras[cur] += 1
        card[cur, j] = p
        for s in range(n_slots):
            if s != j and (nmask >> s) & 1 == 1 and (m >> s) & 1 == 0:
                card[cur, s] = 0
        if T.is_upper[j] == 1:
            upraw[cur] += p
        mask[cur] = nmask
        fl[cur] = nfl
        turns[cur] += 1
        nxt = -1
        for step in range(1, n_seats + 1):
            a = (at + step) % n_seats
            s = order[a]
            if turns[s] < P.turns and mask[s] != full:
                nxt = s
                at = a
                break
        if nxt < 0:
            break
        cur = nxt
    # --- totals and the result ---
    for s in range(n_seats):
        scores[s] = _total(T, P, card, upraw, extras, s)
        won[s] = 0
    if winner >= 0:
        won[winner] = 1
        info[1] = INSTANT
        return
    top = scores[0]
    for s in range(n_seats):
        top = max(top, scores[s])
    left = 0
    for a in range(n_seats):
        s = order[a]
        alive[s] = 1 if scores[s] == top else 0
        left += alive[s]
    if left == 1 or P.shared:
        for s in range(n_seats):
            won[s] = alive[s]
        info[1] = POINTS if left == 1 else SHARED
        return
    # tie-break rounds: every bot plays the optimal bot's tie-break hands
    for _round in range(MAX_TIEBREAK_ROUNDS):
        best = -1
        for a in range(n_seats):
            s = order[a]
            if alive[s] == 0:
                continue
            for j in range(n):
                hand[j] = die(key, deal, idx, j)
            idx += 1
            if steps < trace.shape[0]:
                trace[steps] = FIRST_ROLL
            steps += 1
            _sort(hand, n)
            h = P.code_index[_hand(hand, n)]
            if _instant(P, card, s, h):
                won[s] = 1
                info[1] = INSTANT
                return
            throw = 1
            while True:
                c = P.tb_choice[throw, h]
                if steps < trace.shape[0]:
                    trace[steps] = STAND if c < 0 else c
                steps += 1
                if c < 0:
                    break
                kl = P.keep_len[c]
                for j in range(kl):
                    hand[j] = P.keep_faces[c, j]
                for j in range(n - kl):
                    hand[kl + j] = die(key, deal, idx, j)
                idx += 1
                _sort(hand, n)
                h = P.code_index[_hand(hand, n)]
                throw += 1
            values[s] = P.tb_value[1 if throw == 1 else 0, h]
            best = max(best, values[s])
        left = 0
        for s in range(n_seats):
            if alive[s] == 1 and values[s] != best:
                alive[s] = 0
            left += alive[s]
        if left == 1:
            for s in range(n_seats):
                won[s] = alive[s]
            info[1] = TIEBREAK
            return
    for s in range(n_seats):
        won[s] = alive[s]
    info[1] = SHARED


@njit(cache=True, parallel=True)
def play_win_deals(
    T: KernelTables, V: np.ndarray, Kc: np.ndarray, cached: bool, P: Params, Wf: np.ndarray, Wt: np.ndarray,
    most: int, kinds: np.ndarray, key: np.uint64, first: int, seating: np.ndarray, scores: np.ndarray,
    won: np.ndarray, info: np.ndarray, trace: np.ndarray, dep: np.ndarray,
) -> None:  # fmt: skip
    """As :func:`cubilete.fastsim.kernels.play_deals`, with win seats (kind 2); ``dep[d]``: the departures
    from the points choice in deal d (all runs; see :func:`_play_win`; zero rows: no counting)."""
    N, R = scores.shape[0], scores.shape[1]
    for d in prange(N):
        for r in range(R):
            n_seats = 0
            for s in range(seating.shape[1]):
                if seating[r, s] >= 0:
                    n_seats += 1
            _play_win(
                T, V, Kc, cached, P, Wf, Wt, most, kinds, key, first + d, seating[r], n_seats, scores[d, r],
                won[d, r], info[d, r], trace[d, r], dep[d],
            )  # fmt: skip
