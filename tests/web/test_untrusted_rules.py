"""Issue 10, breaks 1-3: house rules from the network are untrusted.

1. a profile's name became part of the solver cache's file name (``name = "../../x"``);
2. one new large rule set cost minutes of CPU and hundreds of MB, solved under one global lock;
3. a 60 x 120 sheet made every move take seconds (see also tests/engine/test_huge_sheets.py).
Each attack is replayed here and must now fail to hurt.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import running_app

from cubilete.engine.errors import RulesError
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.profile import check_slug, rules_from_toml
from cubilete.solver import cache
from cubilete.solver.approx.columns import column_rules
from cubilete.web.protocol import ProtocolError
from cubilete.web.settings import Settings
from cubilete.web.solving import SolverPool
from cubilete.win import tables as win_tables

HUMAN = {"kind": "human"}
OPTIMAL = {"kind": "bot", "level": "optimal"}
# yahtzee with five more chance boxes: 2^18 sheets x 2 flags x 64 upper totals = 33,554,432 states
# (measured before the fix: 189 s of CPU and 417 MB, never freed, in the server process)
HUGE_TO_SOLVE = 'base = "yahtzee"\nname = "big-chance"\n' + "".join(
    f'[box.c{i}]\nname = "C{i}"\nkind = "chance"\n' for i in range(5))


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "solver-cache"
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(path))
    return path


@pytest.fixture
def app(tmp_path: Path, cache_dir: Path) -> Iterator[TestClient]:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        yield client


def post(app: TestClient, profile: str, seats: list[dict[str, Any]] | None = None, **extra: Any) -> Any:
    return app.post("/api/tables", json={"profile": profile, "seats": seats or [HUMAN, OPTIMAL], **extra})


# --- break 1: names are slugs, file names come from the hash only ------------------------------


@pytest.mark.parametrize("name", ["../../x", "/etc/passwd", "a/b", "..", "Mesa Grande", "x" * 41, "mesa--x", "ñandú"])
def test_a_profile_name_that_is_not_a_slug_is_refused(app: TestClient, cache_dir: Path, name: str) -> None:
    r = post(app, f'name = "{name}"\n')
    assert r.status_code == 422
    assert "name must be a slug" in r.json()["error"]
    assert "profile:1" in r.json()["error"]  # the line of the profile
    assert not cache_dir.exists() or not any(cache_dir.iterdir())


@pytest.mark.parametrize("name", ["mesa", "club-generala", "yahtzee_2", "g60"])
def test_slugs_are_accepted(name: str) -> None:
    assert check_slug(name) == name
    assert rules_from_toml(f'name = "{name}"\n').name == name


def test_a_profile_file_name_becomes_a_slug() -> None:
    assert rules_from_toml("", "profiles/Mesa del Club.toml").name == "mesa-del-club"
    assert rules_from_toml("", "../../...toml").name == "house-rules"


def test_the_cache_file_is_named_by_the_rules_hash_only(cache_dir: Path) -> None:
    # a name that slipped in some other way (a record, code) still never reaches the file system
    evil = find_rules("generala").replace(name="../../../tmp/owned")
    path = cache.table_path(evil)
    assert path.parent == cache_dir
    assert path.name == f"{cache.table_key(evil)}.npz"
    assert "owned" not in str(path)
    with pytest.raises(RulesError):
        check_slug(evil.name)


# --- break 3: the profile budget -------------------------------------------------------------------


def test_a_60_by_120_sheet_is_refused_naming_the_limit(app: TestClient) -> None:
    lines = ['columns = [' + ", ".join(['"free"'] * 60) + "]"]
    lines += [f'[box.c{i}]\nname = "C"\nkind = "chance"' for i in range(109)]
    r = post(app, "\n".join(lines) + "\n")
    assert r.status_code == 422
    assert "max_columns" in r.json()["error"] and "60 columns" in r.json()["error"]


def test_too_many_dice_are_refused_naming_the_limit(app: TestClient) -> None:
    r = post(app, "dice = 8\n")
    assert r.status_code == 422
    assert "8 dice" in r.json()["error"] and "max_dice" in r.json()["error"]


def test_too_many_slots_are_refused_naming_the_limit(app: TestClient) -> None:
    profile = 'columns = ["free", "free", "free", "free", "free", "free"]\n'  # 6 x 11 = 66 slots
    r = post(app, profile)
    assert r.status_code == 422
    assert "66 slots" in r.json()["error"] and "max_slots" in r.json()["error"]


@pytest.mark.parametrize("deep", ["a = " + "[" * 9000 + "]" * 9000, "a = " + "{b=" * 3000 + "1" + "}" * 3000])
def test_a_profile_nested_thousands_deep_is_a_clear_422(app: TestClient, deep: str) -> None:
    r = post(app, deep)
    assert r.status_code == 422 and "nested too deeply" in r.json()["error"]
    assert app.get("/api/health").json()["ok"] is True


# --- break 2: solving is bounded and never in the server ------------------------------------------


def test_rules_over_the_solve_budget_get_the_approximate_bot_and_no_coach(app: TestClient, cache_dir: Path) -> None:
    r = post(app, HUGE_TO_SOLVE, [OPTIMAL, OPTIMAL])  # two bots: the game starts at once
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["exact"] is False and "max_solve_states" in body["note"] and "33,554,432" in body["note"]
    table_id = body["id"]
    for _ in range(200):  # the bots play (approximately) and the server keeps answering
        state = app.get(f"/api/tables/{table_id}").json()["state"]
        if state["version"] >= 3:
            break
    assert state["version"] >= 3
    assert not cache_dir.exists() or not list(cache_dir.glob("*.npz"))  # nothing was solved
    room = app.portal.call(app.app.state.hub.room, table_id)  # type: ignore[attr-defined]
    with pytest.raises(ProtocolError) as refused:
        app.portal.call(room.coach_ready)  # type: ignore[attr-defined]
    assert refused.value.code == "coach-unavailable" and "max_solve_states" in refused.value.message


def test_rules_the_solver_cannot_take_get_the_approximate_coach(app: TestClient, cache_dir: Path) -> None:
    r = app.post("/api/tables", json={"rules": "general-4-columns", "seats": [HUMAN, OPTIMAL]})
    assert r.status_code == 201 and r.json()["exact"] is False
    assert "so does the coach" in r.json()["note"] and "4 columns" in r.json()["note"]
    room = app.portal.call(app.app.state.hub.room, r.json()["id"])  # type: ignore[attr-defined]
    assert app.portal.call(room.coach_ready) is None  # type: ignore[attr-defined]  # hints are approximate, not refused
    # its four columns, each a one-column game, are solved by worker processes for the search to value the
    # rest of the sheet with (solver/columns.py): the solver's tables only, no win tables
    hub = app.app.state.hub  # type: ignore[attr-defined]
    columns = column_rules(find_rules("general-4-columns"))
    assert all(app.portal.call(hub.solver.ready, c) is None for c in columns)
    assert sorted(p.name for p in cache_dir.glob("*.npz")) == sorted(f"{cache.table_key(c)}.npz" for c in columns)


def test_a_new_rule_set_in_budget_is_solved_by_a_worker_process_while_the_server_answers(
        app: TestClient, cache_dir: Path) -> None:
    r = post(app, 'name = "generala-99"\n[box.generala]\nvalue = 99\n', [HUMAN, OPTIMAL])
    assert r.status_code == 201 and r.json()["exact"] is True
    hub = app.app.state.hub  # type: ignore[attr-defined]
    assert hub.solver._jobs  # under way in a worker process ...
    assert app.get("/api/health").json()["ok"] is True  # ... while the server answers
    rules = hub.rooms[r.json()["id"]].rules
    assert app.portal.call(hub.solver.ready, rules) is None  # type: ignore[attr-defined]
    # the solver's table and the win tables (for the chances to win), each named by the rules' hash only
    wins = [win_tables.table_path(rules, kind).name for kind in win_tables.KINDS]
    assert sorted(p.name for p in cache_dir.glob("*.npz")) == sorted([f"{cache.table_key(rules)}.npz", *wins])


def test_a_table_that_needs_no_tables_starts_no_solve(app: TestClient) -> None:
    # one player alone, no coach: no optimal bot, no hint and no chances to win to compute
    r = post(app, 'name = "generala-98"\n[box.generala]\nvalue = 98\n', [HUMAN], coach=False)
    assert r.status_code == 201
    assert not app.app.state.hub.solver._jobs  # type: ignore[attr-defined]


def _pool(**limits: Any) -> SolverPool:
    return SolverPool(Settings(db_url="sqlite://", **limits))


def _ready(pool: SolverPool, rules: Any) -> str | None:
    """``pool.ready(rules)`` on a loop of its own thread (other tests may leave one running in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, pool.ready(rules)).result()


