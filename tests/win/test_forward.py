"""The forward pass (no table): the same distributions as the ``follow`` table, bit for bit up to
rounding, from every reachable state of reduced games and from Generala positions; the solver's
mean and SD on Yahtzee and Yatzy (slow: their solves take minutes here)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tests.solver.test_oracle import (
    GENERALA_LIKE,
    GENERALA_SMALL,
    OPEN_DOBLE,
    SIXES_ONE_DIE,
    STRAIGHT_GAME,
    YAHTZEE_SMALL,
    YAHTZEE_TWO_DICE,
)

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.notation import parse_filled
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Joker, Rules
from cubilete.solver import solve
from cubilete.solver.advisor import sheet_state
from cubilete.solver.cache import load_or_solve
from cubilete.win.distribution import distribution, forward_distribution, pmf_of
from cubilete.win.forward import points_to_come, windows
from cubilete.win.tables import build_table, tables_fit

TOLERANCE = 1e-12


def same(a: np.ndarray, b: np.ndarray) -> float:
    """Largest difference between two pmfs (the shorter padded with zeros)."""
    n = max(a.size, b.size)
    return float(np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))))


REDUCED = [
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FORCED), id="yahtzee-2d-joker-forced-upper-and-extra-bonus"),
    pytest.param(YAHTZEE_TWO_DICE.replace(joker=Joker.FREE), id="yahtzee-2d-joker-free"),
    pytest.param(YAHTZEE_SMALL.replace(joker=Joker.ORIGINAL), id="yahtzee-3d-joker-original"),
    pytest.param(OPEN_DOBLE, id="doble-2d-not-closed-by-scratch"),
    pytest.param(GENERALA_LIKE, id="generala-3d-servida-doble-closed-by-scratch"),
    pytest.param(GENERALA_SMALL.replace(throws=2), id="generala-3d-2-throws"),
    pytest.param(STRAIGHT_GAME.replace(rounds=2), id="straights-3d-2-rounds-of-3"),
]


@pytest.mark.parametrize("rules", REDUCED)
def test_forward_equals_the_follow_table_from_every_state(rules: Rules) -> None:
    solution = solve(rules)
    table = build_table(solution, "follow").table
    checked = 0
    wrong = []
    space = solution.space
    for mask in range(1 << space.n_slots):
        for fl in range(1 << space.n_flags):
            for u in range(space.n_upper):
                if table[mask, fl, u, 0] < 0.5:  # never computed: not a state of the game
                    continue
                lo, hi = windows(space, mask, fl, u)
                if hi[mask, fl, u] < lo[mask, fl, u]:
                    continue  # flags of boxes still open, or an upper total the closed boxes cannot make
                got = points_to_come(solution, mask, fl, u)
                assert got.sum() == pytest.approx(1.0, abs=TOLERANCE)
                diff = same(got, pmf_of(table[mask, fl, u]))
                checked += 1
                if diff > TOLERANCE:
                    wrong.append(f"state {(mask, fl, u)}: {diff}")
    assert checked >= 5
    assert not wrong, "\n".join(wrong[:10])


def test_one_die_sixes_by_hand() -> None:
    """One die, a box of sixes, two throws: a six (6 points) with 1 - (5/6)^2 = 11/36, else 0."""
    pmf = points_to_come(solve(SIXES_ONE_DIE), 0, 0, 0)
    assert pmf[6] == pytest.approx(11 / 36, abs=1e-15)
    assert pmf[0] == pytest.approx(25 / 36, abs=1e-15)
    assert pmf[1:6].sum() == 0.0


@pytest.mark.parametrize(
    "card_text", ["", "generala=50,full=0", "1=3,2=6,3=0,escalera=25,poker=40", "doble=0,generala=0,6=30"]
)
def test_forward_equals_the_table_on_generala_positions(card_text: str) -> None:
    rules = find_rules("generala")
    card = parse_filled(card_text, rules)
    by_table = distribution(rules, card)
    by_forward = forward_distribution(rules, card)
    start = min(by_forward.offset, by_table.offset)  # the table's differences of survivals round tiny masses
    forward = np.pad(by_forward.pmf, (by_forward.offset - start, 0))
    table = np.pad(by_table.pmf, (by_table.offset - start, 0))
    assert same(forward, table) <= TOLERANCE
    assert by_forward.offset >= scoring.total(rules, card)
    assert by_forward.pmf.sum() == pytest.approx(1.0, abs=TOLERANCE)


def test_a_finished_sheet_is_its_total() -> None:
    rules = find_rules("yatzy")
    card = [0] * len(rules.slots)
    card[0] = 3
    d = forward_distribution(rules, card)  # no solve needed: nothing is left to play
    assert d.pairs() == [(3, 1.0)]


def test_big_presets_take_the_forward_pass_and_the_rest_the_table() -> None:
    assert not tables_fit(find_rules("yatzy"))
    assert not tables_fit(find_rules("yahtzee"))
    assert tables_fit(find_rules("generala"))
    with pytest.raises(SolverUnsupportedError, match="maxi-yatzy"):
        tables_fit(find_rules("maxi-yatzy"))


def test_locked_holds_are_left_to_the_table() -> None:
    rules = GENERALA_SMALL.replace(locked_holds=True)
    with pytest.raises(SolverUnsupportedError, match="locked"):
        points_to_come(solve(rules), 0, 0, 0)


def check_solver_moments(name: str, card_text: str = "") -> None:
    rules = find_rules(name)
    solution = load_or_solve(rules, moments=True)
    card = parse_filled(card_text, rules)
    d = forward_distribution(rules, card)
    mask, flags, upper = sheet_state(solution, card)
    mean = float(solution.values[mask, flags, upper])
    assert solution.second_moments is not None
    sd = math.sqrt(float(solution.second_moments[mask, flags, upper]) - mean * mean)
    assert d.pmf.sum() == pytest.approx(1.0, abs=TOLERANCE)
    assert (d.pmf >= 0).all()
    assert d.mean == pytest.approx(scoring.total(rules, card) + mean + solution.space.const_bonus, abs=1e-9)
    assert d.sd == pytest.approx(sd, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "card_text"),
    [
        ("yatzy", ""),
        ("yatzy", "1=3,2=4,3=9,6=24,yatzy=50,chance=22"),  # upper 40: the bonus still open
        ("yahtzee", ""),
        ("yahtzee", "yahtzee=50,1=3,5=20,full-house=25"),  # extra bonuses and the joker possible
    ],
)
def test_yatzy_and_yahtzee_moments_are_the_solvers(name: str, card_text: str) -> None:
    check_solver_moments(name, card_text)
