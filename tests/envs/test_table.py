"""The PettingZoo table: PettingZoo's own API test, instant wins, tie-break rounds and rewards."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test

from cubilete import ScriptedDice, find_rules
from cubilete.engine.errors import EnvError
from cubilete.engine.rules import Start
from cubilete.envs import table_env
from cubilete.envs.table import TableEnv


class TestApi:
    @pytest.mark.parametrize(
        ("rules", "players"), [("generala", 2), ("yahtzee", 3), ("bozo", 8), ("generala-apartada", 4)]
    )
    def test_api_test(self, rules: str, players: int) -> None:
        api_test(table_env(rules=rules, players=players), num_cycles=300)

    def test_points_rewards_api_and_seed(self) -> None:
        api_test(table_env(rules="general", players=2, reward="points"), num_cycles=300)
        seed_test(lambda: table_env(rules="generala", players=2), num_cycles=50)

    def test_bad_arguments(self) -> None:
        with pytest.raises(EnvError, match="players"):
            table_env(rules="generala", players=1)
        with pytest.raises(EnvError, match="players"):
            table_env(rules="generala", players=9)
        with pytest.raises(EnvError, match="reward"):
            table_env(rules="generala", reward="money")


def play_out(env: TableEnv, rng: np.random.Generator) -> None:
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


class TestOutcomes:
    def test_whole_games_are_zero_sum(self) -> None:
        rng = np.random.default_rng(0)
        for players in (2, 3, 5):
            env = table_env(rules="generala", players=players)
            env.reset(seed=players)
            totals = dict.fromkeys(env.possible_agents, 0.0)
            for agent in env.agent_iter():
                obs, reward, term, trunc, _ = env.last()
                totals[agent] += reward
                env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            assert sum(totals.values()) == pytest.approx(0.0)
            assert env.game is not None and env.game.is_over

    def test_instant_win(self) -> None:
        env = TableEnv(rules=find_rules("generala").replace(start=Start.SEAT_ORDER), players=2)
        env.reset(options={"dice": ScriptedDice([(6, 6, 6, 6, 6)])})  # a servida Generala wins at once
        assert all(env.terminations.values())
        assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
        assert env.infos["player_0"]["reason"] == "instant-win"

    def test_tie_break_round(self) -> None:
        base = find_rules("generala")
        rules = base.replace(name="one-box", boxes=base.boxes[:1], start=Start.SEAT_ORDER)
        dice = ScriptedDice([(1, 2, 3, 4, 6), (1, 3, 3, 4, 6), (6, 6, 6, 6, 5), (1, 1, 2, 3, 4)])
        env = TableEnv(rules=rules, players=2)
        env.reset(options={"dice": dice})
        score_one = env.codec.slot_base
        env.step(score_one)  # player_0 writes 1 in "1"
        env.step(score_one)  # player_1 too: 1 - 1, a tie-break round follows
        obs = env.observe("player_0")
        assert obs["observation"][-1] == 1.0
        assert obs["action_mask"][env.stand_action] == 1
        assert not obs["action_mask"][score_one]
        env.step(env.stand_action)  # player_0 shows no ace
        assert not any(env.terminations.values())
        env.step(env.stand_action)  # player_1 shows two aces and wins
        assert env.infos["player_1"]["winner"] and env.infos["player_1"]["reason"] == "tie-break"
        assert env.rewards == {"player_0": -1.0, "player_1": 1.0}

    def test_illegal_action_is_a_clear_error(self) -> None:
        env = table_env(rules="generala", players=2)
        env.reset(seed=1)
        with pytest.raises(EnvError, match="not legal"):
            env.step(31)
