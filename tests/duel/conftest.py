"""Two-player tests: the pocket Generala (their tables go to the session's throw-away cache, tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubilete.engine.rules import load_rules
from cubilete.engine.rules.model import Rules, Start

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(scope="session")
def mini() -> Rules:
    """The pocket Generala of examples/ with the first seat starting (so seat 0 is the first player)."""
    return load_rules(str(MINI)).replace(start=Start.SEAT_ORDER)
