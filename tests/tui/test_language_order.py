"""Which language the terminal game speaks: the one picked on the setup screen is remembered; otherwise the
environment decides every time (an English first run used to be saved and beat LANG=es_AR.UTF-8 forever)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.tui.pilot import SIZE, pilot_test, wait_until
from textual.widgets import Input, Select

from cubilete.i18n import current_language
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.setup import SetupScreen
from cubilete.tui.settings import load_choice


def _speak(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "CUBILETE_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


class TestLanguageOrder:
    @pilot_test
    async def test_a_first_run_in_english_does_not_hold_the_next_in_spanish(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        _speak(monkeypatch, "en_US.UTF-8")
        first = make_app(bot_delay=0, data_dir=tmp_path)
        async with first.run_test(size=SIZE) as pilot:
            assert current_language() == "en"
            await pilot.press(*"Ana", "enter")
            await wait_until(pilot, lambda: isinstance(first.screen, GameScreen))
        assert load_choice(tmp_path).lang is None  # nobody picked English: nothing to remember
        _speak(monkeypatch, "es_AR.UTF-8")
        again = make_app(bot_delay=0, data_dir=tmp_path)
        async with again.run_test(size=SIZE):
            assert isinstance(again.screen, SetupScreen)
            assert current_language() == "es"

    @pilot_test
    async def test_a_language_picked_on_the_setup_screen_is_remembered(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        _speak(monkeypatch, "es_AR.UTF-8")
        first = make_app(bot_delay=0, data_dir=tmp_path)
        async with first.run_test(size=SIZE) as pilot:
            first.screen.query_one("#lang", Select).value = "pt_BR"
            # the form is drawn again in Portuguese (its last step focuses the new language picker): typing
            # before that went to the old form's field on a loaded machine
            await wait_until(pilot, lambda: current_language() == "pt_BR" and first.focused is not None
                             and first.focused.id == "lang")  # fmt: skip
            first.screen.query_one("#name-0", Input).focus()
            await pilot.press(*"Ana", "enter")
            await wait_until(pilot, lambda: isinstance(first.screen, GameScreen))
        again = make_app(bot_delay=0, data_dir=tmp_path)
        async with again.run_test(size=SIZE):
            assert current_language() == "pt_BR"  # the player's own pick beats the environment

    @pilot_test
    async def test_an_old_file_that_saved_the_running_language_is_not_a_pick(
            self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (tmp_path / "tui.json").write_text(json.dumps({"rules": "generala", "lang": "en"}))
        _speak(monkeypatch, "es_AR.UTF-8")
        app = make_app(bot_delay=0, data_dir=tmp_path)
        async with app.run_test(size=SIZE):
            assert current_language() == "es"
