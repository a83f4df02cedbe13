"""``cubilete solve --players 2``: P(first player wins), states, SHA-256; refusals in one line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from tests.duel.conftest import MINI

from cubilete.cli import main
from cubilete.duel.cache import duel_path
from cubilete.duel.solve import solve_duel
from cubilete.engine.rules import load_rules


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestSolveTwoPlayers:
    def test_json_then_cached(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
        code, out, err = run(capsys, "solve", "--rules", str(MINI), "--players", "2", "--json", "--no-cache")
        assert (code, err) == (0, "")
        first = json.loads(out)
        direct = solve_duel(load_rules(str(MINI)))
        assert first["players"] == 2 and first["cached"] is False
        assert math.isclose(first["first_player_wins"], direct.first_player_wins, abs_tol=1e-15)
        assert first["states"] == direct.joint.n_rows and first["sha256"] == direct.digest
        assert duel_path(load_rules(str(MINI))).parent == tmp_path
        code, out, _ = run(capsys, "solve", "--rules", str(MINI), "--players", "2", "--json")
        again = json.loads(out)
        assert again["cached"] is True and again["sha256"] == first["sha256"]

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "solve", "--rules", str(MINI), "--players", "2")
        assert code == 0
        assert "first player wins" in out and "SHA-256" in out and "joint positions" in out

    @pytest.mark.parametrize(
        ("rules", "words"),
        [
            ("yahtzee", "sheet states per player"),
            ("general-4-columns", "4 columns"),
        ],
    )
    def test_refused_in_one_line(self, capsys: pytest.CaptureFixture[str], rules: str, words: str) -> None:
        code, out, err = run(capsys, "solve", "--rules", rules, "--players", "2")
        assert code == 1 and out == ""
        assert words in err and err.count("\n") == 1 and "Traceback" not in err

    def test_a_table_beyond_the_memory_limit_is_refused_in_one_line(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from cubilete.duel import space

        monkeypatch.setattr(space, "MAX_STREAM_BYTES", 1_000_000_000)  # General's largest level: 7.5 GB of f64
        code, out, err = run(capsys, "solve", "--rules", "general", "--players", "2")
        assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert "general: the two-player table holds 5,669,825,378 values" in err and "7.5 GB in memory" in err

    def test_short_memory_for_a_large_table_is_refused_in_the_players_language(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from cubilete.duel import cache

        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
        monkeypatch.setattr(cache, "F64_CELLS", 10)  # solved straight into the cache, as General is
        monkeypatch.setattr(cache, "available_memory", lambda: 1000)
        code, _out, err = run(capsys, "--lang", "es", "solve", "--rules", str(MINI), "--players", "2", "--no-cache")
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
        assert "resolver la tabla de dos jugadores necesita" in err and "GB de memoria" in err
        assert not list(tmp_path.glob("*.npy"))

    def test_three_players_is_a_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = run(capsys, "solve", "--players", "3")
        assert code != 0 and "players" in err
