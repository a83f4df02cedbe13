"""Exact final-score distributions: they sum to 1, their moments are the solver's, and every option
of a decision has the distribution whose mean is the advisor's expected value."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import find_rules, scoring
from cubilete.solver.advisor import advise, sheet_state
from cubilete.solver.cache import load_or_solve
from cubilete.win.distribution import Distribution, distribution, option_distributions
from cubilete.win.tables import check_tables

FAST_PRESETS = ["generala", "generala-espanola", "bozo"]
SLOW_PRESETS = [
    "generala-apartada",
    "generala-sin-doble",
    "general",
    "general-12",
]


def check_moments(name: str) -> None:
    rules = find_rules(name)
    solution = load_or_solve(rules, moments=True)
    d = distribution(rules)
    assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert (d.pmf >= 0).all()
    assert d.mean == pytest.approx(solution.expected_score, abs=1e-9)
    assert solution.std_dev is not None
    assert d.sd == pytest.approx(solution.std_dev, abs=1e-6)


@pytest.mark.parametrize("name", FAST_PRESETS)
def test_mean_and_sd_are_the_solvers(name: str) -> None:
    check_moments(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW_PRESETS)
def test_mean_and_sd_are_the_solvers_on_more_presets(name: str) -> None:
    check_moments(name)


def test_from_a_position_points_so_far_are_included() -> None:
    rules = find_rules("generala")
    card = list(scoring.write(rules, [None] * len(rules.slots), rules.slot_index("generala"), 50))
    card[rules.slot_index("full")] = 0
    solution = load_or_solve(rules, moments=True)
    d = distribution(rules, card)
    mask, flags, upper = sheet_state(solution, card)
    assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.mean == pytest.approx(50 + float(solution.values[mask, flags, upper]), abs=1e-9)
    assert solution.second_moments is not None
    var = float(solution.second_moments[mask, flags, upper]) - float(solution.values[mask, flags, upper]) ** 2
    assert d.sd == pytest.approx(math.sqrt(var), abs=1e-6)
    assert d.offset >= 50  # nothing below the points already written


def test_a_finished_sheet_is_its_total() -> None:
    rules = find_rules("bozo")
    card = [5] * len(rules.slots)
    d = distribution(rules, card)
    assert d.pairs() == [(scoring.total(rules, card), 1.0)]


@pytest.mark.parametrize(
    ("card_text", "dice", "throw"),
    [
        ("", (1, 1, 3, 4, 5), 1),
        ("escalera=20,6=24", (6, 6, 2, 2, 5), 2),
        ("1=3,2=6,3=9,4=12,5=15,6=18", (4, 4, 4, 4, 1), 3),
    ],
)
def test_every_option_mean_is_the_advisors_expected_value(card_text: str, dice: tuple[int, ...], throw: int) -> None:
    from cubilete.engine.notation import parse_filled

    rules = find_rules("generala")
    card = parse_filled(card_text, rules)
    found = option_distributions(rules, card, dice, throw)
    options = advise(load_or_solve(rules), card, dice, throw)
    assert [o for o, _ in found] == options
    for option, d in found:
        assert d.pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert d.mean == pytest.approx(option.expected, abs=1e-9), option


def test_quantiles_and_tails_of_a_hand_made_distribution() -> None:
    d = Distribution("x", 10, np.array([0.25, 0.0, 0.5, 0.25]))  # 10: 1/4, 12: 1/2, 13: 1/4
    assert d.mean == pytest.approx(10 * 0.25 + 12 * 0.5 + 13 * 0.25)
    assert d.quantile(0.25) == 10
    assert d.quantile(0.5) == 12
    assert d.quantile(0.76) == 13
    assert d.at_least(12) == pytest.approx(0.75)
    assert d.at_least(9) == pytest.approx(1.0)
    assert d.at_least(14) == 0.0
    assert d.to_json()["pmf"] == [[10, 0.25], [12, 0.5], [13, 0.25]]


@pytest.mark.parametrize("name", ["yahtzee", "yatzy", "maxi-yatzy", "general-4-columns"])
def test_rules_too_large_are_refused_with_the_reason(name: str) -> None:
    with pytest.raises(SolverUnsupportedError, match=name):
        check_tables(find_rules(name))
