"""A yes-or-no question answers to the key its button names in the player's language (Sí (s), Sim (s)),
and y still works everywhere."""

from __future__ import annotations

import pytest
from tests.tui.pilot import SIZE, pilot_test
from textual.widgets import Button

from cubilete.i18n import set_language
from cubilete.tui import make_app
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog


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


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("lang", "space"), [("es", "r, espacio"), ("pt_BR", "r, espaço"), ("en", "r, space")])
@pilot_test
async def test_the_keys_help_names_the_space_bar_in_the_language(size: tuple[int, int], lang: str, space: str) -> None:
    """Issue 25, item 13: the help listed "r, space" in Spanish and Portuguese."""
    app = make_app(rules="generala", lang=lang, bot_delay=0, players="Ana", seed="1")
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog)
        keys = [line.split("  ")[0].strip() for line in app.screen.body.splitlines()]
    set_language("en")
    assert keys[0] == space
