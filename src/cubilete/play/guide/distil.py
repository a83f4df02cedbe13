"""Distilling a guide from the exact solution: greedily add the rule that cuts the most expected points
lost against optimal play on positions the guide bot itself reaches (sampled one-player games)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.base import in_play
from cubilete.play.bots.optimal import action_loss
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import DEFAULT, Do, Rule, When, act, matches

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Step:
    """A rule the distillation added and the mean points per game it saved on that round's sample."""

    rule: Rule
    saved: float


def candidates(rules: Rules) -> list[Rule]:
    """Every rule template the distillation may pick, for each box of the sheet."""
    found = [Rule(When.LAST_ROLL, Do.SCORE_BEST)]
    for slot in rules.slots:
        found += [
            Rule(When.PAYS_FULL, Do.SCORE_BOX, slot),
            Rule(When.PAYS_HALF, Do.SCORE_BOX, slot),
            Rule(When.OPEN, Do.KEEP_FOR, slot),
        ]
    return found


class Position:
    """A sampled decision with the loss of each move judged once (the exact table is read per move)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._loss: dict[Action, float] = {}

    def loss(self, action: Action) -> float:
        if action not in self._loss:
            self._loss[action] = action_loss(self.game, action) or 0.0
        return self._loss[action]

    def guide_loss(self, guide: tuple[Rule, ...]) -> float:
        return self.loss(act(first_match(guide, self.game), self.game))


def sample(rules: Rules, guide: tuple[Rule, ...], games: int, seed: str) -> list[Position]:
    """The positions the guide bot reaches in ``games`` one-player games (after the first throw)."""
    bot = GuideBot(guide)
    found: list[Position] = []
    for index in range(games):
        game = Game(rules, ["guide"], seed=f"{seed}-{index}")
        while not game.is_over:
            if game.state.turn.throws > 0 and in_play(game):
                found.append(Position(copy.deepcopy(game)))
            game.apply(bot.choose(game))
    return found


def total_loss(positions: list[Position], guide: tuple[Rule, ...]) -> float:
    """Expected points lost against optimal play, summed over the positions."""
    return sum(p.guide_loss(guide) for p in positions)


def distil(
    rules: Rules, count: int, games: int = 200, seed: str = "guide", progress: Progress | None = None
) -> list[Step]:
    """Up to ``count`` rules, each the one that cuts the loss most when put before the default.

    Each round re-samples the positions with the guide so far; a rule is added only when it saves points.
    """
    if count <= 0:
        raise ValueError("count must be positive")
    steps: list[Step] = []
    pool = candidates(rules)
    for round_ in range(count):
        guide = tuple(s.rule for s in steps)
        positions = sample(rules, guide, games, f"{seed}-{round_}")
        # only positions no earlier rule decides can change when a rule is appended
        loose = [p for p in positions if first_match(guide, p.game) is DEFAULT]
        base = {id(p): p.loss(act(DEFAULT, p.game)) for p in loose}
        best: tuple[float, Rule | None] = (0.0, None)
        for rule in pool:
            if rule in guide:
                continue
            saved = sum(base[id(p)] - p.loss(act(rule, p.game)) for p in loose if matches(rule, p.game))
            if saved > best[0] + 1e-12:
                best = (saved, rule)
        if progress is not None:
            progress(round_ + 1, count)
        if best[1] is None:
            break
        steps.append(Step(best[1], best[0] / games))
    return steps
