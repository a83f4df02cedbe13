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
from cubilete.play.guide.rules import PATTERNS, Do, Rule, When, act, matches

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
        found += [Rule(when, do, slot) for when in PATTERNS for do in (Do.KEEP_FOR, Do.SCORE_BOX)]
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
    rules: Rules,
    count: int,
    games: int = 200,
    seed: str = "guide",
    progress: Progress | None = None,
    rounds: list[tuple[Rule, ...]] | None = None,
) -> list[Step]:
    """Up to ``count`` rules: each round adds the rule, at the place in the list, that cuts the loss most.

    Each round re-samples the positions with the guide so far; a rule is added only when it saves points.
    The guide is returned in its final order; ``saved`` is what each rule saved in the round it came in.
    ``rounds``, if given, receives the guide after each round (the guide of 1, 2, ... rules).
    """
    if count <= 0:
        raise ValueError("count must be positive")
    guide: list[Rule] = []
    saved_by: dict[Rule, float] = {}
    pool = candidates(rules)
    for round_ in range(count):
        positions = sample(rules, tuple(guide), games, f"{seed}-{round_}")
        best = best_insertion(positions, guide, pool)
        if progress is not None:
            progress(round_ + 1, count)
        if best is None:
            break
        saved, rule, place = best
        guide.insert(place, rule)
        if rounds is not None:
            rounds.append(tuple(guide))
        saved_by[rule] = saved / games
    return [Step(rule, saved_by[rule]) for rule in guide]


def best_insertion(positions: list[Position], guide: list[Rule], pool: list[Rule]) -> tuple[float, Rule, int] | None:
    """(points saved, rule, place) of the best rule to insert, or None when no rule saves anything.

    A rule put at place i decides the positions it matches whose deciding rule was at i or later.
    """
    decided = [(next((i for i, r in enumerate(guide) if matches(r, p.game)), len(guide)), p) for p in positions]
    now = [p.guide_loss(tuple(guide)) for _, p in decided]
    best: tuple[float, Rule, int] | None = None
    for rule in pool:
        if rule in guide:
            continue
        gain_at = [0.0] * (len(guide) + 1)  # gain from positions decided at each place
        for (place, p), loss in zip(decided, now, strict=True):
            if matches(rule, p.game):
                gain_at[place] += loss - p.loss(act(rule, p.game))
        suffix = 0.0
        for place in range(len(guide), -1, -1):
            suffix += gain_at[place]
            if suffix > 1e-9 and (best is None or suffix > best[0] + 1e-9):
                best = (suffix, rule, place)
    return best
