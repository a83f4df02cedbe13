"""Compiled batch simulation: table-driven bots play whole games in numba, many deals on every core.

:func:`play` plays deals of a rule set with table-driven bots, each seat its own kind in one game loop
(:mod:`cubilete.simulate.fastsim.loop`): ``optimal`` (the solver's table, any number of seats), ``exact`` (the
two-player table of :mod:`cubilete.duel`, heads-up: against ``optimal``, ``win``, ``target:T`` or itself),
``win`` and ``target:T`` (:mod:`cubilete.simulate.fastsim.win`, on rules with win tables), in one of three modes
(as :mod:`cubilete.simulate.pool`): ``table`` (every bot at one table), ``paired`` (each deal played once per
seating, the seats rotated on the same dice: two bots swap seats) or ``solo`` (each bot alone on the
deal's dice). The games follow the engine exactly (start throws, turn order, instant wins, tie-break
rounds, shared wins, the Doble and every scoring rule through the solver's tables); the tests replay
compiled deals through :class:`~cubilete.engine.game.Game` with :class:`~cubilete.simulate.fastsim.dice.CounterDice` and
the Python bots and get the same moves, scores and winners.

What it does not play (:func:`unsupported` says which, in one line; ``cubilete simulate`` then uses
the engine): the other bots (the levels with slips, ...); ``exact`` alone or at more than two
seats, or on rules without a two-player table; ``win`` and ``target:T`` on rules without win tables
(Yahtzee, Yatzy); rules the solver does not solve (several columns, carried throws, too many states);
locked holds (``generala-apartada``); a start throw that ranks every seat (``order_by_start``).

The dice are counter-based (:mod:`cubilete.simulate.fastsim.dice`), not the engine's SHA-256 dice: the same
seed gives the same games, but not the games of ``simulate --engine`` with that seed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from cubilete.engine.rules.model import Direction, Rules, Start, TieBreak
from cubilete.simulate.fastsim.dice import CounterDice, seed_key

if TYPE_CHECKING:
    from cubilete.duel.kernels import DuelTables
    from cubilete.simulate.fastsim.kernels import Duel, Params
    from cubilete.solver.tables import KernelTables

Mode = Literal["table", "solo", "paired"]
Progress = Callable[[int, int], None]
COMPILED_BOTS = frozenset({"optimal", "exact", "win", "target:T"})
COMPILED_WORDS = "exact, optimal, target:T and win"
KINDS = {"optimal": 0, "exact": 1, "win": 2}  # the seat kinds of cubilete.simulate.fastsim.loop (kernels.OPTIMAL ...)
TARGET_KIND = 3  # kernels.TARGET (not imported here: the kernels load numba)
CACHE_BYTES = 512 * 1024 * 1024  # turn keep values of every state kept when they fit (Generala: 60 MB)
CHUNK = 20_000  # deals per kernel call (the progress bar moves between calls)

__all__ = ["COMPILED_BOTS", "Batch", "CounterDice", "bot_columns", "kind_of", "play", "seed_key", "unsupported"]


def kind_of(level: str) -> tuple[int, int] | None:
    """(seat kind, target) of a bot level the compiled simulation plays, None for the others.

    >>> kind_of("optimal"), kind_of("target:200"), kind_of("greedy")
    ((0, 0), (3, 200), None)
    """
    if level in KINDS:
        return KINDS[level], 0
    family, _, number = level.partition(":")
    if family == "target" and number.isdigit() and int(number) >= 1:
        return TARGET_KIND, int(number)
    return None


def unsupported(rules: Rules, levels: Sequence[str], mode: Mode = "table") -> str | None:
    """Why the compiled simulation cannot play these bots on these rules (None if it can)."""
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.solver.space import check_solvable

    other = sorted({lv for lv in levels if kind_of(lv) is None})
    if other:
        return f"bots {', '.join(other)} are not table-driven (the compiled simulation plays {COMPILED_WORDS})"
    try:
        check_solvable(rules)
    except SolverUnsupportedError as exc:
        return str(exc)
    if rules.locked_holds:
        return f"{rules.name}: locked holds are not compiled"
    if rules.order_by_start and len(levels) > 1:
        return f"{rules.name}: a start throw that ranks every seat is not compiled"
    if any(lv == "win" or lv.startswith("target:") for lv in levels):  # cubilete.simulate.fastsim.win
        from cubilete.simulate.fastsim.win import win_unsupported

        why_win = win_unsupported(rules, levels)
        if why_win is not None:
            return why_win
    if "exact" in levels:
        if len(levels) != 2 or mode == "solo":
            return "the exact bot is compiled heads-up only (two bots at one table, or paired)"
        from cubilete.play.bots.exact import duel_for

        if duel_for(rules) is None:
            return f"{rules.name}: no two-player table for the exact bot"
    return None


@dataclass(frozen=True, eq=False)
class Batch:
    """Compiled games: ``scores[d, r, s]`` and ``won[d, r, s]`` for deal d, run r (a seating), seat s;
    ``starter[d, r]`` the seat that started and ``reason[d, r]`` how the game ended
    (0 points, 1 instant win, 2 tie-break, 3 shared); ``trace[d, r]`` the first moves when asked for."""

    rules: Rules
    mode: Mode
    levels: tuple[str, ...]
    key: int
    first: int
    seating: np.ndarray
    scores: np.ndarray
    won: np.ndarray
    starter: np.ndarray
    reason: np.ndarray
    trace: np.ndarray


@dataclass(frozen=True, eq=False)
class _Prepared:
    T: KernelTables
    V: np.ndarray
    Kc: np.ndarray
    cached: bool
    P: Params
    X: tuple[DuelTables, Duel] | None = None


_PREPARED: dict[Rules, _Prepared] = {}
_LOCK = threading.Lock()


def _prepare(rules: Rules, duel: bool = False) -> _Prepared:
    """The solver's tables, the kernel's parameters and (if they fit) every state's keep values, once per
    process; with ``duel``, the exact bot's two-player table too."""
    with _LOCK:
        got = _PREPARED.get(rules)
        if got is None:
            got = _PREPARED[rules] = _build(rules)
        if duel and got.X is None:
            got = _PREPARED[rules] = _Prepared(got.T, got.V, got.Kc, got.cached, got.P, build_duel(rules, got.P))
        return got


