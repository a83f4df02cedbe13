"""The compiled simulation's one game loop: every seat plays its own kind of table-driven bot.

The flow is the engine's (:mod:`cubilete.engine.game`): the start throws, the turn order, the instant win on a
turn's first throw (tie-break turns included), the end when every seat is done, the tie-break rounds (or a
shared win) and the 100-round limit. Each seat's decisions come from its kind:

* ``OPTIMAL``: the advisor's first option (:func:`cubilete.simulate.fastsim.kernels.choose_optimal`);
* ``EXACT``: the two-player table, heads-up (:func:`cubilete.simulate.fastsim.kernels.choose_exact`), its
  tie-break hands played to win them;
* ``WIN``: the win bot (:mod:`cubilete.simulate.fastsim.win_kernels`): this turn solved for the share of the win
  against the opponents' final-score distributions, instant wins by their chance; alone at the table,
  the optimal bot's moves;
* ``TARGET``: the target bot ``target:T``: the same arithmetic with the step utility u(x) = [x >= T]
  (:func:`cubilete.win.decide.step_utility`) and no instant wins, whoever sits at the table.

In tie-break rounds every kind but ``EXACT`` plays the optimal bot's tie-break hands, as the Python bots do.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from cubilete.duel.kernels import DuelTables
from cubilete.simulate.fastsim.kernels import (
    EXACT,
    FIRST_ROLL,
    INSTANT,
    MAX_TIEBREAK_ROUNDS,
    MEMO,
    OPTIMAL,
    POINTS,
    SCORE_BASE,
    SHARED,
    STAND,
    TARGET,
    TIEBREAK,
    WIN,
    Duel,
    Params,
    choose_exact,
    choose_optimal,
    die,
    duel_sheet,
    exact_turn_keeps,
    hand_code,
    made_instant_win,
    sort_faces,
    tie_class,
)  # fmt: skip
from cubilete.simulate.fastsim.win_kernels import boxes_filled, choose_win, seat_total, turn_odds
from cubilete.solver.kernels import sheet_context, slot_outcome
from cubilete.solver.query import turn_keeps
from cubilete.solver.tables import KernelTables
from cubilete.win.decide import step_utility, utility, win_turn


@njit(cache=True)
def _play(
    T: KernelTables, V: np.ndarray, Kc: np.ndarray, cached: bool, P: Params, D: DuelTables, X: Duel, Wf: np.ndarray,
    Wt: np.ndarray, most: int, kinds: np.ndarray, goals: np.ndarray, key: np.uint64, deal: int, seats: np.ndarray,
    n_seats: int, scores: np.ndarray, won: np.ndarray, info: np.ndarray, trace: np.ndarray, dep: np.ndarray,
) -> None:  # fmt: skip
    """One game of deal ``deal`` with ``n_seats`` seats: seat s is played by bot ``seats[s]``, of kind
    ``kinds[seats[s]]`` (target ``goals[seats[s]]`` for a target bot).

    P holds the scalars and tables of :func:`cubilete.simulate.fastsim.build_params`; D and X the exact bot's
    two-player table (placeholders when no seat plays it); Wf and Wt the ``follow`` and ``target`` tables
    and ``most`` the most points a turn adds (placeholders when no seat plays win or target).

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
    exact = shares = False
    for s in range(n_seats):
        kind = kinds[seats[s]]
        exact = exact or kind == EXACT
        shares = shares or kind in (WIN, TARGET)
    n_hands = T.first_roll.shape[0]
    # the exact bot's buffers (one lead a turn)
    buf = np.empty(3 * n_hands + P.n_keeps) if exact else np.empty(1)  # S1, S23, E, M of one lead
    Kx = np.zeros((T.throws + 1, P.n_keeps, 1)) if exact else np.zeros((1, 1, 1))
    memo_s = np.full((n_slots, MEMO if exact else 1), -1, dtype=np.int64)
    memo_v = np.zeros((n_slots, MEMO if exact else 1))
    sx = so = lead = 0
    other_done = mover_first = False
    # the win and target bots' buffers
    Lf = Wf.shape[3]
    span = most + Wt.shape[3] + 1 if shares else 1
    uu = np.empty(span)
    du = np.empty(span)
    pmfs = np.zeros((max(1, n_seats - 1), Lf if shares else 1))
    sizes = np.zeros(n_seats - 1, dtype=np.int64)
    offsets = np.zeros(n_seats - 1, dtype=np.int64)
    two = 2 if shares else 1
    mshape = (n_slots if shares else 1, two, two, Wt.shape[2] if shares else 1, most + 1 if shares else 1)
    memo = np.zeros(mshape)
    stamps = np.zeros(mshape, dtype=np.int64)
    stamp = 0
    hs = n_hands if shares else 1
    S1 = np.empty((hs, 1))
    S23 = np.empty((hs, 1))
    E = np.empty((hs, 1))
    Kw = np.zeros((T.throws + 1, P.n_keeps, 1)) if shares else np.zeros((1, 1, 1))
    M = np.empty((P.n_keeps if shares else 1, 1))
    lo = hi = 0
    iwon = 0.0
    ialive = 1.0
    idx = 0
    steps = 0
    # --- the opening: who starts (game.start_procedure without order_by_start) ---
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
        so_far = seat_total(T, P, card, upraw, extras, cur)
        kind = kinds[seats[cur]]
        if kind == WIN and n_seats == 1:
            kind = OPTIMAL
        if kind == EXACT:
            other = 1 - cur
            mover_first = cur == order[0]
            sx = duel_sheet(D, m, f0, upraw[cur])
            so = duel_sheet(D, mask[other], fl[other], upraw[other])
            lead = so_far - seat_total(T, P, card, upraw, extras, other)
            other_done = not (turns[other] < P.turns and mask[other] != full)
            if T.throws > 1:
                exact_turn_keeps(T, D, X, mover_first, sx, so, lead, buf, Kx, memo_s, memo_v)
        elif cached:
            Ks = Kc[(m * n_f + f0) * n_upper + u]
        elif T.throws > 1:
            turn_keeps(T, m, f0, u, V, Ks, 2)
        if kind == WIN:
            k = 0
            for s in range(n_seats):
                if s == cur:
                    continue
                offsets[k] = seat_total(T, P, card, upraw, extras, s)
                if boxes_filled(mask[s], n_slots) >= P.turns or turns[s] >= P.turns:
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
            iwon, ialive = turn_odds(T, P, card, mask, turns, order, cur, n_seats)
        elif kind == TARGET:
            lo, hi = step_utility(goals[seats[cur]] - so_far, uu, du)
            iwon, ialive = 0.0, 1.0
        if kind in (WIN, TARGET):
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
        sort_faces(hand, n)
        h = P.code_index[hand_code(hand, n)]
        if made_instant_win(P, card, cur, h):
            winner = cur
            break
        # an int64 from the start: a literal 1 makes numba compile every callee taking it twice (1, then int64)
        throw: int = np.int64(1)  # type: ignore[assignment]  # an int to the checker, int64 to numba
        while True:
            if kind == EXACT:
                c = choose_exact(
                    T, D, X, Kx, P.sub_ptr, P.sub_list, mover_first, m, f0, upraw[cur], sx, so, lead, other_done, h,
                    throw,
                )  # fmt: skip
            elif kind in (WIN, TARGET):
                c = choose_win(
                    T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far, Wt, uu, du, lo, hi, memo, stamps,
                    stamp, Kw, iwon, ialive,
                )  # fmt: skip
                if kind == WIN and dep.shape[0] > 0:
                    t_ = turns[cur]
                    dep[t_, 0] += 1
                    if c != choose_optimal(T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far):
                        dep[t_, 1] += 1
                        dep[t_, 2 + (c - SCORE_BASE if c >= SCORE_BASE else n_slots)] += 1
            else:
                c = choose_optimal(T, V, Ks, P.sub_ptr, P.sub_list, m, f0, u, h, throw, so_far)
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
        scores[s] = seat_total(T, P, card, upraw, extras, s)
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
    # tie-break rounds: one hand each in turn order, the best hand wins, again while tied
    for _round in range(MAX_TIEBREAK_ROUNDS):
        best = -1
        first_in_round = -1
        first_value = 0
        for a in range(n_seats):
            if alive[order[a]] == 1:
                first_in_round = a
                break
        # the exact bot's moves depend on both contenders' instant wins still live (a scratched Generala)
        cf = tie_class(P, card, order[first_in_round])
        cs = 0
        for a in range(first_in_round + 1, n_seats):
            if alive[order[a]] == 1:
                cs = tie_class(P, card, order[a])
                break
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
            sort_faces(hand, n)
            h = P.code_index[hand_code(hand, n)]
            if made_instant_win(P, card, s, h):
                won[s] = 1
                info[1] = INSTANT
                return
            throw = 1
            exact_here = kinds[seats[s]] == EXACT
            against = 0 if a == first_in_round else 1 + first_value
            while True:
                c = X.tb_choice[cf, cs, against, throw, h] if exact_here else P.tb_choice[throw, h]
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
                sort_faces(hand, n)
                h = P.code_index[hand_code(hand, n)]
                throw += 1
            values[s] = P.tb_value[1 if throw == 1 else 0, h]
            best = max(best, values[s])
            if a == first_in_round:
                first_value = values[s]
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
def play_deals(
    T: KernelTables, V: np.ndarray, Kc: np.ndarray, cached: bool, P: Params, D: DuelTables, X: Duel, Wf: np.ndarray,
    Wt: np.ndarray, most: int, kinds: np.ndarray, goals: np.ndarray, key: np.uint64, first: int, seating: np.ndarray,
    scores: np.ndarray, won: np.ndarray, info: np.ndarray, trace: np.ndarray, dep: np.ndarray,
) -> None:  # fmt: skip
    """Deals first .. first + N - 1 (N = scores.shape[0]), each run r with the bots seating[r] (-1: no seat).

    scores[d, r, s], won[d, r, s] (1 for a winner, shared wins included), info[d, r] = (starter, end reason);
    trace[d, r, :] the first moves of each game when its length is not zero; dep[d] the win seats'
    departures from the points choice in deal d, all runs (see :func:`_play`; zero rows: no counting).
    """
    N, R = scores.shape[0], scores.shape[1]
    for d in prange(N):
        for r in range(R):
            # not a literal 0: numba would compile _play twice (for 0, then for int64)
            n_seats: int = np.int64(0)  # type: ignore[assignment]
            for s in range(seating.shape[1]):
                if seating[r, s] >= 0:
                    n_seats += 1
            _play(
                T, V, Kc, cached, P, D, X, Wf, Wt, most, kinds, goals, key, first + d, seating[r], n_seats,
                scores[d, r], won[d, r], info[d, r], trace[d, r], dep[d],
            )  # fmt: skip
