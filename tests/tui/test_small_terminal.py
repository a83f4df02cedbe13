"""The terminal game on a classic 80x24 terminal: small dice, one line of keys and the chances without a
frame, so a whole Generala sheet shows beside them (it showed 7 of 11 boxes); a sheet that still does not
fit (Maxi Yatzy's 20 boxes) says how large the terminal must be, exactly; a tall terminal keeps the large dice.
The same for 4 players (the sheet no longer scrolls sideways there: its scrollbar hid the total) and for the
scorekeeper (its dice and throw fields on one line without frames).
Bots are named in the player's language on the sheet ("casual bot", "bot casual"), never "bot:casual"."""

from __future__ import annotations

from typing import Any

from tests.tui.pilot import pilot_test, visible_text, visible_words, wait_until
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from cubilete.i18n import set_language
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.widgets.chances import ChancesPanel
from cubilete.tui.widgets.dice import DiceRow
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.panels import CoachPanel, MessageLine
from cubilete.tui.widgets.scorecard import ScoreCard


def whole_sheet_shows(screen: Screen[Any]) -> bool:
    """Every row of the sheet and its header in the lines it is given on screen: none scrolled away."""
    sheet = screen.query_one(ScoreCard)
    room = sheet.scrollable_content_region  # without its scrollbars
    return (sheet.virtual_size.height <= room.height and sheet.scroll_y == 0
            and room.y >= 0 and room.y + sheet.virtual_size.height <= screen.size.height)


async def the_size_named_is_the_smallest_that_fits(pilot: Pilot[Any], screen: Screen[Any], height: int) -> None:
    """The terminal's height named by the "enlarge" line shows the whole sheet with no such line; one less does not."""
    fit = screen.query_one("#fit", Static)
    await pilot.resize_terminal(80, height)
    await wait_until(pilot, lambda: screen.size.height == height and not fit.has_class("-shown"), 10)
    assert whole_sheet_shows(screen)
    await pilot.resize_terminal(80, height - 1)
    await wait_until(pilot, lambda: screen.size.height == height - 1 and fit.has_class("-shown"), 10)
    assert not whole_sheet_shows(screen)


def _inside(screen: GameScreen, widget: object) -> bool:
    region = widget.region  # type: ignore[attr-defined]
    return region.height > 0 and region.y + region.height <= screen.size.height


class TestSmallTerminal:
    @pilot_test
    async def test_the_whole_generala_sheet_shows_at_80x24(self) -> None:
        app = make_app(lang="en", bot_delay=0, players="Ana,bot:casual", seed="3")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("r")
            sheet = screen.query_one(ScoreCard)
            await wait_until(pilot, lambda: sheet.row_count > 0 and screen.query_one(DiceRow).has_class("-small"))
            await pilot.pause()
            assert sheet.row_count == 11 + 1  # eleven boxes and the total
            assert sheet.size.height >= sheet.row_count + 1, "a row of the sheet is off screen"
            assert screen.query_one(DiceRow).has_class("-small")
            assert _inside(screen, screen.query_one(ChancesPanel)) and _inside(screen, screen.query_one(KeyBar))
            assert not screen.query_one("#fit", Static).has_class("-shown")
            assert [str(c.label).removeprefix("▶ ") for c in list(sheet.columns.values())[1:3]] == ["Ana", "casual bot"]

    @pilot_test
    async def test_a_sheet_too_tall_says_how_large_the_terminal_must_be(self) -> None:
        app = make_app(lang="es", bot_delay=0, players="Ana,bot:casual", seed="3", rules="maxi-yatzy")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            fit = screen.query_one("#fit", Static)
            await wait_until(pilot, lambda: fit.has_class("-shown"))
            text = str(fit.render())
            assert text.startswith("Agrandá la terminal a 80x") and "planilla entera" in text
            sheet = screen.query_one(ScoreCard)
            assert [str(c.label).removeprefix("▶ ") for c in list(sheet.columns.values())[1:3]] == ["Ana", "bot casual"]
            await the_size_named_is_the_smallest_that_fits(pilot, screen, int(text.split("80x")[1].split(" ")[0]))
        set_language("en")

    @pilot_test
    async def test_a_tall_terminal_keeps_the_large_dice(self) -> None:
        app = make_app(lang="en", bot_delay=0, players="Ana,bot:casual", seed="3")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.pause()
            assert not screen.query_one(DiceRow).has_class("-small")
            assert screen.query_one(DiceRow).size.height == 7
            assert not screen.query_one("#fit", Static).has_class("-shown")

    @pilot_test
    async def test_four_players_see_the_whole_generala_sheet_at_80x24(self) -> None:
        # the sheet is wider than 80 columns: its horizontal scrollbar took the line of the total
        app = make_app(lang="en", bot_delay=0, players="Ana,bot:casual,Beto,Carla", seed="3")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await wait_until(pilot, lambda: screen.session.is_decision())
            await pilot.press("r")
            await wait_until(pilot, lambda: screen.query_one(DiceRow).has_class("-small"))
            await pilot.pause()
            assert screen.query_one(ScoreCard).row_count == 11 + 1
            assert whole_sheet_shows(screen)
            assert not screen.query_one("#fit", Static).has_class("-shown")


class TestSmallScorekeeper:
    @pilot_test
    async def test_the_whole_generala_sheet_shows_at_80x24_and_120x40(self) -> None:
        for players in (["Ana", "Beto"], ["Ana", "Beto", "Carla", "Dani"]):
            for size in ((80, 24), (120, 40)):
                app = make_app(rules="generala", players=players, scorekeeper=True, lang="en")
                async with app.run_test(size=size) as pilot:
                    screen = app.screen
                    assert isinstance(screen, ScorekeeperScreen)
                    sheet = screen.query_one(ScoreCard)
                    await wait_until(pilot, lambda: sheet.row_count == 11 + 1)  # noqa: B023 (awaited here)
                    await pilot.pause()
                    assert whole_sheet_shows(screen), (players, size)
                    assert not screen.query_one("#fit", Static).has_class("-shown")
                    # the seven keys and a refusal still have their two lines
                    assert screen.query_one(KeyBar).size.height == 2 and screen.query_one(MessageLine).size.height == 2

    @pilot_test
    async def test_a_sheet_too_tall_says_how_large_the_terminal_must_be(self) -> None:
        app = make_app(rules="maxi-yatzy", players=["Ana", "Beto"], scorekeeper=True, lang="pt_BR")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            fit = screen.query_one("#fit", Static)
            await wait_until(pilot, lambda: fit.has_class("-shown"))
            text = str(fit.render())
            assert text.startswith("Aumente o terminal para pelo menos 80x"), text
            assert not whole_sheet_shows(screen)
            await the_size_named_is_the_smallest_that_fits(pilot, screen, int(text.split("80x")[1].split(" ")[0]))
        set_language("en")

    @pilot_test
    async def test_the_advice_leaves_the_whole_sheet_at_80x24(self) -> None:
        app = make_app(rules="generala", players=["Ana"], scorekeeper=True, lang="en")
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            await pilot.press(*"55512", "enter", "1", "enter", "h")
            panel = screen.query_one(CoachPanel)
            await wait_until(pilot, lambda: "best options" in visible_words(panel), seconds=120)
            await pilot.pause()
            assert whole_sheet_shows(screen)  # the advice took 4 more lines and hid the last boxes
            assert not screen.query_one("#fit", Static).has_class("-shown")
            first = next(line.strip() for line in visible_text(panel).splitlines() if line.strip().startswith("1. "))
            assert first.startswith("1. keep 5 5 5, throw the rest: expected")  # three fives: keep them
