"""``cubilete solve --cap K`` on Maxi Yatzy with saved throws: certified bounds from the capped solver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cubilete.cli import main

PROFILE = """\
base = "maxi-yatzy"
name = "maxi-pocket"
title = "Maxi pocket"
description = "Maxi Yatzy with three boxes and saved throws."
upper_bonus_threshold = 6
upper_bonus = 10
remove = [{boxes}]
"""
KEEP = ("2", "full-straight", "maxi-yatzy")


def profile(tmp_path: Path) -> Path:
    from cubilete.engine.rules import find_rules

    boxes = ", ".join(f'"{b}"' for b in find_rules("maxi-yatzy").box_ids if b not in KEEP)
    path = tmp_path / "pocket.toml"
    path.write_text(PROFILE.format(boxes=boxes))
    return path


def test_cap_prints_both_bounds_and_loads_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "cache"))
    rules = str(profile(tmp_path))
    assert main(["solve", "--rules", rules, "--cap", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and data["cap"] == 4  # 3 boxes: at most 4 throws saved at a turn start
    # the oracle's value of this game (tests/solver/test_maxi_saved.py checks the solver against it)
    assert data["lower"]["expected_score"] == pytest.approx(29.687051, abs=1e-4)
    assert data["upper"]["expected_score"] == pytest.approx(29.687051, abs=1e-4)
    assert main(["solve", "--rules", rules, "--cap", "1"]) == 0
    out = capsys.readouterr().out
    assert "lower bound" in out and "upper bound" in out and "capped at 1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "generala", "--cap", "3"], "--cap is for rules with saved throws"),
        (["--rules", "maxi-yatzy", "--cap", "-1"], "0 or more"),
        (["--rules", "maxi-yatzy", "--cap", "60"], "larger than 16 GB"),
    ],
)
def test_bad_caps_are_one_line_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_dask_local_cluster_writes_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    rules = str(profile(tmp_path))
    found = {}
    for how, extra in (("one", []), ("two", ["--dask", "local:2"])):
        monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / how))
        assert main(["solve", "--rules", rules, "--cap", "4", "--bound", "lower", "--json", *extra]) == 0
        found[how] = json.loads(capsys.readouterr().out)["lower"]
    assert found["two"]["sha256"] == found["one"]["sha256"]
    assert found["two"]["expected_score"] == pytest.approx(29.687051, abs=1e-4)  # the oracle's value


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "maxi-yatzy", "--dask", "local:2"], "--dask is for solves with --cap"),
        (["--rules", "maxi-yatzy", "--cap", "1", "--dask", "local:0"], "N >= 1"),
        (["--rules", "maxi-yatzy", "--cap", "1", "--dask", "host:8786"], "tcp://HOST:PORT"),
        # the two-player solver takes neither: refused at once, before minutes of solving
        (["--rules", "generala", "--players", "2", "--dask", "local:1"], "--dask is for solves with --cap"),
        (["--rules", "maxi-yatzy", "--players", "2", "--cap", "3"], "not for --players 2"),
        (["--rules", "generala", "--bound", "upper"], "--bound is for solves with --cap"),
    ],
)
def test_bad_dask_options_are_one_line_errors(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    assert code != 0 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
