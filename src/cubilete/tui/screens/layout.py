"""The layout the game and scorekeeper screens share: a score card beside a side panel, which
docks below the card on a narrow terminal (where the log hides and the coach shows only when asked; on a
short one too, the advice takes the chances' lines and scrolls with m)."""

from __future__ import annotations

BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
# a terminal under 30 lines (80x24 is the classic): small dice, one line of keys, the chances without a frame,
# so a whole Generala sheet fits beside them
SHORT = 30
VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT, "-tall")]


def card_and_side_css(screen: str) -> str:
    """The shared CSS rules, scoped to the screen class named ``screen``."""
    return f"""
    #main {{ height: 1fr; }}
    #side {{ width: 36; }}
    {screen}.-wide #side CoachPanel {{ max-height: 85%; }}
    ScoreCard {{ width: 1fr; }}
    {screen}.-narrow #side {{ dock: bottom; width: 100%; height: auto; max-height: 10; }}
    {screen}.-narrow GameLog {{ display: none; }}
    {screen}.-narrow CoachPanel {{ display: none; }}
    {screen}.-narrow CoachPanel.-active {{ display: block; }}
    {screen}.-short TurnPanel {{ height: 3; }}
    {screen}.-short MessageLine {{ height: 1; }}
    {screen}.-short KeyBar {{ max-height: 1; }}
    {screen}.-short ChancesPanel {{ border: none; }}
    {screen}.-short.-narrow #side {{ max-height: 6; }}
    {screen}.-short.-narrow.-coaching ChancesPanel {{ display: none; }}
    #coach-scroll {{ height: auto; overflow-y: hidden; }}
    {screen}.-wide #coach-scroll {{ max-height: 85%; }}
    {screen}.-wide #coach-scroll CoachPanel {{ max-height: 100vh; }}  /* the 85% holds on the scroll */
    {screen}.-short.-narrow #coach-scroll {{ max-height: 6; overflow-y: auto; scrollbar-size-vertical: 1; }}
    """
