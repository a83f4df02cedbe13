"""The layered solver (Maxi Yatzy without saved throws) against the general solver and the oracle,
on reduced 6-dice rule sets; checkpoints and resumption; advice on its tables."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from tests.solver.oracle import Oracle
from tests.tools import tool

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Box, Kind, Points, Rules
from cubilete.engine.rules.presets import all_presets
from cubilete.solver import check_solvable, solve
from cubilete.solver.advisor import advise
from cubilete.solver.maxi.layered import (
    check_layered,
    digest,
    estimate,
    layered_options,
    load_layered,
    needs_layered,
    reachable_states,
    sheet_of,
    solve_layered,
)

maxi_section = tool("optimal_maxi")  # docs/generated/OPTIMAL.md's layered section, generated in tools/
float32_bracket, layered_section = maxi_section.float32_bracket, maxi_section.layered_section
saved_throws_preset = maxi_section.saved_throws_preset
unsolved_reasons = tool("optimal_report").unsolved_reasons

MAXI = find_rules("maxi-yatzy-no-saved")


def reduced(name: str, keep: tuple[str, ...], **changes: object) -> Rules:
    """Maxi Yatzy without saved throws, with only the boxes ``keep`` (6 dice, 3 throws unless changed)."""
    rules = MAXI
    for box in MAXI.box_ids:
        if box not in keep:
            rules = rules.without_box(box)
    return rules.replace(name=name, **changes)


# an upper bonus small enough to matter in a few boxes; the 6-dice boxes of Maxi Yatzy
SMALL_BONUS = {"upper_bonus_threshold": 9, "upper_bonus": 25}
REDUCED = [
    pytest.param(reduced("maxi-a", ("1", "3", "villa", "maxi-yatzy"), **SMALL_BONUS), id="upper-bonus-villa-yatzy"),
    pytest.param(reduced("maxi-b", ("2", "three-pairs", "tower", "full-straight")), id="three-pairs-tower-straight"),
    pytest.param(reduced("maxi-c", ("6", "one-pair", "two-pairs", "chance", "five-kind")), id="pairs-chance-5kind"),
    pytest.param(reduced("maxi-d", ("4", "5", "small-straight"), throws=2, **SMALL_BONUS), id="two-throws-bonus"),
]


@pytest.mark.parametrize("rules", REDUCED)
def test_layered_kernels_match_the_general_solver(rules: Rules, tmp_path: Path) -> None:
    general = solve(rules)
    reach = general.space.reach.astype(bool)
    want = general.values[:, 0, :]
    exact = solve_layered(rules, tmp_path / "f64", dtype=np.float64)
    stored = solve_layered(rules, tmp_path / "f32", dtype=np.float32)
    assert exact is not None and stored is not None
    assert exact.values.dtype == np.float64 and stored.values.dtype == np.float32
    assert np.abs(exact.values[reach] - want[reach]).max() <= 1e-9
    assert np.abs(stored.values[reach].astype(np.float64) - want[reach]).max() <= 1e-5
    assert exact.expected_score == pytest.approx(general.expected_score, abs=1e-9)
    assert exact.states == int(reach.sum())  # the reachable states are the general solver's


def oracle_rules(throws: int, boxes: tuple[Box, ...]) -> Rules:
    """Six dice, an upper bonus of 10 at 6."""
    return Rules(name="maxi-oracle", title="maxi-oracle", dice=6, throws=throws, upper_bonus_threshold=6,
                 upper_bonus=10, boxes=boxes)  # fmt: skip


TWOS = Box("2", "Twos", Kind.UPPER, Points.PATTERN, face=2)
VILLA = Box("villa", "Villa", Kind.GROUPS, Points.PATTERN, groups=(3, 3))


def check_against_oracle(rules: Rules, tmp_path: Path) -> None:
    oracle = Oracle(rules)  # ordered dice in exact fractions: independent of both solvers
    expected = oracle.expected_score()
    solution = solve_layered(rules, tmp_path, dtype=np.float64)
    assert solution is not None
    assert solution.expected_score == pytest.approx(float(expected), abs=1e-9)
    assert len(oracle.values) > 5
    for (card, _turns), value in oracle.values.items():
        mask, upper = sheet_of(solution, card)
        assert float(solution.values[mask, upper]) == pytest.approx(float(value), abs=1e-9), card


def test_layered_matches_the_oracle_one_throw(tmp_path: Path) -> None:
    check_against_oracle(oracle_rules(1, (TWOS, VILLA)), tmp_path)


@pytest.mark.slow
def test_layered_matches_the_oracle_two_throws(tmp_path: Path) -> None:
    check_against_oracle(oracle_rules(2, (TWOS,)), tmp_path)


def test_one_box_sixes_by_hand(tmp_path: Path) -> None:
    # one throw of six dice into Sixes: 6 * 6 * 1/6 = 6 points
    rules = Rules(name="sixes6", title="sixes6", dice=6, throws=1, boxes=(Box("6", "Sixes", Kind.UPPER, face=6),))
    solution = solve_layered(rules, tmp_path, dtype=np.float64)
    assert solution is not None
    assert solution.expected_score == pytest.approx(6.0, abs=1e-12)
    assert Fraction(solution.expected_score).limit_denominator(100) == 6


def test_an_interrupted_run_resumes_to_the_same_table(tmp_path: Path) -> None:
    rules = reduced("maxi-resume", ("1", "2", "one-pair", "villa", "maxi-yatzy"), **SMALL_BONUS)
    whole = solve_layered(rules, tmp_path / "whole", block=3)
    assert whole is not None
    seen: list[tuple[int, int]] = []
    assert solve_layered(rules, tmp_path / "cut", block=3, stop_after=4) is None  # interrupted
    assert load_layered(rules, tmp_path / "cut") is None  # not finished: never loaded
    again = solve_layered(rules, tmp_path / "cut", block=3, progress=lambda d, n: seen.append((d, n)))
    assert again is not None
    # layers of 1, 5, 10, 10, 5, 1 sheets in blocks of 3: the first four blocks hold 1 + 3 + 2 + 3 sheets,
    # so the first block run again is the fifth (3 more sheets)
    assert seen[0] == (12, 32) and seen[-1] == (32, 32)
    assert again.sha256 == whole.sha256 == digest(whole.values)
    assert again.cpu_seconds > 0.0 and again.seconds > 0.0
    assert np.array_equal(again.values, whole.values)
    loaded = load_layered(rules, tmp_path / "cut")
    assert loaded is not None and loaded.sha256 == whole.sha256 and loaded.expected_score == whole.expected_score
    # a run that does not resume starts again from nothing (and gives the same table)
    fresh = solve_layered(rules, tmp_path / "cut", block=3, resume=False)
    assert fresh is not None and fresh.sha256 == whole.sha256


def test_options_match_the_general_advisor(tmp_path: Path) -> None:
    rules = REDUCED[0].values[0]
    assert isinstance(rules, Rules)
    general = solve(rules)
    layered = solve_layered(rules, tmp_path, dtype=np.float64)
    assert layered is not None
    situations = [
        ([None, None, None, None], (1, 1, 3, 3, 3, 6), 1),
        ([None, None, None, None], (3, 3, 3, 3, 3, 2), 2),
        ([3, None, 18, None], (1, 1, 1, 4, 4, 4), 2),
        ([None, 6, None, 0], (1, 1, 3, 3, 5, 5), 3),
        ([4, None, None, 100], (3, 3, 3, 1, 2, 6), 1),
    ]
    for card, dice, throw in situations:
        want = advise(general, card, dice, throw)
        got = layered_options(layered, card, dice, throw)
        assert [(o.kind, o.slot, o.keep) for o in got][:3] == [(o.kind, o.slot, o.keep) for o in want][:3]
        assert len(got) == len(want)
        by_key = {(o.kind, o.slot, o.keep): o.expected for o in want}
        for o in got:
            assert o.expected == pytest.approx(by_key[o.kind, o.slot, o.keep], abs=1e-9)


def test_maxi_without_saved_throws_is_routed_to_the_layered_solver() -> None:
    assert MAXI.dice == 6 and len(MAXI.slots) == 20 and not MAXI.carry_over_throws
    assert find_rules("maxi-no-saved") is MAXI
    with pytest.raises(SolverUnsupportedError):
        check_solvable(MAXI)  # too large for the general solver's in-memory table
    check_layered(MAXI)
    assert needs_layered(MAXI)
    assert not needs_layered(find_rules("yatzy"))  # the general solver takes it
    assert not needs_layered(find_rules("maxi-yatzy"))  # saved throws
    assert reachable_states(MAXI) == 57_507_840  # the count of reachable sheet states


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("maxi-yatzy", "no saved throws"),
        ("yahtzee", "jokers"),
        ("generala", "servida"),
        ("general-4-columns", "column"),
    ],
)
def test_what_the_layered_solver_refuses(name: str, reason: str) -> None:
    with pytest.raises(SolverUnsupportedError, match=reason):
        check_layered(find_rules(name))


def test_optimal_doc_lists_maxi_in_its_own_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # no table solved here: the recorded runs
    maxi_saved = find_rules("maxi-yatzy")
    assert unsolved_reasons([MAXI, maxi_saved]) == []  # both are in the layered section
    assert [name for name, _ in unsolved_reasons([maxi_saved])] == ["maxi-yatzy"]  # alone: too large in memory
    lines = layered_section([MAXI, find_rules("yatzy")])
    assert lines[0] == "## Solved layer by layer (float32 tables on disk)"
    text = "\n".join(lines)
    assert "- `maxi-yatzy-no-saved` (Maxi Yatzy" in text and "**394.5575**" in text
    assert "- `maxi-yatzy` (the same game with saved throws), solved exactly" in text
    # float32 below 1,024 steps by 2^-14; 20 boxes, one rounding down per layer
    assert f"[496.6329, {496.63287353515625 + 20 * 2**-14:.4f}]" in text
    assert "`776dc183d9a1a26175f02840157184889693507a3cc2429f27beb30194a5bc27`" in text
    assert layered_section([find_rules("yatzy")]) == []
    saved = saved_throws_preset(MAXI)
    assert saved is not None and saved.name == "maxi-yatzy"
    assert saved_throws_preset(find_rules("yatzy")) is None


def test_optimal_md_holds_the_generators_layered_section(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # the recorded runs, as on a machine without tables
    doc = (Path(__file__).parents[2] / "docs" / "generated" / "OPTIMAL.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Solved layer by layer") : doc.index("## Each preset")]
    assert section == "\n".join(layered_section(list(all_presets()))) + "\n"


def test_float32_bracket_is_one_step_below_the_ceiling_per_layer() -> None:
    assert float32_bracket(1) == 2.0**-14  # float32 has 24 significant bits: 512 <= x < 1024 steps by 2^-14
    assert float32_bracket(20) == 20 * 2.0**-14
    assert float32_bracket(3, ceiling=2.0) == 3 * 2.0**-23  # 1 <= x < 2 steps by 2^-23


def test_the_estimate_counts_the_table_before_solving() -> None:
    rules = REDUCED[0].values[0]
    assert isinstance(rules, Rules)
    cost = estimate(rules, sample=8)
    assert cost.sheets == 16 and cost.states == reachable_states(rules)
    assert cost.disk_bytes == 16 * 10 * 4  # float32, 2^4 sheets x 10 upper totals (threshold 9)
    assert cost.memory_bytes > cost.disk_bytes and cost.seconds >= 0.0 and cost.threads >= 1
    assert "16 sheets" in cost.describe()
    full = estimate(MAXI, sample=4)
    assert full.disk_bytes == (1 << 20) * 85 * 4 < 16 << 30  # 340 MB: far below the 16 GB allowed
