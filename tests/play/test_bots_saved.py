"""The optimal bot on the exact table of a game WITH saved throws (Maxi Yatzy), checked on a reduced
6-dice Maxi solved in the test at its useful cap (float32, as the real table) into the cache folder."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from tests.caches import cache_dir
from tests.solver.test_maxi_saved import THREE, oracle
from tests.solver.test_saved_advice import best_by_throws_left, oracle_options

from cubilete.engine.actions import Roll
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.play.bots import OptimalBot, action_loss, optimal_options
from cubilete.play.bots.base import in_play
from cubilete.play.bots.optimal import saved_for
from cubilete.simulate.pool import simulate
from cubilete.solver.maxi.saved import SavedSolution, default_dir, solve_saved, useful_cap

FLOAT32 = 1e-4


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder holding the finished exact table of THREE (and nothing else)."""
    with cache_dir(tmp_path_factory.mktemp("saved-cache")) as path:
        cap = useful_cap(THREE)
        assert solve_saved(THREE, cap, "lower", default_dir(THREE, cap, "lower")) is not None
        yield path


@pytest.fixture
def table(folder: Path) -> Iterator[SavedSolution]:
    with cache_dir(folder):
        found = saved_for(THREE)
        assert found is not None
        yield found


def test_the_analysis_is_the_oracle_s_along_played_games(table: SavedSolution) -> None:
    o = oracle(THREE)
    checked = 0
    for seed in range(6):
        game = Game(THREE, ["a", "b"], seed=f"saved-{seed}")  # two seats: each has its own bank
        while not game.is_over:
            seat, turn = game.seat(), game.state.turn
            if not in_play(game):  # a tie-break round: not the table's business
                game.apply(OptimalBot(seed=seed).choose(game))
                continue
            analysis = optimal_options(game)
            assert analysis.exact and str(table.directory) in analysis.note
            saved = turn.allowance - THREE.throws
            assert saved == seat.banked
            if turn.throws == 0:
                want = scoring.total(THREE, list(seat.card)) + o.turn_start(seat.card, seat.turns_taken, saved)
                assert analysis[0].expected == pytest.approx(want, abs=FLOAT32)
            else:  # every option's value: the oracle's
                left = turn.allowance - turn.throws
                hand = o.hands.index(tuple(sorted(turn.dice)))
                levels = best_by_throws_left(o, seat.card, seat.turns_taken, left)
                want = oracle_options(o, seat.card, seat.turns_taken, left, hand, levels)
                assert len(analysis) == len(want)
                for option in analysis:
                    key = ("score", option.slot) if option.kind == "score" else ("keep", option.keep)
                    assert option.expected == pytest.approx(want[key], abs=FLOAT32)
                assert action_loss(game, OptimalBot().choose(game)) == 0.0
            checked += 1
            action = OptimalBot(seed=seed).choose(game)
            assert action in game.legal_actions()
            game.apply(action)
        assert all(v is not None for s in game.state.seats for v in s.card)
    assert checked > 40


def test_a_seeded_game_saves_throws_and_ends_with_legal_moves(table: SavedSolution) -> None:
    allowances = set()
    for seed in range(10):
        game = Game(THREE, ["a"], seed=f"bank-{seed}")
        while not game.is_over:
            allowances.add(game.state.turn.allowance)
            action = OptimalBot(seed=seed).choose(game)
            assert action in game.legal_actions()
            game.apply(action)
        assert game.seat().turns_taken == len(THREE.slots)
    assert max(allowances) > THREE.throws  # the bot did carry throws over to later turns


def test_the_mean_score_of_the_bot_s_games_is_the_table_s(table: SavedSolution) -> None:
    games = 1500  # sd about 42 (the 100-point box): the interval is +-2.1, the approximate bot scores 7 less
    result = simulate(THREE, ["optimal"], games, seed="saved-mean", workers=1, engine=True)
    assert result.exact_expected == pytest.approx(table.expected_score)
    stats = result.bots[0]
    assert stats.games == games
    half = 1.96 * stats.sd / math.sqrt(games)
    assert abs(stats.mean - table.expected_score) <= half  # within the 95% interval of the mean
    assert stats.mean_loss == 0.0  # every decision judged on the table: the bot's own choices lose nothing


def test_without_the_table_the_bot_searches_as_before(tmp_path: Path) -> None:
    with cache_dir(tmp_path):
        assert saved_for(THREE) is None
        game = Game(THREE, ["a"], seed=3)
        start = optimal_options(game)
        assert not start.exact
        game.apply(Roll())
        analysis = optimal_options(game)
        assert not analysis.exact and "approximate" in analysis.note
        assert OptimalBot(seed=1).choose(game) in game.legal_actions()
        assert action_loss(game, OptimalBot(seed=1).choose(game)) is None
        result = simulate(THREE, ["optimal"], 2, seed=1, workers=1, engine=True)
        assert result.exact_expected is None and result.bots[0].mean_loss is None
        # an unfinished exact run does not count either
        cap = useful_cap(THREE)
        assert solve_saved(THREE, cap, "lower", default_dir(THREE, cap, "lower"), stop_after=1) is None
        assert saved_for(THREE) is None and not optimal_options(game).exact
    assert np.isfinite(analysis[0].expected)
