"""The target tables against a brute-force expectimax (tests/win/target_oracle.py) on reduced games:
every reachable turn-start state, every target."""

from __future__ import annotations

import numpy as np
import pytest
from tests.solver.test_oracle import (
    GENERALA_LIKE,
    GENERALA_SMALL,
    OPEN_DOBLE,
    STRAIGHT_GAME,
    YAHTZEE_SMALL,
    YAHTZEE_TWO_DICE,
    solver_state,
)
from tests.win.target_oracle import TargetOracle

from cubilete.engine.rules.model import Joker, Order, Rules
from cubilete.solver import solve
from cubilete.win.tables import build_table

TOLERANCE = 1e-12

FAST = [
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FORCED), id="yahtzee-2d-joker-forced-upper-bonus"),
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FREE), id="yahtzee-2d-joker-free"),
    pytest.param(OPEN_DOBLE, id="doble-2d-not-closed-by-scratch"),
    pytest.param(OPEN_DOBLE.replace(columns=(Order.FIRST_THROW,)), id="doble-2d-first-throw-column"),
    pytest.param(GENERALA_SMALL.replace(throws=2), id="generala-3d-servida-requires-2-throws"),
]
SLOW = [
    pytest.param(GENERALA_SMALL.replace(locked_holds=True), id="generala-3d-locked-holds"),
    pytest.param(YAHTZEE_SMALL.replace(joker=Joker.ORIGINAL), id="yahtzee-3d-joker-original"),
    pytest.param(STRAIGHT_GAME.replace(rounds=2, throws=2), id="straights-3d-2-rounds-of-3"),
    pytest.param(GENERALA_LIKE.replace(throws=2), id="generala-3d-4-boxes-2-throws"),
]


def check(rules: Rules) -> None:
    solution = solve(rules)
    table = build_table(solution, "target")
    oracle = TargetOracle(rules, table.width)
    start = oracle.turn_start(oracle.empty, 0)
    assert 0.0 < start[table.width // 3] < 1.0  # a target that is neither sure nor hopeless
    assert len(oracle.values) > 5
    wrong = []
    for (card, turns), vector in oracle.values.items():
        mask, flags, upper = solver_state(solution.space, card)
        got = table.table[mask, flags, upper]
        diff = float(np.max(np.abs(got - vector)))
        if diff > TOLERANCE:
            t = int(np.argmax(np.abs(got - vector)))
            wrong.append(f"card {card} after {turns} turns, target {t}: oracle {vector[t]!r}, table {got[t]!r}")
    assert not wrong, f"{len(wrong)} of {len(oracle.values)} states differ:\n" + "\n".join(wrong[:10])


@pytest.mark.parametrize("rules", FAST)
def test_target_table_matches_the_oracle(rules: Rules) -> None:
    check(rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", SLOW)
def test_target_table_matches_the_oracle_on_larger_games(rules: Rules) -> None:
    check(rules)


def test_one_die_sixes_target_by_hand() -> None:
    """One die, one box of sixes, two throws: P(at least 6) = 1 - (5/6)^2 = 11/36."""
    from tests.solver.test_oracle import SIXES_ONE_DIE

    table = build_table(solve(SIXES_ONE_DIE), "target")
    row = table.table[0, 0, 0]
    assert row[0] == pytest.approx(1.0, abs=1e-15)
    assert row[6] == pytest.approx(11 / 36, abs=1e-15)
    assert row[1] == pytest.approx(11 / 36, abs=1e-15)  # only a six scores
    assert row[7:].sum() == 0.0
