"""Helpers of the pilot tests: run an async test, wait for the bots, play the way a person does
(keyboard only), and read what a widget shows."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from rich.text import Text
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable

from cubilete.engine.state import Phase
from cubilete.tui.app import CubileteApp
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen

SIZE = (120, 40)


def pilot_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no pytest plugin needed); fixtures are passed through."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


async def wait_until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 60) -> None:
    """Wait until ``condition()`` is true (sleeping, not drawing), then let the screen catch up."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.002)
    await pilot.pause()


def needs_person(app: CubileteApp) -> bool:
    """True when the app waits for a person: a decision, a dialog, or another screen than the game."""
    screen = app.screen
    if not isinstance(screen, GameScreen):
        return True
    return screen.session.is_decision() or screen.finished


async def settle(pilot: Pilot[None], seconds: float = 60) -> None:
    """Let the bots play until the app waits for a person."""
    await wait_until(pilot, lambda: needs_person(pilot.app), seconds)  # type: ignore[arg-type]


def game_screen(app: CubileteApp) -> GameScreen:
    """The game screen on top (fails if another screen is shown)."""
    screen = app.screen
    assert isinstance(screen, GameScreen), f"expected the game screen, got {screen!r}"
    return screen


async def play_decision_simply(pilot: Pilot[None]) -> None:
    """One decision the plain way: throw if nothing is on the table, else score the box under the
    cursor (the first box that pays, as the screen proposes), confirming a scratch; stand in a tie-break."""
    app: CubileteApp = pilot.app  # type: ignore[assignment]
    st = game_screen(app).session.game.state
    if st.turn.throws == 0:
        await pilot.press("r")
    elif st.phase is Phase.TIEBREAK:
        await pilot.press("t")
    else:
        await pilot.press("enter")
        if not isinstance(app.screen, GameScreen | EndScreen):
            await pilot.press("y")  # the scratch confirmation
    await settle(pilot)


async def play_to_the_end(pilot: Pilot[None], limit: int = 600) -> EndScreen:
    """Play every decision of the people with :func:`play_decision_simply` until the end screen."""
    app = pilot.app
    await settle(pilot)
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, EndScreen):
            await wait_until(pilot, functools.partial(getattr, screen, "ready"))
            return screen
        if not isinstance(screen, GameScreen):  # the instant-win announcement
            await pilot.press("enter")
            continue
        await play_decision_simply(pilot)
    raise AssertionError("the game did not end")


def visible_text(widget: Widget) -> str:
    """What a widget shows on screen, line by line (borders included)."""
    region = Region(0, 0, widget.outer_size.width, widget.outer_size.height)
    return "\n".join(strip.text for strip in widget.render_lines(region))


def visible_words(widget: Widget) -> str:
    """What a widget shows, as one line of words (borders removed, wrapped lines joined)."""
    text = visible_text(widget)
    for frame in "│╭╮╰╯─":
        text = text.replace(frame, " ")
    return " ".join(text.split())


def table_rows(table: DataTable[Any]) -> dict[str, list[str]]:
    """A data table as plain text: row key -> the cells of that row."""
    rows: dict[str, list[str]] = {}
    for row in table.ordered_rows:
        cells = table.get_row(row.key)
        rows[str(row.key.value)] = [c.plain if isinstance(c, Text) else str(c) for c in cells]
    return rows
