"""The terminal game on a classic 80x24 terminal: small dice, one line of keys and the chances without a
frame, so a whole Generala sheet shows beside them (it showed 7 of 11 boxes); a sheet that still does not
fit (Maxi Yatzy's 20 boxes) says how large the terminal must be; a tall terminal keeps the large dice.
Bots are named in the player's language on the sheet ("casual bot", "bot casual"), never "bot:casual"."""

from __future__ import annotations

from tests.tui.pilot import pilot_test, wait_until
from textual.widgets import Static

from cubilete.i18n import set_language
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.chances import ChancesPanel
from cubilete.tui.widgets.dice import DiceRow
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.widgets.scorecard import ScoreCard


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
            needed = int(text.split("80x")[1].split(" ")[0])
            sheet = screen.query_one(ScoreCard)
            assert needed - 24 == sheet.row_count + 1 - sheet.size.height  # exactly the rows missing
            assert [str(c.label).removeprefix("▶ ") for c in list(sheet.columns.values())[1:3]] == ["Ana", "bot casual"]
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
