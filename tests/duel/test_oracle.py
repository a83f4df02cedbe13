"""The two-player solver against the exact joint expectimax (tests/duel/oracle.py) on reduced games:
every turn-start position the oracle reaches must have the solver's P(win), to 1e-12."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from tests.duel.oracle import JointOracle, tiebreak_first_wins
from tests.solver.test_oracle import DOBLE, TRIO, game, upper_box

from cubilete.duel.solve import DuelSolution, solve_duel
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Box, Kind, Rules, TieBreak

TOLERANCE = 1e-12

TRIO_IW = TRIO.replace(instant_win=True)
PAIR = Box("pair", "Pair", Kind.GROUPS, value=10, groups=(2,), first_throw_value=15, instant_win=True)
DOBLE_PAIR = Box("doble", "Doble", Kind.GROUPS, value=20, groups=(2,), requires="pair")
SUM = Box("sum", "Sum", Kind.CHANCE, value=0, points=scoring.Points.SUM)

# Generala-like: an instant-win trio with a doble that needs it (scratching the trio closes the doble).
MINI_GENERALA = game("duel-mini-generala", (upper_box(1), TRIO_IW, DOBLE), throws=2)
TWO_DICE = game("duel-2d", (upper_box(2), PAIR, DOBLE_PAIR), dice=2)
TWO_DICE_SHARED = TWO_DICE.replace(name="duel-2d-shared", tie_break=TieBreak.SHARED)
PAIR_10 = Box("pair", "Pair", Kind.GROUPS, value=10, groups=(2,))
UPPER_BONUS = game(
    "duel-upper-bonus", (upper_box(1), upper_box(2), PAIR_10), dice=2, throws=2, upper_bonus=5, upper_bonus_threshold=3
)
UPPER_SUM = game(
    "duel-upper-sum", (upper_box(1), upper_box(2), SUM), dice=2, throws=2, upper_bonus=5, upper_bonus_threshold=3
)

# An instant-win box nothing depends on: the solver adds a "holds points" flag for it.
LONE_PAIR = game("duel-lone-pair", (upper_box(1), upper_box(2), PAIR), dice=2, throws=2)

FAST = [
    pytest.param(TWO_DICE, id="2d-instant-pair-doble"),
    pytest.param(LONE_PAIR, id="2d-instant-pair-alone"),
    pytest.param(TWO_DICE_SHARED, id="2d-shared-ties"),
]
SLOW = [
    pytest.param(UPPER_BONUS, id="2d-upper-bonus", marks=pytest.mark.slow),
    pytest.param(MINI_GENERALA, id="3d-generala-like", marks=pytest.mark.slow),
    pytest.param(UPPER_SUM, id="2d-upper-bonus-sum", marks=pytest.mark.slow),
]


def sheet_of(sol: DuelSolution, card: tuple[int | None, ...]) -> int:
    """The solver's sheet number of a real card."""
    sp = sol.joint.space
    mask = sum(1 << j for j, v in enumerate(card) if v is not None)
    fl = sum(1 << int(sp.flag_bit[j]) for j, v in enumerate(card) if v and sp.flag_bit[j] >= 0)
    upper = sum(v or 0 for j, v in enumerate(card) if sp.is_upper[j])
    u = min(upper, sp.n_upper - 1) if sp.n_upper > 1 else 0
    return int(sol.joint.sheet_id[mask, fl, u])


def check_agreement(rules: Rules) -> int:
    """Compare every position; returns how many were compared."""
    oracle = JointOracle(rules)
    start = oracle.start()
    sol = solve_duel(rules)
    assert abs(sol.tiebreak - float(oracle.tie)) < TOLERANCE
    assert abs(sol.first_player_wins - float(start)) < TOLERANCE
    for (cards, _turns, extras, me), exact in oracle.values.items():
        totals = [scoring.total(rules, c, x) for c, x in zip(cards, extras, strict=True)]
        lead = totals[me] - totals[1 - me]
        got = sol.win_probability(me == 0, sheet_of(sol, cards[me]), sheet_of(sol, cards[1 - me]), lead)
        want = float(exact) if me == 0 else 1.0 - float(exact)
        assert abs(got - want) < TOLERANCE, (cards, extras, me, got, want)
    return len(oracle.values)


@pytest.mark.parametrize("rules", FAST + SLOW)
def test_solver_agrees_with_oracle_everywhere(rules: Rules) -> None:
    assert check_agreement(rules) > 10


def test_tiebreak_with_one_die_one_throw_is_a_fair_coin_after_ties() -> None:
    # one die, one throw, a box paying the face: each round the first wins with 15/36 and ties with 6/36,
    # so W = 15/36 + 6/36 W = 15/30 = 1/2.
    rules = game("one-die", (upper_box(1), SUM), dice=1, throws=1)
    assert tiebreak_first_wins(rules) == Fraction(1, 2)


def test_second_player_answers_a_known_hand() -> None:
    # with two throws the second player sees the first's hand and can chase it: the first player is behind
    rules = game("one-die-2", (upper_box(1), SUM), dice=1, throws=2)
    assert tiebreak_first_wins(rules) < Fraction(1, 2)


def test_values_are_probabilities() -> None:
    sol = solve_duel(TWO_DICE)
    assert np.all(sol.values >= -1e-12) and np.all(sol.values <= 1 + 1e-12)
