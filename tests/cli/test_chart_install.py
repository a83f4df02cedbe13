"""The end screen's chart needs matplotlib: ``./dev play`` (the core install) brings it, and the hint
when it is missing names an install that works, ``./dev`` included (issue 25, item 10)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cubilete.engine.errors import CubileteError
from cubilete.i18n import set_language
from cubilete.play.win_review import write_chart

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_core_install_brings_matplotlib() -> None:
    core = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    assert any(dep.startswith("matplotlib") for dep in core)


@pytest.mark.parametrize(("lang", "words"), [("en", "./dev installs it"), ("es", "./dev lo instala")])
def test_the_missing_matplotlib_hint_names_the_extra_and_dev(
    lang: str, words: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    set_language(lang)
    try:
        timeline: Any = None  # never read: the import fails first
        with pytest.raises(CubileteError) as caught:
            write_chart(timeline, tmp_path / "chart.svg")
    finally:
        set_language("en")
    assert "cubilete[plot]" in str(caught.value)
    assert words in str(caught.value)
    assert not (tmp_path / "chart.svg").exists()
