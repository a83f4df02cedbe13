"""The optimal bot on a layered table (Maxi Yatzy without saved throws): the same decisions and values
as on the general solver's table, checked on a reduced 6-dice Maxi where both solvers run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cubilete.engine.actions import Roll
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules, find_rules
from cubilete.play.bots import OptimalBot, optimal_options
from cubilete.play.bots.base import action_for
from cubilete.play.bots.optimal import layered_analysis, layered_for
from cubilete.solver.maxi.layered import solve_layered

MAXI = find_rules("maxi-yatzy-no-saved")


@pytest.fixture(autouse=True)
def _cache(bots_solver_cache: Path) -> Iterator[Path]:
    yield bots_solver_cache


def small_maxi() -> Rules:
    rules = MAXI
    for box in MAXI.box_ids:
        if box not in ("2", "3", "three-pairs", "tower", "maxi-yatzy"):
            rules = rules.without_box(box)
    return rules.replace(name="maxi-small", upper_bonus_threshold=10, upper_bonus=20)


@pytest.mark.parametrize(("dtype", "tolerance"), [(np.float64, 1e-9), (np.float32, 1e-5)])
def test_layered_bot_decides_as_the_general_solver(tmp_path: Path, dtype: type, tolerance: float) -> None:
    rules = small_maxi()
    layered = solve_layered(rules, tmp_path, dtype=dtype)
    assert layered is not None
    decisions = 0
    for seed in range(3):
        game = Game(rules, ["a"], seed=f"maxi-{seed}")
        while not game.is_over:
            want = optimal_options(game)  # the general solver's table
            got = layered_analysis(layered, game)
            assert want.exact and got.exact
            assert len(got) == len(want)
            by_key = {(o.kind, o.slot, o.keep): o.expected for o in want}
            for o in got:
                assert o.expected == pytest.approx(by_key[o.kind, o.slot, o.keep], abs=tolerance)
            if want[0].expected - want[1 if len(want) > 1 else 0].expected > 2 * tolerance:
                assert (got[0].kind, got[0].slot, got[0].keep) == (want[0].kind, want[0].slot, want[0].keep)
            game.apply(action_for(game, got[0]))
            decisions += 1
    assert decisions > 20


def test_unsolved_maxi_is_played_by_the_search() -> None:
    # no layered table in this test's cache folder: the bot says it is approximate, and still plays
    assert layered_for(MAXI) is None
    game = Game(MAXI, ["a"], seed=5)
    game.apply(Roll())
    analysis = OptimalBot(seed=1).analyse(game)
    assert not analysis.exact
    assert OptimalBot(seed=1).choose(game) in game.legal_actions()
