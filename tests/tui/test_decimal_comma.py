"""Issue 25, item 13: the coach's numbers use the decimal comma in es and pt, the point in en."""

from __future__ import annotations

import pytest
from tests.tui.pilot import pilot_test, visible_words

from cubilete.tui import make_app
from cubilete.tui.widgets.panels import CoachPanel

CASES = [
    ("es", "esperado 160,6, pérdida 1,2"), ("pt_BR", "esperado 160,6, perda 1,2"), ("en", "expected 160.6, loss 1.2")
]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("lang", "shown"), CASES)
@pilot_test
async def test_coach_numbers_in_the_language(size: tuple[int, int], lang: str, shown: str) -> None:
    app = make_app(rules="generala", players=["Ana"], scorekeeper=True, lang=lang)
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(CoachPanel)
        panel.show_options("Coach", [("keep 3 3", 160.56, 1.23)], [])
        await pilot.pause()
        assert shown in visible_words(panel)
