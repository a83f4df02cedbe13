"""Solver tests: presets solved once per session (in the session's throw-away cache, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cubilete.engine.rules import find_rules
from cubilete.solver.cache import load_or_solve
from cubilete.solver.solve import Solution


@pytest.fixture(scope="session")
def solved() -> Callable[..., Solution]:
    """Solve or load a preset by name (with the second moments if asked), once per test session."""
    memo: dict[tuple[str, bool], Solution] = {}

    def get(name: str, moments: bool = False) -> Solution:
        if (name, moments) not in memo:
            memo[name, moments] = load_or_solve(find_rules(name), moments=moments)
        return memo[name, moments]

    return get
