"""The dice, drawn large with pips in box-drawing art. A held die has a double frame and the
word HELD under it (and a colour), so it reads without colour too.

>>> print("\\n".join(die_art(5, held=False)))
┌───────┐
│ ●   ● │
│   ●   │
│ ●   ● │
└───────┘
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from cubilete.i18n import _
from cubilete.tui.styles import tcss

# Pips on a 3x3 grid (row, column) for each face.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}
SINGLE = "┌─┐│└┘"
DOUBLE = "╔═╗║╚╝"
PIP = "●"


def small_die_art(face: int | None, held: bool) -> list[str]:
    """Three lines of a die for a short terminal: its face as a digit (a double frame when held).

    >>> print("\\n".join(small_die_art(6, held=True)))
    ╔═══╗
    ║ 6 ║
    ╚═══╝
    """
    tl, h, tr, v, bl, br = tuple(DOUBLE if held else SINGLE)
    return [f"{tl}{h * 3}{tr}", f"{v} {face if face else '·'} {v}", f"{bl}{h * 3}{br}"]


def die_art(face: int | None, held: bool) -> list[str]:
    """Five lines of a die; ``face`` None draws an empty die (not thrown yet)."""
    tl, h, tr, v, bl, br = tuple(DOUBLE if held else SINGLE)
    pips = set(PIPS.get(face or 0, ()))
    rows = []
    for r in range(3):
        cells = [PIP if (r, c) in pips else " " for c in range(3)]
        if face is None and r == 1:
            cells[1] = "·"
        rows.append(f"{v} {cells[0]} {cells[1]} {cells[2]} {v}")
    return [f"{tl}{h * 7}{tr}", *rows, f"{bl}{h * 7}{br}"]


class Die(Static):
    """One die with its position number and, when held, the word HELD."""

    DEFAULT_CSS = tcss("Die")

    class Toggled(Message):
        """A die was clicked: toggle its hold."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int) -> None:
        super().__init__(id=f"die-{position + 1}")
        self.position = position

    def show(self, face: int | None, held: bool, small: bool = False) -> None:
        """Draw the die (``small``: three lines, on a short terminal, its number and HELD on one line)."""
        self.set_class(held, "held")
        self.set_class(face is None, "empty")
        self.set_class(small, "-small")
        word = _("HELD") if held else ""
        if small:
            lines = [*(f"  {row}" for row in small_die_art(face, held)), f"{self.position + 1} {word}".center(9)[:9]]
        else:
            lines = [*die_art(face, held), f"{self.position + 1}".center(9), word.center(9)[:9]]
        self.update(Text("\n".join(f" {line}" for line in lines)))

    def on_click(self, event: Click) -> None:
        """A click toggles the hold, as the number key does."""
        self.post_message(self.Toggled(self.position))


class DiceRow(Horizontal):
    """The dice on the table, side by side."""

    DEFAULT_CSS = tcss("DiceRow")

    def __init__(self, count: int, **kwargs: str) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.count = count

    def compose(self) -> ComposeResult:
        """One :class:`Die` per die of the rules."""
        for p in range(self.count):
            yield Die(p)

    def show(self, dice: Sequence[int], held: Sequence[int], small: bool = False) -> None:
        """Draw the dice (an empty tuple: nothing thrown yet) and mark the held positions (``small``: three
        lines each, for a short terminal)."""
        self.set_class(small, "-small")
        for die in self.query(Die):
            p = die.position
            die.show(dice[p] if p < len(dice) else None, p in held, small)
