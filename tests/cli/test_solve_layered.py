"""``cubilete solve`` on Maxi Yatzy without saved throws: routed to the layered solver, which never
throws away an unfinished run unless asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.engine.rules import find_rules
from cubilete.solver.maxi.layered import default_dir, partial_run, solve_layered


def test_an_unfinished_run_needs_resume_or_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    rules = find_rules("maxi-yatzy-no-saved")
    assert partial_run(rules) is None
    assert solve_layered(rules, stop_after=0) is None  # a run started and stopped before its first block
    assert partial_run(rules) == 0.0
    assert default_dir(rules).parent == tmp_path
    code = main(["solve", "--rules", "maxi-no-saved"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "maxi-yatzy-no-saved: a solve stopped at 0.0%" in err and "--resume" in err
    assert len(err.strip().splitlines()) == 1


def test_advise_says_how_to_build_the_missing_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    code = main(["advise", "--rules", "maxi-yatzy-no-saved", "--dice", "111234", "--throw", "1"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")  # the bots' approximate search, said so, and how to get the exact table
    assert "Approximate values" in out and "to build it (about an hour on 2 cores): cubilete solve --rules " \
        "maxi-yatzy-no-saved\n" in out
