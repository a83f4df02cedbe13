"""Issue 25, item 12: the scorekeeper's throw field holds a real "1" that enter takes, a box is chosen
by its letter (as on the game screen) or the arrows before enter writes, and undo gives back the box
with the dice that were on the table. At 80x24 and at 120x40."""

from __future__ import annotations

import pytest
from tests.tui.pilot import pilot_test, visible_words
from textual.widgets import Input

from cubilete.tui import make_app
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.widgets.panels import MessageLine
from cubilete.tui.widgets.scorecard import ScoreCard, box_letter

SIZES = [(80, 24), (120, 40)]


async def started(pilot: object, app: object) -> ScorekeeperScreen:
    """Ana and Beto throw for who starts (Ana 5, Beto 2): Ana writes first."""
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, ScorekeeperScreen)
    await pilot.press("5", "enter", "2", "enter")  # type: ignore[attr-defined]
    assert screen.keeper.current_player == "Ana" and not screen.keeper.starting
    return screen


def fields(screen: ScorekeeperScreen) -> tuple[str, str]:
    """What the dice and throw fields hold."""
    return screen.query_one("#dice", Input).value, screen.query_one("#throw", Input).value


@pytest.mark.parametrize("size", SIZES)
class TestScorekeeperEntry:
    @pilot_test
    async def test_enter_takes_the_throw_shown_and_a_letter_chooses_the_box(self, size: tuple[int, int]) -> None:
        app = make_app(rules="generala", players=["Ana", "Beto"], scorekeeper=True, lang="en")
        async with app.run_test(size=size) as pilot:
            screen = await started(pilot, app)
            message = screen.query_one(MessageLine)
            assert fields(screen)[1] == "1"  # a value shown as one, not a grey placeholder to retype
            await pilot.press(*"22555", "enter", "enter")  # dice, then the throw as shown
            sheet = screen.query_one(ScoreCard)
            assert sheet.has_focus, visible_words(message)
            # Enter before a box is chosen writes nothing and says what to do.
            await pilot.press("enter")
            assert screen.keeper.entries == []
            assert "Choose a box: its letter (A-K) or the arrows, then enter." in visible_words(message)
            # Shift+H is the Full's letter (its line's), as on the game screen: a Full servido is 35 (RULES.md 3.1).
            full = screen.rules.slot_index("full")
            assert box_letter(full) == "H"
            await pilot.press("H")
            assert sheet.cursor_row == full and "Full: 35 points; enter to write." in visible_words(message)
            await pilot.press("enter")
            assert screen.keeper.cards[0][full] == 35 and screen.keeper.entries[-1].throw == 1
            assert fields(screen) == ("", "1")  # ready for Beto's first throw

    @pilot_test
    async def test_the_first_arrow_shows_the_box_it_starts_on(self, size: tuple[int, int]) -> None:
        app = make_app(rules="generala", players=["Ana", "Beto"], scorekeeper=True, lang="en")
        async with app.run_test(size=size) as pilot:
            screen = await started(pilot, app)
            await pilot.press(*"66612", "enter", "3", "enter")
            sheet = screen.query_one(ScoreCard)
            assert not sheet.show_cursor  # no box chosen: none is highlighted
            await pilot.press("down")  # shows the cursor on the first box that pays (Ones: 1)
            assert sheet.show_cursor and sheet.cursor_row == screen.rules.slot_index("1")
            await pilot.press("enter")
            assert screen.keeper.cards[0][screen.rules.slot_index("1")] == 1

    @pilot_test
    async def test_undo_gives_back_the_box_and_the_dice_on_the_table(self, size: tuple[int, int]) -> None:
        app = make_app(rules="generala", players=["Ana", "Beto"], scorekeeper=True, lang="en")
        async with app.run_test(size=size) as pilot:
            screen = await started(pilot, app)
            await pilot.press(*"66612", "enter", "3", "enter", "A", "enter")  # Ones: 1 (a slip)
            ones, sixes = screen.rules.slot_index("1"), screen.rules.slot_index("6")
            assert screen.keeper.cards[0][ones] == 1 and screen.keeper.current_player == "Beto"
            await pilot.press("u")
            assert screen.keeper.cards[0][ones] is None and screen.keeper.current_player == "Ana"
            assert fields(screen) == ("6 6 6 1 2", "3")  # the dice and the throw are still typed
            assert "Choose a box" in visible_words(screen.query_one(MessageLine))
            await pilot.press("F", "enter")  # Sixes, as meant: 18
            assert screen.keeper.cards[0][sixes] == 18 and screen.keeper.entries[-1].dice == (6, 6, 6, 1, 2)
