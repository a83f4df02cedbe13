"""Numba kernels of the compiled simulation: the dice, and the decisions of the optimal and exact bots
(the game loop that calls them, with the win and target bots' seats, is :mod:`cubilete.simulate.fastsim.loop`).

Each deal is played ``R`` times ("runs") on the same dice (a run is one seating of the bots: one table
game, the seatings of a paired deal, or each bot alone). Scoring reads the solver's tables (built by
:mod:`cubilete.engine.rules.scoring`), so points, closed boxes, the Doble, jokers and bonuses are the engine's.

The optimal bot's choice is the advisor's first option (:func:`cubilete.solver.query.options`): the
same values in the same floating-point order, and the first of equal values in the advisor's order
(slots in sheet order, then keeps by number), so the compiled bot plays the Python bot's moves. Its
tie-break hands follow a table of choices made by :func:`cubilete.play.bots.approx.tiebreak_options`.

Dice are counter based: die ``j`` of throw ``index`` of deal ``d`` is a SplitMix64 hash of (key, d,
index, j) taken modulo 6 (a bias below 2^-61), so any deal can be replayed alone, and every run of
a deal sees the same throws by index, as the engine's seeded dice do.
:class:`cubilete.simulate.fastsim.dice.CounterDice` is the same generator in Python, a
:class:`~cubilete.engine.dice.DiceSource` for the engine.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from cubilete.duel.kernels import DuelTables, instant_wins
from cubilete.solver.kernels import NEG, sheet_context, slot_outcome
from cubilete.solver.query import turn_keeps
from cubilete.solver.tables import KernelTables
from cubilete.turn.core import rethrows

M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DEAL_MUL = np.uint64(0xD1B54A32D192ED03)
INDEX_MUL = np.uint64(0xABC98388FB8FAC03)

# trace codes (tests compare the compiled games' moves with the engine's)
FIRST_ROLL = 1_000_000
SCORE_BASE = 10_000
STAND = 20_000

# end reasons, as cubilete.engine.state.EndReason
POINTS, INSTANT, TIEBREAK, SHARED = 0, 1, 2, 3
# the kinds of seat of the game loop (cubilete.simulate.fastsim.loop)
OPTIMAL, EXACT, WIN, TARGET = 0, 1, 2, 3
MAX_TIEBREAK_ROUNDS = 100
MEMO = 512  # points a move can bring that the exact bot's turn remembers successors for (more: read each time)


class Params(NamedTuple):
    """What the game kernel reads beside the solver's tables (built by
    :func:`cubilete.simulate.fastsim.build_params`)."""

    n_dice: int
    n_keeps: int
    start: int  # 0 highest die, 1 lowest sum, 2 seat order
    step: int  # +1 clockwise, -1 counter-clockwise
    turns: int  # turns per player
    bonus: int  # upper bonus (0: none)
    shared: bool  # a tie for first shares the win (else tie-break rounds)
    code_index: np.ndarray  # base-7 code of sorted faces -> keep number
    sub_ptr: np.ndarray  # (H + 1,): the sub-keeps of hand h are sub_list[sub_ptr[h]:sub_ptr[h + 1]]
    sub_list: np.ndarray
    keep_len: np.ndarray  # (K,)
    keep_faces: np.ndarray  # (K, n)
    iw_slot: np.ndarray  # (B,): the slot of each instant-win box
    iw_makes: np.ndarray  # (B, H): 1 if the hand makes the box
    iw_after: np.ndarray  # (B,): 1 if the box wins even when scratched
    tb_choice: np.ndarray  # (throws + 1, H): tie-break move after throw t: -1 stand, else a keep number
    tb_value: np.ndarray  # (2, H): a tie-break hand's worth [first throw, hand]


class Duel(NamedTuple):
    """The exact bot's two-player values (:class:`cubilete.duel.solve.DuelSolution`) and its tie-break moves
    (its :class:`DuelTables` go beside, as their own argument: numba's parallel loops take flat tuples only)."""

    V: np.ndarray  # P(mover wins), row by row over the lead window
    tiebreak: float  # P(the first player wins the tie-break rounds)
    max_width: int  # the widest row's window
    tb_choice: np.ndarray  # (C, C, 1 + values, throws + 1, H): by the first and second contenders' tie classes;
    # against 0 = the first contender, 1 + v = the hand of value v to beat


@njit(cache=True, inline="always")
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def die(key: np.uint64, deal: int, index: int, j: int) -> int:
    """Face of die ``j`` of throw ``index`` of deal ``deal``."""
    s = _mix(key + np.uint64(deal) * DEAL_MUL + GOLDEN)
    s = _mix(s ^ (np.uint64(index) * INDEX_MUL + np.uint64(j) * GOLDEN))
    return int(s % np.uint64(6)) + 1


@njit(cache=True)
def throw_faces(key: np.uint64, deal: int, index: int, count: int) -> np.ndarray:
    """The faces of one throw (for checks against :class:`~cubilete.simulate.fastsim.dice.CounterDice`)."""
    out = np.empty(count, dtype=np.int64)
    for j in range(count):
        out[j] = die(key, deal, index, j)
    return out


@njit(cache=True, parallel=True)
def fill_keep_cache(T: KernelTables, V: np.ndarray, Kc: np.ndarray) -> None:
    """Kc[state] = the turn's keep values (``turn_keeps`` down to throw 2) of every turn-start state."""
    n_f, n_u = V.shape[1], V.shape[2]
    n_states = V.shape[0] * n_f * n_u
    for s in prange(n_states):
        mask = s // (n_f * n_u)
        fl = (s // n_u) % n_f
        u = s % n_u
        turn_keeps(T, mask, fl, u, V, Kc[s], 2)


@njit(cache=True, inline="always")
def hand_code(hand: np.ndarray, n: int) -> int:
    """Base-7 code of n sorted faces."""
    code = 0
    for p in range(n):
        code = code * 7 + hand[p]
    return code


@njit(cache=True, inline="always")
def sort_faces(hand: np.ndarray, n: int) -> None:
    """Sort the first n faces in place (insertion sort: five or six dice)."""
    for a in range(1, n):
        x = hand[a]
        b = a - 1
        while b >= 0 and hand[b] > x:
            hand[b + 1] = hand[b]
            b -= 1
        hand[b + 1] = x


@njit(cache=True)
def choose_optimal(
    T: KernelTables, V: np.ndarray, Ks: np.ndarray, sub_ptr: np.ndarray, sub_list: np.ndarray,
    mask: int, fl: int, u: int, h: int, throw: int, so_far: int,
) -> int:  # fmt: skip
    """The advisor's first option: SCORE_BASE + slot, or a keep number."""
    n_upper = V.shape[2]
    first = 1 if throw == 1 else 0
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    n_slots = T.req.shape[0]
    best = -np.inf
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
        filled = 0
        for i in range(n_slots):
            filled += (nmask >> i) & 1
        future = V[nmask, nfl, nu] if filled < T.rounds else 0.0
        value = (so_far + p + bonus) + future
        if value > best:
            best = value
            choice = SCORE_BASE + j
    if throw < T.throws:
        for i in range(sub_ptr[h], sub_ptr[h + 1]):
            k = sub_list[i]
            value = so_far + Ks[throw + 1, k]
            if value > best:
                best = value
                choice = k
    return choice


@njit(cache=True, inline="always")
def duel_sheet(D: DuelTables, mask: int, fl: int, up: int) -> int:
    """The two-player tables' number of a sheet (closed boxes, flags, upper total capped)."""
    n_upper = D.sheet_id.shape[2]
    return int(D.sheet_id[mask, fl, min(up, n_upper - 1) if n_upper > 1 else 0])


@njit(cache=True, inline="always")
def _win(D: DuelTables, X: Duel, mover_first: bool, a: int, b: int, lead: int) -> float:
    """P(mover wins) at the start of the mover's turn (DuelSolution.win_probability)."""
    row = D.pair_row[0 if mover_first else 1, a, b]
    lo = D.row_off[row]
    n = D.row_off[row + 1] - lo
    i = min(max(lead - D.row_lo[row], 0), n - 1)  # JointSpace.lead_index
    return float(X.V[lo + i])


@njit(cache=True)
def exact_turn_keeps(
    T: KernelTables, D: DuelTables, X: Duel, mover_first: bool, s: int, o: int, lead: int, buf: np.ndarray,
    Kx: np.ndarray, memo_s: np.ndarray, memo_v: np.ndarray,
) -> None:  # fmt: skip
    """Kx[t, k, 0]: P(mover wins) with keep k thrown for throw t, at the turn's one lead.

    The lead is clamped into the row's window first (``JointSpace.lead_index``): the values are then
    those of that lead's column of ``row_widget`` (the same operations on one lead instead of the whole
    window, which the Python advisor computes), each successor read at that lead plus the box's points,
    clamped into its own row. A turn costs about what the optimal bot's uncached turn does, whatever
    the window's width.
    """
    n_hands = T.first_roll.shape[0]
    n_keeps = Kx.shape[1]
    row = D.pair_row[0 if mover_first else 1, s, o]
    lo = D.row_lo[row]
    width = D.row_off[row + 1] - D.row_off[row]
    at = lo + min(max(lead - lo, 0), width - 1)
    S1 = buf[:n_hands].reshape(n_hands, 1)
    S23 = buf[n_hands : 2 * n_hands].reshape(n_hands, 1)
    E = buf[2 * n_hands : 3 * n_hands].reshape(n_hands, 1)
    M = buf[3 * n_hands : 3 * n_hands + n_keeps].reshape(n_keeps, 1)
    m = D.row_m[row]
    memo_s[:] = -1
    _turn_scores(T, D, X, m, s, o, at, 0, S23, memo_s, memo_v)
    S1[:] = S23
    if T.servida:
        _turn_scores(T, D, X, m, s, o, at, 1, S1, memo_s, memo_v)
    rethrows(T, S1, S23, E, Kx, M)


@njit(cache=True)
def _turn_scores(
    T: KernelTables, D: DuelTables, X: Duel, m: int, s: int, o: int, at: int, first: int, out: np.ndarray,
    memo_s: np.ndarray, memo_v: np.ndarray,
) -> None:  # fmt: skip
    """out[h, 0] = best P(mover wins) over the usable slots for hand h at the lead ``at``: the column of
    :func:`cubilete.duel.kernels.joint_scores` at that lead (the same values: a successor's value is read
    at the lead plus the points, clamped into its row). Many hands lead to the same successor and points
    (a scratch, the same upper count): ``memo_v[j, points]`` keeps the value read for the successor
    ``memo_s[j, points]`` (-1: none yet), so the table is read a few dozen times a turn, not thousands."""
    n_hands = out.shape[0]
    n_memo = memo_s.shape[1]
    mask, fl, u = D.sheet_mask[s], D.sheet_fl[s], D.sheet_u[s]
    n_upper = D.sheet_id.shape[2]
    joker_on, extra_holds = sheet_context(T, mask, fl)
    other_done = D.sheet_done[o] == 1
    for h in range(n_hands):
        if first == 1 and (D.servida_hand[h] == 0 or instant_wins(D, s, h)):
            continue  # the later-throw score stands (an instant win's is never read)
        best = NEG
        face = T.equal_face[h]
        bits = T.usable[mask, face]
        for j in range(T.req.shape[0]):
            if (bits >> j) & 1 == 0:
                continue
            p, nmask, nfl, reward = slot_outcome(
                T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
                mask, fl, h, face, j, first, joker_on, extra_holds,
            )  # fmt: skip
            rew = int(reward)
            nu = u
            if T.is_upper[j] == 1 and n_upper > 1:
                nu = min(n_upper - 1, u + p)
                if u < T.threshold <= u + p:
                    rew += T.upper_bonus
            s2 = D.sheet_id[nmask, nfl, nu]
            if 0 <= rew < n_memo and memo_s[j, rew] == s2:
                v = memo_v[j, rew]
            else:
                shift = rew + at
                if not other_done:
                    nr = D.pair_row[1 - m, o, s2]
                    top = D.row_off[nr + 1] - D.row_off[nr] - 1
                    v = 1.0 - X.V[D.row_off[nr] + min(max(-shift - D.row_lo[nr], 0), top)]
                elif D.sheet_done[s2] == 0:
                    nr = D.pair_row[m, s2, o]
                    top = D.row_off[nr + 1] - D.row_off[nr] - 1
                    v = X.V[D.row_off[nr] + min(max(shift - D.row_lo[nr], 0), top)]
                else:
                    tie = D.tie[m, D.tie_class[s2] * (1 << D.iw_slot.shape[0]) + D.tie_class[o]]
                    v = 1.0 if shift > 0 else (tie if shift == 0 else 0.0)
                if 0 <= rew < n_memo:
                    memo_s[j, rew] = s2
                    memo_v[j, rew] = v
            if v > best:
                best = v
        out[h, 0] = best


@njit(cache=True)
def choose_exact(
    T: KernelTables, D: DuelTables, X: Duel, Kx: np.ndarray, sub_ptr: np.ndarray, sub_list: np.ndarray,
    mover_first: bool, mask: int, fl: int, upraw: int, s: int, o: int, lead: int, other_done: bool, h: int,
    throw: int,
) -> int:  # fmt: skip
    """The exact bot's first option (duel.advisor.duel_advise): SCORE_BASE + slot, or a keep number.

    A box is valued at the real lead plus its points (``after_move``), a keep by ``Kx[throw + 1, k, 0]``
    (the advisor's keep values at the lead clamped into the row, as ``_keep_values`` and ``lead_index``)."""
    first = 1 if throw == 1 else 0
    joker_on, extra_holds = sheet_context(T, mask, fl)
    face = T.equal_face[h]
    bits = T.usable[mask, face]
    n_slots = T.req.shape[0]
    best = -np.inf
    choice = -1
    for j in range(n_slots):
        if (bits >> j) & 1 == 0:
            continue
        p, nmask, nfl, reward = slot_outcome(
            T.pts, T.jpts, T.req, T.flag_bit, T.closes, T.ebonus_ok, T.upper_slot_of_face, T.extra_bonus,
            mask, fl, h, face, j, first, joker_on, extra_holds,
        )  # fmt: skip
        gain = p
        if reward != float(p):
            gain += T.extra_bonus
        nup = upraw
        if T.is_upper[j] == 1:
            nup = upraw + p
            if T.upper_bonus > 0 and upraw < T.threshold <= nup:
                gain += T.upper_bonus
        closed = 0
        for i in range(n_slots):
            closed += (nmask >> i) & 1
        me_done = closed >= T.rounds
        s2 = duel_sheet(D, nmask, nfl, nup)
        after = lead + gain
        if not other_done:
            value = 1.0 - _win(D, X, not mover_first, o, s2, -after)
        elif not me_done:
            value = _win(D, X, mover_first, s2, o, after)
        elif after != 0:
            value = 1.0 if after > 0 else 0.0
        else:  # the tie-break by both final sheets' instant wins (D.tie, as the solve)
            value = D.tie[0 if mover_first else 1, D.tie_class[s2] * (1 << D.iw_slot.shape[0]) + D.tie_class[o]]
        if value > best:
            best = value
            choice = SCORE_BASE + j
    if throw < T.throws:  # Kx: the keeps' values at the turn's lead clamped into its row (exact_turn_keeps)
        for q in range(sub_ptr[h], sub_ptr[h + 1]):
            k = sub_list[q]
            value = Kx[throw + 1, k, 0]
            if value > best:
                best = value
                choice = k
    return choice


@njit(cache=True, inline="always")
def tie_class(P: Params, card: np.ndarray, s: int) -> int:
    """The seat's tie class (:func:`cubilete.duel.solve.tie_classes`): bit b if instant-win box b can still win."""
    c = 0
    for b in range(P.iw_slot.shape[0]):
        if P.iw_after[b] == 1 or card[s, P.iw_slot[b]] != 0:
            c |= 1 << b
    return c


@njit(cache=True, inline="always")
def made_instant_win(P: Params, card: np.ndarray, s: int, h: int) -> bool:
    """scoring.instant_win: a box with instant win made on the first throw and not scratched."""
    for b in range(P.iw_slot.shape[0]):
        if P.iw_makes[b, h] == 1 and (P.iw_after[b] == 1 or card[s, P.iw_slot[b]] != 0):
            return True
    return False
