"""Keys of the game screen: a box by its letter or line number, a cursor that skips closed boxes and
wraps round the sheet, and ``?`` for the keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.tui.pilot import SIZE, game_screen, pilot_test, visible_words
from textual.pilot import Pilot
from textual.widgets import Input

from cubilete.tui import make_app
from cubilete.tui.app import CubileteApp
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog, SaveDialog
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.scorecard import ScoreCard


def solo() -> CubileteApp:
    return make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0)


async def score_under_cursor(pilot: Pilot[None]) -> None:
    await pilot.press("enter")
    if isinstance(pilot.app.screen, ConfirmDialog):
        await pilot.press("y")


class TestBoxByLetter:
    @pilot_test
    async def test_shift_letter_puts_the_cursor_on_that_line_and_enter_scores_it(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r", "K")  # K: the 11th line, Doble Generala
            assert app.screen.query_one(ScoreCard).cursor_row == 10
            await score_under_cursor(pilot)
            assert screen.session.game.state.seats[0].card[10] is not None
            assert all(v is None for v in screen.session.game.state.seats[0].card[:10])

    @pilot_test
    async def test_the_sheet_shows_each_box_letter(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            rows = visible_words(app.screen.query_one(ScoreCard))
            assert "A Unos" in rows and "K Doble Generala" in rows


class TestBoxByLineNumber:
    @pilot_test
    async def test_digits_pick_a_line_once_no_throw_is_left(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            card = app.screen.query_one(ScoreCard)
            await pilot.press("r", "r", "r")
            assert screen.session.game.state.turn.throws == 3
            await pilot.press("1", "0")  # two digits at once: line 10, Generala
            assert card.cursor_row == 9
            await pilot.press("4")  # 104 is past the sheet: a new number, line 4
            assert card.cursor_row == 3
            assert screen.held == set()  # no die was held by these digits

    @pilot_test
    async def test_with_throws_left_digits_still_hold_dice(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r", "2")
            assert screen.held == {1}


class TestCursor:
    @pilot_test
    async def test_up_from_the_first_box_wraps_to_the_last(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            card = app.screen.query_one(ScoreCard)
            await pilot.press("r", "A", "up")
            assert card.cursor_row == 10
            await pilot.press("down")
            assert card.cursor_row == 0

    @pilot_test
    async def test_closed_boxes_are_skipped(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            card = app.screen.query_one(ScoreCard)
            await pilot.press("r", "B")
            await score_under_cursor(pilot)  # line 2 (Doses) is closed now
            assert screen.session.game.state.seats[0].card[1] is not None
            await pilot.press("r", "A", "down")
            assert card.cursor_row == 2  # from Unos straight to Treses
            await pilot.press("up")
            assert card.cursor_row == 0


class TestHelp:
    @pilot_test
    async def test_question_mark_lists_the_keys(self) -> None:
        app = solo()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            dialog = app.screen
            assert isinstance(dialog, MessageDialog)
            assert dialog.title_text == "Keys"
            keys = [line.split("  ")[0].strip() for line in dialog.body.splitlines()]
            for key in ("A-K", "1-5", "1-11", "enter", "?", "h", "c", "u"):
                assert key in keys
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    @pilot_test
    async def test_the_help_speaks_spanish(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="es", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, MessageDialog)
            assert app.screen.title_text == "Teclas"
            assert "casillero" in app.screen.body


class TestSavingNeverReplacesAnotherFile:
    @pilot_test
    async def test_an_existing_file_is_replaced_only_after_a_second_save(self, tmp_path: Path) -> None:
        other = tmp_path / "other.json"
        other.write_text("another game", encoding="utf-8")
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            dialog = app.screen
            assert isinstance(dialog, SaveDialog)
            assert dialog.default.parent == tmp_path / "saves"  # saves go to the user data folder by default
            dialog.query_one(Input).value = str(other)
            await pilot.press("enter")
            assert "already exists" in visible_words(dialog.query_one("#error"))
            assert other.read_text(encoding="utf-8") == "another game"
            await pilot.press("enter")
            assert isinstance(app.screen, GameScreen)
            assert json.loads(other.read_text(encoding="utf-8"))["players"] == ["Ana"]


def test_the_screens_never_import_each_other() -> None:
    """Screens go to one another by name through the app (tui/navigation.py): no import circle."""
    import re

    folder = Path(__file__).resolve().parents[2] / "src" / "cubilete" / "tui" / "screens"
    screens = {"setup", "game", "end", "scorekeeper"}
    for path in folder.glob("*.py"):
        imported = set(re.findall(r"cubilete\.tui\.screens\.(\w+) import", path.read_text(encoding="utf-8")))
        assert not imported & (screens - {path.stem}), (path.name, imported)


@pytest.mark.slow
@pilot_test
async def test_the_setup_screen_prepares_the_solver_for_the_chosen_rules(tmp_path: Path) -> None:
    import os

    from tests.tui.pilot import wait_until

    from cubilete.engine.rules import find_rules
    from cubilete.solver import cache
    from cubilete.tui.screens.setup import SetupScreen

    os.environ["CUBILETE_CACHE_DIR"] = str(tmp_path / "cache")
    try:
        cache._SHARED.pop(find_rules("generala"), None)
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SetupScreen)
            # nobody has pressed anything: the tables are being made while the player fills the form
            await wait_until(pilot, lambda: find_rules("generala") in cache._SHARED, seconds=600)
            assert isinstance(app.screen, SetupScreen)
    finally:
        del os.environ["CUBILETE_CACHE_DIR"]


@pilot_test
async def test_the_seat_picker_keeps_levels_apart_from_algorithms(tmp_path: Path) -> None:
    from textual.widgets import Select

    from cubilete.tui.screens.setup import SetupScreen

    app = make_app(lang="es", bot_delay=0, data_dir=tmp_path)
    async with app.run_test(size=SIZE):
        assert isinstance(app.screen, SetupScreen)
        picker = app.screen.query_one("#kind-1", Select)
        labels = [str(label) for label, _value in picker._options if str(label)]
        levels = [label for label in labels if label.startswith("Bot: ")]
        algorithms = [label for label in labels if label.startswith("Bot algoritmo: ")]
        assert levels == ["Bot: principiante", "Bot: casual", "Bot: fuerte", "Bot: óptimo"]
        assert "Bot algoritmo: al azar" in algorithms and not set(levels) & set(algorithms)
        assert labels.index(levels[-1]) < labels.index(algorithms[0])  # levels first
        assert picker.value == "bot:casual"  # the default opponent is a named level
