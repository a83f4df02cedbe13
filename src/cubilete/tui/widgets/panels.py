"""The text panels around the dice: the turn line, messages, the coach and the game log."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.containers import ScrollableContainer
from textual.widgets import RichLog, Static

from cubilete.i18n import _, number
from cubilete.tui.styles import tcss


class TurnPanel(Static):
    """Whose turn, which throw, servida, tie-break: a few short lines beside the dice."""

    DEFAULT_CSS = tcss("TurnPanel")


class MessageLine(Static):
    """The last refusal or notice, in words (so it reads without colour)."""

    DEFAULT_CSS = tcss("MessageLine")

    def say(self, text: str) -> None:
        """Show a message (an empty string clears it)."""
        self.update(Text(text))


class CoachPanel(Static):
    """The coach's advice: the best options with their expected score and loss, or a warning."""

    DEFAULT_CSS = tcss("CoachPanel")

    def show_lines(self, title: str, lines: Sequence[str], active: bool | None = None) -> None:
        """A title and some lines (no lines, or ``active`` False for a mere reminder of the keys: the panel
        is idle, and hidden on a narrow screen, where the key bar says the same)."""
        text = Text(title, style="bold")
        for line in lines:
            text.append("\n" + line)
        shown = bool(lines) if active is None else active
        self.set_class(shown, "-active")
        if self.is_attached:  # on a short narrow screen the advice takes the chances' lines (layout.py)
            self.screen.set_class(shown, "-coaching")
        self.update(text)
        if isinstance(self.parent, ScrollableContainer):  # the game screen's: new advice starts at its top
            self.parent.scroll_home(animate=False)
            self.parent.refresh(layout=True)  # its height follows the advice's

    def show_options(self, title: str, options: Sequence[tuple[str, float, float]], notes: Sequence[str]) -> None:
        """Options, best first, one line each: what, expected final score, loss against the best."""
        lines = [
            _("{n}. {what}: expected {expected}, loss {loss}").format(
                n=n, what=what, expected=number(expected), loss=number(loss)
            )
            for n, (what, expected, loss) in enumerate(options, 1)
        ]
        self.show_lines(title, [*lines, *notes])

    def thinking(self) -> None:
        """The coach is working."""
        self.show_lines(_("Coach"), [_("thinking…")])


class GameLog(RichLog):
    """Every action, one line each, newest at the bottom."""

    DEFAULT_CSS = tcss("GameLog")

    def __init__(self, **kwargs: str) -> None:
        super().__init__(wrap=True, markup=False, max_lines=500, min_width=20, **kwargs)  # type: ignore[arg-type]
