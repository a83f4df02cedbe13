"""Going from one screen to another by name: the app builds the screen, so the screens never import
each other (setup -> game -> end -> setup was an import circle)."""

from __future__ import annotations

from typing import Any, Protocol, cast

from textual.screen import Screen

SETUP, GAME, END, SCOREKEEPER = "setup", "game", "end", "scorekeeper"


class Navigator(Protocol):
    """What the app offers the screens: switch to a screen by its name and arguments."""

    def go(self, name: str, *args: Any) -> None:
        """Replace the current screen with a new one of that name."""


def go(screen: Screen[Any], name: str, *args: Any) -> None:
    """From ``screen``, switch to the screen called ``name`` (built by the app with ``args``)."""
    cast(Navigator, screen.app).go(name, *args)
