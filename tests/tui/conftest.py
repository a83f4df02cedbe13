"""Pilot tests of the terminal game: throw-away data and solver folders, English afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete.i18n import set_language


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path, solver_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Never touch the real home folders; leave the language as English afterwards."""
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(solver_cache))
    yield
    set_language("en")
