"""The flow of a game both terminal front ends follow."""

from __future__ import annotations

from collections.abc import Callable

from cubilete.engine.actions import Action
from cubilete.engine.game import Game


def undo_to_decision(game: Game, is_decision: Callable[[Game], bool]) -> bool:
    """Take back actions until a person's decision is next; if there is none, change nothing."""
    taken: list[Action] = []
    while game.history:
        taken.append(game.undo())
        if is_decision(game):
            return True
    for action in reversed(taken):
        game.apply(action)
    return False
