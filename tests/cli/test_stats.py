"""``cubilete stats``: tables, chart, JSON, --where, --plot, and bad files."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cubilete import Game, Roll, Score, ScriptedDice, find_rules
from cubilete.cli import main
from cubilete.engine.rules import Start, TieBreak
from cubilete.i18n import set_language
from cubilete.play.bots import make_bot
from cubilete.store import StatsDB

GENERALA = find_rules("generala")
TINY = GENERALA.replace(name="tiny", boxes=GENERALA.boxes[:2], start=Start.SEAT_ORDER, tie_break=TieBreak.SHARED)


def three_games() -> list[Game]:
    """Ana and Beto, three games of boxes 1 and 2 only, one throw a turn: totals 7-9, 10-2, 1-1 (shared)."""
    hands = [
        [(1, 1, 1, 2, 3), (1, 2, 2, 3, 4), (2, 2, 3, 4, 5), (2, 2, 2, 2, 3)],
        [(1, 1, 1, 1, 2), (3, 3, 3, 4, 5), (2, 2, 2, 3, 3), (2, 3, 4, 5, 6)],
        [(1, 2, 3, 4, 5), (1, 3, 4, 5, 6), (3, 3, 4, 5, 6), (3, 4, 4, 5, 6)],
    ]
    games = []
    for number, throws in enumerate(hands, 1):
        game = Game(TINY, ["Ana", "Beto"], seed=f"g{number}", dice=ScriptedDice(throws))
        for slot in ("1", "1", "2", "2"):
            game.apply(Roll())
            game.apply(Score(slot))
        games.append(game)
    return games


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data folder for the command; messages in English."""
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path / "data"))
    set_language("en")
    return tmp_path / "data"


@pytest.fixture
def filled(data: Path) -> Path:
    """Three games of TINY between Ana and Beto (totals 7-9, 10-2, 1-1)."""
    with StatsDB() as db:
        for g in three_games():
            db.record_game(g)
    return data


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rows(out: str, first: str) -> list[list[str]]:
    """The table lines that start with ``first`` (after the indent), split on spaces."""
    return [line.split() for line in out.splitlines() if line.split()[:1] == [first]]


class TestText:
    def test_where(self, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "stats", "--where")
        assert code == 0 and out == f"{data / 'stats.sqlite3'}\n"
        assert not data.exists()  # asking where creates nothing

    def test_empty_is_said_kindly(self, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "stats")
        assert code == 0 and err == ""
        assert "No finished games here yet" in out and "cubilete play" in out
        assert not (data / "stats.sqlite3").exists()

    def test_tables_and_chart(self, filled: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "stats")
        assert code == 0
        assert out.startswith("tiny\n")
        # player, games, wins, mean, last 10, trend, best
        assert rows(out, "Ana") == [["Ana", "3", "2", "6.0", "6.0", "+0.0", "10,", "7,", "1"]]
        assert rows(out, "Beto") == [["Beto", "3", "2", "4.0", "4.0", "+0.0", "9,", "2,", "1"]]
        # boxes made: Unos by Ana in 3 of 3 games, by Beto in 2 of 3
        made = next(line.split() for line in out.splitlines() if line.strip().endswith("67%") and "100%" in line)
        assert made[-2:] == ["100%", "67%"]
        assert "score distribution (6 scores):" in out
        bars = [line for line in out.splitlines() if "│" in line]
        assert bars and sum(int(line.split()[-1]) for line in bars) == 6
        assert any("█" in line for line in bars)

    def test_filters(self, filled: Path, capsys: pytest.CaptureFixture[str]) -> None:
        _code, out, _ = run(capsys, "stats", "--player", "Beto")
        assert rows(out, "Beto") and not rows(out, "Ana")
        _code, out, _ = run(capsys, "stats", "--rules", "generala")
        assert "No finished games" in out

    def test_a_preset_alias_names_the_preset(self, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
        game = Game(find_rules("generala"), ["Ana"], seed="alias")
        bot = make_bot("bot:greedy", 1)
        while not game.is_over:
            game.apply(bot.choose(game))
        with StatsDB() as db:
            db.record_game(game)
        code, out, _ = run(capsys, "stats", "--rules", "default")
        assert code == 0 and out.splitlines()[0].endswith(" [generala]") and rows(out, "Ana")[0][1] == "1"

    def test_json(self, filled: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "stats", "--json")
        assert code == 0
        ana, beto = json.loads(out)
        assert (ana["player"], ana["rules"], ana["games"], ana["wins"], ana["mean"]) == ("Ana", "tiny", 3, 2, 6.0)
        assert ana["scores"] == [7, 10, 1] and ana["boxes_made"]["1"] == 1.0
        assert [g["id"] for g in ana["best"]] == [2, 1, 3]
        assert beto["player"] == "Beto"

    def test_help_has_examples(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "stats", "--help")
        assert code == 0 and "examples:" in out and "cubilete stats --plot scores.png" in out


class TestPlot:
    def test_png(self, filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "scores.png"
        code, out, _ = run(capsys, "stats", "--plot", str(target))
        assert code == 0 and str(target) in out
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_svg(self, filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "scores.SVG"
        code, _, _ = run(capsys, "stats", "--plot", str(target))
        assert code == 0
        assert ET.parse(target).getroot().tag == "{http://www.w3.org/2000/svg}svg"

    def test_another_extension_is_refused(
        self, filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        target = tmp_path / "scores.pdf"
        code, out, err = run(capsys, "stats", "--plot", str(target))
        assert code == 2 and out == ""
        assert err.startswith("cubilete: error: --plot:") and ".png or .svg" in err and err.count("\n") == 1
        assert not target.exists()

    def test_nothing_to_plot(self, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "scores.png"
        code, out, _ = run(capsys, "stats", "--plot", str(target))
        assert code == 0 and "Nothing to plot" in out and not target.exists()

    def test_unwritable_target(self, filled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = run(capsys, "stats", "--plot", str(tmp_path / "missing" / "scores.png"))
        assert code == 1 and err.startswith("cubilete: error: cannot write") and err.count("\n") == 1


def test_a_corrupt_database_is_one_line_and_exit_1(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data.mkdir()
    path = data / "stats.sqlite3"
    path.write_text("not a database at all")
    code, out, err = run(capsys, "stats")
    assert code == 1 and out == ""
    assert err.startswith(f"cubilete: error: {path}: not an SQLite database") and err.count("\n") == 1
    assert path.read_text() == "not a database at all"
