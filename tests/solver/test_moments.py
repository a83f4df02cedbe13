"""The one-pass solve with second moments: the same values as the values-only pass, and the
same second moments as the separate second pass it replaced (tests/solver/moments_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.solver.moments_reference import moments_layer

from cubilete.engine.rules import Rules, find_rules
from cubilete.solver.solve import layers, solve_space
from cubilete.solver.space import build_space
from cubilete.solver.tables import kernel_tables


def reduced(name: str, boxes: set[str]) -> Rules:
    rules = find_rules(name)
    return rules.replace(name=f"{name}-reduced", boxes=tuple(b for b in rules.boxes if b.id in boxes))


CASES = {
    # upper bonus, forced joker, extra Yahtzee bonus
    "yahtzee": reduced("yahtzee", {"1", "2", "3", "4", "5", "6", "yahtzee", "chance"}),
    # servida points, Doble's prerequisite, locked holds
    "generala-apartada": reduced("generala-apartada", {"1", "5", "6", "full", "generala", "doble"}),
    # fixed column order
    "generala-obligada": reduced("generala-obligada", {"1", "2", "escalera", "poker", "generala", "doble"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_pass_matches_the_two_passes(case: str) -> None:
    space = build_space(CASES[case])
    values_only = solve_space(space)
    both = solve_space(space, moments=True)
    assert both.second_moments is not None
    assert np.array_equal(both.values, values_only.values)  # bit for bit: the same kernel arithmetic
    second = np.zeros_like(values_only.values)
    tables = kernel_tables(space)
    for masks in layers(space.n_slots):
        if masks.size:
            moments_layer(tables, masks, values_only.values, second)
    np.testing.assert_allclose(both.second_moments, second, rtol=1e-12, atol=1e-9)
    assert both.std_dev is not None and both.std_dev > 0


def test_one_box_by_hand() -> None:
    # Only the sixes box, three throws, keep every six: the number of sixes N is the sum of
    # 5 independent dice that each become a six within three throws, p = 1 - (5/6)^3, so the
    # points 6N have mean 30p and variance 36 * 5 p (1 - p).
    rules = reduced("generala", {"6"})
    sol = solve_space(build_space(rules), moments=True)
    p = 1 - (5 / 6) ** 3
    assert sol.expected_score == pytest.approx(30 * p, abs=1e-12)
    assert sol.std_dev == pytest.approx((36 * 5 * p * (1 - p)) ** 0.5, abs=1e-12)
