"""Snapshots of the main screens in each language: setup, a game in play, the end of a game.

After a deliberate change of the screens or of the catalogs, look at the new pictures and
accept them with ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.tui.pilot import settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Input

from cubilete.engine import record
from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.i18n import LANGUAGES
from cubilete.play.bots import make_bot
from cubilete.tui import make_app
from cubilete.tui.screens.dialogs import ConfirmDialog
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.widgets.chances import ChancesPanel
from cubilete.tui.widgets.scorecard import box_letter

SNAPSHOT_SIZE = (120, 36)
Compare = Callable[..., bool]


def finished_game() -> Game:
    """A finished game of Generala: Ana scores the first box that pays (or the first open one), the bot plays."""
    game = Game(find_rules("generala"), ["Ana", "bot"], seed="snapshot")
    bot = make_bot("bot", "snapshot:seat1")
    while not game.is_over:
        if game.state.current == 1:
            game.apply(bot.choose(game))
        elif game.state.turn.throws == 0:
            game.apply(Roll())
        else:
            points = game.points_now()
            paying = [slot for slot, p in points.items() if p > 0]
            game.apply(Score((paying or list(points))[0]))
    return game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_setup_screen(snap_compare: Compare, lang: str, tmp_path: Path) -> None:
    app = make_app(lang=lang, bot_delay=0, data_dir=tmp_path)

    async def steady_cursor(pilot: Pilot[Any]) -> None:
        # the focused name field's cursor blinks: the picture depended on the moment it was taken
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=steady_cursor)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_game_screen(snap_compare: Compare, lang: str, tmp_path: Path) -> None:
    app = make_app(rules="generala", players=["Ana", "bot"], seed="snapshot", lang=lang, bot_delay=0, data_dir=tmp_path)

    async def two_throws(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r", "1", "3", "r", "2")
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        history = tuple(screen.session.game.history)
        panel = screen.query_one(ChancesPanel)
        await wait_until(pilot, lambda: panel.shown is not None and screen._chances_asked == history
                         and not screen._chances_running, 300)

    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=two_throws)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_end_screen(snap_compare: Compare, lang: str, tmp_path: Path) -> None:
    path = tmp_path / "final.json"
    record.save(finished_game(), path)
    app = make_app(resume=path, lang=lang, bot_delay=0, data_dir=tmp_path)

    async def reviewed(pilot: Pilot[Any]) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, EndScreen) and pilot.app.screen.review is not None)

    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=reviewed)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_scorekeeper_scratch_dialog(snap_compare: Compare, lang: str, tmp_path: Path) -> None:
    """The scorekeeper's question whether to scratch a refused box: its dialog sits over the scorekeeper's own
    layout, where moving the CSS out of DEFAULT_CSS may change which rule wins (issue 21's guard)."""
    app = make_app(rules="generala", players=["Ana"], scorekeeper=True, lang=lang, bot_delay=0, data_dir=tmp_path)

    async def refused_generala(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("escape", *"12346", "enter", "3", "enter")
        screen = pilot.app.screen
        assert isinstance(screen, ScorekeeperScreen)
        await pilot.press(box_letter(screen.rules.slot_index("generala")), "enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog))
        for field in screen.query(Input):
            field.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=refused_generala)
