"""Maxi Yatzy with saved throws (cubilete.solver.maxi.saved): the capped game's lower bound and the
over-estimated upper bound against an oracle with uncapped saved throws, on reduced 6-dice rule sets."""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from tests.solver.saved_oracle import SavedOracle

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.solver.maxi.layered import reachable_states, solve_layered
from cubilete.solver.maxi.saved import (
    SOME_PRICES,
    check_saved,
    estimate_saved,
    load_saved,
    partial_saved,
    saved_bytes,
    solve_saved,
    useful_cap,
)
from cubilete.solver.maxi.saved_kernels import sheet_bounds

MAXI = find_rules("maxi-yatzy")
SMALL_BONUS = {"upper_bonus_threshold": 6, "upper_bonus": 10}


def reduced(name: str, keep: tuple[str, ...], **changes: object) -> Rules:
    """Maxi Yatzy WITH saved throws, with only the boxes ``keep``."""
    rules = MAXI
    for box in MAXI.box_ids:
        if box not in keep:
            rules = rules.without_box(box)
    return rules.replace(name=name, **changes)


# boxes with few possible scores, so the oracle's real scorecards stay few
THREE = reduced("saved-3", ("2", "full-straight", "maxi-yatzy"), **SMALL_BONUS)
TWO_THROWS = reduced("saved-2t", ("1", "2", "large-straight", "maxi-yatzy"), throws=2, **SMALL_BONUS)


@cache
def oracle(rules: Rules) -> SavedOracle:
    o = SavedOracle(rules)
    o.expected_score()
    return o


def sheet(rules: Rules, card: tuple[int | None, ...]) -> tuple[int, int]:
    mask = sum(1 << i for i, v in enumerate(card) if v is not None)
    upper = sum(v or 0 for i, v in enumerate(card) if rules.slot_box(i).is_upper)
    return mask, min(upper, rules.upper_bonus_threshold)


@pytest.mark.parametrize(
    "rules", [pytest.param(THREE, id="three-throws"), pytest.param(TWO_THROWS, id="two-throws", marks=pytest.mark.slow)]
)
def test_the_bounds_bracket_the_uncapped_optimum(rules: Rules, tmp_path: Path) -> None:
    o = oracle(rules)
    exact = o.expected_score()
    full = useful_cap(rules)
    assert full == (rules.throws - 1) * (len(rules.slots) - 1)
    assert max(saved for c, t, saved in o.values if not o.finished(c, t)) == full  # the largest bank is reached
    lowers, uppers = [], []
    for cap in range(full + 1):
        lo = solve_saved(rules, cap, "lower", tmp_path / f"lo{cap}", dtype=np.float64)
        up = solve_saved(rules, cap, "upper", tmp_path / f"up{cap}", dtype=np.float64)
        assert lo is not None and up is not None
        assert lo.expected_score <= exact + 1e-9 <= up.expected_score + 2e-9
        if cap in (0, full - 1):  # the priced games can only tighten the upper bound, never cross the optimum
            priced = solve_saved(rules, cap, "upper", tmp_path / f"pr{cap}", dtype=np.float64, prices=SOME_PRICES)
            assert priced is not None
            assert exact - 1e-9 <= priced.expected_score <= up.expected_score + 1e-9
        lowers.append(lo.expected_score)
        uppers.append(up.expected_score)
    assert lowers[0] < exact < uppers[0]  # a cap of 0 loses something here
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(lowers))  # more throws kept never hurt
    assert lowers[-1] == pytest.approx(exact, abs=1e-9) and uppers[-1] == pytest.approx(exact, abs=1e-9)
    # at the useful cap, every turn-start state the oracle visited has its value in the table
    table = solve_saved(rules, full, "lower", tmp_path / f"lo{full}", dtype=np.float64)
    assert table is not None
    for (card, turns, saved), value in o.values.items():
        if o.finished(card, turns):
            continue
        mask, upper = sheet(rules, card)
        assert float(table.values[mask, saved, upper]) == pytest.approx(value, abs=1e-9), (card, saved)


def test_cap_zero_is_the_game_without_saved_throws(tmp_path: Path) -> None:
    lo = solve_saved(THREE, 0, "lower", tmp_path / "lo", dtype=np.float64)
    plain = solve_layered(THREE.replace(carry_over_throws=False), tmp_path / "plain", dtype=np.float64)
    assert lo is not None and plain is not None
    assert np.abs(lo.values[:, 0, :] - plain.values).max() <= 1e-9


