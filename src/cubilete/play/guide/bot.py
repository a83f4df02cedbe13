"""A bot that follows a guide exactly: the first rule whose condition holds gives the move."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.play.bots.approx import forced_move
from cubilete.play.bots.base import Analysis, bot_seed, check_playable
from cubilete.play.guide.rules import DEFAULT, Rule, act, holds, view
from cubilete.play.guide.shipped import shipped_guide


def first_match(guide: Sequence[Rule], game: Game) -> Rule:
    """The rule that decides this position (the default when none of the guide's rules holds)."""
    seen, slots = view(game), game.rules.slots
    return next((rule for rule in guide if holds(rule, seen, _slot(slots, rule))), DEFAULT)


def _slot(slots: tuple[str, ...], rule: Rule) -> int | None:
    return slots.index(rule.box) if rule.box is not None else None


class GuideBot:
    """Plays by a printed decision list, nothing else."""

    name = "guide"

    def __init__(self, guide: Sequence[Rule], seed: int | str | None = None) -> None:
        self.guide = tuple(guide)
        self.seed = bot_seed(seed)

    def __repr__(self) -> str:
        return f"GuideBot({len(self.guide)} rules)"

    def analyse(self, game: Game) -> Analysis:
        """The guide ranks nothing: it names one move."""
        check_playable(game)
        return Analysis(note="the guide names one move")

    def choose(self, game: Game) -> Action:
        """The first roll of a turn is forced; after it, the first matching rule's action."""
        forced = forced_move(game)
        if forced is not None:
            return forced
        return act(first_match(self.guide, game), game)


_DISTILLED: dict[tuple[Rules, int], tuple[Rule, ...]] = {}
DEFAULT_COUNT = 10  # rules in ``bot:guide``


def distilled_guide(rules: Rules, count: int) -> tuple[Rule, ...]:
    """The guide of ``count`` rules for the rules: the shipped one for a preset that has one, else distilled
    once per process."""
    from cubilete.play.guide.distil import distil  # distil imports this module

    key = (rules, count)
    if key not in _DISTILLED:
        shipped = shipped_guide(rules, count)  # the presets' measured guides: no minutes of distilling
        _DISTILLED[key] = shipped if shipped is not None else tuple(step.rule for step in distil(rules, count))
    return _DISTILLED[key]


class DistilledGuideBot(GuideBot):
    """``bot:guide:N``: follows the N-rule guide distilled for the game's rules (on its first move)."""

    def __init__(self, count: int = DEFAULT_COUNT, seed: int | str | None = None) -> None:
        super().__init__((), seed)
        self.count = count
        self.name = f"guide:{count}"
        self._rules: Rules | None = None

    def __repr__(self) -> str:
        return f"DistilledGuideBot({self.count})"

    def prepare(self, rules: Rules) -> None:
        """Distil the guide now rather than at the first move."""
        if self._rules != rules:
            self.guide, self._rules = distilled_guide(rules, self.count), rules

    def choose(self, game: Game) -> Action:
        self.prepare(game.rules)
        return super().choose(game)
