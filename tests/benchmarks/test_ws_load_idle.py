"""The arithmetic of ``benchmarks/ws_load.py --idle`` (the run itself opens 2,000 sockets: not a unit test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ws_load.py"


@pytest.fixture(scope="module")
def ws_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ws_load_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_plan_opens_exactly_the_sockets_asked_for_within_the_spectator_cap(ws_load: ModuleType) -> None:
    from cubilete.web.settings import Settings

    cap = Settings(db_url="sqlite://").spectators_per_table
    for sockets in (2, 9, 10, 11, 1999, 2000, 2001):
        plan = ws_load.idle_plan(sockets)
        assert sum(plan) == sockets
        assert all(2 <= n <= 2 + cap for n in plan)  # 2 seated players, the rest spectators under the cap
    assert ws_load.idle_plan(2000) == [10] * 200
    assert ws_load.idle_plan(2001) == [10] * 199 + [9, 2]


def test_a_plan_needs_two_players_a_table(ws_load: ModuleType) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        ws_load.idle_plan(1)
    with pytest.raises(ValueError, match="2 per table"):
        ws_load.idle_plan(100, per_table=1)


def test_bytes_per_socket_is_the_growth_in_bytes_over_the_sockets(ws_load: ModuleType) -> None:
    assert ws_load.bytes_per_socket(200.0, 200.0, 2000) == 0.0
    assert ws_load.bytes_per_socket(100.0, 197.65625, 2000) == pytest.approx(50 * 1024)  # 97.65625 MB / 2000
