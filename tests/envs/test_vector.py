"""The numba vector environment scores exactly as the engine: every step is replayed through
:class:`~cubilete.engine.game.Game` with the same dice, and the regret agrees with the single environment."""

from __future__ import annotations

import math

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("cubilete.envs")

from cubilete import Game, ScriptedDice  # noqa: E402
from cubilete.engine.actions import Roll, Score  # noqa: E402
from cubilete.engine.errors import EnvError  # noqa: E402
from cubilete.engine.rules import scoring  # noqa: E402
from cubilete.envs import ENV_ID, SolitaireEnv  # noqa: E402
from cubilete.envs.vector import SolitaireVectorEnv  # noqa: E402
from cubilete.simulate.pool import Z95  # noqa: E402


@pytest.fixture(autouse=True)
def _private_solver_cache(bots_solver_cache: object) -> None:
    """Solved tables go to the session's shared test cache."""


def replay_check(rules: str, regret: bool, num_envs: int = 3, steps: int = 120, seed: int = 7) -> int:
    """Random legal play in the vector env; each env's game is replayed through the engine."""
    venv = gym.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", rules=rules, regret=regret)
    env = venv.unwrapped if hasattr(venv, "unwrapped") else venv
    assert isinstance(env, SolitaireVectorEnv)
    judge = SolitaireEnv(rules, regret=regret)  # for its codec, layout and exact regret
    codec, n = judge.codec, env.rules.dice
    dice_at = slice(2 * len(env.rules.slots), 2 * len(env.rules.slots) + n)
    obs, info = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    games: list[Game] = []

    def new_game(i: int) -> Game:
        g = Game(judge.play_rules, ["agent"], seed="x", dice=ScriptedDice([tuple(int(f) for f in obs[i, dice_at])]))
        g.apply(Roll())
        return g

    games = [new_game(i) for i in range(num_envs)]
    finished = 0
    pending = [False] * num_envs
    for _ in range(steps):
        for i, g in enumerate(games):
            if not pending[i]:
                assert np.array_equal(info["action_mask"][i], codec.mask(g.legal_actions())), (rules, i)
                judge.game = g
                assert np.array_equal(obs[i], judge._observe()), (rules, i)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        expected_regret = [
            None if pending[i] or not regret else judge._regret(g, codec.decode(int(actions[i])))  # type: ignore[arg-type]
            for i, g in enumerate(games)
        ]
        obs, rewards, term, trunc, info = venv.step(actions)
        assert not trunc.any()
        for i, g in enumerate(games):
            if pending[i]:
                games[i], pending[i] = new_game(i), False
                continue
            action = codec.decode(int(actions[i]))
            before = scoring.total(judge.play_rules, g.seat(0).card, g.seat(0).extra_bonuses)
            if isinstance(action, Roll):
                keep = set(action.keep)
                thrown = tuple(int(obs[i, dice_at][p]) for p in range(n) if p not in keep)
                if action.face_down:
                    thrown = tuple(7 - f for f in thrown)
                g.dice.throws[g.state.throws_made :] = [thrown]  # type: ignore[attr-defined]
            g.apply(action)
            after = scoring.total(judge.play_rules, g.seat(0).card, g.seat(0).extra_bonuses)
            assert rewards[i] == after - before, (rules, i, action)
            assert bool(term[i]) == g.is_over
            if regret:
                assert info["regret"][i] == expected_regret[i], (rules, i, action)
            if g.is_over:
                finished += 1
                pending[i] = True
            elif isinstance(action, Score):
                g.dice.throws[g.state.throws_made :] = [tuple(int(f) for f in obs[i, dice_at])]  # type: ignore[attr-defined]
                g.apply(Roll())
    return finished


class TestAgainstEngine:
    def test_generala_with_regret(self) -> None:
        assert replay_check("generala", regret=True, steps=150) >= 3

    @pytest.mark.slow
    @pytest.mark.parametrize(
        ("rules", "regret"),
        [
            ("generala-apartada", True),  # locked holds
            ("bozo", True),  # "em baixo" calls
            ("yahtzee", False),  # jokers and the Yahtzee bonus
            ("yatzy", False),
            ("yatzy-13", False),  # fewer rounds than boxes
            ("general", False),
            ("generala-obligada", False),  # fixed order
        ],
    )
    def test_every_kind_of_rule(self, rules: str, regret: bool) -> None:
        assert replay_check(rules, regret=regret, steps=300) >= 3


class TestVector:
    def test_random_policy_regret_plus_score_is_the_optimum(self) -> None:
        venv = gym.make_vec(ENV_ID, num_envs=64, vectorization_mode="vector_entry_point", rules="generala")
        _, info = venv.reset(seed=11)
        rng = np.random.default_rng(11)
        acc, sums = np.zeros(64), []
        while len(sums) < 300:
            m = info["action_mask"]
            _, r, term, _, info = venv.step((rng.random(m.shape) * m).argmax(1))
            acc += r + info["regret"]
            for i in np.flatnonzero(term):
                sums.append(acc[i])
                acc[i] = 0.0
        mean, sd = float(np.mean(sums)), float(np.std(sums, ddof=1))
        half = Z95 * sd / math.sqrt(len(sums))
        assert mean - half <= 162.4695 <= mean + half

    def test_same_seed_same_games(self) -> None:
        def run() -> np.ndarray:
            venv = gym.make_vec(
                ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", rules="generala", regret=False
            )
            obs, info = venv.reset(seed=3)
            out = [obs]
            for _ in range(20):
                obs, *_, info = venv.step(np.argmax(info["action_mask"], axis=1))
                out.append(obs)
            return np.stack(out)

        assert np.array_equal(run(), run())

    def test_unsolvable_rules_are_refused(self) -> None:
        with pytest.raises(EnvError, match="solver"):
            SolitaireVectorEnv(2, rules="maxi-yatzy")

    def test_illegal_action_changes_nothing(self) -> None:
        venv = SolitaireVectorEnv(2, rules="generala", regret=False)
        obs, _ = venv.reset(seed=0)
        after, rewards, *_, info = venv.step(np.array([31, 31]))
        assert info["illegal_action"].all() and np.array_equal(obs, after) and not rewards.any()
        strict = SolitaireVectorEnv(2, rules="generala", regret=False, strict=True)
        strict.reset(seed=0)
        with pytest.raises(EnvError, match="not legal"):
            strict.step(np.array([31, 31]))
