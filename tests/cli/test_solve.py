"""``cubilete solve``: the optimal expected score, solved once and then loaded from the cache."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from cubilete.cli import main
from cubilete.engine.rules import find_rules
from cubilete.solver import solve


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def solve_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, "solve", *argv, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


class TestSolve:
    def test_text_output_generala(self, capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
        code, out, err = run(capsys, "solve", "--rules", "generala")
        assert code == 0
        assert "\r" not in err  # no progress bar when stderr is not a terminal
        exact = solve(find_rules("generala")).expected_score
        assert f"expected score  {exact:.4f}\n" in out
        time_line = next(line for line in out.splitlines() if line.startswith("time"))
        assert time_line.endswith(" s, solved")
        assert "instant wins are not modelled" in out.lower()

    def test_json_then_cached(self, capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
        first = solve_json(capsys, "--rules", "generala")
        assert first["cached"] is False
        assert first["expected_score"] == pytest.approx(solve(find_rules("generala")).expected_score, abs=1e-9)
        std = first["std_dev"]
        assert isinstance(std, float) and 0 < std < first["expected_score"]  # type: ignore[operator]
        table = Path(str(first["table"]))
        assert table.parent == cache_dir and table.is_file()
        # The digest is the SHA-256 of the value table stored in the file.
        with np.load(table) as data:
            assert first["sha256"] == hashlib.sha256(np.ascontiguousarray(data["values"]).tobytes()).hexdigest()
        second = solve_json(capsys, "--rules", "generala")
        assert second["cached"] is True
        for key in ("expected_score", "std_dev", "sha256", "table"):
            assert second[key] == first[key]
        code, out, _ = run(capsys, "solve", "--rules", "generala")
        assert code == 0 and "loaded from the cache" in out

    def test_no_cache_solves_again(self, capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
        first = solve_json(capsys, "--rules", "generala-sin-doble")
        again = solve_json(capsys, "--rules", "generala-sin-doble", "--no-cache")
        assert (first["cached"], again["cached"]) == (False, False)
        assert again["sha256"] == first["sha256"]

    def test_alias_and_generala_60_is_worth_more(self, capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
        # A Generala worth 60 instead of 50 can only raise the optimum.
        base = solve_json(capsys, "-r", "generala-argentina")
        sixty = solve_json(capsys, "-r", "generala-60")
        assert base["rules"] == "generala"
        assert sixty["expected_score"] > base["expected_score"]  # type: ignore[operator]

    @pytest.mark.parametrize(("name", "why"), [("maxi-yatzy", "carry over"), ("general-4-columns", "4 columns")])
    def test_unsolvable_rules_exit_1_with_one_line(
        self, capsys: pytest.CaptureFixture[str], cache_dir: Path, name: str, why: str
    ) -> None:
        code, out, err = run(capsys, "solve", "--rules", name)
        assert (code, out) == (1, "")
        assert err.startswith(f"cubilete: error: {name}") and why in err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert list(cache_dir.iterdir()) == []

    def test_unknown_rules_exit_2(self, capsys: pytest.CaptureFixture[str], cache_dir: Path) -> None:
        code, out, err = run(capsys, "solve", "--rules", "no-such-game")
        assert (code, out) == (2, "")
        assert err.startswith("cubilete: error:") and err.count("\n") == 1

    def test_help_states_the_objective(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "solve", "--help")
        assert code == 0
        text = " ".join(out.split()).lower()
        assert "expected final score" in text
        assert "instant wins are scored as ordinary points" in text


