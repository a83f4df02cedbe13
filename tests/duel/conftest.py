"""Two-player tests keep their tables in a throw-away cache folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.caches import cache_dir

from cubilete.engine.rules import load_rules
from cubilete.engine.rules.model import Rules, Start

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(scope="session", autouse=True)
def _duel_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_dir(tmp_path_factory.mktemp("duel-cache")) as path:
        yield path


@pytest.fixture(scope="session")
def mini() -> Rules:
    """The pocket Generala of examples/ with the first seat starting (so seat 0 is the first player)."""
    return load_rules(str(MINI)).replace(start=Start.SEAT_ORDER)
