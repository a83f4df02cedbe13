"""Masked PPO (sb3-contrib) on ``cubilete/Solitaire-v0`` with regret shaping, then evaluated.

    pip install 'cubilete[rl,train]'        # sb3-contrib and CPU torch
    python examples/rl/ppo_yahtzee.py --steps 200000 --rules yahtzee --save ppo-yahtzee.zip

Shaping: the reward the agent learns from is ``points - shaping * regret``. Regret is exact and
dense (every decision, not only the turn's score), and ``E[score] = optimum - E[sum of regrets]``,
so with ``--shaping 1`` the return's expectation differs from the score's only by a constant: the
optimal policy is unchanged while the signal is far less noisy. The evaluation at the end uses the
plain score (``cubilete.envs.evaluate``), on dice seeds the agent never trained on.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np

import cubilete.envs  # noqa: F401  (registers cubilete/Solitaire-v0)

_MODEL: Any = None


class RegretShaping(gym.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """reward <- points - shaping * regret (the points stay in info["points"])."""

    def __init__(self, env: gym.Env[np.ndarray, np.int64], shaping: float) -> None:
        super().__init__(env)
        self.shaping = shaping

    def step(self, action: np.int64) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, term, trunc, info = self.env.step(action)
        info["points"] = reward
        return obs, float(reward) - self.shaping * float(info.get("regret", 0.0)), term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def make_env(rules: str, shaping: float) -> gym.Env[np.ndarray, np.int64]:
    return RegretShaping(gym.make("cubilete/Solitaire-v0", rules=rules, regret=shaping > 0).unwrapped, shaping)


def train(rules: str, steps: int, shaping: float, n_envs: int, seed: int) -> Any:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(lambda: make_env(rules, shaping), n_envs=n_envs, seed=seed)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=256, batch_size=256, gamma=1.0, gae_lambda=0.95, learning_rate=3e-4,
        ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, seed=seed, verbose=0, device="cpu",
    )  # fmt: skip
    model.learn(total_timesteps=steps)
    return model


def policy(observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
    """The trained model as a ``cubilete evaluate`` policy (set ``_MODEL`` first, or load one)."""
    action, _ = _MODEL.predict(observation, action_masks=action_mask.astype(bool), deterministic=True)
    return int(action)


def main() -> None:
    global _MODEL
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--shaping", type=float, default=1.0, help="weight of the regret in the reward (0: none)")
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=200, help="evaluation games")
    parser.add_argument("--save", help="save the model here")
    args = parser.parse_args()
    start = time.perf_counter()
    _MODEL = train(args.rules, args.steps, args.shaping, args.envs, args.seed)
    print(f"trained {args.steps:,} steps in {time.perf_counter() - start:.0f} s")
    if args.save:
        _MODEL.save(args.save)
    from cubilete.envs.evaluate import evaluate

    r = evaluate(f"{__name__}:policy" if __name__ != "__main__" else "__main__:policy", args.rules, args.games, 10**6)
    print(f"mean score {r.mean:.2f} [{r.mean_ci[0]:.2f}, {r.mean_ci[1]:.2f}], optimum {r.optimum}, "
          f"regret {r.mean_regret} per game")  # fmt: skip


if __name__ == "__main__":
    main()
