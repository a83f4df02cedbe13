"""The setup screen: choosing rules, seats and language with the keyboard, checking the
choice, remembering it for next time, and house rules from a file."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tui.pilot import SIZE, pilot_test, visible_words, wait_until
from textual.widgets import Input, Select, Switch

from cubilete.engine import record
from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.i18n import current_language
from cubilete.tui import make_app
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.screens.setup import PROFILE, SetupScreen
from cubilete.tui.settings import HUMAN, SeatChoice, SetupChoice, save_choice


class TestSetup:
    @pilot_test
    async def test_keyboard_only_a_name_and_enter_start_a_game_against_the_bot(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, SetupScreen)
            await pilot.press(*"Ana", "enter")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.session.game.players == ("Ana", "bot:casual")  # a named level by default
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
            screen.query_one("#seed", Input).value = "42"
            await pilot.press(*"Beto", "enter")
            assert first.screen.session.game.seed == "42"
            assert isinstance(first.screen, GameScreen)
            assert first.screen.session.game.players == ("Beto", "bot:greedy")
        again = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with again.run_test(size=SIZE):
            screen = again.screen
            assert isinstance(screen, SetupScreen)
            assert screen.query_one("#rules", Select).value == "yahtzee"
            assert screen.query_one("#name-0", Input).value == "Beto"
            assert screen.query_one("#kind-1", Select).value == "bot:greedy"
            assert screen.query_one("#seed", Input).value == ""  # a seed is for one game, not remembered

    @pilot_test
    async def test_new_game_from_the_end_screen_opens_the_remembered_setup(self, tmp_path: Path) -> None:
        save_choice(SetupChoice(rules="bozo", seats=[SeatChoice(HUMAN, "Carla")]), tmp_path)
        game = Game(find_rules("generala").replace(name="one", boxes=(find_rules("generala").box("6"),)), ["Ana"])
        game.apply(Roll())
        game.apply(Score("6"))
        record.save(game, tmp_path / "done.json")
        app = make_app(resume=tmp_path / "done.json", lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            assert isinstance(app.screen, EndScreen)
            await pilot.press("n")
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            assert screen.query_one("#rules", Select).value == "bozo"
            assert screen.query_one("#name-0", Input).value == "Carla"

    @pilot_test
    async def test_problems_with_the_seats_are_shown_and_nothing_starts(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            await pilot.press("enter")  # no name typed
            assert "Seat 1: a person needs a name." in visible_words(screen.query_one("#error"))
            screen.query_one("#kind-1", Select).value = "human"
            screen.query_one("#name-1", Input).value = "Ana"
            await pilot.press(*"Ana", "enter")
            assert "Two seats are called Ana" in visible_words(screen.query_one("#error"))
            screen.query_one("#name-1", Input).value = "bot"
            await pilot.press("enter")
            assert "the name bot is kept for bots" in visible_words(screen.query_one("#error"))
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
            error = visible_words(screen.query_one("#error"))
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
            assert "throws" in visible_words(screen.query_one("#error"))
            assert isinstance(app.screen, SetupScreen)

    @pilot_test
    async def test_scorekeeper_mode_is_for_people(self, tmp_path: Path) -> None:
        app = make_app(lang="en", bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            screen.query_one("#scorekeeper", Switch).value = True
            await pilot.press(*"Ana", "enter")
            assert "not bots" in visible_words(screen.query_one("#error"))
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
            await wait_until(pilot, lambda: any(w.has_focus for w in screen.query("#lang")))  # redrawn
            assert current_language() == "es"
            assert visible_words(screen.query_one("#start")) != "Start"  # the button is in Spanish now
            assert screen.query_one("#name-0", Input).value == "Ana"  # what was typed is kept
            screen.query_one("#name-0", Input).focus()
            await pilot.press("enter")
            assert isinstance(app.screen, GameScreen)
        assert json.loads((tmp_path / "tui.json").read_text())["lang"] == "es"
