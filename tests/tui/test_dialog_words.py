"""A yes-or-no question answers to the key its button names in the player's language (Sí (s), Sim (s)),
and y still works everywhere."""

from __future__ import annotations

import pytest
from tests.tui.pilot import SIZE, pilot_test
from textual.widgets import Button

from cubilete.i18n import set_language
from cubilete.tui import make_app
from cubilete.tui.screens.dialogs import ConfirmDialog


class TestDialogWords:
    @pytest.mark.parametrize(("lang", "label", "key"), [("es", "Sí (s)", "s"), ("pt_BR", "Sim (s)", "s"),
                                                        ("en", "Yes (y)", "y"), ("es", "Sí (s)", "y")])
    @pilot_test
    async def test_yes_is_the_key_the_button_names(self, lang: str, label: str, key: str) -> None:
        app = make_app(lang=lang, bot_delay=0, players="Ana", seed="1")
        answers: list[bool | None] = []
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(ConfirmDialog("?"), answers.append)
            await pilot.pause()
            assert str(app.screen.query_one("#yes", Button).label) == label
            await pilot.press(key)
            await pilot.pause()
        set_language("en")
        assert answers == [True]
