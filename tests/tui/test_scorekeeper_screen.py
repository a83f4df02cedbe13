"""Scorekeeper mode through the keyboard: real dice typed in, boxes checked under the rules,
refusals shown with their reason, and a suggestion of what to hold."""

from __future__ import annotations

from pathlib import Path

from tests.tui.pilot import SIZE, pilot_test, table_rows, visible_words, wait_until
from textual.pilot import Pilot

from cubilete.engine.rules import find_rules
from cubilete.tui import make_app
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.widgets.panels import CoachPanel, MessageLine
from cubilete.tui.widgets.scorecard import ScoreCard, box_letter


async def enter(pilot: Pilot[None], dice: str, throw: str, slot: str) -> None:
    """Type the dice and the throw number, then choose a box by its letter and write there with enter
    (if the entry was accepted so far: a refused one leaves the cursor in the fields)."""
    screen = pilot.app.screen
    assert isinstance(screen, ScorekeeperScreen)
    await pilot.press("escape", *dice, "enter", *throw, "enter")
    if not screen.query_one(ScoreCard).has_focus:
        return
    await pilot.press(box_letter(screen.rules.slot_index(slot)), "enter")


class TestScorekeeper:
    @pilot_test
    async def test_entries_are_written_and_refusals_say_why(self) -> None:
        app = make_app(rules="generala", players=["Ana", "Beto"], scorekeeper=True, lang="en")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            message = screen.query_one(MessageLine)
            # Who starts (P15): one die each, the highest starts; then turns pass in seat order.
            assert "Who starts: Ana throws" in visible_words(screen.query_one("#title"))
            await pilot.press("5", "enter", "2", "enter")
            assert not screen.keeper.starting and screen.keeper.current_player == "Ana"
            # A Full made with the first throw is servido: 35 (RULES.md 3.1).
            await enter(pilot, "22555", "1", "full")
            assert screen.keeper.cards[0][screen.rules.slot_index("full")] == 35
            # Beto: 1 2 3 4 6 is no Full; the refusal says so and a scratch is offered, refused here.
            await enter(pilot, "12346", "2", "full")
            assert "do not make" in visible_words(message)
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("n")
            assert screen.keeper.cards[1][screen.rules.slot_index("full")] is None
            # An Escalera after the first throw is worth 20.
            await enter(pilot, "34561", "2", "escalera")
            assert screen.keeper.cards[1][screen.rules.slot_index("escalera")] == 20
            # Ana's Full is closed: refused with the reason.
            await enter(pilot, "33366", "1", "full")
            assert "already closed" in visible_words(message)
            # A fourth throw does not exist in Generala.
            await enter(pilot, "33366", "4", "3")
            assert "3 throws" in visible_words(message)
            assert screen.keeper.current == 0
            sheet = table_rows(screen.query_one(ScoreCard))
            assert sheet["full"][1:3] == ["35", "·"] and sheet["escalera"][1:3] == ["·", "20"]
            assert sheet["_total"][1:3] == ["35", "20"]

    @pilot_test
    async def test_a_scratch_is_confirmed_and_undo_takes_it_back(self) -> None:
        app = make_app(rules="generala", players=["Ana"], scorekeeper=True, lang="en")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            await enter(pilot, "12346", "3", "generala")
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("y")
            generala = screen.rules.slot_index("generala")
            doble = screen.rules.slot_index("doble")
            assert screen.keeper.cards[0][generala] == 0
            assert screen.keeper.cards[0][doble] == 0  # a scratched Generala closes Doble too (RULES.md §4)
            await pilot.press("u")
            assert screen.keeper.cards[0][generala] is None and screen.keeper.cards[0][doble] is None

    @pilot_test
    async def test_suggest_what_to_hold(self) -> None:
        app = make_app(rules="generala", players=["Ana"], scorekeeper=True, lang="en")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            await pilot.press(*"55512", "enter", "1", "enter", "h")
            panel = screen.query_one(CoachPanel)
            await wait_until(pilot, lambda: "best options" in visible_words(panel), seconds=120)
            assert "1. keep 5 5 5, throw the rest: expected" in visible_words(panel)  # three fives: keep them

    @pilot_test
    async def test_the_last_entry_shows_the_final_result(self) -> None:
        generala = find_rules("generala")
        three = generala.replace(name="three", boxes=tuple(generala.box(b) for b in ("1", "escalera", "full")))
        app = make_app(rules=three, players=["Ana"], scorekeeper=True, lang="en")
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            for slot, dice, throw in (("1", "11234", "2"), ("escalera", "12345", "1"), ("full", "22333", "3")):
                await enter(pilot, dice, throw, slot)
            assert screen.keeper.totals() == [2 + 25 + 30]  # Escalera servida 25, Full armado 30
            assert isinstance(app.screen, MessageDialog)
            assert "57" in visible_words(app.screen.query_one("#body"))


class TestStartAndTieBreak:
    @pilot_test
    async def test_start_throws_a_tie_break_hand_and_the_statistics(self, tmp_path: Path) -> None:
        """Issue 9.2: the start throw picks who starts; a tie at the end is settled by one more hand each
        (S1: "se disputará una última ronda de desempate"); the game goes into the statistics."""
        from cubilete.store.stats import StatsDB

        generala = find_rules("generala")
        boxes = tuple(generala.box(b) for b in ("1", "escalera", "full"))
        one = generala.replace(name="one", boxes=boxes, rounds=1)
        app = make_app(rules=one, players=["Ana", "Beto"], scorekeeper=True, lang="en", data_dir=tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ScorekeeperScreen)
            await pilot.press("3", "enter", "6", "enter")  # Beto starts
            assert screen.keeper.current_player == "Beto"
            await enter(pilot, "11234", "2", "1")
            await enter(pilot, "11456", "3", "1")
            assert screen.keeper.tiebreak
            assert "Tie-break round 1: Beto's hand" in visible_words(screen.query_one("#title"))
            await pilot.press("escape", *"23456", "enter", "2", "enter")  # Escalera armada 20
            await pilot.press("escape", *"22333", "enter", "1", "enter")  # Full servido 35
            assert screen.keeper.is_over and screen.keeper.winners == (0,)
            assert isinstance(app.screen, MessageDialog)
            assert "Ana wins the tie-break round" in visible_words(app.screen.query_one("#body"))
        with StatsDB(tmp_path / "stats.sqlite3") as db:
            (row,) = db.games()
        assert row.winners == ("Ana",) and row.reason == "tie-break"
