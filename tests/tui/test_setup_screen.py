"""The setup screen: choosing rules, seats and language with the keyboard, checking the
choice, remembering it for next time, and house rules from a file."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Select, Switch

from cubilete.i18n import current_language
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.screens.setup import PROFILE, SetupScreen
from tests.tui.conftest import SIZE, pilot_test


def text_of(widget: object) -> str:
    """What a Static shows, as plain text."""
    return str(widget.render())  # type: ignore[attr-defined]


class TestSetup:
    @pilot_test
    async def test_keyboard_only_a_name_and_enter_start_a_game_against_the_bot(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SetupScreen)
            await pilot.press(*"Ana", "enter")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.session.game.players == ("Ana", "bot")
            assert screen.session.game.rules.name == "generala"
            assert screen.session.humans == ["Ana"]
        saved = json.loads((tmp_path / "tui.json").read_text())
        assert saved["seats"][0] == {"kind": "human", "name": "Ana", "level": "random"}
        assert saved["seats"][1]["kind"] == "bot"

    @pilot_test
    async def test_the_last_choice_is_remembered(self, tmp_path: Path) -> None:
        first = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with first.run_test(size=SIZE) as pilot:
            screen = first.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#rules", Select).value = "yahtzee"
            screen.query_one("#kind-1", Select).value = "bot:greedy"
            await pilot.press(*"Beto", "enter")
            assert isinstance(first.screen, GameScreen)
            assert first.screen.session.game.players == ("Beto", "bot:greedy")
        again = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with again.run_test(size=SIZE):
            screen = again.screen
            assert isinstance(screen, SetupScreen)
            assert screen.query_one("#rules", Select).value == "yahtzee"
            assert screen.query_one("#name-0", Input).value == "Beto"
            assert screen.query_one("#kind-1", Select).value == "bot:greedy"

    @pilot_test
    async def test_problems_with_the_seats_are_shown_and_nothing_starts(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            await pilot.press("enter")  # no name typed
            assert "Seat 1: a person needs a name." in text_of(screen.query_one("#error"))
            screen.query_one("#kind-1", Select).value = "human"
            screen.query_one("#name-1", Input).value = "Ana"
            await pilot.press(*"Ana", "enter")
            assert "Two seats are called Ana" in text_of(screen.query_one("#error"))
            screen.query_one("#name-1", Input).value = "bot"
            await pilot.press("enter")
            assert "the name bot is kept for bots" in text_of(screen.query_one("#error"))
            assert isinstance(app.screen, SetupScreen)
        assert not (tmp_path / "tui.json").exists()

    @pilot_test
    async def test_a_house_rule_file(self, tmp_path: Path) -> None:
        profile = tmp_path / "mesa.toml"
        profile.write_text('base = "generala"\nname = "mesa"\ntitle = "Club table"\nremove = ["doble"]\n')
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#rules", Select).value = PROFILE
            screen.query_one("#profile-path", Input).value = str(tmp_path / "missing.toml")
            screen.query_one("#name-0", Input).value = "Ana"
            await pilot.press("enter")
            error = text_of(screen.query_one("#error"))
            assert error.startswith("Rules:") and "missing.toml" in error
            screen.query_one("#profile-path", Input).value = str(profile)
            await pilot.press("enter")
            assert isinstance(app.screen, GameScreen)
            rules = app.screen.session.game.rules
            assert rules.name == "mesa" and "doble" not in rules.box_ids

    @pilot_test
    async def test_a_broken_house_rule_file_is_reported(self, tmp_path: Path) -> None:
        profile = tmp_path / "bad.toml"
        profile.write_text('base = "generala"\nthrows = 0\n')
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#rules", Select).value = PROFILE
            screen.query_one("#profile-path", Input).value = str(profile)
            screen.query_one("#name-0", Input).value = "Ana"
            await pilot.press("enter")
            assert "throws" in text_of(screen.query_one("#error"))
            assert isinstance(app.screen, SetupScreen)

    @pilot_test
    async def test_scorekeeper_mode_is_for_people(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#scorekeeper", Switch).value = True
            await pilot.press(*"Ana", "enter")
            assert "not bots" in text_of(screen.query_one("#error"))
            screen.query_one("#kind-1", Select).value = "human"
            screen.query_one("#name-1", Input).value = "Beto"
            await pilot.press("enter")
            assert isinstance(app.screen, ScorekeeperScreen)
            assert app.screen.keeper.players == ("Ana", "Beto")

    @pilot_test
    async def test_choosing_a_language_redraws_the_form_and_keeps_it(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            await pilot.press(*"Ana")
            screen.query_one("#lang", Select).value = "es"
            await pilot.pause()
            assert current_language() == "es"
            assert text_of(screen.query_one("#start")) != "Start"  # the button is in Spanish now
            assert screen.query_one("#name-0", Input).value == "Ana"  # what was typed is kept
            screen.query_one("#name-0", Input).focus()
            await pilot.press("enter")
            assert isinstance(app.screen, GameScreen)
        assert json.loads((tmp_path / "tui.json").read_text())["lang"] == "es"
