"""Win tests keep their tables in a throw-away cache folder, built once per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _win_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("win-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    yield path
    mp.undo()
