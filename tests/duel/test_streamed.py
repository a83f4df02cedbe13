"""The streamed solve (a level computed slice by slice, only the levels it reads in memory; Brazilian
General's path) gives the in-memory solve's table, resumes where it stopped, and its table is what
``bot:exact`` and the exact chances read; General itself is accepted within this machine's limits."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from tests.duel.test_oracle import TWO_DICE, UPPER_BONUS
from tests.duel.test_reductions import Stop, stop_after

from cubilete.duel import cache, streamed
from cubilete.duel import solve as duel_solve
from cubilete.duel import space as duel_space
from cubilete.duel.solve import solve_joint, table_digest
from cubilete.duel.space import MAX_STREAM_BYTES, MAX_WORK_BYTES, build_joint
from cubilete.engine.errors import DuelUnsupportedError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.solver.tablestore import TableStore

# Generala's lower boxes: a Doble that closes with its Generala, so a move can close two slots (span 2)
POCKET = find_rules("generala").replace(name="generala-5-boxes", boxes=find_rules("generala").boxes[6:])
F32_EPS = 2.0**-24  # an f32 value's relative rounding


def streamed_solve(rules: Rules, folder: Path, **kw: object) -> duel_solve.DuelSolution:
    return solve_joint(build_joint(rules), out=folder / "table.npy", checkpoint=folder / "levels", stream=True, **kw)  # type: ignore[arg-type]


@pytest.fixture
def thin_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streamed, "SLICE_CELLS", 2000)  # many slices per level, rows cut at their edges


@pytest.mark.parametrize("rules", [TWO_DICE, UPPER_BONUS, POCKET], ids=lambda r: r.name)
def test_the_streamed_table_is_the_in_memory_table_bit_for_bit(rules: Rules, tmp_path: Path, thin_slices: None) -> None:
    memory = solve_joint(build_joint(rules))
    disk = streamed_solve(rules, tmp_path)
    assert isinstance(disk.values, np.memmap) and disk.values.dtype == np.float64
    assert np.array_equal(np.asarray(disk.values), memory.values)
    assert disk.first_player_wins == memory.first_player_wins
    assert not (tmp_path / "levels").exists()  # the checkpoint is cleared at the end


def test_an_f32_table_rounds_each_value_once_and_keeps_the_first_value_in_f64(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thin_slices: None
) -> None:
    exact = solve_joint(build_joint(POCKET)).values  # f64
    monkeypatch.setattr(duel_solve, "F64_CELLS", 10)
    disk = streamed_solve(POCKET, tmp_path)
    stored = np.asarray(disk.values)
    assert stored.dtype == np.float32
    # each value is its f64 value rounded once: no rounding carried from the levels it read
    assert np.array_equal(stored, exact.astype(np.float32))
    assert np.all(np.abs(stored - exact) <= F32_EPS * np.abs(exact))
    assert disk.first_player_wins == float(exact[-1])  # the empty sheets' row (last) kept in f64, not read back


@pytest.mark.parametrize("stop", [1, 3, 6])
def test_a_stopped_streamed_solve_continues_where_it_stopped(tmp_path: Path, thin_slices: None, stop: int) -> None:
    whole = streamed_solve(POCKET, tmp_path / "whole")
    with pytest.raises(Stop):
        streamed_solve(POCKET, tmp_path / "cut", progress=stop_after(stop))
    assert (tmp_path / "cut" / "levels" / "state.json").is_file()
    seen: list[int] = []
    resumed = streamed_solve(POCKET, tmp_path / "cut", progress=lambda i, n: seen.append(i))
    assert seen[0] == stop + 1  # the finished levels were not solved again
    assert np.array_equal(np.asarray(resumed.values), np.asarray(whole.values))
    assert resumed.first_player_wins == whole.first_player_wins


def test_a_streamed_checkpoint_missing_a_level_starts_afresh(tmp_path: Path, thin_slices: None) -> None:
    with pytest.raises(Stop):
        streamed_solve(POCKET, tmp_path, progress=stop_after(4))
    streamed.level_path(tmp_path / "levels", 3).unlink()
    seen: list[int] = []
    again = streamed_solve(POCKET, tmp_path, progress=lambda i, n: seen.append(i))
    assert seen[0] == 1 and np.array_equal(np.asarray(again.values), solve_joint(build_joint(POCKET)).values)


def test_a_streamed_solve_needs_a_file_and_a_folder() -> None:
    with pytest.raises(ValueError, match="checkpoint folder"):
        solve_joint(build_joint(TWO_DICE), stream=True)


@pytest.fixture
def large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tables treated as large (f32, solved into the cache) and as too large to solve in memory."""
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(duel_solve, "F64_CELLS", 10)
    monkeypatch.setattr(cache, "F64_CELLS", 10)
    monkeypatch.setattr(duel_space, "MAX_WORK_BYTES", 100)
    monkeypatch.setattr(cache, "_SHARED", TableStore("two-player tables"))
    return tmp_path


