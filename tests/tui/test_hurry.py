"""Keys during the bots' turns: a key that cannot act says why and what can (it was silently dropped), and
f lets the bots play their turns at once (their pause here is far longer than any test waits)."""

from __future__ import annotations

import threading

from tests.tui.pilot import pilot_test, wait_until
from textual.widgets import Static

from cubilete.engine.actions import Action
from cubilete.engine.game import Game
from cubilete.play.bots import Strategy
from cubilete.tui import make_app
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.panels import MessageLine


class TestHurry:
    @pilot_test
    async def test_f_lets_the_bots_play_at_once(self) -> None:
        app = make_app(lang="en", bot_delay=1000, players="Ana,bot:greedy,bot:greedy", seed="11")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            if not screen.session.is_decision():  # a bot starts: hurry it too
                await pilot.press("f")
            await wait_until(pilot, lambda: screen.session.is_decision())
            turns = screen.game.state.seats[0].turns_taken
            await pilot.press("r")
            await wait_until(pilot, lambda: screen.views is not None)
            await pilot.press("enter")
            await pilot.press("y")  # a scratch asks first
            await wait_until(pilot, lambda: screen.session.bot_to_move() is not None)
            await pilot.press("r")  # a key the bots' turn cannot take: it says why, and what can be done
            message = str(screen.query_one(MessageLine).render())
            assert message.startswith("Wait: greedy bot") and "f: the bots play at once" in message
            assert "bots at once" in str(screen.query_one("#keys", Static).render())
            await pilot.press("f")
            await wait_until(pilot, lambda: screen.session.is_decision())  # both bots played (1000 s pauses)
            assert screen.game.state.seats[0].turns_taken == turns + 1
            assert not screen.hurry  # the next bots' turns pause again, to be followed


class SlowToThink:
    """A real bot whose first move waits until the test lets it go (as a bot building its tables would)."""

    def __init__(self, bot: Strategy) -> None:
        self.bot, self.name, self.go = bot, bot.name, threading.Event()

    def choose(self, game: Game) -> Action:
        assert self.go.wait(300), "the test never let the bot move"
        return self.bot.choose(game)


class TestThinking:
    @pilot_test
    async def test_a_bot_that_thinks_long_says_so_and_the_line_clears_when_it_moves(self) -> None:
        app = make_app(lang="en", bot_delay=0, players="Ana,bot:greedy", seed="11")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            slow = SlowToThink(screen.session.bots[1])
            screen.session.bots[1] = slow  # type: ignore[assignment]
            line = screen.query_one(MessageLine)
            await wait_until(pilot, lambda: screen.session.is_decision())
            await pilot.press("r")
            await wait_until(pilot, lambda: screen.views is not None)
            await pilot.press("enter")
            await pilot.press("y")  # a scratch asks first
            await wait_until(pilot, lambda: "greedy bot is thinking" in str(line.render()))
            assert screen.game.state.current == 1 and screen.game.state.turn.throws == 0  # it has not moved
            slow.go.set()
            await wait_until(pilot, lambda: screen.game.state.turn.throws > 0 or screen.game.state.current == 0)
            await wait_until(pilot, lambda: "thinking" not in str(line.render()))


class TestCoachPick:
    @pilot_test
    async def test_the_coachs_box_is_put_under_the_cursor(self) -> None:
        from cubilete.play import coach
        from cubilete.tui.widgets.panels import CoachPanel
        from cubilete.tui.widgets.scorecard import ScoreCard

        app = make_app(lang="en", bot_delay=0, players="Ana", seed="11")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for _throw in range(3):  # no throws left: every option is a box
                await wait_until(pilot, lambda: screen.session.is_decision())
                await pilot.press("r")
            await wait_until(pilot, lambda: screen.game.state.turn.throws == 3)
            sheet = screen.query_one(ScoreCard)
            sheet.focus_slot(len(screen.game.rules.slots) - 1)  # the cursor elsewhere first
            best, _exact = coach.hint(screen.game, top=1)
            assert best and best[0].kind == "score"
            await pilot.press("h")
            panel = screen.query_one(CoachPanel)
            await wait_until(pilot, lambda: "best options" in str(panel.render()))
            assert sheet.selected_slot == best[0].slot


class TestEndChart:
    def test_the_chart_is_bars_on_a_fixed_scale_and_ends_at_the_result(self) -> None:
        from cubilete.play.win_review import Timeline
        from cubilete.tui.screens.end import chance_chart_lines

        line = Timeline(("Ana", "bot:greedy"), (0, 1, 2), ((0.5, 0.5), (0.9, 0.1), (1.0, 0.0)), exact=True)
        assert chance_chart_lines(line) == [
            "Chances to win, turn by turn:",
            "  Ana         ▅██  100%",  # 50% is the fifth of eight steps; 90% and 100% the highest
            "  greedy bot  ▅▁▁  0%",
        ]
