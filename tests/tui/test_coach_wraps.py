"""Issue 25, item 8: the coach's sentences wrap in its panel and are read whole on screen at 120x40 (the
log below gives way; no sentence cut at the panel's edge or bottom)."""

from __future__ import annotations

import pytest
from tests.tui.pilot import game_screen, pilot_test, settle, visible_words

from cubilete.play import coach
from cubilete.tui import make_app
from cubilete.tui.widgets.panels import CoachPanel

# The advice to win as the coach words it (play/coach_win.py): the longest sentences the panel shows.
TO_WIN = [
    "For points: keep 3 3, throw the rest (expected 160.5, 45.2% to win)",
    "To win: keep 3 3 5, throw the rest (expected 159.2, 47.0% to win)",
    "Why they differ: you are behind, so the riskier choice wins more often: it gives up 1.3 expected "
    "points for 1.8 more points of chance to win.",
    "Chances to win estimated: exact only heads-up, from the two-player table.",
]


@pytest.mark.parametrize("size", [(120, 40)])  # at 80x24 the panel shares 10 lines with the log
@pilot_test
async def test_every_coach_sentence_is_on_screen_whole(size: tuple[int, int]) -> None:
    app = make_app(rules="generala", players=["Ana", "bot"], seed="snapshot", lang="en", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = game_screen(app)
        advice, exact = coach.hint(screen.game, top=5)
        screen.show_hint(advice, exact, len(screen.game.history), TO_WIN)
        await pilot.pause()
        panel = screen.query_one(CoachPanel)
        shown = visible_words(panel)
        for sentence in TO_WIN:
            assert sentence in shown, shown
        assert "Expected final score with best play from here" in shown
