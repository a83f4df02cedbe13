"""Every family's turn equals the solver's, bit for bit, on every reduced game of the oracle tests.

The reference is :func:`cubilete.solver.kernels.turn_values` at one upper total (``lo = u``, buffers one
wide): its best box per hand (S23, S1 with servida), its keep values Ks[t] for every throw t >= 2 and the
turn's value. Each other family computes the same turn its own way; where its algebra reduces to the mean,
its numbers must be these exactly (a copy that divides by 6.0 instead of multiplying by 1 / 6, or adds a
bonus in another order, fails here).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
from tests.solver.test_oracle import REDUCED_GAMES

from cubilete.engine.rules.model import Rules
from cubilete.envs._vector_kernels import _turn_start
from cubilete.simulate.fastsim.kernels import fill_keep_cache
from cubilete.solver import solve
from cubilete.solver.kernels import INT0, INT1, turn_values, upper_width
from cubilete.solver.moments import turn_values12
from cubilete.solver.query import best_scores_at, turn_keeps
from cubilete.solver.solve import Solution
from cubilete.solver.tables import KernelTables
from cubilete.win.kernels import vec_turn

F = np.ndarray


@dataclass
class Turn:
    """The solver's turn at one sheet and upper total (every buffer one upper total wide, squeezed)."""

    mask: int
    fl: int
    u: int
    S1: F  # (hands,) best box per hand on the first throw
    S23: F  # (hands,) on a later throw
    E: F  # (hands,) each first-throw hand's value
    Ks: F  # (throws + 1, keeps): keep k thrown for throw t (rows 2 .. throws)
    value: float


def reference(T: KernelTables, V: F, mask: int, fl: int, u: int) -> Turn:
    n_hands, n_keeps = T.first_roll.shape[0], T.add.shape[0]
    S1, S23, E = np.empty((n_hands, 1)), np.empty((n_hands, 1)), np.empty((n_hands, 1))
    Ks, M, out = np.zeros((T.throws + 1, n_keeps, 1)), np.empty((n_keeps, 1)), np.empty(1)
    turn_values(T, mask, fl, u, V, S1, S23, E, Ks, M, out)
    return Turn(mask, fl, u, S1[:, 0], S23[:, 0], E[:, 0], Ks[:, :, 0], float(out[0]))


def turn_starts(sol: Solution) -> Iterator[tuple[int, int, int]]:
    """Every reachable turn-start state (mask, flags, capped upper total) with a turn left."""
    T = sol.tables
    n_slots = T.req.shape[0]
    for mask in range(sol.values.shape[0]):
        closed = [j for j in range(n_slots) if (mask >> j) & 1]
        if len(closed) >= T.rounds:
            continue
        flag_ok = sum(1 << int(T.flag_bit[j]) for j in closed if T.flag_bit[j] >= 0)
        for fl in range(1 << T.n_flags):
            if fl & ~flag_ok:
                continue
            for u in range(sol.values.shape[2]):
                if T.reach[mask, u] == 1:
                    yield mask, fl, u


_solved: dict[str, Solution] = {}


def solved(rules: Rules) -> Solution:
    if rules.name + repr(rules) not in _solved:
        _solved[rules.name + repr(rules)] = solve(rules)
    return _solved[rules.name + repr(rules)]


def same(what: str, got: F, want: F, ref: Turn, wrong: list[str]) -> None:
    """Record a difference (exact: no tolerance)."""
    if not np.array_equal(got, want):
        diff = float(np.max(np.abs(np.asarray(got) - np.asarray(want))))
        wrong.append(f"{what} at sheet {(ref.mask, ref.fl, ref.u)}: differs by up to {diff!r}")


