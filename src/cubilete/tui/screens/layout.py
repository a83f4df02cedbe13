"""The layout the game and scorekeeper screens share: a score card beside a side panel, which
docks below the card on a narrow terminal (where the log hides and the coach shows only when asked)."""

from __future__ import annotations

BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]


def card_and_side_css(screen: str) -> str:
    """The shared CSS rules, scoped to the screen class named ``screen``."""
    return f"""
    #main {{ height: 1fr; }}
    #side {{ width: 36; }}
    ScoreCard {{ width: 1fr; }}
    {screen}.-narrow #side {{ dock: bottom; width: 100%; height: auto; max-height: 10; }}
    {screen}.-narrow GameLog {{ display: none; }}
    {screen}.-narrow CoachPanel {{ display: none; }}
    {screen}.-narrow CoachPanel.-active {{ display: block; }}
    """
