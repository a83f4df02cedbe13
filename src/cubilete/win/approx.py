"""Approximate heads-up win play where the exact win tables do not fit (Yahtzee, Yatzy: 7-14 GB).

The bot's final score after each end of this turn is taken as normal from the solver's moments
(mean and variance of the points still to come under expected-score play, :mod:`cubilete.solver.moments`),
the opponent's likewise from its own sheet (exact once it is done); this turn is solved exactly for the
estimated chance (:mod:`cubilete.win.approx_kernels`) and the bot decides again at every throw. Later turns
are valued as if played for points, so the values are estimates: every surface labels them "approximate".
Heads-up only (two seats).
"""

from __future__ import annotations

import contextlib
import hashlib
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.advisor import advise, sheet_state
from cubilete.solver.combinatorics import FloatArray, IntArray
from cubilete.solver.solve import Solution
from cubilete.win import approx_kernels as K
from cubilete.win.distribution import done
from cubilete.win.play import WinOption, ranked_by_chance

APPROX_NOTE = (
    "win (approximate): values are estimated probabilities of winning heads-up: each final score taken as "
    "normal from the solver's mean and variance under expected-score play, this turn solved for that estimate, "
    "ties split evenly"
)


# Sheets with at most this many turns left form the tail: their points to come are exact, not normal.
TAIL_TURNS = 3


@dataclass(frozen=True, eq=False)
class Moments:
    """The solver's tables with the variance of the points still to come, ``D = W - V^2``, per state, and the
    tail: ``tail[idx[mask], flags, upper, t]`` = P(points still to come >= t) under expected-score play for
    the sheets with at most ``TAIL_TURNS`` turns left (``idx`` -1 elsewhere)."""

    solution: Solution
    variance: FloatArray
    idx: IntArray
    tail: FloatArray

    def share_table(self, card: Sequence[int | None], extra_bonuses: int = 0, turns_taken: int | None = None
                    ) -> FloatArray:  # fmt: skip
        """G[s] = P(Y < s) + P(Y = s) / 2 for the final score Y of a player (an opponent) with this sheet at
        the start of a turn: exact in the tail, else normal (:func:`cubilete.win.approx_kernels.share_table`)."""
        rules = self.solution.rules
        mean, var = sheet_moments(self, card, extra_bonuses, turns_taken)
        now = int(scoring.total(rules, card, extra_bonuses))
        mask, flags, upper = sheet_state(self.solution, card)
        G = np.empty(self.score_bound)
        K.share_table(self.idx, self.tail, mask, flags, upper, now, mean, var, done(rules, card, turns_taken), G)
        return G

    @property
    def score_bound(self) -> int:
        """The length of a share table: above every final score plus the tail's width."""
        return score_bound(self.solution, self.tail.shape[3])


def score_bound(solution: Solution, width: int) -> int:
    """An upper bound on a final score, plus ``width``: the length of the share tables."""
    T = solution.tables
    return int(T.rounds * (T.max_points + T.extra_bonus) + T.upper_bonus + width + 1)


def build_tail(solution: Solution, turns: int = TAIL_TURNS) -> tuple[IntArray, FloatArray]:
    """The tail's rows (``idx``, survival table) for the sheets with at most ``turns`` turns left."""
    from cubilete.solver.solve import layers

    T = solution.tables
    n_slots = T.req.shape[0]
    keep = [m for m in layers(n_slots) if m.size and bin(int(m[0])).count("1") >= T.rounds - turns]
    idx = np.full(1 << n_slots, -1, dtype=np.int64)
    rows = 0
    for masks in keep:
        idx[masks] = np.arange(rows, rows + masks.size)
        rows += masks.size
    width = turns * (T.max_points + T.extra_bonus) + T.upper_bonus + 1
    V = solution.values
    tail = np.zeros((rows, V.shape[1], V.shape[2], width))
    for masks in keep:
        K.tail_fill(T, masks, idx, tail, V)
    return idx, tail


