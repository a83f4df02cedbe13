"""Steps per second of the Yahtzee environments, random legal actions, next to a PyPI peer.

    .venv/bin/python benchmarks/rl_env.py [--seconds 5] [--envs 1024]

Peer: ``pyhtzee`` (PyPI), the engine under ``gym-yahtzee``: ``take_action`` on a random action from
``get_possible_actions()``, one game after another (``pip install pyhtzee`` if missing; gym-yahtzee
itself needs the retired ``gym`` package and adds only an observation tuple per step). Ours:
``cubilete/Solitaire-v0`` one env at a time, and ``make_vec(..., vectorization_mode="vector_entry_point")``
with and without exact regret. Actions are drawn from the masks in both (the drawing is timed too).
The first calls (numba compilation, the solved table) are not timed.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def peer_steps(seconds: float) -> float | None:
    try:
        from pyhtzee import Pyhtzee
    except ImportError:
        print("pyhtzee is not installed (pip install pyhtzee): no peer figure")
        return None
    rng = random.Random(0)
    game, steps, start = Pyhtzee(seed=0), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.take_action(rng.choice(game.get_possible_actions()))
        steps += 1
        if game.is_finished():
            game = Pyhtzee(seed=steps)
    return steps / (time.perf_counter() - start)


def single_steps(seconds: float, regret: bool) -> float:
    import gymnasium as gym

    import cubilete.envs  # noqa: F401

    env = gym.make("cubilete/Solitaire-v0", rules="yahtzee", regret=regret)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if done:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector_steps(seconds: float, n: int, regret: bool) -> float:
    import gymnasium as gym

    import cubilete.envs  # noqa: F401

    venv = gym.make_vec(
        "cubilete/Solitaire-v0", num_envs=n, vectorization_mode="vector_entry_point", rules="yahtzee", regret=regret
    )
    rng = np.random.default_rng(0)
    _, info = venv.reset(seed=0)
    for _ in range(3):  # compile and warm up
        m = info["action_mask"]
        _, _, _, _, info = venv.step((rng.random(m.shape) * m).argmax(1))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        m = info["action_mask"]
        _, _, _, _, info = venv.step((rng.random(m.shape) * m).argmax(1))
        steps += n
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement (default 5)")
    parser.add_argument("--envs", type=int, default=1024, help="envs in the vector env (default 1024)")
    args = parser.parse_args()
    peer = peer_steps(args.seconds)
    rows = [
        ("pyhtzee (peer), one game at a time", peer),
        ("Solitaire-v0, one env, regret=False", single_steps(args.seconds, False)),
        ("Solitaire-v0, one env, exact regret", single_steps(args.seconds, True)),
        (f"make_vec {args.envs} envs, regret=False", vector_steps(args.seconds, args.envs, False)),
        (f"make_vec {args.envs} envs, exact regret", vector_steps(args.seconds, args.envs, True)),
    ]
    for name, rate in rows:
        if rate is None:
            continue
        ratio = f"{rate / peer:8.2f} x peer" if peer else ""
        print(f"{name:<42} {rate:12,.0f} steps/s {ratio}")


if __name__ == "__main__":
    main()
