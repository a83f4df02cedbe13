"""Solver tables for tests live in throw-away cache folders, never in the user's cache."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def cache_dir(path: Path) -> Iterator[Path]:
    """Point ``$CUBILETE_CACHE_DIR`` at ``path`` while the block runs."""
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    try:
        yield path
    finally:
        mp.undo()
