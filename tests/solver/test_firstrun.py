"""The first hint without compiling: the numpy solve and query give the compiled kernels' values bit for bit,
and a fresh process with an empty numba cache answers without compiling anything."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cubilete.engine.rules import Rules, find_rules, scoring
from cubilete.solver import compile_cache, firstrun, kernels, numpy_twin
from cubilete.solver.advisor import advise, judge
from cubilete.solver.solve import Solution, layers, solve
from cubilete.solver.space import build_space
from cubilete.solver.tables import kernel_tables

ROOT = Path(__file__).resolve().parents[2]


def reduced(name: str, ids: set[str]) -> Rules:
    """A preset on a few of its boxes (solved in a blink, with the features of the whole)."""
    rules = find_rules(name)
    return rules.replace(name=f"{name}-small", boxes=tuple(b for b in rules.boxes if b.id in ids))


CASES = {
    "generala": lambda: find_rules("generala"),  # servida, Doble needs Generala (a flag, a closing scratch)
    "generala-obligada": lambda: find_rules("generala-obligada"),  # column order
    "generala-bonus-5": lambda: find_rules("generala-bonus-5"),  # servida bonus
    "bozo": lambda: find_rules("bozo"),
    "general": lambda: find_rules("general"),  # 13 boxes, no flag
    # upper bonus (64 upper totals), forced joker, extra Yahtzee bonus
    "yahtzee-small": lambda: reduced("yahtzee", {"1", "2", "3", "yahtzee", "chance", "three-kind"}),
    "yahtzee-free-joker-small": lambda: reduced("yahtzee-free-joker", {"4", "5", "6", "yahtzee", "full-house"}),
    "yatzy-small": lambda: reduced("yatzy", {"1", "5", "6", "one-pair", "yatzy"}),
}


def both_ways(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The value table by the compiled layer kernel and by numpy."""
    space = build_space(rules)
    T = kernel_tables(space)
    shape = (1 << space.n_slots, 1 << space.n_flags, space.n_upper)
    compiled, numpy = np.zeros(shape), np.zeros(shape)
    for masks in layers(space.n_slots):
        if masks.size:
            kernels.solve_layer(T, masks, compiled)
            numpy_twin.solve_layer(T, masks, numpy)
    return compiled, numpy


@pytest.fixture(scope="module")
def tables() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    return {name: both_ways(make()) for name, make in CASES.items()}


