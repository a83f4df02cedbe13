"""Simulation: reproducible from the seed with any number of workers, honest statistics, and the
optimal bot's simulated mean against the exact expected score."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete.engine.errors import SimulationError, UnknownBotError
from cubilete.engine.rules import find_rules
from cubilete.play.bots import solution_for
from cubilete.simulate.pool import labels_for, mean_interval, play_game, simulate, wilson


@pytest.fixture(scope="module", autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.getbasetemp() / "bots-solver-cache"
    path.mkdir(exist_ok=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    yield path
    mp.undo()


class TestStatistics:
    def test_mean_interval_by_hand(self) -> None:
        mean, sd, (lo, hi) = mean_interval([2.0, 4.0, 6.0, 8.0])
        assert mean == 5.0
        assert sd == pytest.approx(math.sqrt(20 / 3))  # squares 9 + 1 + 1 + 9 over n - 1 = 3
        assert hi - mean == pytest.approx(1.96 * math.sqrt(20 / 3) / 2, rel=1e-4)
        assert mean - lo == pytest.approx(hi - mean)

    def test_wilson_interval_by_hand(self) -> None:
        # 8 of 10 at z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 1.96 sqrt(0.016 + 0.0009604) / 1.38416
        lo, hi = wilson(8, 10)
        assert (lo, hi) == pytest.approx((0.4902, 0.9433), abs=1e-4)
        assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
        assert wilson(0, 20)[1] > 0.0  # never a zero-width interval

    def test_labels(self) -> None:
        labels = labels_for(["optimal", "optimal", "random", "optimal"])
        assert labels == ["optimal", "optimal-2", "random", "optimal-3"]


class TestSimulate:
    def test_same_seed_same_result_with_one_or_two_workers(self) -> None:
        rules = find_rules("generala")
        one = simulate(rules, ["greedy", "random"], games=12, seed="w", workers=1, loss=False)
        two = simulate(rules, ["greedy", "random"], games=12, seed="w", workers=2, loss=False)
        assert [(b.mean, b.sd, b.wins) for b in one.bots] == [(b.mean, b.sd, b.wins) for b in two.bots]

    def test_games_come_from_seed_and_index(self) -> None:
        rules = find_rules("generala")
        assert play_game(rules, ["heuristic"], "s", 3, "solo", False) == play_game(
            rules, ["heuristic"], "s", 3, "solo", False
        )
        outcomes = [play_game(rules, ["heuristic"], "s", i, "solo", False)[0].score for i in range(6)]
        assert len(set(outcomes)) > 1

    def test_table_mode_counts_wins(self) -> None:
        result = simulate(find_rules("generala"), ["heuristic", "random"], games=20, seed=3, workers=1, loss=False)
        heuristic, rand = result.bots
        assert result.mode == "table"
        assert heuristic.wins is not None and rand.wins is not None
        assert heuristic.wins + rand.wins >= 20  # one winner a game, two for a shared win
        assert heuristic.wins > rand.wins
        assert heuristic.win_ci is not None and heuristic.win_ci[0] <= (heuristic.win_rate or 0) <= heuristic.win_ci[1]

    def test_solo_mode_has_no_wins_and_common_dice(self) -> None:
        result = simulate(find_rules("generala"), ["greedy", "greedy"], games=10, seed=4, workers=1, mode="solo")
        a, b = result.bots
        assert (a.label, b.label) == ("greedy", "greedy-2")
        assert a.wins is None and a.win_rate is None
        assert a.mean == b.mean  # same deterministic bot, same dice seed in every game

    def test_progress_reports_every_game(self) -> None:
        seen: list[tuple[int, int]] = []
        rules = find_rules("generala")
        simulate(rules, ["random"], games=7, seed=1, workers=1, progress=lambda d, t: seen.append((d, t)))
        assert seen[-1] == (7, 7)
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)

    def test_loss_is_not_measured_where_the_rules_are_not_solved(self) -> None:
        result = simulate(find_rules("maxi-yatzy"), ["greedy"], games=2, seed=1, workers=1, mode="solo")
        assert result.bots[0].mean_loss is None and result.exact_expected is None

    def test_bad_requests(self) -> None:
        rules = find_rules("generala")
        with pytest.raises(SimulationError, match="games must be at least 1"):
            simulate(rules, ["random"], games=0, seed=1)
        with pytest.raises(SimulationError, match="workers must be at least 1"):
            simulate(rules, ["random"], games=1, seed=1, workers=0)
        with pytest.raises(SimulationError, match="seats 1 to 8 players, not 9 bots"):
            simulate(rules, ["random"] * 9, games=1, seed=1)
        with pytest.raises(SimulationError, match="at least one bot"):
            simulate(rules, [], games=1, seed=1)
        with pytest.raises(UnknownBotError, match="levels: random, greedy"):
            simulate(rules, ["genius"], games=1, seed=1)


def exact_check(preset: str, games: int, workers: int) -> tuple[float, float, tuple[float, float]]:
    """(exact expected score, simulated mean, its 95% interval) for the optimal bot playing alone."""
    rules = find_rules(preset)
    solution = solution_for(rules)
    assert solution is not None
    result = simulate(rules, ["optimal"], games=games, seed="exact", workers=workers, mode="solo", loss=False,
                      engine=True)  # fmt: skip
    bot = result.bots[0]
    return solution.expected_score, bot.mean, bot.mean_ci


# Generala servida ends a game at once, which the expected-score model does not do; the
# check plays generala-sin-gana (servida scored, play goes on), whose exact value is generala's.
EXACT_PRESETS = ["generala-sin-gana", "yahtzee"]


def test_generala_sin_gana_has_the_exact_value_of_generala() -> None:
    a, b = solution_for(find_rules("generala")), solution_for(find_rules("generala-sin-gana"))
    assert a is not None and b is not None
    assert a.expected_score == pytest.approx(b.expected_score, abs=1e-9)


@pytest.mark.parametrize("preset", EXACT_PRESETS)
def test_optimal_mean_within_its_interval_quick(preset: str) -> None:
    exact, mean, (lo, hi) = exact_check(preset, 100, 2)
    assert lo <= exact <= hi, f"{preset}: exact {exact:.2f} outside [{lo:.2f}, {hi:.2f}] (mean {mean:.2f})"
    assert hi - lo < 30  # 100 games: a wide but useful interval


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "games"), [("generala-sin-gana", 2000), ("yahtzee", 1000)])
def test_optimal_mean_within_its_interval(preset: str, games: int) -> None:
    exact, mean, (lo, hi) = exact_check(preset, games, 2)
    assert lo <= exact <= hi, f"{preset}: exact {exact:.2f} outside [{lo:.2f}, {hi:.2f}] (mean {mean:.2f})"


def test_levels_are_ordered_by_measured_loss() -> None:
    levels = ["optimal", "strong", "casual", "beginner"]
    result = simulate(find_rules("generala"), levels, games=30, seed="order", workers=2, mode="solo")
    losses = [b.mean_loss for b in result.bots]
    assert losses[0] == 0.0
    assert all(x is not None for x in losses)
    assert losses == sorted(losses)  # type: ignore[type-var]
    cis = [b.loss_ci for b in result.bots[1:]]
    assert all(ci is not None for ci in cis)
    # the intervals do not even overlap on 30 games
    assert cis[0][1] < cis[1][0] and cis[1][1] < cis[2][0]  # type: ignore[index]
