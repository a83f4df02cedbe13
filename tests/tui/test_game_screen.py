"""The game screen, key by key: holds, undo, the coach, save and resume, an instant win,
a tie-break round, and the boxes greyed out with their reason."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from tests.tui.pilot import (
    SIZE,
    game_screen,
    pilot_test,
    play_decision_simply,
    play_to_the_end,
    settle,
    table_rows,
    visible_text,
    visible_words,
    wait_until,
)
from textual.pilot import Pilot

from cubilete.engine import record
from cubilete.engine.actions import Roll, Score
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.state import EndReason, Phase
from cubilete.play import coach
from cubilete.tui import make_app
from cubilete.tui.screens.dialogs import ConfirmDialog, MessageDialog, SaveDialog
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.widgets.dice import Die
from cubilete.tui.widgets.panels import CoachPanel, MessageLine
from cubilete.tui.widgets.scorecard import ScoreCard

OPTION_ROW = re.compile(r"^(\d)\. (.+): expected (\d+\.\d), loss (\d+\.\d)$")


class TestHoldsAndThrows:
    @pilot_test
    async def test_held_dice_stay_and_are_marked_by_shape_and_word(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r")
            first = screen.session.game.state.turn.dice
            await pilot.press("1", "3")
            die1 = screen.query_one("#die-1", Die)
            die2 = screen.query_one("#die-2", Die)
            assert "HELD" in visible_words(die1) and "╔" in visible_words(die1)  # double frame and the word
            assert "HELD" not in visible_words(die2) and "┌" in visible_words(die2)
            await pilot.press("r")
            turn = screen.session.game.state.turn
            assert turn.throws == 2
            assert (turn.dice[0], turn.dice[2]) == (first[0], first[2])  # the held dice were not thrown
            assert screen.session.game.history[-1] == Roll((0, 2))

    @pilot_test
    async def test_the_mouse_holds_a_die_and_a_second_click_on_a_row_scores_it(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r")
            await pilot.click("#die-2")
            assert screen.held == {1}
            game = screen.session.game
            row = game.rules.slot_index("6")
            await pilot.click(ScoreCard, offset=(3, 1 + row))  # the header is the first line
            assert game.state.turn.throws == 1  # a first click only moves the cursor
            await pilot.click(ScoreCard, offset=(3, 1 + row))
            if isinstance(app.screen, ConfirmDialog):
                await pilot.press("y")
            assert game.state.seats[0].card[row] is not None

    @pilot_test
    async def test_holding_before_the_first_throw_is_refused_in_words(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("2")
            assert "Throw first" in visible_words(screen.query_one(MessageLine))
            assert screen.session.game.history == []


    @pilot_test
    async def test_em_baixo_in_bozo_and_not_elsewhere(self) -> None:
        app = make_app(rules="bozo", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("b")
            game = screen.session.game
            assert game.history == [Roll(face_down=True)]
            raw = record.to_record(game)["throws"][-1]
            assert list(game.state.turn.dice) == [7 - f for f in raw]  # the faces resting on the table
        app = make_app(rules="generala", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("b")
            assert "no em baixo" in visible_words(screen.query_one(MessageLine))
            assert screen.session.game.history == []

    @pilot_test
    async def test_locked_holds_cannot_be_released(self) -> None:
        app = make_app(rules="generala-apartada", players=["Ana"], seed=5, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r", "2", "r", "2")
            assert "stay held" in visible_words(screen.query_one(MessageLine))
            assert screen.held == {1}


class TestUndo:
    @pilot_test
    async def test_undo_a_throw_gives_the_same_dice_again(self) -> None:
        app = make_app(rules="generala", players=["Ana", "bot"], seed=21, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = game_screen(app)
            game = screen.session.game
            await pilot.press("r", "1", "2", "r")
            second = game.state.turn.dice
            assert game.state.turn.throws == 2
            await pilot.press("u")
            assert game.state.turn.throws == 1  # back to the decision after the first throw
            await pilot.press("1", "2", "r")
            assert game.state.turn.dice == second  # the same faces: a seed replays its throws

    @pilot_test
    async def test_undo_skips_the_bots_moves_back_to_the_persons_decision(self) -> None:
        app = make_app(rules="generala", players=["Ana", "bot"], seed=21, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = game_screen(app)
            game = screen.session.game
            await pilot.press("r")
            before_score = (game.state, len(game.history))
            await pilot.press("enter")
            if isinstance(app.screen, ConfirmDialog):
                await pilot.press("y")
            await settle(pilot)
            assert game.state.current == 0 and game.state.turn.throws == 0  # the bot has played its turn
            assert len(game.history) > before_score[1] + 1
            await pilot.press("u")
            assert (game.state, len(game.history)) == before_score
            assert game.state.seats[0].card == before_score[0].seats[0].card
            sheet = table_rows(screen.query_one(ScoreCard))
            assert all(row[1] == "·" for key, row in sheet.items() if not key.startswith("_"))


class TestCoach:
    @pilot_test
    async def test_hint_lists_the_best_options_with_expected_score_and_loss(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=8, lang="en", bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:  # narrow: the coach spans the width, one row each
            screen = game_screen(app)
            await pilot.press("r", "h")
            panel = screen.query_one(CoachPanel)
            await wait_until(pilot, lambda: "best options" in visible_words(panel), seconds=120)
            rows = [OPTION_ROW.match(line.strip("│ ")) for line in visible_text(panel).splitlines()]
            options = [(m[2], float(m[3]), float(m[4])) for m in rows if m]
            assert [n for n, m in enumerate(rows) if m] and len(options) == 5
            expected = [e for _what, e, _loss in options]
            losses = [loss for _what, _e, loss in options]
            assert expected == sorted(expected, reverse=True) and losses[0] == 0.0
            assert all(abs(e - (expected[0] - loss)) < 0.151 for e, loss in zip(expected, losses, strict=True))
            best, _exact = coach.hint(record.loads(record.dumps(screen.session.game)), top=1)
            assert options[0][0] == best[0].describe(screen.session.game.rules)
            assert "instant wins are not modelled" in visible_words(panel)

    @pilot_test
    async def test_coach_mode_warns_after_a_costly_decision(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=8, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            game = screen.session.game
            await pilot.press("c", "r")
            assert game.state.turn.dice != (game.state.turn.dice[0],) * 5
            sheet = screen.query_one(ScoreCard)
            sheet.focus_slot(game.rules.slot_index("generala"))  # scratching Generala on the first turn
            await pilot.press("enter", "y")
            assert game.seat().card[game.rules.slot_index("generala")] == 0
            panel = screen.query_one(CoachPanel)
            await wait_until(pilot, lambda: "lost about" in visible_words(panel), seconds=120)
            loss = float(visible_words(panel).split("lost about ")[1].split(" ")[0])
            assert loss > 1.0


class TestSaveAndResume:
    @pilot_test
    async def test_a_resumed_game_goes_on_exactly_as_the_original(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)  # a short file name to type
        saved = tmp_path / "p.json"
        kept = tmp_path / "copy.json"

        async def decisions(pilot: Pilot[None], count: int) -> None:
            for _ in range(count):
                await play_decision_simply(pilot)

        original = make_app(rules="generala", players=["Ana", "bot"], seed=33, lang="en", bot_delay=0)
        async with original.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await decisions(pilot, 4)
            await pilot.press("s")
            assert isinstance(original.screen, SaveDialog)
            await pilot.press(*"p.json", "enter")  # the typed name replaces the proposed one
            assert isinstance(original.screen, GameScreen)
            shutil.copy(saved, kept)
            await decisions(pilot, 6)
            first = game_screen(original).session.game
            first_record = record.to_record(first)
        assert json.loads(saved.read_text())["actions"] == first_record["actions"]  # saved after every move

        resumed = make_app(resume=kept, lang="en", bot_delay=0)
        async with resumed.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await decisions(pilot, 6)
            second = record.to_record(game_screen(resumed).session.game)
        assert second["actions"] == first_record["actions"]
        assert second["throws"] == first_record["throws"]
        assert second["totals"] == first_record["totals"]

    @pilot_test
    async def test_a_save_to_a_folder_is_refused_in_the_dialog(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "d").mkdir()
        app = make_app(rules="generala", players=["Ana"], seed=3, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s", "d", "enter")
            dialog = app.screen
            assert isinstance(dialog, SaveDialog)
            assert "Cannot save" in visible_words(dialog.query_one("#error"))
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)

    @pilot_test
    async def test_export_from_the_end_screen(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        app = make_app(rules="generala", players=["bot"], seed=4, lang="en", bot_delay=0)
        out = tmp_path / "f.json"
        async with app.run_test(size=SIZE) as pilot:
            end = await play_to_the_end(pilot)
            await pilot.press("e", *"f.json", "enter")
            assert isinstance(app.screen, EndScreen)
        game = record.load(out)
        assert game.is_over and game.totals() == end.session.game.totals()


def seed_with_servida_generala() -> str:
    """A seed where Ana (seat 1) starts and her first throw is five of a kind."""
    rules = find_rules("generala")
    for n in range(100000):
        game = Game(rules, ["Ana", "bot"], seed=f"iw{n}")
        if game.state.current == 0:
            game.apply(Roll())
            if len(set(game.state.turn.dice)) == 1:
                return f"iw{n}"
    raise AssertionError("no seed found")


class TestEndings:
    @pilot_test
    async def test_a_servida_generala_wins_at_once_and_is_announced(self) -> None:
        seed = seed_with_servida_generala()
        app = make_app(rules="generala", players=["Ana", "bot"], seed=seed, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
            assert "Generala servida" in visible_words(app.screen.query_one("#title"))
            assert "wins at once" in visible_words(app.screen.query_one("#body"))
            await pilot.press("enter")
            end = app.screen
            assert isinstance(end, EndScreen)
            assert end.session.game.state.reason is EndReason.INSTANT_WIN
            assert "wins at once" in visible_words(end.query_one("#how"))

    @pilot_test
    async def test_a_tie_break_round_is_played_by_standing(self, tmp_path: Path) -> None:
        rules = find_rules("generala")
        one_box = rules.replace(name="sixes", title="Sixes only", boxes=(rules.box("6"),))
        seed = next(
            s for s in (f"tb{n}" for n in range(1000)) if _tied_after_one_turn(one_box, s)
        )
        game = Game(one_box, ["Ana", "bot"], seed=seed)
        for _ in range(2):
            game.apply(Roll())
            game.apply(Score("6"))
        assert game.state.phase is Phase.TIEBREAK
        saved = tmp_path / "tie.json"
        record.save(game, saved)
        app = make_app(resume=saved, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = game_screen(app)
            assert "Tie-break round 1" in visible_words(screen.query_one("#title"))
            assert " t " in visible_words(screen.query_one("#keys"))
            await pilot.press("r", "t")
            for _ in range(200):
                await settle(pilot)
                if isinstance(app.screen, EndScreen):
                    break
                await play_decision_simply(pilot)
            end = app.screen
            assert isinstance(end, EndScreen)
            assert end.session.game.state.reason in (EndReason.TIE_BREAK, EndReason.SHARED)


def _tied_after_one_turn(rules: object, seed: str) -> bool:
    game = Game(rules, ["Ana", "bot"], seed=seed)  # type: ignore[arg-type]
    for _ in range(2):
        game.apply(Roll())
        if game.is_over:
            return False
        game.apply(Score("6"))
    return game.state.phase is Phase.TIEBREAK


class TestGreyedBoxes:
    @pilot_test
    async def test_doble_is_greyed_with_its_reason_and_a_scratch_is_confirmed(self) -> None:
        app = make_app(rules="generala", players=["Ana"], seed=12, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r")
            sheet = table_rows(screen.query_one(ScoreCard))
            now, note = sheet["doble"][2], sheet["doble"][3]
            assert now == "0" and "until Generala holds points" in note
            screen.query_one(ScoreCard).focus_slot(screen.session.game.rules.slot_index("doble"))
            await pilot.press("enter")
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("n")
            assert screen.session.game.seat().card[10] is None  # nothing written

    @pilot_test
    async def test_fixed_order_greys_every_box_but_the_next(self) -> None:
        app = make_app(rules="generala-obligada", players=["Ana"], seed=12, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.press("r")
            sheet = table_rows(screen.query_one(ScoreCard))
            assert "next is Unos" in sheet["full"][3] and sheet["full"][2] == "—"
            screen.query_one(ScoreCard).focus_slot(screen.session.game.rules.slot_index("full"))
            await pilot.press("enter")
            assert "cannot be used now" in visible_words(screen.query_one(MessageLine))
            assert screen.session.game.history[-1] == Roll()

    @pilot_test
    async def test_the_forced_joker_points_at_the_box_it_allows(self, tmp_path: Path) -> None:
        # Yahtzee (official rule): a second Yahtzee of 3s, with the Yahtzee box holding 50 and Threes
        # open, must go in Threes; every other open box is greyed out with that reason.
        game = Game(find_rules("yahtzee"), ["Ana"], seed="joker", dice=ScriptedDice([(3,) * 5, (3,) * 5]))
        game.apply(Roll())
        game.apply(Score("yahtzee"))
        game.apply(Roll())
        saved = tmp_path / "joker.json"
        record.save(game, saved)
        app = make_app(resume=saved, lang="en", bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            await pilot.pause()
            sheet = table_rows(screen.query_one(ScoreCard))
            assert sheet["3"][2] == "15" and "+100 bonus" in sheet["3"][3]
            for slot in ("1", "chance", "full-house", "large-straight"):
                assert sheet[slot][2] == "—" and "joker rule" in sheet[slot][3] and "Threes" in sheet[slot][3]
            assert sheet["yahtzee"][1] == "50"
