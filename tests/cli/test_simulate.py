"""``cubilete simulate``: the table, the JSON, the progress bar, and bad arguments (one line, exit 2)."""

from __future__ import annotations

import json

import pytest

from cubilete.cli import main

pytestmark = pytest.mark.usefixtures("bots_solver_cache")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


class TestOutput:
    def test_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "--bots", "optimal,random", "--games", "6", "--seed", "9", "--workers", "1")
        assert (code, err) == (0, "")  # no progress bar when stderr is not a terminal
        lines = out.splitlines()
        assert lines[0].startswith("Generala (Argentina): 6 games, bots at one table, seed 9, 1 worker, ")
        header = lines[2].split()
        assert header[:4] == ["bot", "mean", "95%", "CI"] and "wins" in header and "loss/game" in header
        assert lines[3].split()[0] == "optimal" and lines[4].split()[0] == "random"
        assert "Optimal expected score (exact; one player, no instant wins): 162.47" in out

    def test_json_matches_the_games(self, capsys: pytest.CaptureFixture[str]) -> None:
        args = ("--rules", "generala", "--bots", "greedy,bot:heuristic", "--games", "8", "--seed", "5", "--json")
        code, out, err = run(capsys, *args, "--workers", "1")
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert data["games"] == 8 and data["mode"] == "table" and data["seed"] == "5"
        greedy, heuristic = data["bots"]
        assert (greedy["label"], heuristic["label"]) == ("greedy", "heuristic")
        assert greedy["wins"] + heuristic["wins"] >= 8
        lo, hi = greedy["mean_ci"]
        assert lo <= greedy["mean"] <= hi
        assert greedy["mean_loss"] > 0
        again = json.loads(run(capsys, *args, "--workers", "2")[1])
        assert [b["mean"] for b in again["bots"]] == [greedy["mean"], heuristic["mean"]]

    def test_solo_without_loss(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "--bots", "greedy", "--games", "3", "--seed", "1", "--solo", "--no-loss",
                           "--workers", "1")  # fmt: skip
        assert code == 0
        assert "bots alone (same dice seed per game)" in out
        assert "wins" not in out.splitlines()[2]
        assert "Loss not measured" in out

    def test_help_has_examples(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "--help")
        assert code == 0
        assert "cubilete simulate --bots optimal,heuristic --games 1000 --seed 7" in out
        assert "random, greedy, heuristic, beginner, casual, strong, optimal, lookahead" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "genius"], "--bots: unknown bot level 'genius' in 'bot:genius'; levels: random, greedy,"),
        (["--bots", "optimal,,random"], "--bots: every bot needs a level"),
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--games", "many"], "argument --games/-n: not a whole number: 'many'"),
        (["--workers", "0"], "--workers must be at least 1, not 0"),
        (["--rules", "nope"], "unknown rules 'nope'; presets: generala,"),
        (["--bots", ",".join(["random"] * 9)], "generala seats 1 to 8 players, not 9 bots"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"cubilete: error: {message}")
    assert err.count("\n") == 1
