"""Collection of the doctests in ``src/cubilete`` (pytest's ``testpaths`` lists both ``tests`` and the package).

Alembic's migration scripts only run inside ``alembic.context`` and are never imported on their own.
Every dependency of the package is a required one today; should one become optional, the modules that
need it are left out of doctest collection here instead of breaking it.
"""

from __future__ import annotations

import importlib.util

import pytest
from _pytest.doctest import DoctestItem
from _pytest.terminal import TerminalReporter

collect_ignore_glob = ["src/cubilete/store/migrations/*"]

_NEEDS = {
    "textual": ["src/cubilete/tui/*"],
    "fastapi": ["src/cubilete/web/*", "src/cubilete/cli/serve_cmd.py"],
    "sqlalchemy": ["src/cubilete/store/webdb.py", "src/cubilete/store/migrate.py"],
    "numba": ["src/cubilete/solver/*"],
}
for _package, _globs in _NEEDS.items():
    if importlib.util.find_spec(_package) is None:
        collect_ignore_glob += _globs


_doctest_ids: set[str] = set()
_doctest_outcomes: dict[str, int] = {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Remember which collected items are doctests, to count them in the summary."""
    _doctest_ids.update(item.nodeid for item in items if isinstance(item, DoctestItem))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count each doctest once: its call phase, or the setup phase when it never got that far."""
    if report.nodeid in _doctest_ids and (report.when == "call" or report.outcome != "passed"):
        _doctest_outcomes[report.outcome] = _doctest_outcomes.get(report.outcome, 0) + 1


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    """One line: how many doctests of ``src/cubilete`` ran, and how they ended."""
    if _doctest_ids:
        counts = ", ".join(f"{n} {outcome}" for outcome, n in sorted(_doctest_outcomes.items()))
        ran = f" ({counts})" if counts else ""
        terminalreporter.write_line(f"doctests: {len(_doctest_ids)} collected{ran}")