def build_duel(rules: Rules, P: Params) -> tuple[DuelTables, Duel]:
    """The exact bot's table and its tie-break moves (as :func:`cubilete.duel.tiebreak.tiebreak_choices`)."""
    from cubilete.duel.solve import class_hands, n_tie_classes
    from cubilete.duel.tiebreak import round_worth
    from cubilete.play.bots.exact import duel_for
    from cubilete.simulate.fastsim import kernels as K
    from cubilete.solver.combinatorics import dice_tables
    from cubilete.turn.core import rethrows

    solution = duel_for(rules)
    if solution is None:
        raise ValueError(f"{rules.name}: no two-player table for the exact bot")
    T = solution.tables
    d = dice_tables(rules.dice)
    H = d.n_hands
    values = sorted({int(v) for v in P.tb_value.ravel()})
    joint = solution.joint
    if not np.array_equal(np.asarray(P.iw_slot), joint.iw_slot):  # tie classes: bit w is instant-win box w
        raise ValueError(f"{rules.name}: the instant-win boxes differ between the game loop and the table")
    n = n_tie_classes(joint)
    ties = np.asarray(solution.ties)
    # tb[first's class, second's class, against, throw, hand]: each final sheet's instant wins as the solve's
    tb = np.full((n, n, 2 + max(values), rules.throws + 1, H), -1, dtype=np.int64)
    for cf in range(n):
        for cs in range(n):
            first_wins, second_wins = class_hands(joint, cf), class_hands(joint, cs)
            for against in [None, *values]:
                S1, S23 = round_worth(rules, T, float(ties[cf, cs]), against, first_wins, second_wins)
                E = np.empty_like(S1)
                Ks = np.zeros((T.throws + 1, d.n_keeps, 1))
                rethrows(T, np.ascontiguousarray(S1), np.ascontiguousarray(S23), E, Ks, np.empty((d.n_keeps, 1)))
                a = 0 if against is None else 1 + against
                for t in range(1, rules.throws):
                    for h in range(H):
                        best, choice = float((S1 if t == 1 else S23)[h, 0]), -1  # stand first, then keeps
                        for k in P.sub_list[P.sub_ptr[h] : P.sub_ptr[h + 1]]:
                            if Ks[t + 1, k, 0] > best:
                                best, choice = float(Ks[t + 1, k, 0]), int(k)
                        tb[cf, cs, a, t, h] = choice
    widths = np.diff(solution.joint.row_off)
    return solution.duel_tables, K.Duel(solution.values, float(solution.tiebreak), int(widths.max()), tb)


