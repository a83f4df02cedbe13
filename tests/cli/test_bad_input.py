"""A demanding user's bad input: every command answers with one line (exit 2 for bad arguments, 1 for an
invalid file), never a traceback, and changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete import Game, find_rules
from cubilete.cli import main
from cubilete.cli.line_commands import parse_positions
from cubilete.engine.actions import Roll, Score
from cubilete.engine.dice import parse_dice
from cubilete.engine.errors import NotationError, RulesError
from cubilete.engine.rules import rules_from_toml, rules_to_dict
from cubilete.play.bots import BOT_LEVELS
from cubilete.store.stats import StatsDB

# Profiles with one mistake each (written to tmp/NAME.toml).
PROFILES = {
    "unknown_key": 'base = "generala"\nfoo = 1\n',
    "wrong_type": 'dice = "five"\n',
    "pattern_letter": '[box.escalera]\npatterns = ["12a"]\n',
    "pattern_superscript": '[box.escalera]\npatterns = ["12345", "²²²²²"]\n',
    "no_dice": "dice = 0\n",
    "no_boxes": 'remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "generala", "doble"]\n',
    "no_kind": '[box.x]\nname = "X"\n',
    "requires_itself": '[box.generala]\nrequires = "generala"\n',
    "huge_value": "[box.generala]\nvalue = 99999999999999999999\n",
    "empty_name": 'name = ""\n',
}


def _record_with_superscript_pattern() -> dict[str, object]:
    rules = rules_to_dict(find_rules("generala"))
    boxes = rules["boxes"]
    assert isinstance(boxes, list)
    escalera = next(b for b in boxes if b["id"] == "escalera")
    escalera["patterns"] = ["²²²²²"]
    return {"format": "cubilete-game", "version": 1, "rules": rules, "players": ["Ana"], "seed": "1",
            "throws": [], "actions": []}  # fmt: skip


# Records that are broken in one way each (written to tmp/NAME.json).
RECORDS: dict[str, bytes] = {
    "empty": b"",
    "huge_number": b'{"format": "cubilete-game", "version": ' + b"1" * 5000 + b"}",
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "binary": bytes(range(256)),
    "version_true": b'{"format": "cubilete-game", "version": true}',
    "superscript_pattern": json.dumps(_record_with_superscript_pattern()).encode(),
}


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Cache and data folders of the test's own; the bad files of the tables above."""
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path / "data"))
    for name, text in PROFILES.items():
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    for name, raw in RECORDS.items():
        (tmp_path / f"{name}.json").write_bytes(raw)
    (tmp_path / "folder.png").mkdir()
    yield


