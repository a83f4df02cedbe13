"""The game screen shows every player's chance to win, updated after every throw and score."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.tui.pilot import SIZE, game_screen, pilot_test, visible_words, wait_until
from textual.pilot import Pilot

from cubilete.engine.actions import Action
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.chances import ChancesPanel, bar, percentages
from cubilete.win.chance import chance

PERCENT = re.compile(r"(\d+)%")
MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"
TO_WIN = re.compile(r"To win: [^()]*\((?:expected [\d.]+, )?([\d.]+)% to win\)")


def test_percentages_add_up_to_100_by_largest_remainders() -> None:
    assert percentages([1 / 3, 1 / 3, 1 / 3]) == [34, 33, 33]
    assert percentages([0.996, 0.004]) == [100, 0]
    assert percentages([0.125, 0.375, 0.5]) == [13, 37, 50] or percentages([0.125, 0.375, 0.5]) == [12, 38, 50]
    assert sum(percentages([0.071, 0.213, 0.333, 0.383])) == 100


def test_bars_fill_in_proportion() -> None:
    assert bar(0.0, 4) == "····"
    assert bar(1.0, 4) == "████"
    assert bar(0.5, 4) == "██··"


async def shown_for(pilot: Pilot[None], screen: GameScreen, history: tuple[Action, ...]) -> list[int]:
    """Wait until the panel shows the chances of the game after ``history``; its percentages."""
    panel = screen.query_one(ChancesPanel)
    await wait_until(pilot, lambda: screen.chances_shown and panel.shown is not None
                     and screen._chances_asked == history and not screen._chances_running, seconds=120)
    await pilot.pause()
    words = visible_words(panel)
    shown = [int(p) for p in PERCENT.findall(words)]
    assert shown == panel.shown
    return shown


@pilot_test
async def test_the_chances_add_up_to_100_and_follow_every_throw_and_score() -> None:
    app = make_app(rules="general-4-columns", players=["Ana", "Beto"], seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        game = screen.session.game
        start = await shown_for(pilot, screen, ())
        assert start == [50, 50]  # two players in the same position, nothing thrown yet
        words = visible_words(screen.query_one(ChancesPanel))
        assert "Ana" in words and "Beto" in words
        assert "estimated" in words  # the 52-round General is too large for exact tables
        await pilot.press("r")
        after_throw = await shown_for(pilot, screen, tuple(game.history))
        assert sum(after_throw) == 100
        assert after_throw == percentages(chance(game).probabilities)
        await pilot.press("enter")  # the cursor is on the first box these dice pay
        if app.screen is not screen:  # a scratch asks first
            await pilot.press("y")
        assert game.state.current == 1
        after_score = await shown_for(pilot, screen, tuple(game.history))
        assert sum(after_score) == 100
        assert after_score == percentages(chance(game).probabilities)


@pilot_test
async def test_one_player_alone_sees_no_chances() -> None:
    app = make_app(rules="general-4-columns", players=["Ana"], seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        assert not screen.query_one(ChancesPanel).display
        assert screen._chances_asked is None


@pilot_test
async def test_the_panel_shows_the_hints_chance_to_win_exact_heads_up() -> None:
    from cubilete.tui.widgets.panels import CoachPanel

    app = make_app(rules=str(MINI), players=["Ana", "Beto"], seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        game = screen.session.game
        await pilot.press("r")
        shown = await shown_for(pilot, screen, tuple(game.history))
        panel = screen.query_one(ChancesPanel)
        assert panel.exact and "estimated" not in visible_words(panel)  # the pocket rules' two-player table
        now = chance(game)
        assert now.exact and shown == percentages(now.probabilities)
        await pilot.press("h")
        coach = screen.query_one(CoachPanel)
        await wait_until(pilot, lambda: TO_WIN.search(visible_words(coach)) is not None, seconds=120)
        hinted = TO_WIN.search(visible_words(coach))
        assert hinted is not None
        assert hinted.group(1) == f"{100 * now[game.state.current]:.1f}"  # the same number in the hint


@pytest.mark.slow
@pilot_test
async def test_generala_chances_with_three_players_are_marked_estimated() -> None:
    app = make_app(rules="generala", players=["Ana", "Beto", "Caro"], seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r")
        shown = await shown_for(pilot, screen, tuple(screen.session.game.history))
        assert sum(shown) == 100 and len(shown) == 3
        assert not screen.query_one(ChancesPanel).exact  # exact only heads-up, from the two-player table
        assert "estimated" in visible_words(screen.query_one(ChancesPanel))


@pytest.mark.slow
@pilot_test
async def test_the_hint_gives_advice_for_points_and_to_win() -> None:
    from cubilete.tui.widgets.panels import CoachPanel

    app = make_app(rules="generala", players=["Ana", "Beto"], seed=7, lang="en", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await pilot.press("r", "h")
        panel = screen.query_one(CoachPanel)
        # the points come first (the chances to win may still be computing), then both ways
        await wait_until(pilot, lambda: "To win:" in visible_words(panel), seconds=300)
        words = visible_words(panel)
        assert "For points:" in words and "To win:" in words and "% to win" in words


@pytest.mark.slow
@pilot_test
async def test_the_end_screen_reviews_the_chance_to_win_and_exports_the_chart(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from tests.tui.test_snapshots import finished_game

    from cubilete.engine import record
    from cubilete.tui.screens.dialogs import SaveDialog
    from cubilete.tui.screens.end import EndScreen

    path = tmp_path / "final.json"
    record.save(finished_game(), path)
    app = make_app(resume=path, lang="en", bot_delay=0, data_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, EndScreen) and app.screen.review is not None,
                         seconds=300)
        screen = app.screen
        assert isinstance(screen, EndScreen)
        words = visible_words(screen.query_one("#review"))
        assert "Chance to win given up" in words and "Ana:" in words
        await pilot.press("c")
        assert isinstance(app.screen, SaveDialog)
        chart = tmp_path / "chart.svg"
        from textual.widgets import Input

        app.screen.query_one("#path", Input).value = str(chart)
        await pilot.press("enter")
        await wait_until(pilot, chart.exists, seconds=60)
    assert ET.fromstring(chart.read_bytes()).tag.endswith("svg")
