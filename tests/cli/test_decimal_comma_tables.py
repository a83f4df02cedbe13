"""Issue 25, item 13: the command line's tables (``stats``, ``simulate``, ``evaluate``) write decimals with the
comma in es and pt_BR (the language taken from the environment, as a player's terminal gives it)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from tests.cli.test_stats import data, filled, rows  # noqa: F401 (fixtures)
from tests.terminal_language import speak_from_lang

from cubilete import i18n
from cubilete.cli import main
from cubilete.cli.evaluate_cmd import _ci
from cubilete.cli.simulate_cmd import _interval

LANGS = [("es_AR.UTF-8", "es"), ("pt_BR.UTF-8", "pt_BR")]


@pytest.fixture
def environment_language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    locale, lang = request.param
    speak_from_lang(monkeypatch, locale)
    yield lang
    i18n.set_language("en")


@pytest.mark.parametrize("environment_language", LANGS, indirect=True)
def test_stats_means_with_a_comma(
    filled: object, environment_language: str, capsys: pytest.CaptureFixture[str]  # noqa: F811
) -> None:
    i18n.reset_language()  # the fixture ``filled`` chose English; the terminal's LANG decides here
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    # Ana's totals 7, 10, 1: mean 6, last ten 6, no trend (the games of tests/cli/test_stats.py)
    assert rows(out, "Ana")[0][3:6] == ["6,0", "6,0", "+0,0"]


@pytest.mark.usefixtures("bots_solver_cache")
@pytest.mark.parametrize("environment_language", LANGS, indirect=True)
def test_simulate_table_with_a_comma(environment_language: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "optimal,random", "--games", "4", "--seed", "9", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "162,47" in out  # Generala's optimal expected solitaire score (the exact table's value)
    assert not re.search(r"\d\.\d", out), out
    assert re.search(r"\[\d+,\d; \d+,\d\]", out), out  # intervals split by a semicolon


@pytest.mark.parametrize(("lang", "shown"), [("es", "[1,25; 2,50]"), ("pt_BR", "[1,25; 2,50]"), ("en", "[1.25, 2.50]")])
def test_intervals_in_the_language(lang: str, shown: str) -> None:
    with i18n.speaking(lang):
        assert _ci((1.25, 2.5)) == shown
        assert _interval((0.0125, 0.025), 2, 100.0) == shown
