"""Difficulty levels: the optimal bot with slips.

At each decision a level plays the best option, except that with probability ``slip`` it
samples an option from a softmax over the advisor's options: option ``i`` is drawn with
weight ``exp(-loss_i / temperature)`` (the best option, loss 0, can be drawn too). A small
temperature slips to near-equal options; a large one to clearly worse ones. The levels are
then defined by what this costs, measured by simulation (docs/BOTS.md): their average loss
in points per game against optimal play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import Analysis, action_for, bot_seed, decision_rng
from cubilete.play.bots.optimal import optimal_options, solution_for
from cubilete.solver.advisor import Option


@dataclass(frozen=True)
class Slips:
    """How a level departs from optimal play: how often, and how far."""

    slip: float  # probability of sampling instead of playing the best option
    temperature: float  # softmax temperature, in points of expected final score


LEVEL_SLIPS: dict[str, Slips] = {
    "beginner": Slips(0.3, 8.0),
    "casual": Slips(0.2, 4.0),
    "strong": Slips(0.1, 2.0),
}


def softmax_pick(options: list[Option], temperature: float, u: float) -> Option:
    """The option at cumulative probability ``u`` (0 <= u < 1) of the softmax over ``-loss / temperature``.

    >>> a, b = Option("score", 10.0, 0.0, slot="a"), Option("score", 9.0, 1.0, slot="b")
    >>> softmax_pick([a, b], 1.0, 0.5).slot, softmax_pick([a, b], 1.0, 0.9).slot
    ('a', 'b')
    """
    weights = [math.exp(-o.loss / temperature) for o in options]
    target = u * sum(weights)
    for option, w in zip(options, weights, strict=True):
        target -= w
        if target < 0:
            return option
    return options[-1]


class LevelBot:
    """The optimal bot with the slips of a difficulty level; reproducible from its seed."""

    def __init__(self, name: str, slips: Slips, seed: int | str | None = None) -> None:
        self.name = name
        self.slips = slips
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"LevelBot({self.name!r}, {self.slips!r}, seed={self.seed!r})"

    def prepare(self, rules: Rules) -> None:
        """Load (or solve) the table now rather than at the first move."""
        solution_for(rules)

    def analyse(self, game: Game) -> Analysis:
        """The optimal bot's options (the ones this level samples from)."""
        return optimal_options(game)

    def choose(self, game: Game) -> Action:
        """The best option, or with probability ``slip`` a softmax sample of the options."""
        options = self.analyse(game)
        rng = decision_rng(self.seed, game)
        pick = options[0]
        if len(options) > 1 and rng.random() < self.slips.slip:
            pick = softmax_pick(list(options), self.slips.temperature, rng.random())
        return action_for(game, pick)
