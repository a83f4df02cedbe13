"""``SolitaireVectorEnv.action_regrets()``: the regret of every legal action at once equals, bit for bit, the
single environment's regret of that action (the advisor's loss), on random states replayed through the engine."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("cubilete.envs")

from cubilete import Game, ScriptedDice  # noqa: E402
from cubilete.engine.actions import Roll, Score  # noqa: E402
from cubilete.engine.errors import EnvError  # noqa: E402
from cubilete.envs import SolitaireEnv  # noqa: E402
from cubilete.envs.vector import SolitaireVectorEnv  # noqa: E402


@pytest.fixture(autouse=True)
def _private_solver_cache(bots_solver_cache: object) -> None:
    """Solved tables go to the session's shared test cache."""


def check_every_action(rules: str, steps: int, num_envs: int = 2, seed: int = 5) -> int:
    """Random legal play; before each step every legal action's regret is compared with the single env's."""
    env = SolitaireVectorEnv(num_envs, rules, regret=True)
    judge = SolitaireEnv(rules, regret=True)
    codec, n, S = judge.codec, env.rules.dice, len(env.rules.slots)
    dice_at = slice(2 * S, 2 * S + n)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def new_game(i: int) -> Game:
        g = Game(judge.play_rules, ["agent"], seed="x", dice=ScriptedDice([tuple(int(f) for f in obs[i, dice_at])]))
        g.apply(Roll())
        return g

    games = [new_game(i) for i in range(num_envs)]
    pending = [False] * num_envs
    compared = 0
    for _ in range(steps):
        every = env.action_regrets()
        for i, g in enumerate(games):
            legal = info["action_mask"][i].astype(bool)
            assert np.isnan(every[i]).tolist() == (~legal if not pending[i] else np.ones_like(legal)).tolist()
            if pending[i]:
                continue
            for a in np.flatnonzero(legal):
                assert every[i, a] == judge._regret(g, codec.decode(int(a))), (rules, i, codec.decode(int(a)))
                compared += 1
            assert np.nanmin(every[i]) == 0.0  # some action is optimal
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, _, _, _, info = env.step(actions)
        for i, g in enumerate(games):
            if pending[i]:
                games[i], pending[i] = new_game(i), False
                continue
            action = codec.decode(int(actions[i]))
            if isinstance(action, Roll):
                keep = set(action.keep)
                g.dice.throws[g.state.throws_made :] = [  # type: ignore[attr-defined]
                    tuple(int(obs[i, dice_at][p]) for p in range(n) if p not in keep)
                ]
            g.apply(action)
            if g.is_over:
                pending[i] = True
            elif isinstance(action, Score):
                g.dice.throws[g.state.throws_made :] = [tuple(int(f) for f in obs[i, dice_at])]  # type: ignore[attr-defined]
                g.apply(Roll())
    return compared


def test_every_action_generala() -> None:
    assert check_every_action("generala", steps=80) > 500


@pytest.mark.slow
def test_every_action_yahtzee() -> None:  # jokers and the Yahtzee bonus
    assert check_every_action("yahtzee", steps=80) > 500


def test_needs_regret_and_a_reset() -> None:
    with pytest.raises(EnvError, match="regret=True"):
        SolitaireVectorEnv(2, "generala", regret=False).action_regrets()
    with pytest.raises(EnvError, match="reset"):
        SolitaireVectorEnv(2, "generala", regret=True).action_regrets()