def check_all(rules: Rules, family: str) -> None:
    sol = solved(rules)
    T, V = sol.tables, sol.values
    throws, n_hands, n_keeps = T.throws, T.first_roll.shape[0], T.add.shape[0]
    keeps = slice(2, throws + 1)  # the rows every family fills
    wrong: list[str] = []
    states = list(turn_starts(sol))
    assert len(states) > 3  # the game really has sheets to compare
    if family == "fastsim":
        n_f, n_u = V.shape[1], V.shape[2]
        Kc = np.zeros((V.shape[0] * n_f * n_u, throws + 1, n_keeps))
        fill_keep_cache(T, V, Kc)
    if family == "moments":
        D = np.zeros_like(V)  # any variance table: the first moment never reads it
    for mask, fl, u in states:
        ref = reference(T, V, mask, fl, u)
        if family == "query":
            S = np.empty(n_hands)
            best_scores_at(T, mask, fl, V, INT0, u, S)
            same("best_scores_at (later throw)", S, ref.S23, ref, wrong)
            if T.servida:
                best_scores_at(T, mask, fl, V, INT1, u, S)
                same("best_scores_at (first throw)", S, ref.S1, ref, wrong)
            Ks = np.zeros((throws + 1, n_keeps))
            turn_keeps(T, mask, fl, u, V, Ks, 2)
            same("turn_keeps", Ks[keeps], ref.Ks[keeps], ref, wrong)
        elif family == "env":
            Ks = np.zeros((1, throws + 1, n_keeps))
            one = np.array([mask]), np.array([fl]), np.array([u])
            _turn_start(T, 0, *one, V, True, Ks)
            same("vector env keeps", Ks[0, keeps], ref.Ks[keeps], ref, wrong)
        elif family == "fastsim":
            s = (mask * V.shape[1] + fl) * V.shape[2] + u
            same("fastsim keep cache", Kc[s, keeps], ref.Ks[keeps], ref, wrong)
        elif family == "moments":
            width = upper_width(T, mask, V.shape[2])
            A, B, E = (np.empty((n_hands, 2 * width)) for _ in range(3))
            Ks, M, out = np.zeros((throws + 1, n_keeps, 2 * width)), np.empty((n_keeps, 2 * width)), np.empty(2 * width)
            turn_values12(T, mask, fl, V, D, A, B, E, Ks, M, out)
            same("moments: best box", B[:, u], ref.S23, ref, wrong)
            same("moments: hands", E[:, u], ref.E, ref, wrong)
            same("moments: keeps", Ks[keeps, :, u], ref.Ks[keeps], ref, wrong)
            same("moments: value", out[u : u + 1], np.array([ref.value]), ref, wrong)
        elif family == "win-follow":  # the expected points: the last column of follow mode's vectors
            W = np.zeros((*V.shape, 1))
            S1, S23, E = (np.empty((n_hands, 2)) for _ in range(3))
            Ks, M, out = np.zeros((throws + 1, n_keeps, 2)), np.empty((n_keeps, 2)), np.empty(2)
            vec_turn(T, mask, fl, u, W, V, True, INT0, S1, S23, E, Ks, M, out)
            same("win follow: best box", S23[:, 1], ref.S23, ref, wrong)
            same("win follow: keeps", Ks[keeps, :, 1], ref.Ks[keeps], ref, wrong)
            same("win follow: value", out[1:], np.array([ref.value]), ref, wrong)
    assert not wrong, f"{len(wrong)} differences, first ones:\n" + "\n".join(wrong[:8])


# Follow mode adds an upper bonus to the points before the value after (the solver adds it after), and
# win/forward.py mirrors that order: they differ by an ulp where a write pays the bonus. Left as it is
# (changing it changes the follow tables); strict, so the day it is aligned this test says so.
FOLLOW_ADDS_THE_BONUS_FIRST = {"b-yahtzee-2d-joker-forced", "b-yahtzee-2d-joker-free"}  # the games where it shows


@pytest.mark.parametrize("family", ["query", "env", "fastsim", "moments", "win-follow"])
@pytest.mark.parametrize("rules", REDUCED_GAMES)
def test_every_family_turns_as_the_solver(rules: Rules, family: str, request: pytest.FixtureRequest) -> None:
    if family == "win-follow" and request.node.callspec.id.startswith(tuple(FOLLOW_ADDS_THE_BONUS_FIRST)):
        request.applymarker(pytest.mark.xfail(strict=True, reason="follow mode: the upper bonus added first"))
    check_all(rules, family)