def fails(capsys: pytest.CaptureFixture[str], argv: list[str], code: int) -> str:
    """Run the command; check the one-line error contract; return stderr."""
    got = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert (got, out) == (code, ""), err
    assert err.startswith("cubilete: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        # dice and boxes written with characters that look like digits
        (["score", "--dice", "²²²²²"], 2, "--dice: '²' is not a die face (1 to 6)"),
        (["score", "--dice", "1", "2", "3", "4", "①"], 2, "--dice: '①' is not a die face (1 to 6)"),
        (["score", "¹²", "--dice", "12345"], 2, "unknown box '¹²' in generala"),
        (["advise", "-r", "generala-apartada", "--dice", "11345", "--throw", "2", "--held", "²"], 2,
         "--held: '²' is not a die face (1 to 6)"),
        # two boxes where one is expected
        (["score", "--dice", "12345", "full", "poker"], 2, "unknown box 'full poker' in generala"),
        (["score", "full", "--dice", "12345", "poker"], 2, "one BOX at a time: got 'full' and 'poker'"),
        # unknown arguments point at the command's own help
        (["score", "--dice", "12345", "--frob"], 2, "unrecognized arguments: --frob (try 'cubilete score --help')"),
        (["rules", "show", "generala", "extra"], 2, "unrecognized arguments: extra (try 'cubilete rules show --help')"),
        (["stats", "extra"], 2, "unrecognized arguments: extra (try 'cubilete stats --help')"),
        # a folder where a file is expected
        (["score", "--rules", "{tmp}", "--dice", "12345"], 2, "is a folder, not a preset name or a .toml profile"),
        (["rules", "check", "{tmp}"], 2, "is a folder, not a .toml profile"),
        (["replay", "{tmp}"], 2, "is a folder, not a game record"),
        (["stats", "--plot", "{tmp}/folder.png"], 2, "folder.png is a folder; give a file name ending in .png or .svg"),
        (["stats", "--plot", ""], 2, "--plot: give a file name ending in .png or .svg"),
        # house-rule profiles with one mistake each
        (["rules", "check", "{tmp}/unknown_key.toml"], 1, "unknown_key.toml:2: foo: unknown rules field 'foo'"),
        (["rules", "check", "{tmp}/wrong_type.toml"], 1, "wrong_type.toml:1: dice: expected an integer, got 'five'\n"),
        (["rules", "check", "{tmp}/pattern_letter.toml"], 1,
         "patterns[0]: a pattern is a string of faces such as \"12345\", got '12a'"),
        (["rules", "check", "{tmp}/pattern_superscript.toml"], 1,
         "patterns[1]: a pattern is a string of faces such as \"12345\", got '²²²²²'"),
        (["score", "--rules", "{tmp}/pattern_superscript.toml", "--dice", "12345"], 2,
         "pattern_superscript.toml:2: box.escalera.patterns[1]"),
        (["rules", "check", "{tmp}/no_dice.toml"], 1, "no_dice.toml:1: rules 'no_dice': dice must be 1 to 8, not 0"),
        (["rules", "check", "{tmp}/no_boxes.toml"], 1, "there must be at least one box"),
        (["rules", "check", "{tmp}/no_kind.toml"], 1, "box.x: a new box needs name and kind; missing kind"),
        (["rules", "check", "{tmp}/requires_itself.toml"], 1, "requires 'generala', which is not another box"),
        (["rules", "check", "{tmp}/huge_value.toml"], 1,
         "huge_value.toml:2: box.generala.value: 99999999999999999999 is too large (at most 1,000,000,000)"),
        (["solve", "--rules", "{tmp}/huge_value.toml"], 2, "is too large (at most 1,000,000,000)"),
        (["rules", "check", "{tmp}/empty_name.toml"], 1, "empty_name.toml:1: name must not be empty"),
        # records broken in one way each
        (["replay", "{tmp}/empty.json"], 1, "empty.json: not a cubilete game record: it is empty"),
        (["replay", "{tmp}/huge_number.json"], 1, "huge_number.json: not a cubilete game record: it holds a number"),
        (["play", "--plain", "--resume", "{tmp}/huge_number.json"], 1, "it holds a number too long to read"),
        (["replay", "{tmp}/nested.json"], 1, "nested.json: not a cubilete game record: JSON nested too deeply"),
        (["replay", "{tmp}/binary.json"], 1, "binary.json: not a cubilete game record: not a UTF-8 text file"),
        (["replay", "{tmp}/version_true.json"], 1, "record version True is not supported"),
        (["replay", "{tmp}/superscript_pattern.json"], 1,
         "record rules.boxes[6].patterns[0]: a pattern is a string of faces"),
        (["play", "--plain", "--resume", "{tmp}/superscript_pattern.json"], 1, "a pattern is a string of faces"),
        # numbers out of any sensible range
        (["simulate", "--games", str(10**12)], 2, "--games: at most 1,000,000 in one run, not 1,000,000,000,000"),
        (["simulate", "--workers", "100000"], 2, "--workers: at most 64, not 100,000"),
        (["advise", "-r", "yahtzee", "--dice", "11345", "--throw", "1", "--bonuses", "3"], 2,
         "--bonuses: they are paid only once yahtzee holds points; add --filled yahtzee=..."),
        (["advise", "-r", "yahtzee", "--dice", "11345", "--throw", "1", "-f", "yahtzee=50", "--bonuses", "9" * 17], 2,
         "--bonuses: at most 12 in a game of 13 rounds, not 99999999999999999"),
        (["advise", "-r", "yahtzee", "--dice", "11345", "--throw", "1", "-f", "yahtzee=50", "--bonuses", "13"], 2,
         "--bonuses: at most 12 in a game of 13 rounds, not 13"),
        # arguments that are not UTF-8 text (undecodable bytes on the command line) or hold control characters
        (["simulate", "--seed", "\udcff"], 2, "--seed: '\\udcff' is not valid UTF-8 text"),
        (["stats", "--player", "\udcff"], 2, "--player: '\\udcff' is not valid UTF-8 text"),
        (["stats", "--rules", "\udcff"], 2, "--rules: '\\udcff' is not valid UTF-8 text"),
        (["play", "--plain", "--players", "\udcff,bot"], 2, "--players: '\\udcff,bot' is not valid UTF-8 text"),
        (["play", "--plain", "--players", "An\na,bot"], 2, "'An\\na': a name cannot hold control characters"),
    ],
)
def test_bad_input_gets_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], code: int, message: str
) -> None:
    err = fails(capsys, [a.replace("{tmp}", str(tmp_path)) for a in argv], code)
    assert message in err