def test_the_exact_bot_and_chances_read_the_streamed_table_from_disk(
    large: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cubilete.engine.game import Game
    from cubilete.play.bots import exact
    from cubilete.win import chance

    joint = build_joint(TWO_DICE)
    assert joint.streamed
    solved = cache.solve_and_save(joint)
    assert not list(large.glob("*.levels")) and not list(large.glob("*.part*"))
    table = cache.shared_duel(TWO_DICE)
    assert isinstance(table.values, np.memmap) and table.values.dtype == np.float32
    assert table.digest == solved.digest == table_digest(np.asarray(table.values))
    monkeypatch.setattr(exact, "_REFUSED", set())
    monkeypatch.setattr(chance, "_REFUSED", set())
    game = Game(TWO_DICE, ["ana", "beto"], seed="x")
    assert exact.duel_for(TWO_DICE) is table and chance.duel_table(TWO_DICE) is table
    start = exact.exact_options(game)
    assert start.exact and "expected points" not in start.note
    e = table.empty_sheet
    assert start[0].expected == table.win_probability(True, e, e, 0)
    game.apply(game.legal_actions()[0])  # the first throw: a decision the chances rank
    options, is_exact = chance.option_chances(game)
    assert is_exact and options[0].win == exact.exact_options(game)[0].expected


def test_a_short_disk_refuses_before_writing_and_names_the_gb(large: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    joint = build_joint(TWO_DICE)
    disk, _memory = cache.room_needed(joint)
    monkeypatch.setattr(cache.shutil, "disk_usage", lambda _p: type("Usage", (), {"free": disk - 1})())
    with pytest.raises(DuelUnsupportedError, match=r"needs \d+\.\d GB free on the disk"):
        cache.solve_and_save(joint)
    assert not list(large.iterdir())


def test_short_memory_refuses_and_names_the_gb(large: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    joint = build_joint(TWO_DICE)
    _disk, memory = cache.room_needed(joint)
    monkeypatch.setattr(cache, "available_memory", lambda: memory - 1)
    with pytest.raises(DuelUnsupportedError, match=r"needs \d+\.\d GB of memory, and \d+\.\d GB are available"):
        cache.solve_and_save(joint)
    assert not list(large.glob("*.npy"))


def test_general_is_solved_streamed_within_twelve_gb() -> None:
    # 2^13 sheets per player, about 5.7e9 values (issue 24; f32 on disk: 22.7 GB); a level with the one it
    # reads would take 14.8 GB of f64, the largest level read alone 7.5 GB
    joint = build_joint(find_rules("general"), count_only=True, check=True)
    assert len(joint.sheet_mask) == 2**13 and 5.6e9 < joint.n_cells < 5.8e9 and joint.span == 1
    assert joint.work_cells * 8 > MAX_WORK_BYTES and joint.streamed
    assert joint.read_cells * 8 <= MAX_STREAM_BYTES < 12e9


def test_what_a_stopped_solve_wrote_counts_but_not_the_holes_of_its_table(
    large: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    joint = build_joint(TWO_DICE)
    disk, _memory = cache.room_needed(joint)
    partial = cache.duel_path(TWO_DICE).with_name(cache.duel_path(TWO_DICE).name + ".part.npy")
    monkeypatch.setattr(cache.shutil, "disk_usage", lambda _p: type("Usage", (), {"free": disk - 1000})())
    with partial.open("wb") as f:  # a table file as a solve creates it: full length, sparse
        f.truncate(disk)
    with pytest.raises(DuelUnsupportedError, match="GB free on the disk"):
        cache.check_room(joint, large)
    partial.write_bytes(b"\1" * 4096)  # 4 KB written by a stopped solve: what is left to write now fits
    cache.check_room(joint, large)


def test_a_mapped_table_is_hashed_from_its_file_with_the_same_digest(tmp_path: Path) -> None:
    values = np.linspace(0.0, 1.0, 1001, dtype=np.float32)
    np.save(tmp_path / "t.npy", values)
    mapped = np.load(tmp_path / "t.npy", mmap_mode="r")
    assert isinstance(mapped, np.memmap)
    expected = hashlib.sha256(values.tobytes()).hexdigest()
    assert table_digest(mapped, chunk=100) == table_digest(values, chunk=100) == expected
    with (tmp_path / "t.npy").open("r+b") as f:  # a file cut short after it was mapped is not hashed as whole
        f.truncate(1000)
    with pytest.raises(ValueError, match="cut short"):
        table_digest(mapped, chunk=100)
