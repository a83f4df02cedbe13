"""``cubilete simulate`` with exact bots on rules never solved here: it says the solve comes first and only
once (a first run took minutes without a word), and the next run says nothing of it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cubilete.cli import main

SMALL = 'base = "generala"\nname = "chica"\nremove = ["1", "2", "3", "4", "escalera", "full", "poker", "doble"]\n'


def test_the_first_solve_is_announced_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a person at a terminal (capsys holds stderr)
    rules = tmp_path / "chica.toml"
    rules.write_text(SMALL, encoding="utf-8")
    argv = ["--lang", "es", "simulate", "--rules", str(rules), "--bots", "optimal,greedy", "--games", "3",
            "--workers", "1", "--seed", "1"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert "resolviendo chica primero, una sola vez" in first.err
    assert main(argv) == 0
    again = capsys.readouterr()
    assert "una sola vez" not in again.err  # the table is in the cache now
    assert again.out.split("\n")[2:] == first.out.split("\n")[2:]  # the same seed: the same games
    assert first.out.startswith("Generala (Argentina) (reglas de la casa): 3 partidas")
