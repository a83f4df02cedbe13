"""The reductions that make Generala's two-player table fit: rows cut to the leads their sheets can
show, the blocked kernel, the sliding buffer of levels, f32 tables, checkpoints (resuming a solve)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.duel.oracle import JointOracle
from tests.duel.test_oracle import LONE_PAIR, TWO_DICE, UPPER_BONUS, sheet_of

from cubilete.duel import cache
from cubilete.duel import solve as duel_solve
from cubilete.duel.solve import solve_joint
from cubilete.duel.space import MAX_WORK_BYTES, build_joint
from cubilete.engine.rules import find_rules, scoring
from cubilete.engine.rules.model import Rules
from cubilete.solver.tablestore import TableStore


class Stop(Exception):
    """Raised by a progress callback to stop a solve part-way."""


def stop_after(level: int) -> duel_solve.Progress:
    def progress(done: int, _total: int) -> None:
        if done == level:
            raise Stop

    return progress


@pytest.mark.parametrize("rules", [TWO_DICE, LONE_PAIR, UPPER_BONUS], ids=lambda r: r.name)
def test_every_total_a_game_reaches_is_within_the_sheet_bounds(rules: Rules) -> None:
    # P and Q bound a sheet's total so far; every row holds the leads its two sheets can show
    joint = build_joint(rules)
    oracle = JointOracle(rules)
    oracle.start()
    for cards, _turns, extras, me in oracle.values:
        sheets = [sheet_of_joint(joint, c) for c in cards]
        for card, extra, s in zip(cards, extras, sheets, strict=True):
            total = scoring.total(rules, card, extra)
            assert joint.sheet_Q[s] <= total <= joint.sheet_P[s], (card, total)
        s, o = sheets[me], sheets[1 - me]
        row = joint.row_of(me == 0, s, o)
        lead = scoring.total(rules, cards[me], extras[me]) - scoring.total(rules, cards[1 - me], extras[1 - me])
        lo, hi = int(joint.row_lo[row]), int(joint.row_lo[row] + joint.row_off[row + 1] - joint.row_off[row] - 1)
        window = (-(int(joint.sheet_R[s]) + 1), int(joint.sheet_R[o]) + 1)
        # a lead the row does not hold lies beyond the window's edge on the same side (it reads that edge)
        assert lo <= lead <= hi or (lead > hi >= window[1]) or (lead < lo <= window[0]), (cards, lead, lo, hi)


def sheet_of_joint(joint: object, card: tuple[int | None, ...]) -> int:
    class Sol:  # sheet_of only reads .joint
        pass

    sol = Sol()
    sol.joint = joint  # type: ignore[attr-defined]
    return sheet_of(sol, card)  # type: ignore[arg-type]


def test_rows_are_narrower_than_the_window() -> None:
    joint = build_joint(TWO_DICE)
    widths = np.diff(joint.row_off)
    full = joint.sheet_R[joint.row_s] + joint.sheet_R[joint.row_o] + 3
    assert np.all(widths >= 1) and np.all(widths <= full) and widths.sum() < full.sum()


@pytest.mark.parametrize("rules", [TWO_DICE, LONE_PAIR], ids=lambda r: r.name)
def test_blocked_kernel_is_the_reference_kernel_bit_for_bit(rules: Rules) -> None:
    # same sums in the same order per lead: not one bit differs
    joint = build_joint(rules)
    ref = solve_joint(joint, blocked=False)
    fast = solve_joint(joint, blocked=True)
    assert np.array_equal(ref.values, fast.values)
    assert ref.first_player_wins == fast.first_player_wins


@pytest.mark.parametrize("block", [8, 48, 96])
def test_any_block_width_gives_the_same_table(mini: Rules, block: int) -> None:
    joint = build_joint(mini)
    want = solve_joint(joint, blocked=False).values
    assert np.array_equal(solve_joint(joint, block=block).values, want)


def test_f32_table_keeps_the_f64_first_player_value(monkeypatch: pytest.MonkeyPatch) -> None:
    joint = build_joint(UPPER_BONUS)
    exact = solve_joint(joint)
    monkeypatch.setattr(duel_solve, "F64_CELLS", 10)  # every table above 10 values in f32
    small = solve_joint(joint)
    assert exact.values.dtype == np.float64 and small.values.dtype == np.float32
    assert small.first_player_wins == exact.first_player_wins  # computed in f64 from f64 levels
    assert np.max(np.abs(small.values - exact.values)) < 1e-7  # only the storage is rounded
    # and the f32 table still agrees with the exact game to 1e-6
    oracle = JointOracle(UPPER_BONUS)
    oracle.start()
    for (cards, _turns, extras, me), value in oracle.values.items():
        totals = [scoring.total(UPPER_BONUS, c, x) for c, x in zip(cards, extras, strict=True)]
        got = small.win_probability(me == 0, sheet_of(small, cards[me]), sheet_of(small, cards[1 - me]),
                                    totals[me] - totals[1 - me])  # fmt: skip
        want = float(value) if me == 0 else 1.0 - float(value)
        assert abs(got - want) < 1e-6


@pytest.mark.parametrize("to_file", [False, True], ids=["memory", "file"])
def test_a_stopped_solve_continues_from_its_checkpoint(tmp_path: Path, to_file: bool) -> None:
    joint = build_joint(TWO_DICE)
    whole = solve_joint(joint)
    folder = tmp_path / "levels"
    out = tmp_path / "table.npy" if to_file else None
    with pytest.raises(Stop):
        solve_joint(joint, stop_after(3), out=out, checkpoint=folder)
    assert (folder / "state.json").is_file()
    seen: list[int] = []
    again = solve_joint(joint, lambda i, n: seen.append(i), out=out, checkpoint=folder)
    assert seen[0] == 4  # the first three levels were not solved again
    assert np.array_equal(np.asarray(again.values), whole.values)
    assert again.first_player_wins == whole.first_player_wins
    assert not folder.exists()


def test_a_checkpoint_of_other_rules_is_ignored(tmp_path: Path) -> None:
    folder = tmp_path / "levels"
    with pytest.raises(Stop):
        solve_joint(build_joint(LONE_PAIR), stop_after(2), checkpoint=folder)
    seen: list[int] = []
    sol = solve_joint(build_joint(TWO_DICE), lambda i, n: seen.append(i), checkpoint=folder)
    assert seen[0] == 1 and np.array_equal(sol.values, solve_joint(build_joint(TWO_DICE)).values)


def test_large_tables_are_written_to_the_cache_as_f32_and_mapped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(duel_solve, "F64_CELLS", 10)
    monkeypatch.setattr(cache, "F64_CELLS", 10)
    joint = build_joint(TWO_DICE)
    sol = cache.solve_and_save(joint)
    path = cache.duel_path(TWO_DICE)
    assert path.is_file() and path.with_suffix(".json").is_file()
    assert not list(tmp_path.glob("*.levels")) and not list(tmp_path.glob("*.part*"))
    loaded = cache.load(TWO_DICE)
    assert loaded is not None and isinstance(loaded.values, np.memmap) and loaded.values.dtype == np.float32
    assert loaded.first_player_wins == sol.first_player_wins == solve_joint(joint).first_player_wins
    assert loaded.digest == duel_solve.table_digest(np.asarray(loaded.values))


def test_generala_fits_the_limits() -> None:
    # 4,127,110 joint positions; rows cut to the leads shown hold 810,432,260 values (f32 on disk: 3.2 GB),
    # and the three levels in memory at once (f64) stay under the 6 GB this solver allows
    joint = build_joint(find_rules("generala"), count_only=True, check=True)
    assert joint.n_rows == 4_127_110
    assert joint.n_cells < 1_355_642_300 * 0.6
    assert joint.span == 2 and joint.work_cells * 8 <= MAX_WORK_BYTES


def test_the_exact_bot_does_not_start_a_large_solve_mid_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a table above F64_CELLS values is only read from the cache; without it the bot plays for points
    from cubilete.engine.errors import DuelUnsupportedError
    from cubilete.engine.game import Game
    from cubilete.play.bots import exact

    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "F64_CELLS", 10)
    monkeypatch.setattr(cache, "_SHARED", TableStore("two-player tables"))
    with pytest.raises(DuelUnsupportedError, match="cubilete solve --rules duel-2d --players 2"):
        cache.shared_duel(TWO_DICE)
    assert not list(tmp_path.iterdir())  # nothing was solved
    monkeypatch.setattr(exact, "_REFUSED", set())
    analysis = exact.exact_options(Game(TWO_DICE, ["ana", "beto"], seed="x"))
    assert "expected points" in analysis.note and TWO_DICE in exact._REFUSED
