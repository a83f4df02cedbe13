"""Issue 25: ``solve``, ``distribution``, ``warmup`` and ``site-flags`` write decimals with the comma in es and
pt_BR (the language taken from the terminal's LANG) and with the point in English; their JSON keeps the point."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.cli.test_site_flags import _site
from tests.terminal_language import speak_from_lang

from cubilete import i18n
from cubilete.cli import main

LANGS = [("es_AR.UTF-8", ","), ("pt_BR.UTF-8", ","), ("en_US.UTF-8", ".")]


@pytest.fixture
def mark(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The terminal's language set through LANG; the decimal mark expected in it."""
    locale, decimal_mark = request.param
    speak_from_lang(monkeypatch, locale)
    yield decimal_mark
    i18n.set_language("en")


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def written(value: float, digits: int, decimal_mark: str) -> str:
    return f"{value:.{digits}f}".replace(".", decimal_mark)


@pytest.mark.usefixtures("cache_dir")
@pytest.mark.parametrize("mark", LANGS, indirect=True)
def test_solve(mark: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rules", "bozo"]) == 0  # solved
    out = capsys.readouterr().out
    assert re.search(rf"\n\S+( \S+)?\s+\d+{re.escape(mark)}\d\d s, ", out), out  # the time line
    assert main(["solve", "--rules", "bozo", "--json"]) == 0  # the machine's numbers, with a point
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data["expected_score"], float) and isinstance(data["std_dev"], float)
    assert written(data["expected_score"], 4, mark) in out and written(data["std_dev"], 4, mark) in out
    assert main(["solve", "--rules", "bozo"]) == 0  # loaded: "solved in 0,01 s"
    assert re.search(rf"\(\D+ \d+{re.escape(mark)}\d\d s\)", capsys.readouterr().out)


@pytest.mark.parametrize("mark", LANGS, indirect=True)
def test_distribution(mark: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["distribution", "--rules", "bozo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # the machine's numbers, with a point
    assert isinstance(data["mean"], float)
    assert main(["distribution", "--rules", "bozo"]) == 0
    out = capsys.readouterr().out
    assert f" {written(data['mean'], 4, mark)} " in out and f" {written(data['sd'], 4, mark)} " in out
    bars = [line.split()[1] for line in out.splitlines() if re.match(r"\s*\d+\s+\d", line)]
    assert bars and all(re.fullmatch(rf"[01]{re.escape(mark)}\d{{5}}", p) for p in bars), bars


@pytest.mark.usefixtures("cache_dir")
@pytest.mark.parametrize("mark", LANGS, indirect=True)
def test_warmup(mark: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warmup", "--rules", "bozo"]) == 0
    assert re.search(rf"\(\d+{re.escape(mark)}\d s\)\n", capsys.readouterr().out)


@pytest.mark.parametrize("mark", LANGS, indirect=True)
def test_site_flags(mark: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = _site(tmp_path)
    flags = ["site-flags", "--db", url, "--agreement", "0.85", "--min-decisions", "60"]
    assert main(flags) == 0
    assert f"(86{mark}7%)" in capsys.readouterr().out  # Bea: 26 of every 30 decisions optimal, 572 of 660
    assert main([*flags, "--json"]) == 0
    assert [f["share"] for f in json.loads(capsys.readouterr().out)] == [1.0, 1.0, round(572 / 660, 4)]


THOUSANDS = {",": ".", ".": ","}  # where the comma is the decimal mark, the point groups the thousands


@pytest.mark.parametrize("mark", LANGS, indirect=True)
def test_large_counts_group_their_thousands_as_the_language_does(mark: str, capsys: pytest.CaptureFixture[str]) -> None:
    # simulate's own limit, 1,000,000 games (1.000.000 in es and pt: "1,000" would read as one there)
    assert main(["simulate", "--games", "2000000"]) != 0
    err = capsys.readouterr().err
    assert f"1{THOUSANDS[mark]}000{THOUSANDS[mark]}000" in err, err
    assert f"2{THOUSANDS[mark]}000{THOUSANDS[mark]}000" in err, err