class TestTheSolve:
    @pytest.mark.parametrize("name", list(CASES))
    def test_bit_for_bit(self, tables: dict[str, tuple[np.ndarray, np.ndarray]], name: str) -> None:
        compiled, numpy = tables[name]
        assert compiled[0, 0, 0] > 0
        np.testing.assert_allclose(numpy, compiled, rtol=0, atol=1e-12)
        assert np.array_equal(numpy, compiled)  # not only close: the same operations in the same order

    def test_the_hook_follows_the_mode(self, monkeypatch: pytest.MonkeyPatch) -> None:
        rules = CASES["yahtzee-small"]()
        monkeypatch.setenv(compile_cache.MODE_ENV, "numpy")
        assert firstrun.layer_kernel(kernel_tables(build_space(rules)), 1) is numpy_twin.solve_layer
        by_numpy = solve(rules).values
        monkeypatch.setenv(compile_cache.MODE_ENV, "numba")
        assert firstrun.layer_kernel(kernel_tables(build_space(rules)), 1) is kernels.solve_layer
        assert np.array_equal(by_numpy, solve(rules).values)

    def test_locked_holds_and_large_rules_stay_compiled(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv(compile_cache.MODE_ENV, "numpy")
        locked = kernel_tables(build_space(find_rules("generala-apartada")))
        assert not firstrun.use_numpy("solve", locked, 4096)
        assert not firstrun.use_numpy("solve", kernel_tables(build_space(find_rules("generala"))), 1 << 20)


def play_and_compare(rules: Rules, decisions: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """Play games (best option half the time, else any) and compare each decision's options both ways."""
    monkeypatch.setenv(compile_cache.MODE_ENV, "numba")
    sol = solve(rules)
    rng = random.Random(seed)
    by = {}
    for mode in ("numba", "numpy"):
        monkeypatch.setenv(compile_cache.MODE_ENV, mode)
        by[mode] = Solution(sol.space, sol.values)  # its own advisor query, built in this mode
    seen = 0
    while seen < decisions:
        card: tuple[int | None, ...] = (None,) * len(rules.slots)
        bonuses = 0
        while sum(v is not None for v in card) < rules.turns:
            dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
            for throw in range(1, rules.throws + 1):
                monkeypatch.setenv(compile_cache.MODE_ENV, "numba")
                want = advise(by["numba"], card, dice, throw, bonuses)
                monkeypatch.setenv(compile_cache.MODE_ENV, "numpy")
                got = advise(by["numpy"], card, dice, throw, bonuses)
                assert got == want, (rules.name, card, dice, throw, bonuses)
                seen += 1
                pick = want[0] if rng.random() < 0.5 else rng.choice(want)
                if pick.kind == "score":
                    slot = rules.slots.index(str(pick.slot))
                    bonuses += int(scoring.extra_bonus_due(rules, card, slot, dice))
                    card = scoring.write(rules, card, slot, pick.points)
                    break
                dice = pick.keep + tuple(rng.randint(1, 6) for _ in range(rules.dice - len(pick.keep)))
    assert isinstance(by["numpy"].__dict__["_advice_query"].options, firstrun.QueryEntry)
    assert not isinstance(by["numba"].__dict__["_advice_query"].options, firstrun.QueryEntry)
    return seen


class TestTheQuery:
    @pytest.mark.parametrize("name", ["generala", "generala-obligada", "yahtzee-small", "yahtzee-free-joker-small"])
    def test_same_options_same_values(self, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        assert play_and_compare(CASES[name](), 120, seed=12, monkeypatch=monkeypatch) >= 120

    def test_sub_keeps(self) -> None:
        from cubilete.solver import query

        d = build_space(find_rules("generala")).dice
        for h in range(d.n_hands):
            assert np.array_equal(numpy_twin.sub_keeps(d.remove, h, d.n_keeps), query.sub_keeps(d.remove, h, d.n_keeps))


def run_fresh(tmp_path: Path, code: str, **env: str) -> dict[str, object]:
    """Run ``code`` in a new Python with empty numba and solver caches; its last line is JSON."""
    environ = dict(os.environ)
    environ.pop(compile_cache.MODE_ENV, None)
    environ.update(
        NUMBA_CACHE_DIR=str(tmp_path / "numba"), CUBILETE_CACHE_DIR=str(tmp_path / "solver"),
        PYTHONPATH=str(ROOT / "src"), **env,
    )  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


FIRST_HINT = """
import json
from cubilete.engine.rules import find_rules
from cubilete.solver import compile_cache, kernels, query
from cubilete.solver.cache import load_or_solve
from cubilete.solver.advisor import advise, judge
rules = find_rules("generala")
sol = load_or_solve(rules, moments=False)
best = advise(sol, (None,) * len(rules.slots), (1, 1, 3, 4, 5), 2)[0]
judged = judge(sol, [((None,) * len(rules.slots), (1, 1, 3, 4, 5), 2, 0, "keep", (1, 1))]).tolist()
compiled = [len(k.overloads) for k in (kernels.solve_layer, query.options_packed, query.sub_keeps, query.judge)]
child = compile_cache.background_process()
print(json.dumps({"expected": best.expected, "keep": best.keep, "compiled": compiled, "child": child is not None,
                  "judged": judged}))
"""


class TestAFreshInstall:
    def test_first_hint_compiles_nothing(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        got = run_fresh(tmp_path, FIRST_HINT, CUBILETE_NO_BACKGROUND_COMPILE="1")
        assert got["compiled"] == [0, 0, 0, 0]  # numba compiled nothing: the values came from numpy
        assert got["child"] is False
        monkeypatch.setenv(compile_cache.MODE_ENV, "numba")
        rules = find_rules("generala")
        sol = solve(rules)
        want = advise(sol, (None,) * len(rules.slots), (1, 1, 3, 4, 5), 2)[0]
        assert (got["expected"], tuple(got["keep"])) == (want.expected, want.keep)  # type: ignore[arg-type]
        # the review's batched query too: numpy's rows are the compiled kernel's, bit for bit
        judged = judge(sol, [((None,) * len(rules.slots), (1, 1, 3, 4, 5), 2, 0, "keep", (1, 1))]).tolist()
        assert got["judged"] == judged and judged[0][0] == 1.0

    def test_one_compiling_process_per_cache(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        import fcntl

        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
        with open(compile_cache.lock_path(), "a") as held:  # another process is compiling into this cache
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            got = run_fresh(tmp_path, compile_cache.COMPILE + "\nprint('{}')")
        assert got == {}
        assert not any((tmp_path / "numba").rglob("*.nbi"))  # it left at once, compiling nothing

    @pytest.mark.slow
    def test_the_background_compile_fills_numba_cache(self, tmp_path: Path) -> None:
        then = (
            "child.wait()\n"
            "again = advise(sol, (None,) * len(rules.slots), (1, 1, 3, 4, 5), 2)[0]\n"
            "entry = sol.__dict__['_advice_query'].options.entry\n"
            "print(json.dumps({'rc': child.returncode, 'switched': entry is not None, 'same': again == best}))\n"
        )
        started = run_fresh(tmp_path, FIRST_HINT + then)
        # the compile ended, and this process took the compiled query at its next question (the same answer)
        assert started == {"rc": 0, "switched": True, "same": True}
        shutil.rmtree(tmp_path / "solver")  # solve again (the table would load from the cache)
        later = run_fresh(tmp_path, FIRST_HINT)  # the same caches: now the kernels load compiled
        assert later["child"] is False
        assert later["compiled"] == [1, 1, 1, 1]  # the review's batched query was compiled in the background too
