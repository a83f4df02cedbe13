"""OpenSpiel's MCTS plays a game of Generala against a random player on ``python_cubilete``.

    python examples/rl/openspiel_mcts.py [--rules generala] [--simulations 30] [--seed 1]

Needs the rl extra (open_spiel). Python games are slow under MCTS (each simulation copies the
state): 30 simulations a move take a few seconds a move on one core.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import cubilete.envs.openspiel  # noqa: F401  (registers python_cubilete)


def play(rules: str = "generala", simulations: int = 30, seed: int = 1) -> list[float]:
    """One game: seat 0 is MCTS, seat 1 plays at random; returns the terminal returns."""
    game = pyspiel.load_game("python_cubilete", {"rules": rules, "players": 2})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    print(state)
    return list(state.returns())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="generala")
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("returns:", play(args.rules, args.simulations, args.seed))
