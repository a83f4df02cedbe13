"""The terminal game's log: boxes by name only (they are chosen by letter; "Full (full)" was noise), and
no character hidden under the scrollbar (the log wrapped to its whole width, and the scrollbar covered the
last column: "1 4 │ 1 6" for 1 4 5 1 6)."""

from __future__ import annotations

from tests.tui.pilot import pilot_test, wait_until

from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.panels import GameLog


class TestLog:
    @pilot_test
    async def test_the_log_names_boxes_and_keeps_clear_of_its_scrollbar(self) -> None:
        app = make_app(lang="en", bot_delay=0, players="Ana,bot:greedy", seed="11")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            log = screen.query_one(GameLog)
            for _turn in range(6):  # enough lines for the scrollbar
                await wait_until(pilot, lambda: screen.session.is_decision())
                await pilot.press("r")
                await wait_until(pilot, lambda: screen.views is not None)
                await pilot.press("enter")
                await pilot.press("y")  # a scratch asks first
            await wait_until(pilot, lambda: log.max_scroll_y > 0)
            text = [strip.text for strip in log.lines]
            scored = [line for line in text if " scores " in line or " scratches " in line]
            assert scored and not any("(" in line.split(" in ")[-1] for line in scored if " scores " in line)
            assert not any("bot:" in line for line in text) and any("greedy bot " in line for line in scored)
            width = log.scrollable_content_region.width
            assert width < log.content_region.width  # a gutter kept for the scrollbar
            assert max(strip.cell_length for strip in log.lines) <= width
