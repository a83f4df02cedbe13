"""The layout the game and scorekeeper screens share: a score card beside a side panel, which
docks below the card on a narrow terminal (where the log hides and the coach shows only when asked; on a
short one too, the advice takes the chances' lines and scrolls with m). Its rules are in
styles/CardAndSide.tcss, which both screens read."""

from __future__ import annotations

BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
# a terminal under 30 lines (80x24 is the classic): small dice, one line of keys, the chances without a frame,
# so a whole Generala sheet fits beside them
SHORT = 30
VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT, "-tall")]

