"""``cubilete play`` chooses between the full-screen app and line mode, and builds the app
from its options (``--rules``, ``--players``, ``--resume``, ``--scorekeeper``, ``--lang``)."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.cli.common import CliError
from cubilete.cli.main import build_parser
from cubilete.cli.play_cmd import build_app, wants_full_screen
from cubilete.engine import record
from cubilete.engine.actions import Roll
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.screens.setup import SetupScreen


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


def first_screen(args: argparse.Namespace) -> object:
    return build_app(args).first  # type: ignore[attr-defined]


class TestWhichMode:
    def test_a_terminal_gets_the_full_screen_app(self) -> None:
        assert wants_full_screen(parse(), Terminal(), Terminal())

    def test_plain_keeps_line_mode(self) -> None:
        assert not wants_full_screen(parse("--plain"), Terminal(), Terminal())

    @pytest.mark.parametrize(("stdin", "stdout"), [(io.StringIO(), Terminal()), (Terminal(), io.StringIO())])
    def test_a_pipe_on_either_side_keeps_line_mode(self, stdin: io.StringIO, stdout: io.StringIO) -> None:
        assert not wants_full_screen(parse(), stdin, stdout)

    def test_scorekeeper_needs_the_full_screen(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(["play", "--scorekeeper", "--players", "Ana"]) == 2
        assert "--scorekeeper is full screen" in capsys.readouterr().err

    def test_an_unknown_language_is_a_usage_error(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(["play", "--lang", "fr", "--players", "Ana"]) == 2
        err = capsys.readouterr().err
        assert "--lang" in err and "es, pt_BR, en" in err

    def test_help_names_the_modes_and_the_new_options(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["play", "--help"]) == 0
        out = capsys.readouterr().out
        for words in ("--plain", "--lang", "--scorekeeper", "--resume", "full screen", "line mode"):
            assert words in out


class TestTheAppFromTheOptions:
    def test_without_players_the_setup_screen_with_the_rules_chosen(self) -> None:
        screen = first_screen(parse("--rules", "yahtzee", "--lang", "en"))
        assert isinstance(screen, SetupScreen) and screen.choice.rules == "yahtzee"

    def test_players_start_a_game(self) -> None:
        screen = first_screen(parse("--players", "Ana,bot:greedy", "--seed", "3", "--lang", "en"))
        assert isinstance(screen, GameScreen)
        assert screen.session.game.players == ("Ana", "bot:greedy") and screen.session.game.seed == "3"

    def test_scorekeeper_with_people(self) -> None:
        screen = first_screen(parse("--scorekeeper", "--players", "Ana,Beto", "--rules", "bozo", "--lang", "en"))
        assert isinstance(screen, ScorekeeperScreen) and screen.rules.name == "bozo"

    def test_scorekeeper_refuses_bots(self) -> None:
        with pytest.raises(CliError, match="no bots"):
            build_app(parse("--scorekeeper", "--players", "Ana,bot", "--lang", "en"))

    def test_resume_a_game_in_play_and_a_finished_one(self, tmp_path: Path) -> None:
        game = Game(find_rules("generala"), ["Ana", "bot"], seed=5)
        game.apply(Roll())
        path = tmp_path / "g.json"
        record.save(game, path)
        screen = first_screen(parse("--resume", str(path), "--lang", "en"))
        assert isinstance(screen, GameScreen)
        assert screen.session.game.history == [Roll()] and screen.session.save_path == path
        solo = Game(find_rules("generala"), ["bot"], seed=5)
        from cubilete.play.bots import make_bot

        bot = make_bot("bot", "x")
        while not solo.is_over:
            solo.apply(bot.choose(solo))
        record.save(solo, path)
        assert isinstance(first_screen(parse("--resume", str(path), "--lang", "en")), EndScreen)

    def test_resume_refuses_other_options_and_a_corrupt_record(self, tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        path.write_text("{not json")
        with pytest.raises(CliError, match="drop --rules"):
            build_app(parse("--resume", str(path), "--rules", "yahtzee"))
        with pytest.raises(CliError, match="not a cubilete game record") as caught:
            build_app(parse("--resume", str(path)))
        assert caught.value.code == 1

    def test_bad_players_are_a_usage_error(self) -> None:
        with pytest.raises(CliError, match="kept for bots"):
            build_app(parse("--players", "Ana,bot-7"))
        with pytest.raises(CliError):
            build_app(parse("--players", ",".join(f"P{n}" for n in range(9))))
