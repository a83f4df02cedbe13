"""Issue 25, item 8: the coach's sentences wrap in its panel and are read whole on screen at 120x40 (the
log below gives way; no sentence cut at the panel's edge or bottom)."""

from __future__ import annotations

from typing import Any

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


async def _advised(app: Any, pilot: Any) -> Any:
    """The game screen after a throw, its coach showing the best options and the advice to win above."""
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    screen = game_screen(app)
    advice, exact = coach.hint(screen.game, top=5)
    screen.show_hint(advice, exact, len(screen.game.history), TO_WIN)
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", [(120, 40)])  # at 80x24 the panel shares 10 lines with the log
@pilot_test
async def test_every_coach_sentence_is_on_screen_whole(size: tuple[int, int]) -> None:
    app = make_app(rules="generala", players=["Ana", "bot"], seed="snapshot", lang="en", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        screen = await _advised(app, pilot)
        panel = screen.query_one(CoachPanel)
        shown = visible_words(panel)
        for sentence in TO_WIN:
            assert sentence in shown, shown
        assert "Expected final score with best play from here" in shown


@pytest.mark.parametrize("lang", ["en", "es"])
@pilot_test
async def test_at_80x24_m_pages_through_the_whole_advice(lang: str) -> None:
    """Issue 25, item 8: at 80x24 the coach shares 6 lines with nothing else (the chances give way) and m shows
    the next lines until every line of the advice has been on screen, in the same 6 lines."""
    app = make_app(rules="generala", players=["Ana", "bot"], seed="snapshot", lang=lang, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _advised(app, pilot)
        panel = screen.query_one(CoachPanel)
        scroll = screen.query_one("#coach-scroll")
        assert scroll.region.bottom <= 23 and scroll.max_scroll_y > 0  # above the key bar; longer than its lines
        seen: dict[int, str] = {}  # each line of the panel, by its row in the whole advice
        for _press in range(20):
            top = round(scroll.scroll_y)
            shown = list(app.screen._compositor.render_strips())[scroll.region.y:scroll.region.bottom]
            for row, strip in enumerate(shown):
                seen[top + row] = strip.text[scroll.region.x:scroll.region.right]
            if top >= scroll.max_scroll_y:
                break
            await pilot.press("m")
            await pilot.pause()
        whole = " ".join(seen[row] for row in sorted(seen))
        for frame in "│╭╮╰╯─▁▂▃▄▅▆▇█":
            whole = whole.replace(frame, " ")
        whole = " ".join(whole.split())
        assert panel.region.height > scroll.region.height
        assert screen.query_one("#side").region.height <= 6  # the sheet keeps the rest of the screen
        if lang == "en":
            for sentence in TO_WIN:
                assert sentence in whole, whole
        assert whole.endswith(visible_words(panel).split()[-1])  # through the advice's last word
