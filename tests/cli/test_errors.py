"""Bad arguments: one line ``cubilete: error: ...`` on stderr, exit 2 (1 for invalid files), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubilete.cli import main


def fails(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 2) -> str:
    """Run the command, check the one-line error contract and return the message."""
    got = main(argv)
    out, err = capsys.readouterr()
    assert got == code, err
    assert out == ""
    assert err.startswith("cubilete: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "--rules", "nope", "--dice", "12345"], "unknown rules 'nope'; presets: generala,"),
        (["score", "--dice", "1", "2", "3", "4", "5", "6"], "--dice: generala uses 5 dice; got 6"),
        (["score", "--dice", "1", "2", "3", "4", "7"], "--dice: '7' is not a die face (1 to 6)"),
        (["score", "--dice", "12345", "--filled", "gen=50"], "--filled: unknown box 'gen' in generala"),
        (["score", "--dice", "12345", "--filled", "full=31"], "--filled: 'full=31': Full (full) can hold 0, 30 or 35"),
        (["score", "--dice", "12345", "--filled", "full=x"], "points must be a whole number, not 'x'"),
        (["score", "--dice", "12345", "--filled", "full"], "'full' needs points"),
        (["score", "--dice", "12345", "chance"], "unknown box 'chance' in generala"),
        (["score", "--dice", "12345", "--filled", "full=30", "full"], "box full is already written (30)"),
        (["score", "12", "--dice", "12345"], "no line 12: lines are 1 to 11"),
        (["score", "--dice", "12345", "--throw", "0"], "--throw: throws are counted from 1"),
        (["score", "--dice", "12345", "--throw", "4"], "--throw: generala has 3 throws a turn, not 4"),
        (["score", "--dice", "12345", "--throw", "x"], "not a whole number: 'x' (try 'cubilete score --help')"),
        (["score"], "required: --dice"),
        (["score", "--rules", "missing.toml", "--dice", "12345"], "missing.toml: cannot read"),
        (["frob"], "invalid choice: 'frob'"),
        ([], "choose a command: play, score, rules, guide, replay, solve, advise, distribution, simulate, stats, "
             "verify, serve, site-key, site-flags, evaluate, warmup (try 'cubilete --help')"),
        (["rules"], "choose a command: list, show, check (try 'cubilete rules --help')"),
        (["rules", "show", "nope"], "unknown rules 'nope'"),
        (["rules", "check"], "required: FILE"),
        (["play", "--rules", "nope"], "unknown rules 'nope'"),
        (["play", "--players", "Ana,,bot"], "--players: every player needs a name"),
        (["play", "--players", "Ana,bot:genius"], "unknown bot level 'genius' in 'bot:genius'; levels: random"),
        (["play", "--players", "bot-2"], "the name 'bot-2' is kept for bots"),
        (["play", "--players", "a,b,c,d,e,f,g,h,i"], "--players: generala is for 1 to 8 players, not 9"),
        (["play", "--resume", "missing.json"], "--resume: no such file: missing.json"),
        (["play", "--resume", "x.json", "--seed", "3"], "--resume continues the recorded game: drop --seed"),
        (["replay", "missing.json"], "no such file: missing.json"),
    ],
)
def test_bad_arguments_get_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert message in fails(capsys, argv)


def test_every_box_filled(capsys: pytest.CaptureFixture[str]) -> None:
    filled = "1=1,2=2,3=3,4=4,5=5,6=6,escalera=0,full=0,poker=0,generala=0"
    assert "nothing is left to score" in fails(capsys, ["score", "--dice", "12345", "--filled", filled])


def test_save_to_a_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "is a directory" in fails(capsys, ["play", "--players", "bot", "--save", str(tmp_path)])


def test_save_where_it_cannot_be_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "game.json"
    assert "--save: cannot write" in fails(capsys, ["play", "--players", "bot", "--save", str(target)])


def test_corrupt_record_on_resume_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cubilete-game", "version": 1, "rules": {}}', encoding="utf-8")
    assert "bad.json" in fails(capsys, ["play", "--resume", str(bad)], code=1)
    bad.write_text("{not json", encoding="utf-8")
    assert "invalid JSON at line 1" in fails(capsys, ["play", "--resume", str(bad)], code=1)


def test_corrupt_record_on_replay_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2, 3]", encoding="utf-8")
    assert "not a cubilete game record" in fails(capsys, ["replay", str(bad)], code=1)
    bad.write_text("{not json", encoding="utf-8")
    assert "invalid JSON at line 1" in fails(capsys, ["replay", str(bad)], code=1)


def test_bad_profile_file_for_rules_is_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    profile = tmp_path / "mesa.toml"
    profile.write_text('base = "generala"\ndice = "five"\n', encoding="utf-8")
    assert "mesa.toml:2" in fails(capsys, ["score", "--rules", str(profile), "--dice", "12345"])


def test_help_is_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["score", "--help"], ["rules", "--help"], ["rules", "show", "--help"],
                 ["play", "--help"], ["replay", "--help"]):
        assert main(argv) == 0
        out, err = capsys.readouterr()
        assert "examples:" in out and err == ""
