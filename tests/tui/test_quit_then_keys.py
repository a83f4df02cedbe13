"""Keys pressed while the app is closing (after a confirmed quit, or ``q`` on the end screen) are
harmless: ``s`` used to open the save dialog on a dying app and crash with
``NoMatches: No nodes match '#path' on SaveDialog()`` (issue 25, item 7).

A person's key can arrive between ``exit()`` and the end of the app; the pilot waits for each key to
be handled, so the tests call the key's action in that same gap."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.tui.pilot import pilot_test, wait_until
from textual.screen import Screen

from cubilete.tui import make_app
from cubilete.tui.app import CubileteApp
from cubilete.tui.screens.end import EndScreen

SIZES = [(80, 24), (120, 40)]


async def act_while_closing(app: CubileteApp, size: tuple[int, int], action: str) -> None:
    async with app.run_test(size=size) as pilot:
        screen: Screen[None] = app.screen
        app.exit()
        await screen.run_action(action)
        await pilot.pause()
    assert app._exception is None, repr(app._exception)
    assert app.return_code == 0


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("action", ["save", "leave", "help"])
@pilot_test
async def test_game_keys_while_closing_do_not_crash(size: tuple[int, int], action: str, tmp_path: Path) -> None:
    app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0, data_dir=tmp_path)
    await act_while_closing(app, size, action)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("action", ["export", "export_chart"])
@pilot_test
async def test_end_screen_keys_after_q_do_not_crash(size: tuple[int, int], action: str, tmp_path: Path) -> None:
    app = make_app(rules="generala", players=["bot", "bot"], seed=5, lang="en", bot_delay=0, data_dir=tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen))
        screen: Screen[None] = app.screen
        app.exit()
        await screen.run_action(action)
        await pilot.pause()
    assert app._exception is None, repr(app._exception)
    assert app.return_code == 0
