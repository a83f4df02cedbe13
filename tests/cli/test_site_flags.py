"""``cubilete site-flags`` (fair play, docs/RATINGS.md): rated players whose share of optimal choices over
enough judged decisions reaches the threshold are listed for the operator, the most suspicious first; the
others, and players with too few decisions, are not; bad arguments get a clear error and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cubilete.cli import main
from cubilete.store.ratings import Played, apply
from cubilete.store.webdb import WebStore


def _site(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    store = WebStore(url)
    store.migrate()
    # 20 games: Ana (always optimal), Bea (86% optimal), Cai (always optimal, but only 2 games' decisions)
    for n in range(20):
        people = [Played("a" * 16, "Ana", 150, 0.0, 0.0, 30, 30), Played("b" * 16, "Bea", 140, 3.0, 1.2, 30, 26)]
        apply(store, "generala", f"t{n:03d}", float(n), people, lambda before, totals: [(25.0, 8.0)] * len(totals))
    for n in range(2):
        people = [Played("c" * 16, "Cai", 150, 0.0, 0.0, 30, 30), Played("b" * 16, "Bea", 140, 3.0, 1.2, 30, 26)]
        apply(store, "generala", f"u{n:03d}", 100.0 + n, people, lambda before, totals: [(25.0, 8.0)] * len(totals))
    store.close()
    return url


def test_players_agreeing_with_the_optimal_player_too_often_are_flagged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = _site(tmp_path)
    assert main(["--lang", "en", "site-flags", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "Ana" in out and "600 times in 600 decisions (100.0%)" in out
    assert "Bea" not in out and "Cai" not in out  # 86.7%; 60 decisions (under 300)
    assert main(["site-flags", "--db", url, "--agreement", "0.85", "--min-decisions", "60", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(f["name"], f["decisions"], f["agreed"]) for f in found] == [
        ("Ana", 600, 600), ("Cai", 60, 60), ("Bea", 660, 572)]  # by share, then decisions


def test_nobody_over_the_threshold_says_so_in_the_players_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = _site(tmp_path)
    assert main(["--lang", "es", "site-flags", "--db", url, "--agreement", "1.0", "--min-decisions", "1000"]) == 0
    assert "nadie" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "words"), [
    (["--agreement", "1.5"], "between 0 and 1"),
    (["--agreement", "most"], "between 0 and 1"),
    (["--min-decisions", "0"], "at least 1"),
])
def test_bad_thresholds_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                    words: str) -> None:
    code = main(["--lang", "en", "site-flags", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", *args])
    assert code == 2 and words in capsys.readouterr().err