@lru_cache(maxsize=4)
def moments_of(rules: Rules) -> Moments:
    """The solved tables of ``rules`` with both moments (solved with moments once if the cache lacks them).
    Raises SolverUnsupportedError where the rules cannot be solved, or (inside ``tables_only``) are not on disk."""
    from cubilete.solver.cache import load, load_or_solve, solving_here
    from cubilete.solver.space import check_solvable

    check_solvable(rules)
    solution = load(rules) if not solving_here() else load_or_solve(rules, moments=True)
    if solution is None or solution.second_moments is None:
        raise SolverUnsupportedError(f"{rules.name}: no moments tables on this server (yet)")
    variance = np.maximum(solution.second_moments - solution.values * solution.values, 0.0)
    return Moments(solution, variance, *tail_of(solution))


def tail_path(rules: Rules, turns: int) -> Path:
    """Where the tail of ``rules`` is cached (the name holds only a hash of the rules and the depth)."""
    from cubilete.engine.rules.codec import rules_hash
    from cubilete.solver.cache import cache_dir

    key = hashlib.sha256(f"approx-tail1:{turns}:{rules_hash(rules)}".encode()).hexdigest()[:24]
    return cache_dir() / f"approx-tail-{key}.npz"


def tail_of(solution: Solution, turns: int = TAIL_TURNS) -> tuple[IntArray, FloatArray]:
    """:func:`build_tail`, from the cache when there (a Yatzy tail takes about a minute of CPU, Yahtzee's a few;
    saved where the cache can be written). Inside ``tables_only`` (a server answering a request) it is never
    built: without the cached tail every sheet is valued by the normal (no rows)."""
    from cubilete.solver.cache import solving_here

    path = tail_path(solution.rules, turns)
    T = solution.tables
    try:
        with np.load(path, allow_pickle=False) as data:
            idx, tail = data["idx"], data["tail"]
        if idx.shape == (1 << T.req.shape[0],) and tail.shape[1:3] == solution.values.shape[1:]:
            return idx, tail
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        pass
    if not solving_here():  # minutes of CPU: never on a request's behalf
        return np.full(1 << T.req.shape[0], -1, dtype=np.int64), np.zeros((0, *solution.values.shape[1:], 1))
    idx, tail = build_tail(solution, turns)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez(tmp, idx=idx, tail=tail)
        tmp.replace(path)
    return idx, tail


def heads_up_check(game: Game) -> None:
    """Raise SolverUnsupportedError unless the game has exactly two seats (the approximation is heads-up)."""
    n = len(game.state.seats)
    if n != 2:
        raise SolverUnsupportedError(f"approximate win play is heads-up only (two players), not {n}")


def sheet_moments(m: Moments, card: Sequence[int | None], extra_bonuses: int = 0, turns_taken: int | None = None
                  ) -> tuple[float, float]:  # fmt: skip
    """(mean, variance) of the final score from the start of a turn with this sheet, under expected-score play."""
    rules = m.solution.rules
    now = float(scoring.total(rules, card, extra_bonuses))
    if done(rules, card, turns_taken):
        return now, 0.0
    mask, flags, upper = sheet_state(m.solution, card)
    return now + float(m.solution.values[mask, flags, upper]), float(m.variance[mask, flags, upper])


