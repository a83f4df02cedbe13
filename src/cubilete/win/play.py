"""Playing to win: every option of a decision with its probability of reaching a target, or of
winning against opponents whose final-score distributions are known.

**Target** (``target_options``): P(final score >= T) after each option, playing afterwards
the policy that maximises exactly that (the ``target`` table).

**Win** (``win_options``): let u(x) be the share of the win for finishing on x against the
opponents (independent, ties split evenly). This turn is solved exactly for E[u(final)];
after it, the value of each sheet is the sum over targets T of (u(T) - u(T-1)) times the best
P(reach T) from that sheet. That is an optimistic look at later turns (each target with its
own policy), corrected as play goes on: the bot decides again at every throw with the
opponents' new positions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.advisor import Option, advise, sheet_state
from cubilete.solver.combinatorics import FloatArray
from cubilete.win import decide
from cubilete.win.distribution import Distribution, done
from cubilete.win.tables import VectorTable, tables_fit, vector_table


@dataclass(frozen=True)
class WinOption:
    """An advisor option (``option.expected`` = expected final score playing for points) with the
    probability ``win`` it gives (of winning, or of reaching the target) and what it loses against the best."""

    option: Option
    win: float
    loss: float


def win_key(p: float) -> float:
    """Probabilities equal to 12 decimals rank as equal (the compiled bot computes the same key)."""
    return math.floor(p * 1e12 + 0.5)


def ranked_by_chance(pairs: list[tuple[Option, float]]) -> list[WinOption]:
    """Options with their chances, best chance first (ties: more points first); the first is marked best."""
    pairs.sort(key=lambda p: (-win_key(p[1]), -p[0].expected))
    best = pairs[0][1]
    return [WinOption(o, w, max(0.0, best - w)) for o, w in pairs]


def target_options(
    rules: Rules,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    target: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[WinOption]:
    """Every option with P(final score >= target) under the policy that maximises it, best first
    (from the full target table where it fits, else from :mod:`cubilete.win.targets`).

    With the full table this is :func:`win_options`' arithmetic (:mod:`cubilete.win.decide`) with the
    step utility u(x) = [x >= target] and no instant wins: E[u(final)] is then P(final >= target), this
    turn solved exactly and every later sheet valued by its target row; the compiled target bot
    (:mod:`cubilete.simulate.fastsim.loop`) computes the same numbers in the same order."""
    if not tables_fit(rules):
        return ragged_target_options(rules, card, hand, throw, target, extra_bonuses, held)
    vt = vector_table(rules, "target")
    options = advise(vt.solution, card, hand, throw, extra_bonuses, held)
    need = target - scoring.total(rules, card, extra_bonuses)
    n = max_turn_points(vt) + vt.width + 1
    uu, du = np.empty(n), np.empty(n)
    lo, hi = decide.step_utility(need, uu, du)
    shares = _option_shares(vt, options, card, hand, throw, uu, du, lo, hi)
    return ranked_by_chance([(o, min(1.0, max(0.0, share))) for o, share in zip(options, shares, strict=True)])


def reach_probability(rules: Rules, card: Sequence[int | None], target: int, extra_bonuses: int = 0) -> float:
    """Best P(final score >= target) from the start of a turn with this sheet."""
    from cubilete.win.distribution import survival_from

    need = target - scoring.total(rules, card, extra_bonuses)
    if need <= 0:
        return 1.0
    if not tables_fit(rules):
        from cubilete.solver.cache import shared_solution
        from cubilete.win.targets import target_table

        if done(rules, card):
            return 0.0
        solution = shared_solution(rules)
        root = sheet_state(solution, card)
        return target_table(solution, target, root, target - need).value(*root, need)
    vt = vector_table(rules, "target")
    row = survival_from(vt, card)
    return float(row[need]) if need < row.size else 0.0


def ragged_target_options(
    rules: Rules,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    target: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
) -> list[WinOption]:
    """:func:`target_options` from a table of this one target rooted at the sheet
    (:func:`cubilete.win.targets.target_table`): no full table needed."""
    from cubilete.solver.cache import shared_solution
    from cubilete.win.targets import rag_turn, target_table

    solution = shared_solution(rules)
    space = solution.space
    options = advise(solution, card, hand, throw, extra_bonuses, held)
    so_far = scoring.total(rules, card, extra_bonuses)
    need = target - so_far
    if need <= 0:
        return ranked_by_chance([(o, 1.0) for o in options])
    root = sheet_state(solution, card)
    tt = target_table(solution, target, root, so_far)
    keep_value: dict[tuple[int, ...], float] = {}
    if any(o.kind == "keep" for o in options):
        d = space.dice
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
        M, out = np.empty((d.n_keeps, 1)), np.empty(1)
        rag_turn(solution.tables, *root, tt.nlo, tt.nhi, tt.off, tt.pool, tt.pop, need, S1, S23, E, Ks, M, out)
        for o in options:
            if o.kind == "keep":
                keep_value[o.keep] = float(Ks[throw + 1, d.index(o.keep), 0])
    sorted_hand = tuple(sorted(hand))
    pairs: list[tuple[Option, float]] = []
    for o in options:
        if o.kind == "keep":
            pairs.append((o, keep_value[o.keep]))
            continue
        j = rules.slot_index(o.slot or "")
        after = scoring.write(rules, card, j, o.points)
        bonus = int(scoring.extra_bonus_due(rules, card, j, sorted_hand)) * rules.extra_bonus
        rest = need - (scoring.total(rules, after, extra_bonuses) + bonus - so_far)
        if rest <= 0:
            pairs.append((o, 1.0))
        elif done(rules, after):
            pairs.append((o, 0.0))
        else:
            pairs.append((o, tt.value(*sheet_state(solution, after), rest)))
    return ranked_by_chance(pairs)


def max_turn_points(vt: VectorTable) -> int:
    """The most one turn can add to a total (box, upper bonus, extra bonus)."""
    space = vt.space
    return int(max(space.pts.max(), space.jpts.max())) + space.upper_bonus + space.extra_bonus


def utility_of(opponents: Sequence[Distribution], start: int, n: int) -> tuple[FloatArray, FloatArray, int, int]:
    """(u, du, lo, hi) of :func:`cubilete.win.decide.utility` for scores start .. start + n - 1."""
    width = max((o.pmf.size for o in opponents), default=1)
    pmfs = np.zeros((len(opponents), width))
    for k, o in enumerate(opponents):
        pmfs[k, : o.pmf.size] = o.pmf
    sizes = np.array([o.pmf.size for o in opponents], dtype=np.int64)
    offsets = np.array([o.offset for o in opponents], dtype=np.int64)
    u, du = np.empty(n), np.empty(n)
    lo, hi = decide.utility(pmfs, sizes, offsets, start, u, du)
    return u, du, lo, hi


def win_options(
    rules: Rules,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    opponents: Sequence[Distribution],
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
    instant_won: float = 0.0,
    alive: float = 1.0,
) -> list[WinOption]:
    """Every option of a decision with its probability of winning against ``opponents``' final scores, best first.

    ``instant_won`` (this player's chance of an instant win later) and ``alive`` (the chance that
    nobody wins instantly) turn the points share into a probability of winning: won + alive * share.
    """
    vt = vector_table(rules, "target")
    options = advise(vt.solution, card, hand, throw, extra_bonuses, held)
    if not opponents:
        return ranked_by_chance([(o, 1.0) for o in options])
    so_far = scoring.total(rules, card, extra_bonuses)
    uu, du, lo, hi = utility_of(opponents, so_far, max_turn_points(vt) + vt.width + 1)
    shares = _option_shares(vt, options, card, hand, throw, uu, du, lo, hi)
    pairs = [(o, instant_won + alive * min(1.0, max(0.0, share))) for o, share in zip(options, shares, strict=True)]
    return ranked_by_chance(pairs)


def _option_shares(
    vt: VectorTable, options: Sequence[Option], card: Sequence[int | None], hand: Sequence[int], throw: int,
    uu: FloatArray, du: FloatArray, lo: int, hi: int,
) -> list[float]:  # fmt: skip
    """E[u(final)] of every option (u from the turn's start: ``uu[c]`` for c points gained this turn)."""
    solution = vt.solution
    rules = solution.rules
    space = vt.space
    mask, flags, upper = sheet_state(solution, card)
    T = solution.tables
    memo = np.zeros(decide.memo_shape(T, space.n_upper, max_turn_points(vt)))
    stamps = np.zeros(memo.shape, dtype=np.int64)
    W = vt.table
    keep_value: dict[tuple[int, ...], float] = {}
    d = space.dice
    if any(o.kind == "keep" for o in options):
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
        M = np.empty((d.n_keeps, 1))
        decide.win_turn(T, mask, flags, upper, W, uu, du, lo, hi, memo, stamps, 1, S1, S23, E, Ks, M)
        for o in options:
            if o.kind == "keep":
                keep_value[o.keep] = float(Ks[throw + 1, d.index(o.keep), 0])
    slot_share = np.empty(len(rules.slots))
    decide.slot_shares(
        T, mask, flags, upper, W, uu, du, lo, hi, memo, stamps, 1, d.index(tuple(sorted(hand))),
        1 if throw == 1 else 0, slot_share,
    )  # fmt: skip
    return [keep_value[o.keep] if o.kind == "keep" else float(slot_share[rules.slot_index(o.slot or "")])
            for o in options]  # fmt: skip


def game_win_options(game: Game) -> list[WinOption]:
    """:func:`win_options` for the decision at hand in a game (two or more seats, dice thrown, normal play):
    the opponents' distributions from their sheets, instant wins in the order of the turns to come.
    Raises SolverUnsupportedError where the rules have no exact tables."""
    from cubilete.win.odds import held_faces, instant_of_game, seat_distribution

    st = game.state
    opponents = [seat_distribution(game, i) for i in range(len(st.seats)) if i != st.current]
    won, alive = instant_of_game(game)
    seat = game.seat()
    return win_options(
        game.rules, seat.card, st.turn.dice, st.turn.throws, opponents, seat.extra_bonuses,
        held_faces(game), won[st.current], alive,
    )  # fmt: skip


def turn_start_win(game: Game) -> float:
    """The player to move's chance to win before the first throw of a turn (two or more seats, normal play),
    in :func:`game_win_options`' model: the turn played to win, so that after the first throw the best
    option's chance averages back to this. Raises SolverUnsupportedError where the rules have no exact tables."""
    from cubilete.win.odds import instant_of_game, seat_distribution

    st = game.state
    seat = game.seat()
    opponents = [seat_distribution(game, i) for i in range(len(st.seats)) if i != st.current]
    won, alive = instant_of_game(game)
    vt = vector_table(game.rules, "target")
    so_far = scoring.total(game.rules, seat.card, seat.extra_bonuses)
    uu, du, lo, hi = utility_of(opponents, so_far, max_turn_points(vt) + vt.width + 1)
    mask, flags, upper = sheet_state(vt.solution, seat.card)
    T = vt.solution.tables
    memo = np.zeros(decide.memo_shape(T, vt.space.n_upper, max_turn_points(vt)))
    stamps = np.zeros(memo.shape, dtype=np.int64)
    d = vt.space.dice
    S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
    Ks = np.zeros((game.rules.throws + 1, d.n_keeps, 1))
    M = np.empty((d.n_keeps, 1))
    decide.win_turn(T, mask, flags, upper, vt.table, uu, du, lo, hi, memo, stamps, 1, S1, S23, E, Ks, M)
    share = float(T.first_roll @ E[:, 0])
    return won[st.current] + alive * min(1.0, max(0.0, share))
