"""The OpenSpiel game: OpenSpiel's random simulation test, exact chance probabilities, zero-sum returns,
and MCTS running on it."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")

import cubilete.envs.openspiel  # noqa: E402, F401


class TestOpenSpiel:
    def test_random_sim_test(self) -> None:
        game = pyspiel.load_game("python_cubilete", {"rules": "generala", "players": 2})
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)

    @pytest.mark.slow
    @pytest.mark.parametrize("params", [{"rules": "bozo", "players": 3}, {"rules": "generala-apartada", "players": 8}])
    def test_random_sim_test_more(self, params: dict[str, object]) -> None:
        game = pyspiel.load_game("python_cubilete", params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

    def test_chance_outcomes_are_exact(self) -> None:
        game = pyspiel.load_game("python_cubilete", {"rules": "generala", "players": 2})
        state = game.new_initial_state()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 252  # multisets of five dice
        # against counting the 6^5 ordered throws
        counts: dict[tuple[int, ...], int] = {}
        for throw in product(range(1, 7), repeat=5):
            key = tuple(sorted(throw))
            counts[key] = counts.get(key, 0) + 1
        for action, p in outcomes:
            faces = tuple(int(f) for f in state.action_to_string(pyspiel.PlayerId.CHANCE, action).split()[1:])
            assert Fraction(p).limit_denominator(7776) == Fraction(counts[faces], 7776)
        state.apply_action(outcomes[100][0])
        state.apply_action(0b00111)  # keep three dice: two thrown, 21 outcomes
        assert len(state.chance_outcomes()) == 21
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0, abs=1e-12)

    def test_instant_win_returns_are_zero_sum(self) -> None:
        game = pyspiel.load_game("python_cubilete", {"rules": "generala", "players": 3})
        state = game.new_initial_state()
        generala = next(a for a, _ in state.chance_outcomes() if state.action_to_string(-1, a) == "throw 6 6 6 6 6")
        state.apply_action(generala)  # a servida Generala for seat 0
        assert state.is_terminal()
        assert state.returns() == [1.0, -0.5, -0.5]

    def test_mcts_plays(self) -> None:
        from open_spiel.python.algorithms import mcts

        game = pyspiel.load_game("python_cubilete", {"rules": "generala", "players": 2})
        state = game.new_initial_state()
        state.apply_action(100)
        rng = np.random.RandomState(0)
        bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        assert bot.step(state) in state.legal_actions()
