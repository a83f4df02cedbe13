"""Issue 26: the solving queue starved real users.

Five house-rule profiles from one address filled the queue (one worker, four waiting); another user's
house rules, and a preset not solved yet, got 503 on 10 of 12 tries. Now: one queued solve per network,
presets in a lane of their own, solving processes at the lowest CPU priority, and a table whose rules are
still being solved is created at once, played by the approximate bots and coach, says so, and upgrades
when the solve is done. Also: bot levels the API accepted and then answered 500.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import next_frame, table_socket

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.bots import BOT_LEVELS
from cubilete.solver import cache
from cubilete.web.api import REFUSED_LEVELS
from cubilete.web.app import create_app
from cubilete.web.guard import network_key
from cubilete.web.room import with_tables_only
from cubilete.web.settings import Settings
from cubilete.web.solving import _lower_priority
from cubilete.web.solving_words import SOLVING_WORDS

HUMAN = {"kind": "human"}
OPTIMAL = {"kind": "bot", "level": "optimal"}
PROXY = "127.0.0.1"  # the test client's address, a trusted proxy: X-Forwarded-For names who asks
DEADLINE = 60.0  # seconds a state the test waits for may take (it takes well under one)
ATTACKER, USER, THIRD = "203.0.113.7", "198.51.100.20", "192.0.2.33"


def tiny(value: int, instant_win: bool = True) -> str:
    """Small house rules (3 dice, 4 boxes: solved in about a second), one per ``value`` of the generala.
    Without ``instant_win`` a servida generala (1 first throw in 36 here) does not end the game at once."""
    return ('base = "generala"\nname = "tiny"\ndice = 3\nthrows = 2\n'
            'remove = ["3", "4", "5", "6", "escalera", "full", "poker"]\n'
            f'[box.generala]\ngroups = [3]\nvalue = {value}\ninstant_win = {str(instant_win).lower()}\n'
            '[box.doble]\ngroups = [3]\n')


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "solver-cache"
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(path))
    return path


def proxied_app(tmp_path: Path, **settings: Any) -> TestClient:
    """The app behind a trusted proxy (so each request says its address), bots moving at once."""
    made = Settings(db_url=f"sqlite:///{tmp_path / 'q.sqlite3'}", bot_delay=0.0, win_chances=False,
                    trusted_proxies=(PROXY,), tables_per_address="1000/minute", **settings)
    return TestClient(create_app(made), client=(PROXY, 50000))


@pytest.fixture
def held(tmp_path: Path, cache_dir: Path) -> Iterator[tuple[TestClient, threading.Event]]:
    """An app whose solves never end until the test sets the event (no CPU spent: the queue's logic alone)."""
    gate = threading.Event()
    with proxied_app(tmp_path, solve_workers=1, solve_queue=1) as app:
        solver = app.app.state.hub.solver  # type: ignore[attr-defined]

        async def never_done(rules: Any) -> str:
            await asyncio.to_thread(gate.wait, DEADLINE)
            return f"{rules.name}: held by the test"

        solver._run_worker = never_done
        try:
            yield app, gate
        finally:
            gate.set()


def post(app: TestClient, address: str, seats: list[dict[str, Any]], **body: Any) -> Any:
    return app.post("/api/tables", json={"seats": seats, **body}, headers={"X-Forwarded-For": address})


def wait_for(check: Callable[[], Any], what: str) -> Any:
    """Poll ``check()`` until it is truthy (bounded)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def state(app: TestClient, table: str) -> dict[str, Any]:
    found: dict[str, Any] = app.get(f"/api/tables/{table}").json()["state"]
    return found


def played_on(found: dict[str, Any]) -> dict[str, Any] | None:
    """The state once bots have moved a few times (or ended the game: a servida generala wins at once)."""
    return found if found["version"] >= 4 or found["status"] == "finished" else None


def test_one_network_cannot_starve_another_or_the_presets(held: tuple[TestClient, threading.Event]) -> None:
    app, _gate = held
    hub = app.app.state.hub  # type: ignore[attr-defined]
    # the attack: many distinct profiles from one address, each created at once; only the first is queued
    attack = [post(app, ATTACKER, [OPTIMAL, OPTIMAL], profile=tiny(50 + i)) for i in range(5)]
    assert [r.status_code for r in attack] == [201] * 5
    assert attack[0].json()["solving"] == SOLVING_WORDS and attack[0].json()["exact"] is True
    for r in attack[1:]:
        assert r.json()["solving"] is None and r.json()["exact"] is False
        assert "your network" in r.json()["note"]
    assert list(hub.solver._owners.values()) == [network_key(ATTACKER)]
    not_queued = hub.rooms[attack[1].json()["id"]]
    assert app.portal.call(not_queued.coach_ready) is None  # approximate hints, not a refusal
    # another user's house rules get the queue's place: created at once, solving, playable meanwhile
    mine = post(app, USER, [OPTIMAL, OPTIMAL], profile=tiny(70))
    assert mine.status_code == 201 and mine.json()["solving"] == SOLVING_WORDS
    # a third network finds the house lane full: still a table at once (approximate), never a 503
    third = post(app, THIRD, [OPTIMAL, OPTIMAL], profile=tiny(71))
    assert third.status_code == 201 and third.json()["exact"] is False and "solve_queue" in third.json()["note"]
    # a preset not solved yet is never queued behind house rules: its own lane
    preset = post(app, THIRD, [HUMAN, OPTIMAL], rules="yatzy")
    assert preset.status_code == 201 and preset.json()["solving"] == SOLVING_WORDS
    assert hub.solver.pending(find_rules("yatzy"))
    # the user's table plays with the approximate bots while its rules are being solved, and says so
    table = mine.json()["id"]
    played = wait_for(lambda: played_on(state(app, table)), "the approximate bots to play")
    assert played["solving"] == {"es": SOLVING_WORDS["es"], "pt": SOLVING_WORDS["pt"], "en": SOLVING_WORDS["en"]}
    room = hub.rooms[table]
    analysis = with_tables_only(room.bot(0).analyse, Game(room.rules, ["a", "b"], seed=1))
    assert analysis.exact is False
    assert app.portal.call(room.coach_ready) is None  # the coach answers (approximately) instead of refusing


def test_a_table_upgrades_when_its_real_solve_is_done(tmp_path: Path, cache_dir: Path) -> None:
    gate = threading.Event()  # the real solve starts when the test has seen the table say "approximate"
    with proxied_app(tmp_path) as app:
        hub = app.app.state.hub  # type: ignore[attr-defined]
        real_worker = hub.solver._run_worker

        async def after_gate(rules: Any) -> str | None:
            await asyncio.to_thread(gate.wait, DEADLINE)
            reason: str | None = await real_worker(rules)
            return reason

        hub.solver._run_worker = after_gate
        try:
            r = post(app, USER, [HUMAN, OPTIMAL], profile=tiny(60))
            assert r.status_code == 201 and r.json()["solving"] == SOLVING_WORDS
            table = r.json()["id"]
            with table_socket(app, table, "a" * 32, lang="pt") as ws:
                assert next_frame(ws, "state")["solving"]["pt"] == SOLVING_WORDS["pt"]
                room = hub.rooms[table]
                assert with_tables_only(room.bot(1).analyse, Game(room.rules, ["a", "b"], seed=1)).exact is False
                gate.set()
                upgraded = next_frame(ws, "state", DEADLINE)  # the upgrade is broadcast: no move needed
            assert upgraded["solving"] is None
        finally:
            gate.set()
        assert not hub.solver.pending(room.rules) and cache.table_path(room.rules).is_file()
        exact = with_tables_only(room.bot(1).analyse, Game(room.rules, ["a", "b"], seed=1)).exact
        assert exact is True  # exact from now on
        assert state(app, table)["solving"] is None


def test_refused_bot_levels_name_why(tmp_path: Path, cache_dir: Path) -> None:
    with proxied_app(tmp_path) as app:
        for level, why in REFUSED_LEVELS.items():
            r = post(app, USER, [HUMAN, {"kind": "bot", "level": level}], rules="generala")
            assert r.status_code == 422, r.text
            assert f"bot level {level!r} is not offered here" in r.json()["error"] and why in r.json()["error"]
        assert not app.app.state.hub.rooms  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", sorted(set(BOT_LEVELS) - set(REFUSED_LEVELS)))
def test_every_accepted_bot_level_plays(held: tuple[TestClient, threading.Event], level: str) -> None:
    app, _gate = held
    seats = [{"kind": "bot", "level": level}, {"kind": "bot", "level": level}]
    r = post(app, USER, seats, profile=tiny(80))  # being solved: the solved levels play approximately
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    wait_for(lambda: played_on(state(app, table)), f"the {level} bots to play")



def test_solving_processes_run_at_the_lowest_priority() -> None:
    out = subprocess.run([sys.executable, "-c", "import os; print(os.nice(0))"], preexec_fn=_lower_priority,
                         capture_output=True, text=True, check=True, env={**os.environ})
    assert out.stdout.split() == ["19"]


def test_a_review_made_while_solving_is_approximate_and_not_kept(held: tuple[TestClient, threading.Event]) -> None:
    app, _gate = held
    hub = app.app.state.hub  # type: ignore[attr-defined]
    r = post(app, USER, [OPTIMAL, OPTIMAL], profile=tiny(90))
    table = r.json()["id"]
    wait_for(lambda: state(app, table)["status"] == "finished", "the bots to finish the game")
    review = app.get(f"/api/games/{table}/review")
    assert review.status_code == 200 and review.json()["exact"] is False
    assert hub.reviews.get((table, "en")) is None  # asked again once solved, it is made exactly


def test_the_coach_hints_approximately_while_solving(held: tuple[TestClient, threading.Event]) -> None:
    app, _gate = held
    # the human's first throw must leave a decision: a servida generala winning at once would end the game
    r = post(app, USER, [HUMAN, OPTIMAL], profile=tiny(91, instant_win=False), coach=True)
    assert r.json()["solving"] == SOLVING_WORDS
    with table_socket(app, r.json()["id"], "b" * 32) as ws:
        next_frame(ws, "state")
        ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        st = next_frame(ws, "state")
        while st["status"] != "playing" or st["current"] != 0:
            st = next_frame(ws, "state")
        ws.send_json({"type": "act", "version": st["version"], "action": {"roll": []}})
        while st["turn"]["throws"] == 0:
            st = next_frame(ws, "state")
        ws.send_json({"type": "hint"})
        hint = next_frame(ws, "hint")
    assert hint["exact"] is False and hint["advice"]  # the approximate coach, not an error
