"""The Gymnasium environment: Gymnasium's own checker on every preset, encodings, and exact regret."""

from __future__ import annotations

import math

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("cubilete.envs")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from cubilete import find_rules  # noqa: E402
from cubilete.engine.errors import EnvError  # noqa: E402
from cubilete.engine.rules.presets import preset_names  # noqa: E402
from cubilete.envs import ENV_ID, ActionCodec, SolitaireEnv  # noqa: E402
from cubilete.simulate.pool import Z95  # noqa: E402


@pytest.fixture(autouse=True)
def _private_solver_cache(bots_solver_cache: object) -> None:
    """Solved tables go to the session's shared test cache."""


class TestChecker:
    @pytest.mark.parametrize("name", preset_names())
    def test_check_env_every_preset(self, name: str) -> None:
        env = gym.make(ENV_ID, rules=name, regret=False)
        check_env(env.unwrapped, skip_render_check=True)
        # a whole random episode stays inside the observation space, and its return is the final score
        obs, info = env.reset(seed=3)
        rng = np.random.default_rng(0)
        ret, done = 0.0, False
        while not done:
            assert env.observation_space.contains(obs)
            a = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, r, done, truncated, info = env.step(a)
            ret += r
            assert not truncated
        game = env.unwrapped.game
        seat = game.seat(0)
        from cubilete.engine.rules import scoring

        assert ret == scoring.total(env.unwrapped.play_rules, seat.card, seat.extra_bonuses)
        assert all(v is not None for v in seat.card) or seat.turns_taken == game.rules.turns


class TestEncoding:
    def test_codec_round_trip(self) -> None:
        codec = ActionCodec(find_rules("bozo"))
        assert codec.n == 32 + 32 + 10  # keep masks, the same with "em baixo", one per box
        for a in range(codec.n):
            assert codec.encode(codec.decode(a)) == a
        assert codec.decode(0b00101).keep == (0, 2)  # type: ignore[union-attr]

    def test_yahtzee_has_45_actions(self) -> None:
        env = SolitaireEnv("yahtzee", regret=False)
        assert env.action_space.n == 32 + 13

    def test_mask_matches_engine(self) -> None:
        env = SolitaireEnv("generala-apartada", regret=False)
        _, info = env.reset(seed=1)
        _, _, _, _, info = env.step(0b00011)  # keep dice 1 and 2
        mask = info["action_mask"]
        # locked holds: every later keep contains positions 0 and 1; keeping all five never is legal
        keeps = [a for a in range(32) if mask[a]]
        assert keeps and all(a & 0b11 == 0b11 for a in keeps)
        assert not mask[31]
        assert env.action_masks().dtype == bool

    def test_illegal_action_is_a_clear_error(self) -> None:
        env = SolitaireEnv("generala", regret=False)
        before, _ = env.reset(seed=0)
        after, reward, done, _, info = env.step(31)  # keep all five: nothing to throw
        assert info["illegal_action"] and reward == 0.0 and not done and np.array_equal(before, after)
        strict = SolitaireEnv("generala", regret=False, strict=True)
        strict.reset(seed=0)
        with pytest.raises(EnvError, match="not legal"):
            strict.step(31)
        with pytest.raises(EnvError, match="outside"):
            env.step(999)

    def test_bad_rules_are_a_clear_error(self) -> None:
        from cubilete.engine.errors import CubileteError

        with pytest.raises(CubileteError):
            SolitaireEnv("no-such-game")

    def test_profile_path(self, tmp_path: object) -> None:
        from pathlib import Path

        path = Path(str(tmp_path)) / "house.toml"
        path.write_text('base = "generala"\nname = "casa"\n', encoding="utf-8")
        env = SolitaireEnv(str(path), regret=False)
        assert env.rules.name == "casa"

    def test_seed_reproduces_episode(self) -> None:
        a, b = SolitaireEnv("generala", regret=False), SolitaireEnv("generala", regret=False)
        oa, _ = a.reset(seed=42)
        ob, _ = b.reset(seed=42)
        assert np.array_equal(oa, ob)


class TestRegret:
    def test_optimal_actions_have_no_regret(self) -> None:
        from cubilete.solver.advisor import advise

        env = SolitaireEnv("generala")
        _, info = env.reset(seed=5)
        done = False
        while not done:
            game = env.game
            assert game is not None
            seat, turn = game.seat(), game.state.turn
            best = advise(env.solution(), seat.card, turn.dice, turn.throws, seat.extra_bonuses)[0]
            if best.kind == "score":
                a = env.codec.encode(__import__("cubilete").Score(best.slot))
            else:
                from cubilete.play.coach import keep_positions

                a = sum(1 << p for p in keep_positions(turn.dice, best.keep))
            _obs, _r, done, _, info = env.step(a)
            assert info["regret"] == pytest.approx(0.0, abs=1e-9)

    def test_random_policy_regret_plus_score_is_the_optimum(self) -> None:
        """E[score] = optimum - E[sum of regrets]: a random policy's score plus its regret averages the
        optimum (the solver's value of the empty sheet) within its 95% interval."""
        env = SolitaireEnv("generala")
        rng = np.random.default_rng(2024)
        sums = []
        for ep in range(60):
            _, info = env.reset(seed=ep)
            total, done = 0.0, False
            while not done:
                _, r, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
                total += r + info["regret"]
            sums.append(total)
        mean, sd = float(np.mean(sums)), float(np.std(sums, ddof=1))
        half = Z95 * sd / math.sqrt(len(sums))
        optimum = env.solution().expected_score
        assert mean - half <= optimum <= mean + half
        assert optimum == pytest.approx(162.47, abs=0.01)

    def test_unsolvable_rules_say_regret_unknown(self) -> None:
        env = SolitaireEnv("maxi-yatzy")
        _, info = env.reset(seed=0)
        a = int(np.flatnonzero(info["action_mask"])[-1])
        _, _, _, _, info = env.step(a)
        assert info["regret_known"] is False and "regret" not in info

    @pytest.mark.parametrize("name", preset_names())
    def test_gymnasium_check_env_passes(self, name: str) -> None:
        from gymnasium.utils.env_checker import check_env

        check_env(SolitaireEnv(name))  # infos must compare equal for the same seed and action

    def test_regret_off(self) -> None:
        env = SolitaireEnv("generala", regret=False)
        _, info = env.reset(seed=0)
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        assert "regret" not in info
