"""``cubilete play`` in line mode, driven through ``main(argv)`` with a scripted stdin."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.cli.play_line import LineSession
from cubilete.engine import record
from cubilete.engine.actions import Roll
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game
from cubilete.engine.rules import Rules, find_rules, preset_names


def universal_script(rules: Rules, extra_blocks: int = 10) -> str:
    """Input that finishes any game whatever the dice.

    Each block tries every line of the sheet in order (closed or unusable ones are refused
    with a reason and change nothing), so the first usable box is scored; ``r`` starts the
    turn where em baixo may be called; ``stand`` ends a tie-break turn.
    """
    block = (["r"] if rules.face_down_call else []) + [f"s {n}" for n in range(1, len(rules.slots) + 1)] + ["stand"]
    return "\n".join(block * (rules.turns + extra_blocks)) + "\n"


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *argv: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def sheet_order_script(rules: Rules) -> str:
    """The human scores line 1, 2, 3 ... right after the automatic first throw (free-order rules)."""
    return "".join(f"s {n}\n" for n in range(1, rules.turns + 1)) + "stand\n" * 20



def _mini_generala(folder: Path) -> Path:
    """A Generala of only 5s, 6s and Generala (solved in a moment), as a profile file in ``folder``."""
    small = folder / "mini.toml"
    small.write_text('base = "generala"\nname = "mini"\nremove = ["1", "2", "3", "4", "escalera", "full", '
                     '"poker", "doble"]\n', encoding="utf-8")
    return small

class TestWholeGames:
    def test_generala_ana_against_the_bot(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        rules = find_rules("generala")
        save = tmp_path / "g.json"
        code, out, err = play(
            monkeypatch, capsys, sheet_order_script(rules),
            "--rules", "generala", "--players", "Ana,bot", "--seed", "7", "--save", str(save),
        )  # fmt: skip
        assert (code, err) == (0, "")
        assert out.startswith("Generala (Argentina): Ana vs bot (seed 7)")
        assert "=== Final result: Generala (Argentina) ===" in out
        assert "Ranking:" in out
        game = record.load(save)
        assert game.is_over
        ana = game.state.seats[0]
        if game.state.reason.value != "instant-win":
            # in sheet order: box n in turn n (unless a scratched Generala closed Doble first)
            assert all(v is not None for v in ana.card)

    @pytest.mark.parametrize("preset", preset_names())
    def test_every_preset_finishes(
        self, preset: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        rules = find_rules(preset)
        save = tmp_path / "g.json"
        code, out, err = play(
            monkeypatch, capsys, universal_script(rules),
            "--rules", preset, "--players", "Ana,bot", "--seed", "7", "--save", str(save),
        )  # fmt: skip
        assert (code, err) == (0, "")
        assert f"=== Final result: {rules.title} ===" in out
        game = record.load(save)
        assert game.is_over
        if game.state.reason is not None and game.state.reason.value != "instant-win":
            for seat in game.state.seats:
                assert seat.turns_taken == rules.turns or all(v is not None for v in seat.card)

    def test_bots_alone_need_no_input(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = play(monkeypatch, capsys, "", "--players", "bot,bot,bot:random", "--seed", "1", "--plain")
        assert (code, err) == (0, "")
        assert "bot vs bot-2 vs bot-3" in out.splitlines()[0]
        assert "bot-3 throws" in out and "Ranking:" in out

    def test_same_seed_same_game(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        script = universal_script(find_rules("yahtzee"))
        runs = [play(monkeypatch, capsys, script, "--rules", "yahtzee", "--seed", "abc") for _ in range(2)]
        assert runs[0] == runs[1]
        assert runs[0][1].startswith("Yahtzee (Hasbro): You vs bot:casual (seed abc)")  # a named level by default

    def test_yahtzee_final_table_has_bonus_rows(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _ = play(monkeypatch, capsys, "", "--rules", "yahtzee", "--players", "bot", "--seed", "2")
        assert code == 0
        table = out.split("=== Final result: Yahtzee (Hasbro) ===\n")[1].splitlines()
        labels = [line.split()[0] for line in table[1:14]]
        assert labels == [str(n) for n in range(1, 14)]
        assert table[14].split()[:2] == ["upper", "bonus"]
        assert table[15].split()[:2] == ["extra", "bonuses"]
        assert table[16].split()[0] == "total"
        assert out.rstrip().splitlines()[-1].startswith("Game over: bot scored ")


class TestDecisions:
    def test_first_decision_shows_dice_throw_and_points(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, err = play(monkeypatch, capsys, "q\n", "--players", "Ana", "--seed", "7")
        assert (code, err) == (0, "")
        game = Game(find_rules("generala"), ["Ana"], seed="7")
        game.apply(Roll())  # the automatic first throw
        dice = game.state.turn.dice
        assert f"Ana throws, throw 1 of 3: {' '.join(map(str, dice))} (servida)" in out
        assert "Ana, round 1 of 11, throw 1 of 3, servida" in out
        assert "  die   1  2  3  4  5 " in out
        assert "       " + "".join(f" {d} " for d in dice) in out
        ones = dice.count(1)
        assert any(line.split()[:4] == ["1", "1", "Unos", str(ones)] for line in out.splitlines())
        # every usable box is listed with the engine's points (Game.points_now), by line number
        table = out.split("Ana, round 1 of 11, throw 1 of 3, servida\n")[1].split("Ana>")[0].splitlines()[2:-1]
        cells = [re.split(r"\s{2,}", line.strip()) for line in table]  # line, id, name, points, notes
        shown = {c[1]: int(c[3]) for c in cells}
        assert shown == game.points_now()
        assert "Quit: the game was not saved" in out

    def test_keep_marks_the_held_dice(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _ = play(monkeypatch, capsys, "k 1 3\nq\n", "--players", "Ana", "--seed", "7")
        assert code == 0
        game = Game(find_rules("generala"), ["Ana"], seed="7")
        game.apply(Roll())
        first = game.state.turn.dice
        game.apply(Roll(keep=(0, 2)))
        second = game.state.turn.dice
        assert (second[0], second[2]) == (first[0], first[2])
        assert f"Ana keeps {first[0]} {first[2]} (dice 1 3) and throws, throw 2 of 3" in out
        row = "".join(f"[{d}]" if p in (0, 2) else f" {d} " for p, d in enumerate(second))
        assert "       " + row in out

    def test_invalid_input_changes_nothing(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        save = tmp_path / "g.json"
        script = "xyz\n5\ns 99\nk 9\nk\nstand\nb\nr 1 2 3 4 5\ns 1\ns 1\nq\n"
        code, out, _ = play(monkeypatch, capsys, script, "--players", "Ana", "--seed", "7", "--save", str(save))
        assert code == 0
        assert "  ! unknown command 'xyz'; type ? for help" in out
        assert "  ! to score line 5 type 's 5'; to keep dice type 'k 1 3'" in out
        assert "  ! no line 99: lines are 1 to 11" in out
        assert "  ! '9' is not a die position: positions are 1 to 5" in out
        assert "  ! k needs dice positions" in out
        assert "  ! stand is only for tie-break rounds" in out
        assert "  ! generala has no 'em baixo' call" in out
        assert "  ! every die is kept: nothing to throw" in out
        data = json.loads(save.read_text(encoding="utf-8"))
        # the automatic throw, the score in box 1, the automatic throw of turn 2, then "s 1" again is refused
        assert data["actions"] == [{"roll": []}, {"score": "1"}, {"roll": []}]
        assert "  ! box 1 is already closed" in out

    def test_score_by_id_name_and_bare_word(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        save = tmp_path / "g.json"
        script = "s full\nPóker\ns doble generala\nescalera\nq\n"
        code, out, _ = play(monkeypatch, capsys, script, "--players", "Ana", "--seed", "7", "--save", str(save))
        assert code == 0 and "  ! " not in out
        actions = json.loads(save.read_text(encoding="utf-8"))["actions"]
        assert [a["score"] for a in actions if "score" in a] == ["full", "poker", "doble", "escalera"]

    def test_undo(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        save = tmp_path / "g.json"
        script = "u\nk 1 2\nu\ns 3\nu\nq\n"
        code, out, _ = play(
            monkeypatch, capsys, script, "--players", "Ana,bot", "--seed", "7", "--save", str(save)
        )
        assert code == 0
        assert "  ! nothing to undo" in out  # the automatic first throw is not a decision
        assert out.count("  undone") == 2
        game = record.load(save)
        # back at Ana's first decision: only the automatic throw(s) of her first turn remain
        assert game.current_player == "Ana"
        assert game.state.turn.throws == 1
        assert game.state.seats[0].turns_taken == 0
        blocks = out.split("Ana, round 1 of 11, throw 1 of 3")
        assert len(blocks) == 4  # shown at first, after the first undo, and after the second
        # the decision after an undo shows the same dice as before
        assert blocks[1].split("Ana>")[0] == blocks[2].split("Ana>")[0]

    def test_help(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = play(monkeypatch, capsys, "?\nq\n", "--players", "Ana", "--seed", "7")
        for command in ("r all", "k 1 3", "s full", "s 8", "stand", "  u ", "  q ", "The first throw of each turn"):
            assert command in out
        assert "em baixo" not in out.split("Commands:")[1]

    def test_sheet_command(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = play(monkeypatch, capsys, "s 6\nsheet\nq\n", "--players", "Ana", "--seed", "7")
        sheet = out.split("Ana> sheet\n")[1].splitlines()
        assert sheet[0].split() == ["Ana"]
        assert sheet[6].split()[:3] == ["6", "6", "Seises"] and sheet[6].split()[3] != "."
        assert sheet[1].split()[3] == "."

    def test_bozo_em_baixo(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        save = tmp_path / "g.json"
        code, out, _ = play(monkeypatch, capsys, "b\nq\n", "--rules", "bozo", "--players", "Ana", "--seed", "7",
                            "--save", str(save))
        assert code == 0
        assert "Ana: throw with r, or call em baixo with b" in out
        data = json.loads(save.read_text(encoding="utf-8"))
        assert data["actions"] == [{"roll": [], "face_down": True}]
        # em baixo: the faces resting on the table (7 - top face) count
        shown = " ".join(str(7 - f) for f in data["throws"][0])
        assert f"Ana throws em baixo, throw 1 of 3: {shown}" in out


class TestEndings:
    def test_input_ends_mid_game(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        save = tmp_path / "g.json"
        code, out, err = play(monkeypatch, capsys, "s 1\n", "--players", "Ana,bot", "--seed", "7", "--save", str(save))
        assert code == 1 and "Final result" not in out
        assert err == (
            f"cubilete: input ended before the game was over; the game is saved in {save}; "
            f"continue with: cubilete play --resume {save}\n"
        )
        assert not record.load(save).is_over

    def test_input_ends_without_save(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = play(monkeypatch, capsys, "", "--players", "Ana", "--seed", "7")
        assert code == 1 and "the game was not saved" in err and err.count("\n") == 1

    def test_tie_break_round(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        # one box (Unos), two people: both score one 1, then a tie-break: 1 1 1 2 2 (3) beats 1 2 2 2 2 (1)
        rules = find_rules("generala").replace(boxes=(find_rules("generala").box("1"),), name="unos")
        throws = [[6], [1], [1, 2, 2, 2, 2], [1, 3, 3, 3, 3], [1, 1, 1, 2, 2], [1, 2, 2, 2, 2]]
        game = Game(rules, ["Ana", "Beto"], dice=ScriptedDice(throws), seed=1)
        session = LineSession(game, {}, None, io.StringIO("s 1\ns 1\ns 1\nstand\nstand\n"))
        assert session.run() == 0
        out = capsys.readouterr().out
        assert "--- Tie-break round 1: Ana ---" in out
        assert "this hand is worth 3 in the tie-break" in out
        assert "hands so far: Ana 3" in out
        assert "  ! a tie-break round is scored by standing, not in a box" in out
        assert "Ana stands with 1 1 1 2 2, worth 3" in out
        assert "Ana wins the tie-break after 1 round (tied at 1 points)." in out
        assert "  1. Ana      1  winner" in out and "  2. Beto     1" in out

    def test_instant_win(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        game = Game(find_rules("generala"), ["Ana", "bot"], dice=ScriptedDice([[6], [2], [4, 4, 4, 4, 4]]), seed=1)
        session = LineSession(game, {}, None, io.StringIO(""))
        assert session.run() == 0
        out = capsys.readouterr().out
        assert "Ana made Generala servida and wins at once!" in out
        assert out.rstrip().endswith("Ana made Generala servida and wins at once.")
        assert "Who starts (highest die): Ana 6, bot 2 -> Ana starts." in out


class TestSameWordsAsTheTerminalGame:
    """Line mode takes the terminal game's keys (h hint, c coach mode, s save, t stand) and es/pt words."""

    def test_spanish_and_portuguese_words(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        script = "ayuda\ntirar\napartar 1 2\nanotar 6\nq\n"
        _, out, _ = play(monkeypatch, capsys, script, "--players", "Ana", "--seed", "7")
        assert "Commands:" in out
        assert "Ana throws, throw 2 of 3" in out
        assert "Ana keeps" in out and "(dice 1 2)" in out
        assert "in Seises (6)" in out or "scratches Seises (6)" in out

    def test_hint_lists_the_best_options(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
        small = _mini_generala(tmp_path)
        _, out, _ = play(monkeypatch, capsys, "h\nq\n", "--rules", str(small), "--players", "Ana", "--seed", "7")
        block = out.split("Ana> h\n")[1]
        assert "Coach: best options" in block
        ranks = [line.split()[0] for line in block.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
        assert ranks[:3] == ["1.", "2.", "3."]
        assert "-0.00" in block.splitlines()[1]  # the best option loses nothing

    def test_an_approximate_hint_says_its_numbers_are_no_forecast(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # Maxi Yatzy's exact table is not here
        _, out, _ = play(monkeypatch, capsys, "h\nq\n", "--rules", "maxi-yatzy", "--players", "Ana", "--seed", "3")
        block = out.split("Ana> h\n")[1]
        assert "Coach: best options" in block and "not a forecast of the final score" in block
        assert "Expected final score" not in block

    def test_coach_mode_warns_about_a_costly_choice(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
        small = _mini_generala(tmp_path)
        # scratching Generala on the first throw of the game throws away its chance: far more than 2 points
        _, out, _ = play(monkeypatch, capsys, "c\ns generala\nq\n", "--rules", str(small), "--players", "Ana",
                         "--seed", "7")
        assert "Coach mode on" in out
        assert "that lost about" in out

    def test_coach_mode_loss_has_the_decimal_comma_in_spanish(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """Issue 25.13: "perdió unos 12,3 puntos", not "12.3", in es."""
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
        small = _mini_generala(tmp_path)
        _, out, _ = play(monkeypatch, capsys, "c\ns generala\nq\n", "--lang", "es", "--rules", str(small),
                         "--players", "Ana", "--seed", "7")
        assert re.search(r"perdió unos \d+,\d puntos", out), out

    def test_s_alone_saves_in_the_data_folder(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path))
        _, out, _ = play(monkeypatch, capsys, "s\nq\n", "--players", "Ana", "--seed", "7")
        saved = list((tmp_path / "saves").glob("*.json"))
        assert len(saved) == 1 and f"Saved in {saved[0]}" in out


class TestThinkingBot:
    def test_a_bot_that_thinks_long_says_so_then_moves(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        import threading

        from cubilete.cli import play_line
        from cubilete.play.bots import make_bot

        class SlowToThink:  # a real bot whose move waits until the line mode has said it is thinking
            name = "greedy"

            def __init__(self) -> None:
                self.bot, self.said = make_bot("bot:greedy", 1), threading.Event()

            def choose(self, game: Game) -> Roll:
                assert self.said.wait(300), "line mode never said the bot was thinking"
                return self.bot.choose(game)

        slow = SlowToThink()
        said = []

        def spy(*args: object, **kwargs: object) -> None:
            said.append(" ".join(map(str, args)))
            if "is thinking" in said[-1]:
                slow.said.set()

        monkeypatch.setattr(play_line, "print", spy, raising=False)
        game = Game(find_rules("generala"), ["bot"], seed=3)
        session = LineSession(game, {0: slow}, None, io.StringIO(""))  # type: ignore[dict-item]
        action = session.bot_move(slow)  # type: ignore[arg-type]
        assert "bot is thinking (the first time on these rules it prepares its tables" in said[0]
        assert action in game.legal_actions() and game.history == []  # chosen, not yet played