def _no_duel() -> tuple[DuelTables, Duel]:
    """A placeholder of the right types when no seat plays the exact bot."""
    from cubilete.duel.kernels import DuelTables
    from cubilete.simulate.fastsim import kernels as K

    i1, i2, i3 = np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1, 1), np.int64)
    D = DuelTables(i1, i1, i1, i1, i1, i3, i3, i1, i1, i1, i1, i1, i1, i2, i1, np.zeros((2, 1)), i1, i1)
    return D, K.Duel(np.zeros(1), 0.5, 1, np.zeros((1, 1, 1, 1, 1), np.int64))


def _build(rules: Rules) -> _Prepared:
    from cubilete.simulate.fastsim import kernels as K
    from cubilete.solver.cache import shared_solution

    solution = shared_solution(rules)
    space = solution.space
    T = solution.tables
    V = solution.values
    cells = V.size * (rules.throws + 1) * space.dice.n_keeps
    cached = cells * 8 <= CACHE_BYTES
    Kc = np.zeros((V.size if cached else 1, rules.throws + 1, space.dice.n_keeps))
    if cached:
        K.fill_keep_cache(T, V, Kc)
    return _Prepared(T, V, Kc, cached, build_params(rules))


def build_params(rules: Rules) -> Params:
    """The kernel's :class:`~cubilete.simulate.fastsim.kernels.Params` for a rule set."""
    from cubilete.engine.game import tiebreak_value
    from cubilete.engine.rules import scoring
    from cubilete.play.bots.approx import tiebreak_hand_options
    from cubilete.simulate.fastsim import kernels as K
    from cubilete.solver import query
    from cubilete.solver.combinatorics import dice_tables

    n = rules.dice
    d = dice_tables(n)
    H, Kn = d.n_hands, d.n_keeps
    code_index = np.full(7**n, -1, dtype=np.int64)
    keep_len = np.zeros(Kn, dtype=np.int64)
    keep_faces = np.zeros((Kn, n), dtype=np.int64)
    for k, keep in enumerate(d.keeps):
        code = 0
        for f in keep:
            code = code * 7 + f
        code_index[code] = k
        keep_len[k] = len(keep)
        keep_faces[k, : len(keep)] = keep
    subs = [query.sub_keeps(d.remove, h, Kn) for h in range(H)]
    sub_ptr = np.zeros(H + 1, dtype=np.int64)
    sub_ptr[1:] = np.cumsum([len(s) for s in subs])
    sub_list = np.concatenate(subs).astype(np.int64) if subs else np.zeros(0, dtype=np.int64)
    hands = d.keeps[:H]
    boxes = [b for b in rules.boxes if b.instant_win]
    iw_slot = np.array([scoring.slot_of(rules, b.id, 0) for b in boxes], dtype=np.int64)
    iw_makes = np.array([[int(scoring.makes(b, h)) for h in hands] for b in boxes], dtype=np.int64).reshape(
        len(boxes), H
    )
    iw_after = np.array([int(b.win_after_scratch) for b in boxes], dtype=np.int64)
    tb_value = np.array([[tiebreak_value(rules, h, first) for h in hands] for first in (False, True)], dtype=np.int64)
    tb_choice = np.full((rules.throws + 1, H), -1, dtype=np.int64)
    for t in range(1, rules.throws):
        for h, hand in enumerate(hands):
            best = tiebreak_hand_options(rules, hand, t, rules.throws)[0]
            tb_choice[t, h] = -1 if best.kind == "stand" else d.index(best.keep)
    start = {Start.HIGHEST_DIE: 0, Start.LOWEST_SUM: 1, Start.SEAT_ORDER: 2}[rules.start]
    return K.Params(
        n, Kn, start, 1 if rules.direction is Direction.CLOCKWISE else -1, rules.turns, max(0, rules.upper_bonus),
        rules.tie_break is TieBreak.SHARED, code_index, sub_ptr, sub_list, keep_len, keep_faces,
        iw_slot, iw_makes, iw_after, tb_choice, tb_value,
    )  # fmt: skip


def seating_for(mode: Mode, bots: int) -> np.ndarray:
    """Runs x seats: the bot in each seat of each run of a deal (-1: no seat).

    >>> seating_for("paired", 2).tolist()
    [[0, 1], [1, 0]]
    >>> seating_for("solo", 2).tolist()
    [[0], [1]]
    """
    if mode == "paired":
        return np.array([[0, 1], [1, 0]], dtype=np.int64)
    if mode == "solo":
        return np.arange(bots, dtype=np.int64).reshape(bots, 1)
    return np.arange(bots, dtype=np.int64).reshape(1, bots)


