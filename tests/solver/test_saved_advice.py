"""Advice read from the exact table of a game WITH saved throws (cubilete.solver.maxi.saved_advice): every
option's value against the float64 oracle with uncapped saved throws, on a reduced 6-dice Maxi Yatzy
solved (float32, as the real table) at its useful cap."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tests.caches import cache_dir
from tests.solver.saved_oracle import SavedOracle
from tests.solver.test_maxi_saved import THREE, oracle

from cubilete.engine.errors import IllegalActionError
from cubilete.engine.rules import scoring
from cubilete.solver.maxi.saved import SavedSolution, default_dir, solve_saved, useful_cap
from cubilete.solver.maxi.saved_advice import exact_saved, saved_options, saved_sheet, saved_turn_start

FLOAT32 = 1e-4  # the table holds float32 values (rounded down), about 4e-6 apart at 50 points


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> SavedSolution:
    solved = solve_saved(THREE, useful_cap(THREE), "lower", tmp_path_factory.mktemp("saved"), dtype=np.float32)
    assert solved is not None
    return solved


def best_by_throws_left(o: SavedOracle, card: tuple[int | None, ...], turns: int, top: int) -> list[np.ndarray]:
    """E[r][h]: the oracle's best value of hand h with r throws left (r = 0..top), as in its turn_start."""
    levels: list[np.ndarray] = []
    for r in range(top + 1):
        S = np.array([max(g + o.turn_start(new, turns + 1, r) for g, new in o.writes(card, x))
                      for x in range(len(o.hands))])  # fmt: skip
        levels.append(S if r == 0 else np.maximum(S, (o.P @ levels[-1])[o.sub].max(axis=1)))
    return levels


def oracle_options(
    o: SavedOracle, card: tuple[int | None, ...], turns: int, left: int, h: int, levels: list[np.ndarray]
) -> dict[tuple[str, object], float]:
    """(kind, slot or keep) -> expected final score with ``left`` throws left, from the oracle's values."""
    rules = o.rules
    total = scoring.total(rules, list(card))
    out: dict[tuple[str, object], float] = {}
    for gain, new in o.writes(card, h):
        slot = next(i for i, v in enumerate(card) if v is None and new[i] is not None)
        out["score", rules.slots[slot]] = total + gain + o.turn_start(new, turns + 1, left)
    if left > 0:
        keep_values = o.P @ levels[left - 1]  # keep and throw the others: left - 1 throws left after it
        for k in set(o.sub[h]):
            out["keep", o.keeps[k]] = total + float(keep_values[k])
    return out


def situations(o: SavedOracle) -> list[tuple[tuple[int | None, ...], int, int]]:
    """Every turn start the oracle reached from the empty sheet, still to be played."""
    return sorted((s for s in o.values if not o.finished(s[0], s[1])), key=repr)


def test_every_option_matches_the_oracle(table: SavedSolution) -> None:
    o = oracle(THREE)
    checked = 0
    banks = set()
    for card, turns, saved in situations(o):
        banks.add(saved)
        levels = best_by_throws_left(o, card, turns, THREE.throws + saved - 1)
        for h in range(0, len(o.hands), 23):
            for throw in range(1, THREE.throws + saved + 1):
                want = oracle_options(o, card, turns, THREE.throws + saved - throw, h, levels)
                got = saved_options(table, card, o.hands[h], throw, saved)
                assert len(got) == len(want)
                for option in got:
                    key = ("score", option.slot) if option.kind == "score" else ("keep", option.keep)
                    assert option.expected == pytest.approx(want[key], abs=FLOAT32)
                assert got[0].expected == pytest.approx(max(want.values()), abs=FLOAT32)
                assert all(b.loss >= 0 for b in got)
                checked += 1
    assert banks == set(range(useful_cap(THREE) + 1))  # every bank of the exact game was asked about
    assert checked > 300


def test_the_best_option_averages_to_the_table_at_a_turn_start(table: SavedSolution) -> None:
    o = oracle(THREE)
    first = o.first
    for card, turns, saved in situations(o)[::2]:  # every other one: each costs 462 queries
        start = saved_turn_start(table, card, saved)
        assert start == pytest.approx(scoring.total(THREE, list(card)) + o.turn_start(card, turns, saved), abs=FLOAT32)
        total = scoring.total(THREE, list(card))
        after_first = np.array([saved_options(table, card, hand, 1, saved)[0].expected - total for hand in o.hands])
        mask, upper = saved_sheet(table, card, saved)
        stored = table.values[mask, saved, upper]
        assert start - total == float(stored)
        # the table's own value, rounded down when stored (nudged by |x| 2^-23, then to the nearest float32):
        # below it by at most two float32 steps
        assert -1e-9 <= float(first @ after_first) - float(stored) <= 2 * float(np.spacing(stored)) + 1e-9


def test_impossible_situations_are_refused(table: SavedSolution) -> None:
    empty = (None,) * len(THREE.slots)
    with pytest.raises(IllegalActionError, match="0 to 0 throws saved"):
        saved_options(table, empty, (1, 2, 3, 4, 5, 6), 1, 2)  # nothing can be saved before the first turn
    one = (4, None, None)
    with pytest.raises(IllegalActionError, match="throw must be 1 to 5"):
        saved_options(table, one, (1, 2, 3, 4, 5, 6), 6, 2)
    with pytest.raises(IllegalActionError, match="6 dice"):
        saved_options(table, one, (1, 2, 3), 1, 0)
    with pytest.raises(IllegalActionError, match="complete"):
        saved_options(table, (4, 21, 0), (1, 2, 3, 4, 5, 6), 1, 0)


def test_only_a_finished_exact_table_is_found(tmp_path: Path) -> None:
    cap = useful_cap(THREE)
    with cache_dir(tmp_path):
        folder = default_dir(THREE, cap, "lower")
        assert folder.parent == tmp_path
        assert exact_saved(THREE) is None
        assert solve_saved(THREE, cap, "lower", folder, stop_after=1) is None  # an unfinished run does not count
        assert exact_saved(THREE) is None
        assert solve_saved(THREE, cap - 1, "lower", default_dir(THREE, cap - 1, "lower")) is not None  # nor cap - 1
        assert exact_saved(THREE) is None
        assert solve_saved(THREE, cap, "lower", folder) is not None
        found = exact_saved(THREE)
        assert found is not None and found.cap == cap and found.bound == "lower"
        assert exact_saved(THREE.replace(carry_over_throws=False)) is None
