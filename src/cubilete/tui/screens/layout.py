"""The layout the game and scorekeeper screens share: a score card beside a side panel, which
docks below the card on a narrow terminal (where the log hides and the coach shows only when asked; on a
short one too, the advice takes the chances' lines and scrolls with m). Its rules are in
styles/CardAndSide.tcss, which both screens read. At 80x24 a whole Generala sheet shows, for 2 to 4 players;
a sheet that still does not fit says which terminal size shows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

from cubilete.i18n import _
from cubilete.tui.widgets.scorecard import ScoreCard

BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
# a terminal under 30 lines (80x24 is the classic): small dice, one line of keys, the chances without a frame,
# so a whole Generala sheet fits beside them
SHORT = 30
VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT, "-tall")]



class FitNotice(Static):
    """The "enlarge the terminal" line, shown only while the sheet does not fit."""

    def __init__(self) -> None:
        super().__init__(id="fit")
        self.toggled_at: tuple[Size, Size] | None = None  # the terminal and sheet sizes when it came or went


def check_fit(screen: Screen[Any], tall_extra: Callable[[], int]) -> None:
    """Say how large the terminal must be when the sheet does not fit (Maxi Yatzy's 20 boxes at 80x24, the
    4-column sheet): the ``#fit`` line above the keys; the sheet still scrolls with the cursor.
    ``tall_extra``: the lines the other parts take more at ``SHORT`` lines or more (large dice, framed fields)."""
    if not screen.is_mounted or not screen.query(FitNotice) or not screen.query(ScoreCard):
        return  # the screen was left (the end screen) before this ran
    sheet, fit = screen.query_one(ScoreCard), screen.query_one(FitNotice)
    missing = sheet.virtual_size.height - lines_for_rows(sheet)  # the header and every row
    if fit.has_class("-shown"):
        missing -= 1  # the line of this notice goes when it is no longer needed
    shown = missing > 0 and sheet.size.height > 0
    sizes = (screen.size, sheet.size)
    if shown != fit.has_class("-shown"):
        if fit.toggled_at == sizes:
            return  # the sheet has not been laid out again since the notice came or went: its size is old
        fit.toggled_at = sizes
    fit.set_class(shown, "-shown")
    if shown:
        fit.update(_("Enlarge the terminal to at least {width}x{height} to see the whole sheet.").format(
            width=screen.size.width, height=needed_height(screen, missing, tall_extra)))


def needed_height(screen: Screen[Any], missing: int, tall_extra: Callable[[], int]) -> int:
    """The smallest terminal height that shows ``missing`` more lines of the sheet than this one does."""
    height = screen.size.height + missing
    if screen.size.height < SHORT <= height:  # the larger layout comes with the larger terminal
        height = max(SHORT, height + tall_extra())
    return height


def lines_for_rows(sheet: ScoreCard) -> int:
    """The lines the sheet has for its header and rows: its height less the line of a sideways scrollbar
    (from its size and styles, which are settled when it is told of its new size: its scrollbars may not be)."""
    rows_scroll = sheet.virtual_size.height > sheet.size.height
    width = sheet.size.width - (sheet.styles.scrollbar_size_vertical if rows_scroll else 0)
    sideways = sheet.styles.overflow_x != "hidden" and sheet.virtual_size.width > width
    return sheet.size.height - int(sideways)


def sideways_scrollbar_when_tall(sheet: ScoreCard) -> int:
    """1 when the sheet is wider than its place: its scrollbar takes a line (a short terminal hides it)."""
    return int(sheet.virtual_size.width > sheet.size.width)