def test_a_solve_over_its_cpu_time_is_stopped_and_the_rules_play_approximately(cache_dir: Path) -> None:
    yatzy = find_rules("yatzy")  # 2,097,152 states: tens of seconds of CPU
    reason = _ready(_pool(solve_cpu_seconds=1), yatzy)
    assert reason is not None and "solve_cpu_seconds" in reason
    assert not cache.table_path(yatzy).exists()


def test_a_solve_over_its_memory_is_stopped(cache_dir: Path) -> None:
    yatzy = find_rules("yatzy")
    reason = _ready(_pool(solve_memory_mb=300), yatzy)
    assert reason is not None and "solve_memory_mb" in reason
    assert not cache.table_path(yatzy).exists()


def test_a_full_queue_still_creates_the_table_with_the_approximate_bots(tmp_path: Path, cache_dir: Path) -> None:
    # issue 26: it was a 503; now the table is created at once and says why it is not exact
    with running_app(f"sqlite:///{tmp_path / 'q.sqlite3'}", solve_queue=0, solve_cpu_seconds=60) as app:
        first = post(app, 'name = "a1"\n[box.generala]\nvalue = 51\n')
        second = post(app, 'name = "a2"\n[box.generala]\nvalue = 52\n')
    assert first.status_code == 201 and first.json()["solving"] is not None
    assert second.status_code == 201 and second.json()["exact"] is False and second.json()["solving"] is None
    assert "one at a time" in second.json()["note"]  # the same address: one queued solve per network


def test_a_solve_stopped_by_the_shutdown_is_no_failure(cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The server's close kills its solves: that was logged as "solving used more than 300 s of CPU" (a SIGKILL
    read as the CPU limit) at every shutdown, and remembered as the rules' failure."""
    yatzy = find_rules("yatzy")  # tens of seconds of CPU: still solving when the pool closes
    pool = _pool()

    async def start_then_close() -> str | None:
        job = asyncio.create_task(pool.ready(yatzy))
        while not pool._processes:  # the solving process has started
            await asyncio.sleep(0.01)
        await pool.close()
        return await job

    caplog.set_level(logging.INFO, logger="cubilete.web")
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        worker.submit(asyncio.run, start_then_close()).result()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "shutting down" in caplog.text
    assert pool.refusal(yatzy) is None  # no failure remembered
    assert not cache.table_path(yatzy).exists()