def test_the_over_estimates_hold_on_the_oracle() -> None:
    # the two over-estimates of docs/generated/OPTIMAL.md, checked on every state of the uncapped game:
    # V(s, b) <= every open box at its maximum (+ the bonus if reachable), V(s, b+1) - V(s, b) <= delta(s)
    rules = THREE
    o = oracle(rules)
    t_pts = [[0, 2, 4, 6, 8, 10, 12], [21], [100]]  # the boxes' possible scores: 2s, full straight, maxi
    maxpts = np.array([max(p) for p in t_pts], dtype=np.int64)
    is_upper = np.array([1, 0, 0], dtype=np.int64)
    thr, bonus = rules.upper_bonus_threshold, rules.upper_bonus
    checked = 0
    for (card, turns, saved), value in o.values.items():
        mask, upper = sheet(rules, card)
        total, up_rem, d0, du, turns_left = sheet_bounds(mask, maxpts, is_upper, rules.turns)
        assert turns_left == len(rules.slots) - turns
        bonus_open = upper < thr <= upper + up_rem
        assert value <= total + bonus * bonus_open + 1e-9
        more = o.values.get((card, turns, saved + 1))
        if more is not None:
            delta = max(d0, du + bonus) if bonus_open else d0
            assert value - 1e-9 <= more <= value + delta + 1e-9
            checked += 1
    assert checked > 20


def test_float32_tables_round_each_bound_outwards(tmp_path: Path) -> None:
    for bound in ("lower", "upper"):
        exact = solve_saved(THREE, 2, bound, tmp_path / f"{bound}64", dtype=np.float64)
        stored = solve_saved(THREE, 2, bound, tmp_path / f"{bound}32")
        assert exact is not None and stored is not None and stored.values.dtype == np.float32
        diff = stored.values.astype(np.float64) - exact.values
        assert np.abs(diff).max() <= 1e-3  # within float32's accuracy at these values
        assert (diff <= 0).all() if bound == "lower" else (diff >= 0).all()


def test_an_interrupted_run_resumes_to_the_same_table(tmp_path: Path) -> None:
    p = (1.0, 4.0)
    whole = solve_saved(THREE, 2, "upper", tmp_path / "whole", block=1, prices=p)
    assert whole is not None
    assert solve_saved(THREE, 2, "upper", tmp_path / "cut", block=1, stop_after=3, prices=p) is None
    assert load_saved(THREE, 2, "upper", tmp_path / "cut", prices=p) is None
    assert partial_saved(THREE, 2, "upper", tmp_path / "cut", prices=p) == pytest.approx(3 / 8)
    again = solve_saved(THREE, 2, "upper", tmp_path / "cut", block=1, prices=p)
    assert again is not None and again.sha256 == whole.sha256
    assert np.array_equal(again.values, whole.values)
    loaded = load_saved(THREE, 2, "upper", tmp_path / "cut", prices=p)
    assert loaded is not None and loaded.expected_score == whole.expected_score
    assert load_saved(THREE, 2, "upper", tmp_path / "cut") is None  # other prices: another table


def test_what_the_saved_solver_refuses() -> None:
    with pytest.raises(SolverUnsupportedError, match="no saved throws"):
        check_saved(find_rules("maxi-yatzy-no-saved"), 3)
    with pytest.raises(SolverUnsupportedError, match="0 or more"):
        check_saved(MAXI, -1)
    with pytest.raises(SolverUnsupportedError, match="larger than"):
        check_saved(MAXI, useful_cap(MAXI) + 20)
    check_saved(MAXI, useful_cap(MAXI))  # the exact game fits in 16 GB of float32
    assert useful_cap(MAXI) == 38
    assert saved_bytes(MAXI, 10) == (1 << 20) * 11 * 85 * 4


def test_the_estimate_counts_every_bank() -> None:
    cost = estimate_saved(THREE, 2, "lower", sample=4)
    assert cost.cap == 2 and cost.threads >= 1 and cost.seconds >= 0.0
    assert cost.disk_bytes == saved_bytes(THREE, 2) == 8 * 3 * 7 * 4  # 2^3 sheets x 3 banks x 7 upper totals
    assert cost.states == 3 * reachable_states(THREE.replace(carry_over_throws=False))
    assert "cap 2" in cost.describe()