def test_a_type_mistake_in_a_profile_does_not_list_the_profile_keys(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    assert "profile keys" not in fails(capsys, ["rules", "check", str(tmp_path / "wrong_type.toml")], 1)
    assert "profile keys also: base, remove" in fails(capsys, ["rules", "check", str(tmp_path / "unknown_key.toml")], 1)


def test_a_file_named_like_a_preset_does_not_hide_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "yatzy").write_bytes(b"\x00 not a profile")
    assert main(["score", "--rules", "yatzy", "--dice", "12345", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "yatzy"


def test_a_plain_file_that_is_no_preset_is_read_as_a_profile(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mesa").write_text("throws = 2\n", encoding="utf-8")
    assert main(["rules", "show", "mesa", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"]["throws"] == 2


def test_a_box_name_in_two_words_after_the_dice(capsys: pytest.CaptureFixture[str]) -> None:
    # Doble Generala with Generala already at 50: 100 points (RULES.md 3.1)
    assert main(["score", "--dice", "4", "4", "4", "4", "4", "doble", "generala", "--filled", "generala=50"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "doble (Doble Generala): 100"


def test_fullwidth_digits_are_read_as_digits(capsys: pytest.CaptureFixture[str]) -> None:
    # the box's full value needs a full house on the table: 2 2 2 5 5 armada is 30
    assert main(["score", "--dice", "２２２５５", "full", "--filled", "poker=４０"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "full (Full): 30"


def test_dice_positions_typed_with_superscripts_are_refused() -> None:
    with pytest.raises(NotationError, match="'²' is not a die position"):
        parse_positions(["²"], 5)
    with pytest.raises(NotationError, match="'¹²' is not a die position"):
        parse_positions(["¹²"], 5)


def _finished_game() -> Game:
    """Ana alone scores each turn's first throw in the first open box until the game is over."""
    game = Game(find_rules("generala"), ["Ana"], seed="qa")
    while not game.is_over:
        game.apply(Roll(()))
        if not game.is_over:
            game.apply(next(a for a in game.legal_actions() if isinstance(a, Score)))
    return game


class TestStats:
    def test_a_filter_that_matches_nothing_says_so(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "data" / "stats.sqlite3"
        with StatsDB(path) as db:
            db.record_game(_finished_game())
        assert main(["stats", "--rules", "yatzy", "--player", "Zed"]) == 0
        out = capsys.readouterr().out
        assert out == ("No finished games match --player 'Zed' and --rules 'yatzy'; "
                       "'cubilete stats' shows every player and rule set.\n")  # fmt: skip
        with StatsDB(path) as db:
            assert [g.players for g in db.games()] == [("Ana",)]

    def test_a_bad_plot_target_is_refused_before_anything_is_printed(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        with StatsDB(tmp_path / "data" / "stats.sqlite3") as db:
            db.record_game(_finished_game())
        assert "is a folder" in fails(capsys, ["stats", "--plot", str(tmp_path / "folder.png")], 2)
        missing = tmp_path / "no" / "such" / "scores.png"
        assert "cannot write" in fails(capsys, ["stats", "--plot", str(missing)], 1)
        assert not missing.parent.exists()

    def test_a_database_that_is_not_sqlite_is_left_as_it_is(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        path = tmp_path / "data" / "stats.sqlite3"
        path.parent.mkdir()
        path.write_bytes(b"my notes, not a database")
        assert "not an SQLite database; the file was left untouched" in fails(capsys, ["stats"], 1)
        assert path.read_bytes() == b"my notes, not a database"


HELP_COMMANDS = [[], ["score"], ["rules"], ["rules", "list"], ["rules", "show"], ["rules", "check"], ["replay"],
                 ["solve"], ["advise"], ["simulate"], ["stats"]]  # fmt: skip


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "cubilete")
def test_every_help_has_a_description_examples_and_no_overlong_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main([*command, "--help"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "examples:" in out
    assert not out.split("\n\n")[1].startswith(("options:", "positional arguments:")), "a description first"
    assert max(len(line) for line in out.splitlines()) <= 100


def test_simulate_help_names_every_bot_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    options = capsys.readouterr().out.split("examples:")[0]
    for level in ("random", "greedy", "heuristic", "beginner", "casual", "strong", "optimal"):
        assert level in options
    assert set(BOT_LEVELS) >= {"random", "greedy", "heuristic", "beginner", "casual", "strong", "optimal"}


@pytest.mark.parametrize("argv", [["rules", "list"], ["rules", "show", "generala"], ["--help"]])
def test_a_reader_that_goes_away_is_not_an_error(argv: list[str]) -> None:
    # like `cubilete rules list | head -0`: stdout is a pipe whose reader closed before the first write
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as for most users
    proc = subprocess.Popen([sys.executable, "-m", "cubilete", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert err == ""


def test_core_parse_dice_refuses_superscripts() -> None:
    with pytest.raises(NotationError):
        parse_dice("²²²²²")


def test_core_refuses_boxes_that_require_each_other() -> None:
    text = ('[box.x]\nname = "X"\nkind = "chance"\nrequires = "y"\n'
            '[box.y]\nname = "Y"\nkind = "chance"\nrequires = "x"\n')  # fmt: skip
    with pytest.raises(RulesError):
        rules_from_toml(text)


def test_core_refuses_an_empty_rules_name_and_an_unwritable_seed() -> None:
    from cubilete import Game, find_rules

    with pytest.raises(RulesError, match="need a name"):
        find_rules("generala").replace(name=" ")
    with pytest.raises(RulesError, match="seed"):
        Game(find_rules("generala"), ["Ana"], seed="\udcff")


def test_line_mode_keeps_finished_games_in_the_statistics(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import io

    from cubilete.cli import main
    from cubilete.store.stats import StatsDB

    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path))
    script = "".join(f"s {i}\n" for i in range(1, 12)) * 3
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["play", "--plain", "--rules", "generala", "--players", "Ana", "--seed", "3"]) == 0
    games = StatsDB(tmp_path / "stats.sqlite3").games()
    assert len(games) == 1
