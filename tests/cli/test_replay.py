"""Saved games: ``cubilete replay`` tells them, ``cubilete play --resume`` continues them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.engine import record
from cubilete.engine.rules import find_rules


def script(turns: int) -> list[str]:
    """Lines for a human who keeps dice 1 and 2 once, then scores lines 1, 2, 3 ... (free order)."""
    lines: list[str] = []
    for n in range(1, turns + 1):
        lines += ["k 1 2", f"s {n}"]
    return lines + ["stand"] * 20


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str], *argv: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    capsys.readouterr()
    return code


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def finished(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    """A finished Generala game, Ana against the bot, seed 7."""
    save = tmp_path / "whole.json"
    lines = script(find_rules("generala").turns)
    assert play(monkeypatch, capsys, lines, "--players", "Ana,bot", "--seed", "7", "--save", str(save)) == 0
    return save


class TestResume:
    def test_resumed_game_is_the_same_game(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, finished: Path
    ) -> None:
        lines = script(find_rules("generala").turns)
        part = tmp_path / "part.json"
        # the input ends after Ana's fourth turn: exit 1, saved
        assert play(monkeypatch, capsys, lines[:8], "--players", "Ana,bot", "--seed", "7", "--save", str(part)) == 1
        half = json.loads(part.read_text(encoding="utf-8"))
        assert half["finished"] is False
        # resume (saved back to the same file) with the rest of the input
        assert play(monkeypatch, capsys, lines[8:], "--resume", str(part)) == 0
        whole = json.loads(finished.read_text(encoding="utf-8"))
        resumed = json.loads(part.read_text(encoding="utf-8"))
        # the dice and the bot's moves are reproducible from the seed, across the resume
        assert resumed["actions"] == whole["actions"]
        assert resumed["throws"] == whole["throws"]
        assert resumed["finished"] is True and resumed["totals"] == whole["totals"]

    def test_resume_saves_elsewhere_with_save(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        part, other = tmp_path / "part.json", tmp_path / "other.json"
        lines = script(find_rules("generala").turns)
        assert play(monkeypatch, capsys, lines[:2], "--players", "Ana,bot", "--seed", "7", "--save", str(part)) == 1
        before = part.read_text(encoding="utf-8")
        assert play(monkeypatch, capsys, lines[2:], "--resume", str(part), "--save", str(other)) == 0
        assert part.read_text(encoding="utf-8") == before
        assert json.loads(other.read_text(encoding="utf-8"))["finished"] is True

    def test_resume_a_finished_game_shows_the_result(self, capsys: pytest.CaptureFixture[str], finished: Path) -> None:
        code, out, _ = run(capsys, "play", "--resume", str(finished))
        assert code == 0
        assert out.startswith("This game is already over.")
        assert "=== Final result" in out

    def test_quit_saves_and_says_how_to_continue(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        save = tmp_path / "q.json"
        monkeypatch.setattr("sys.stdin", io.StringIO("s 1\nq\n"))
        assert main(["play", "--players", "Ana,bot", "--seed", "7", "--save", str(save)]) == 0
        out = capsys.readouterr().out
        assert f"Quit: the game is saved in {save}; continue with: cubilete play --resume {save}." in out
        game = record.load(save)
        assert not game.is_over and game.state.seats[0].card[0] is not None

    def test_record_that_does_not_replay_is_refused(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, finished: Path
    ) -> None:
        data = json.loads(finished.read_text(encoding="utf-8"))
        data["throws"][3] = [6, 6, 6, 6, 6, 6]  # a throw with the wrong number of dice
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        code, out, err = run(capsys, "play", "--resume", str(bad))
        assert code == 1 and out == ""
        assert err.startswith(f"cubilete: error: {bad}: ") and err.count("\n") == 1


class TestReplay:
    def test_finished_game_turn_by_turn(self, capsys: pytest.CaptureFixture[str], finished: Path) -> None:
        code, out, err = run(capsys, "replay", str(finished))
        assert (code, err) == (0, "")
        game = record.load(finished)
        lines = out.splitlines()
        assert lines[0] == "Generala (Argentina): Ana vs bot (seed 7)"
        assert lines[1].startswith("Who starts (highest die): ")
        first_ana = lines.index("--- Round 1 of 11: Ana ---")
        assert lines[first_ana + 1].startswith("  Ana throws, throw 1 of 3: ")
        assert lines[first_ana + 2].startswith("  Ana keeps ") and "(dice 1 2)" in lines[first_ana + 2]
        assert lines[first_ana + 3].startswith("  Ana scores ") or lines[first_ana + 3].startswith("  Ana scratches ")
        assert "(1)" in lines[first_ana + 3]
        # one header per turn: every Score (or instant win) ends a turn
        headers = [line for line in lines if line.startswith("--- Round")]
        scores = [a for a in game.history if type(a).__name__ == "Score"]
        assert len(headers) in (len(scores), len(scores) + 1)
        assert "=== Final result: Generala (Argentina) ===" in out
        data = json.loads(finished.read_text(encoding="utf-8"))
        winner, best = data["winners"][0], max(data["totals"])
        expected = {
            "points": f"{winner} wins on points with {best}.",
            "instant-win": f"{winner} made Generala servida and wins at once.",
            "tie-break": f"{winner} wins the tie-break after",
        }[data["reason"]]
        assert lines[-1].startswith(expected)
        assert game.is_over

    def test_unfinished_game(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        part = tmp_path / "part.json"
        assert play(monkeypatch, capsys, ["s 1"], "--players", "Ana,bot", "--seed", "7", "--save", str(part)) == 1
        code, out, _ = run(capsys, "replay", str(part))
        assert code == 0
        assert "The game is not over" in out and f"cubilete play --resume {part}" in out
        assert "Ana scores" in out or "Ana scratches" in out

