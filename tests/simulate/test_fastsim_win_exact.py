"""The win bot against the exact bot head to head, compiled: deals replayed through :class:`Game` with the same
dice (:class:`CounterDice`) and the Python ``win`` and ``exact`` bots give the same moves, scores and winners."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.caches import cache_dir
from tests.simulate.test_fastsim import check_replay, picks
from tests.simulate.test_fastsim_exact import lopsided

from cubilete.engine.rules import find_rules, load_rules
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import kernels as K
from cubilete.simulate.pool import simulate

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(scope="module", autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_dir(tmp_path_factory.mktemp("fastsim-win-exact-cache")) as path:
        yield path


def test_mini_generala_win_against_exact_replays_through_the_engine() -> None:
    """Both seats, every way a game ends (tie-break rounds: the exact bot plays them to win, the win bot as
    the optimal bot), and the largest margins (leads outside the exact bot's window)."""
    mini = load_rules(str(MINI))
    batch = fastsim.play(mini, ["win", "exact"], "win-exact", 1_500, "paired", trace=200)
    assert set(np.unique(batch.reason)) >= {K.POINTS, K.INSTANT, K.TIEBREAK}
    assert batch.seating.tolist() == [[0, 1], [1, 0]]
    for d, r in dict.fromkeys([(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 3), *lopsided(batch, 4)]):
        check_replay(batch, d, r)


def test_paired_deals_share_the_dice_and_the_same_seed_gives_the_same_games() -> None:
    mini = load_rules(str(MINI))
    a = fastsim.play(mini, ["win", "exact"], 9, 300, "paired")
    b = fastsim.play(mini, ["win", "exact"], 9, 300, "paired", threads=1)
    assert (a.scores == b.scores).all() and (a.won == b.won).all()
    # both runs of a deal read the same dice: the same bots in the same seats play the same game twice
    same = fastsim.play(mini, ["exact", "exact"], 9, 300, "paired")
    assert (same.scores[:, 0] == same.scores[:, 1]).all()
    assert (a.scores[:, 0] != a.scores[:, 1, ::-1]).any()  # the win bot and the exact bot do play differently


def test_simulate_plays_win_against_exact_compiled_and_paired() -> None:
    mini = load_rules(str(MINI))
    result = simulate(mini, ["win", "exact"], games=400, seed="win-exact-cli", workers=2, mode="paired")
    assert result.compiled and result.paired is not None
    assert [b.games for b in result.bots] == [800, 800]
    lo, hi = result.paired.win_diff_ci
    assert lo <= result.paired.win_diff <= hi


@pytest.mark.slow
def test_full_generala_win_against_exact_replays(tmp_path: Path, generala_duel_cache: Path) -> None:
    """Full Generala's table (the session's, read and never written): compiled games of the
    win bot against the exact bot replay through the engine move for move."""
    rules = find_rules("generala")
    for f in generala_duel_cache.iterdir():  # a private folder of links: nothing is ever written beside the table
        (tmp_path / f.name).symlink_to(f)
    from cubilete.duel import cache
    from cubilete.play.bots import exact

    exact._REFUSED.discard(rules)  # an earlier test in this process may have found no table
    try:
        with cache_dir(tmp_path):
            batch = fastsim.play(rules, ["win", "exact"], "win-exact-generala", 60, "paired", trace=120)
            for d, r in dict.fromkeys([(0, 0), (0, 1), (1, 0), (1, 1), *picks(batch, 1), *lopsided(batch, 2)]):
                check_replay(batch, d, r)
    finally:  # later tests of this process see no Generala table again
        cache._SHARED.pop(rules, None)
        fastsim._PREPARED.pop(rules, None)