def approx_win_options(
    rules: Rules,
    card: Sequence[int | None],
    hand: Sequence[int],
    throw: int,
    opponent: tuple[float, float],
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
    opponent_shares: FloatArray | None = None,
) -> list[WinOption]:
    """Every option of a decision with its estimated chance of beating one opponent whose final score has
    ``opponent`` = (mean, variance), best first (equal chances: more points first). ``opponent_shares``: its
    :meth:`Moments.share_table` (exact in the tail); without it, the normal of ``opponent``."""
    m = moments_of(rules)
    solution = m.solution
    options = advise(solution, card, hand, throw, extra_bonuses, held)
    mask, flags, upper = sheet_state(solution, card)
    so_far = int(scoring.total(rules, card, extra_bonuses))
    lead = so_far - opponent[0]
    G = opponent_shares
    if G is None:
        G = np.empty(m.score_bound)
        no_tail = np.full(1, -1, dtype=np.int64)
        finished = opponent[1] == 0.0  # a point mass at its (integer) score
        K.share_table(no_tail, m.tail, 0, 0, 0, round(opponent[0]), opponent[0], opponent[1], finished, G)
    tail = (so_far, m.idx, m.tail, G)
    T = solution.tables
    d = solution.space.dice
    keep_value: dict[tuple[int, ...], float] = {}
    if any(o.kind == "keep" for o in options):
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
        M = np.empty((d.n_keeps, 1))
        K.approx_turn(T, solution.values, m.variance, mask, flags, upper, lead, opponent[1], *tail, S1, S23, E, Ks, M)
        for o in options:
            if o.kind == "keep":
                keep_value[o.keep] = float(Ks[throw + 1, d.index(o.keep), 0])
    shares = np.empty(len(rules.slots))
    h = d.index(tuple(sorted(hand)))
    first = 1 if throw == 1 else 0
    K.approx_slot_shares(
        T, solution.values, m.variance, mask, flags, upper, lead, opponent[1], *tail, h, first, shares
    )
    pairs = [
        (o, keep_value[o.keep] if o.kind == "keep" else float(shares[rules.slot_index(o.slot or "")]))
        for o in options
    ]  # fmt: skip
    return ranked_by_chance([(o, min(1.0, max(0.0, w))) for o, w in pairs])


def _opponent(game: Game, m: Moments) -> tuple[float, float]:
    st = game.state
    rival = st.seats[1 - st.current]
    return sheet_moments(m, rival.card, rival.extra_bonuses, rival.turns_taken)


def _opponent_shares(game: Game, m: Moments) -> FloatArray:
    st = game.state
    rival = st.seats[1 - st.current]
    return m.share_table(rival.card, rival.extra_bonuses, rival.turns_taken)


def game_approx_win_options(game: Game) -> list[WinOption]:
    """:func:`approx_win_options` for the decision at hand in a heads-up game (dice thrown, normal play),
    instant wins by their per-turn chance. Raises SolverUnsupportedError off heads-up or without tables."""
    from cubilete.win.odds import held_faces, instant_of_game

    heads_up_check(game)
    m = moments_of(game.rules)
    st = game.state
    seat = game.seat()
    ranked = approx_win_options(
        game.rules, seat.card, st.turn.dice, st.turn.throws, _opponent(game, m), seat.extra_bonuses, held_faces(game),
        _opponent_shares(game, m),
    )
    won, alive = instant_of_game(game)
    if won[st.current] == 0.0 and alive == 1.0:
        return ranked
    return ranked_by_chance([(w.option, won[st.current] + alive * w.win) for w in ranked])


def approx_turn_start_win(game: Game) -> float:
    """The player to move's estimated chance before the first throw of a turn, this turn played for it
    (so that after the first throw the best option's chance averages back to this)."""
    from cubilete.win.odds import instant_of_game

    heads_up_check(game)
    m = moments_of(game.rules)
    rules, st = game.rules, game.state
    seat = game.seat()
    solution = m.solution
    mean, var = _opponent(game, m)
    so_far = int(scoring.total(rules, seat.card, seat.extra_bonuses))
    lead = so_far - mean
    G = _opponent_shares(game, m)
    mask, flags, upper = sheet_state(solution, seat.card)
    d = solution.space.dice
    S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
    Ks = np.zeros((rules.throws + 1, d.n_keeps, 1))
    M = np.empty((d.n_keeps, 1))
    K.approx_turn(
        solution.tables, solution.values, m.variance, mask, flags, upper, lead, var, so_far, m.idx, m.tail, G,
        S1, S23, E, Ks, M,
    )  # fmt: skip
    share = float(solution.tables.first_roll @ E[:, 0])
    won, alive = instant_of_game(game)
    return won[st.current] + alive * min(1.0, max(0.0, share))