def play(
    rules: Rules,
    levels: Sequence[str],
    seed: str | int,
    deals: int,
    mode: Mode = "table",
    first: int = 0,
    progress: Progress | None = None,
    threads: int | None = None,
    trace: int = 0,
    departures: np.ndarray | None = None,
) -> Batch:
    """Play deals ``first .. first + deals - 1`` compiled (check :func:`unsupported` first).

    ``threads``: numba threads (default: every core); ``trace``: keep the first moves of each game;
    ``departures`` (turns x (slots + 3), int64): adds the win seats' decisions and departures from the
    points choice by turn (see :func:`cubilete.simulate.fastsim.loop._play`).
    ``paired`` with more than two bots rotates the seats: run r puts bot b in seat (b + r) mod n.
    """
    import numba

    from cubilete.simulate.fastsim import loop

    why = unsupported(rules, levels, mode)
    if why is not None:
        raise ValueError(why)
    prep = _prepare(rules, "exact" in levels)
    D, duel = prep.X if "exact" in levels and prep.X is not None else _no_duel()
    Wf, Wt, most = _vector_tables(rules, levels)
    seen = [kind_of(level) for level in levels]
    kinds = np.array([k[0] for k in seen if k is not None], dtype=np.int64)
    goals = np.array([k[1] for k in seen if k is not None], dtype=np.int64)
    seating = rotated(len(levels)) if mode == "paired" else seating_for(mode, len(levels))
    R, S = seating.shape
    key = seed_key(seed)
    scores = np.zeros((deals, R, S), dtype=np.int64)
    won = np.zeros((deals, R, S), dtype=np.int8)
    info = np.zeros((deals, R, 2), dtype=np.int64)
    moves = np.zeros((deals, R, trace), dtype=np.int64)
    count = departures is not None
    dep = np.zeros((min(deals, CHUNK), rules.turns if count else 0, len(rules.slots) + 3), dtype=np.int64)
    before = numba.get_num_threads()
    if threads is not None:
        most_threads: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
        numba.set_num_threads(max(1, min(threads, most_threads)))
    try:
        for lo in range(0, deals, CHUNK):
            hi = min(deals, lo + CHUNK)
            loop.play_deals(
                prep.T, prep.V, prep.Kc, prep.cached, prep.P, D, duel, Wf, Wt, most, kinds, goals, np.uint64(key),
                first + lo, seating, scores[lo:hi], won[lo:hi], info[lo:hi], moves[lo:hi], dep[: hi - lo],
            )  # fmt: skip
            if departures is not None:
                departures += dep[: hi - lo].sum(axis=0)
                dep[:] = 0
            if progress is not None:
                progress(hi, deals)
    finally:
        numba.set_num_threads(before)
    return Batch(rules, mode, tuple(levels), key, first, seating, scores, won, info[:, :, 0], info[:, :, 1], moves)


def _vector_tables(rules: Rules, levels: Sequence[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """The win tables the win and target seats read (``follow``, ``target``, the most a turn adds), or
    placeholders of the same types."""
    wins = "win" in levels
    if not wins and not any(lv.startswith("target:") for lv in levels):
        return np.zeros((1, 1, 1, 1)), np.zeros((1, 1, 1, 1)), 0
    from cubilete.win.play import max_turn_points
    from cubilete.win.tables import vector_table

    target = vector_table(rules, "target")
    follow = vector_table(rules, "follow").table if wins else np.zeros((1, 1, 1, 1))
    return follow, target.table, max_turn_points(target)


def rotated(bots: int) -> np.ndarray:
    """Runs x seats for paired deals of any number of bots: run r seats bot b in seat (b + r) mod n
    (two bots: the two seatings of :func:`seating_for`).

    >>> rotated(3).tolist()
    [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    """
    seating = np.empty((bots, bots), dtype=np.int64)
    for r in range(bots):
        for b in range(bots):
            seating[r, (b + r) % bots] = b
    return seating


def bot_columns(batch: Batch, bot: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, won) of one bot over every game it played, deal by deal and run by run (the engine's order)."""
    runs, seats = np.nonzero(batch.seating == bot)
    scores = batch.scores[:, runs, seats].reshape(-1)
    won = batch.won[:, runs, seats].reshape(-1)
    return scores, won
