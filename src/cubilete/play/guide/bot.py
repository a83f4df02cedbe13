"""A bot that follows a guide exactly: the first rule whose condition holds gives the move."""

from __future__ import annotations

from collections.abc import Sequence

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.play.bots.approx import forced_move
from cubilete.play.bots.base import Analysis, bot_seed, check_playable
from cubilete.play.guide.rules import DEFAULT, Rule, act, matches


def first_match(guide: Sequence[Rule], game: Game) -> Rule:
    """The rule that decides this position (the default when none of the guide's rules holds)."""
    return next((rule for rule in guide if matches(rule, game)), DEFAULT)


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
