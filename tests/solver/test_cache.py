"""The table cache: solve once, then load; never trust a file that is broken or belongs to other rules."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

from cubilete.engine.rules import Rules, find_rules
from cubilete.solver import cache
from cubilete.solver.solve import Progress, Solution, solve, solve_space
from cubilete.solver.space import StateSpace


def tiny(full_value: int = 30) -> Rules:
    """Generala cut down to three boxes: 5s, 6s and Full (solved in milliseconds)."""
    g = find_rules("generala")
    boxes = tuple(b.replace(value=full_value) if b.id == "full" else b for b in g.boxes if b.id in {"5", "6", "full"})
    return g.replace(name="tiny", boxes=boxes)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    return tmp_path


class SolveCounter:
    """Wraps ``solve_space`` in the cache module and counts the calls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        monkeypatch.setattr(cache, "solve_space", self)

    def __call__(self, space: StateSpace, progress: Progress | None = None, moments: bool = False) -> Solution:
        self.calls += 1
        return solve_space(space, progress, moments)


def _no_solve(*args: object, **kwargs: object) -> Solution:
    raise AssertionError("solve_space was called: the cache was not used")


class TestCache:
    def test_folder_from_the_environment(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.delenv("CUBILETE_CACHE_DIR", raising=False)
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert cache.cache_dir() == tmp_path / "xdg" / "cubilete" / "solver"
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "mine"))
        assert cache.cache_dir() == tmp_path / "mine"
        assert cache.table_path(tiny()).parent == tmp_path / "mine"

    def test_second_call_loads_without_solving(self, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        first = cache.load_or_solve(tiny())
        assert cache.table_path(tiny()).is_file()
        monkeypatch.setattr(cache, "solve_space", _no_solve)
        second = cache.load_or_solve(tiny())
        assert np.array_equal(first.values, second.values)
        assert first.second_moments is not None and second.second_moments is not None
        assert np.array_equal(first.second_moments, second.second_moments)
        assert second.expected_score == first.expected_score

    def test_tables_without_moments_are_solved_again_when_moments_are_asked(
        self, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        counter = SolveCounter(monkeypatch)
        assert cache.load_or_solve(tiny(), moments=False).second_moments is None
        assert cache.load_or_solve(tiny(), moments=False).second_moments is None
        assert counter.calls == 1
        assert cache.load_or_solve(tiny(), moments=True).second_moments is not None
        assert counter.calls == 2
        assert cache.load_or_solve(tiny(), moments=False).second_moments is not None  # the richer file serves both
        assert counter.calls == 2

    def test_corrupt_file_is_solved_again_and_replaced(self, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        path = cache.table_path(tiny())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not a table at all")
        assert cache.load(tiny()) is None
        counter = SolveCounter(monkeypatch)
        solution = cache.load_or_solve(tiny())
        assert counter.calls == 1
        reloaded = cache.load(tiny())
        assert reloaded is not None
        assert np.array_equal(reloaded.values, solution.values)

    def test_a_table_of_other_rules_is_not_used(self, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        # Same name and the same table shape, but a Full worth 31: another rules hash.
        thirty, thirty_one = tiny(30), tiny(31)
        assert cache.table_path(thirty) != cache.table_path(thirty_one)
        cache.load_or_solve(thirty)
        shutil.copy(cache.table_path(thirty), cache.table_path(thirty_one))
        assert cache.load(thirty_one) is None
        counter = SolveCounter(monkeypatch)
        solution = cache.load_or_solve(thirty_one)
        assert counter.calls == 1
        # A Full is worth one point more in every state where Full is open and can still be made.
        full = thirty_one.box_ids.index("full")
        assert solution.values[0, 0, 0] > solve(thirty).values[0, 0, 0]
        assert solution.values[1 << full, 0, 0] == solve(thirty).values[1 << full, 0, 0]

    def test_values_digest_is_the_sha256_of_the_table_and_survives_the_round_trip(self, cache_dir: Path) -> None:
        solved = cache.load_or_solve(tiny())
        loaded = cache.load(tiny())
        assert loaded is not None
        expected = hashlib.sha256(np.ascontiguousarray(solved.values, dtype=np.float64).tobytes()).hexdigest()
        assert cache.values_digest(solved) == cache.values_digest(loaded) == expected
        assert cache.values_digest(solve(tiny())) == expected  # a fresh solve gives the same table


def test_shared_tables_are_bounded_by_bytes_least_recently_used_out(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a server that met many house rules used to keep every solved table forever
    cache._SHARED.clear()
    a, b, c = tiny(30), tiny(31), tiny(32)  # three rule sets, three tables of the same size
    first = cache.shared_solution(a)
    monkeypatch.setattr(cache, "SHARED_BYTES", 2 * cache.footprint(first))  # room for two
    assert cache.shared_solution(b) is not first
    assert cache.shared_solution(a) is first  # a is now the most recently used: b goes next
    cache.shared_solution(c)
    assert list(cache._SHARED) == [a, c]
    assert sum(cache.footprint(s) for s in cache._SHARED.values()) <= cache.SHARED_BYTES
    monkeypatch.setattr(cache, "SHARED_BYTES", 0)  # smaller than any table: the one in use stays
    assert cache.shared_solution(b).rules == b and list(cache._SHARED) == [b]


def test_a_rule_set_is_hashed_once_and_a_table_that_left_comes_back_from_disk(cache_dir: Path) -> None:
    # a game's rules are looked up on every move: the hash is computed once (hashing every box and field
    # costs more than an advise query), and a table that left the shared tables is loaded again
    cache._SHARED.clear()
    a = tiny(30)
    first = cache.shared_solution(a)
    assert "_hash" in a.__dict__ and hash(a) == a.__dict__["_hash"]
    assert cache.shared_solution(a) is first
    assert cache.shared_solution(tiny(30)) is first  # an equal rule set, another object: found by hash
    cache._SHARED.clear()
    again = cache.shared_solution(a)
    assert again is not first and list(cache._SHARED) == [a]


def test_a_pickled_rule_set_hashes_again_in_its_new_process() -> None:
    # string hashes differ between processes: a cached hash must never travel in a pickle
    import pickle

    a = tiny(30)
    hash(a)
    copy = pickle.loads(pickle.dumps(a))
    assert copy == a and "_hash" not in copy.__dict__ and hash(copy) == hash(a)
