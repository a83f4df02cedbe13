"""Target tables one target at a time (win/targets.py, for rules whose full table does not fit):
the same probabilities as the full ``target`` table, on reduced games and on Generala."""

from __future__ import annotations

import numpy as np
import pytest
from tests.solver.test_oracle import GENERALA_LIKE, GENERALA_SMALL, OPEN_DOBLE, STRAIGHT_GAME, YAHTZEE_TWO_DICE

from cubilete.engine.notation import parse_filled
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Joker, Rules
from cubilete.solver import solve
from cubilete.solver.advisor import sheet_state
from cubilete.solver.cache import shared_solution
from cubilete.win.play import ragged_target_options, target_options
from cubilete.win.tables import build_table, vector_table
from cubilete.win.targets import build_target_table

TOLERANCE = 1e-12


def compare(table: np.ndarray, rules: Rules, target: int, card_text: str = "") -> int:
    """Every stored probability of the table rooted at the card against the full table; how many."""
    solution = shared_solution(rules) if rules.name in ("generala",) else solve(rules)
    card = parse_filled(card_text, rules)
    root = sheet_state(solution, card)
    so_far = scoring.total(rules, card)
    tt = build_target_table(solution, target, root, so_far)
    space = solution.space
    n = 0
    for mask in range(1 << space.n_slots):
        for fl in range(1 << space.n_flags):
            for u in range(space.n_upper):
                s = (mask * (1 << space.n_flags) + fl) * space.n_upper + u
                a, b = int(tt.nlo[s]), int(tt.nhi[s])
                if b < a:
                    continue
                got = tt.pool[tt.off[s] : tt.off[s] + b - a + 1]
                want = np.pad(table[mask, fl, u, a : b + 1], (0, max(0, b + 1 - max(a, table.shape[3]))))
                assert np.max(np.abs(got - want)) <= TOLERANCE, (mask, fl, u)
                assert tt.value(mask, fl, u, b) == got[-1]
                n += b - a + 1
    return n


REDUCED = [
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FORCED), id="yahtzee-2d-joker-forced"),
    pytest.param(OPEN_DOBLE, id="doble-2d-open"),
    pytest.param(GENERALA_LIKE, id="generala-3d-4-boxes"),
    pytest.param(GENERALA_SMALL.replace(locked_holds=True), id="generala-3d-locked-holds"),
    pytest.param(STRAIGHT_GAME.replace(rounds=2), id="straights-2-rounds-of-3"),
]


@pytest.mark.parametrize("rules", REDUCED)
def test_every_target_of_reduced_games_equals_the_full_table(rules: Rules) -> None:
    table = build_table(solve(rules), "target")
    total = 0
    for target in range(1, table.width + 2, 2):
        total += compare(table.table, rules, target)
    assert total > 20


@pytest.mark.parametrize(
    ("target", "card_text"),
    [
        pytest.param(200, "", marks=pytest.mark.slow),
        (150, "generala=50,full=0,1=3"),
        (120, "6=24,poker=40"),
    ],
)
def test_generala_targets_equal_the_full_table(target: int, card_text: str) -> None:
    rules = find_rules("generala")
    assert compare(vector_table(rules, "target").table, rules, target, card_text) > 100


@pytest.mark.parametrize(
    ("card_text", "dice", "throw", "target"),
    [
        ("", (6, 6, 6, 1, 2), 1, 200),
        ("escalera=20,6=24", (6, 6, 2, 2, 5), 2, 180),
        ("generala=0", (3, 3, 3, 3, 1), 3, 90),
    ],
)
def test_option_probabilities_equal_the_tables(card_text: str, dice: tuple[int, ...], throw: int, target: int) -> None:
    rules = find_rules("generala")
    card = parse_filled(card_text, rules)
    by_table = target_options(rules, card, dice, throw, target)
    ragged = ragged_target_options(rules, card, dice, throw, target)
    assert [w.option for w in ragged] == [w.option for w in by_table]
    for a, b in zip(ragged, by_table, strict=True):
        assert a.win == pytest.approx(b.win, abs=TOLERANCE)
    assert 0.0 < by_table[0].win < 1.0
