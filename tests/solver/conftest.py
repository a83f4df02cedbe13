"""Solver tests keep their tables in a throw-away cache folder, solved once per session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.caches import cache_dir

from cubilete.engine.rules import find_rules
from cubilete.solver.cache import load_or_solve
from cubilete.solver.solve import Solution


@pytest.fixture(scope="session", autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with cache_dir(tmp_path_factory.mktemp("solver-cache")) as path:
        yield path


@pytest.fixture(scope="session")
def solved() -> Callable[..., Solution]:
    """Solve or load a preset by name (with the second moments if asked), once per test session."""
    memo: dict[tuple[str, bool], Solution] = {}

    def get(name: str, moments: bool = False) -> Solution:
        if (name, moments) not in memo:
            memo[name, moments] = load_or_solve(find_rules(name), moments=moments)
        return memo[name, moments]

    return get
