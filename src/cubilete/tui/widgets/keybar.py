"""The keys of the current screen, in the player's language (in place of Textual's footer,
whose descriptions are fixed when the class is defined)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from cubilete.tui.styles import tcss


class KeyBar(Static):
    """One line: each key in reverse video, then what it does."""

    DEFAULT_CSS = tcss("KeyBar")

    def show(self, hints: Sequence[tuple[str, str]]) -> None:
        """Show ``(key, what it does)`` pairs."""
        text = Text()
        for key, label in hints:
            text.append(f" {key} ", style="reverse bold")
            text.append(f" {label}  ")
        self.update(text)
