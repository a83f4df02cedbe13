"""Players who leave (docs/WEB.md, "Players who leave"): a person whose connection has been gone for the
grace time has their turns played by a labelled stand-in until they come back (at their next decision); a
turn timer that runs out says so to everyone; a table nobody is left at ends as abandoned, its record says
so and it never counts in the rankings. Tables are made through the app's hub (small rules, so the
stand-in's tables solve at once); the settings are small so nothing waits long, and every wait is on state
with a bounded deadline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from tests.web.inproc import (
    FRAME_TIMEOUT,
    choose,
    create,
    new_token,
    next_frame,
    running_app,
    state_at_least,
    table_socket,
)

from cubilete.engine.fairness import verify_record
from cubilete.engine.rules import Rules
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.web.absence import AbsenceClock

# a few turns each without the servida win (no game ends early)
THREE_ROUNDS = rules_from_toml('base = "generala-sin-gana"\nrounds = 3\n', "three-rounds")
ONE_ROUND = rules_from_toml('base = "generala-sin-gana"\nrounds = 1\n', "one-round")
FAST = {"away_grace": 1.0, "abandon_after": 600.0}


def _table(client: TestClient, rules: Rules, timer: int | None = None) -> str:
    """A table of two people made by the hub in the app's own event loop; its id."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = client.portal.call(hub.create, rules, [("human", None), ("human", None)], timer, False)
    return str(room.id)


def _sit(ws: WebSocketTestSession, seat: int, name: str) -> dict[str, Any]:
    next_frame(ws, "welcome")
    ws.send_json({"type": "sit", "seat": seat, "name": name})
    return next_frame(ws, "state")


def _state_where(ws: WebSocketTestSession, test: Any, what: str, limit: float = 3 * FRAME_TIMEOUT) -> dict[str, Any]:
    """The first state frame for which ``test(state)`` holds, within ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {what}"
        state = next_frame(ws, "state", left)
        if test(state):
            return state


def _play_my_decision(ws: WebSocketTestSession, state: dict[str, Any]) -> dict[str, Any]:
    """Send one decision for the player to move; the state that acknowledges it."""
    ws.send_json({"type": "act", "version": state["version"], "action": choose(state)})
    return state_at_least(ws, state["version"] + 1)


def test_a_stand_in_plays_for_a_player_who_left_until_they_come_back(tmp_path: Path) -> None:
    ana, beto = new_token(), new_token()
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", **FAST) as client:
        table = _table(client, THREE_ROUNDS)
        with table_socket(client, table, beto, lang="es") as b:
            with table_socket(client, table, ana) as a:
                _sit(a, 0, "Ana")
                _sit(b, 1, "Beto")
                start = _state_where(b, lambda s: s["status"] == "playing", "the game start")
                assert not start["seats"][0]["away"]
                while start["current"] == 1:  # Beto starts (the seed says who): his turn first
                    start = _play_my_decision(b, start)
            # Ana closed her tab on her turn: a presence frame now, the label after the grace time
            assert next_frame(b, "presence") == {"type": "presence", "seat": 0, "connected": False}
            labelled = _state_where(b, lambda s: s["seats"][0]["away"], "Ana marked away")
            assert labelled["current"] == 0 and labelled["deadline"] is None
            # the stand-in plays Ana's whole turn, then it is Beto's
            mine = _state_where(b, lambda s: s["current"] == 1, "Beto's turn")
            assert mine["last"]["seat"] == 0 and "score" in mine["last"]["action"]
            assert sum(v is not None for v in mine["seats"][0]["card"]) == 1
            # Beto throws; Ana comes back; she takes her seat back at her next decision
            state = _play_my_decision(b, mine)
            with table_socket(client, table, ana) as a:
                next_frame(a, "welcome")
                assert next_frame(b, "presence") == {"type": "presence", "seat": 0, "connected": True}
                back = _state_where(b, lambda s: not s["seats"][0]["away"], "Ana back")
                state = back
                while state["current"] == 1:
                    state = _play_my_decision(b, state)
                theirs = state_at_least(a, state["version"])
                assert theirs["current"] == 0 and not theirs["seats"][0]["away"]
                after = _play_my_decision(a, theirs)  # Ana plays again herself
                assert after["last"]["seat"] == 0
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        made_for = store.made_for(table)
    assert made_for and {seat for _, seat, _ in made_for} == {0} and {by for _, _, by in made_for} == {"away"}
    assert max(seq for seq, _, _ in made_for) < after["version"]  # her own last decision is not the stand-in's


def test_a_timer_that_runs_out_says_so_to_everyone(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = _table(client, ONE_ROUND, timer=1)
        with table_socket(client, table, new_token()) as a, table_socket(client, table, new_token()) as b:
            _sit(a, 0, "Ana")
            _sit(b, 1, "Beto")
            first = _state_where(b, lambda s: s["status"] == "playing", "the game start")["current"]
            # nobody acts: the first player's timer runs out, a bot plays the turn, and both are told
            for who, ws in (("Ana", a), ("Beto", b)):
                notice = next_frame(ws, "notice", 3 * FRAME_TIMEOUT)
                assert notice == {"type": "notice", "notice": "timeout", "seat": first,
                                  "name": ["Ana", "Beto"][first]}, who
            with table_socket(client, table) as watcher:  # the record of the whole game says who played what
                end = _state_where(watcher, lambda s: s["status"] == "finished", "the game's end")
            record = client.get(f"/api/tables/{table}/record").json()
        # over, and nobody connected: the table leaves memory (its absence watch ended with the game)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + FRAME_TIMEOUT
        while table in hub.rooms:
            assert time.monotonic() < deadline, "a finished table stayed in memory"
            client.portal.call(hub.unload_idle, time.monotonic() + 1e6)
    assert end["result"] is not None
    stand_in = record["stand_in"]
    assert {m["seat"] for m in stand_in["moves"]} == {0, 1} and {m["by"] for m in stand_in["moves"]} == {"timer"}
    # one round each, and tie-break hands after it when the totals tie (the dice decide): turns 1, 2, ...
    turns = sorted({m["turn"] for m in stand_in["moves"]})
    assert turns == list(range(1, len(turns) + 1)), turns
    assert stand_in["made_for"] == stand_in["of"] == len(stand_in["moves"]) and stand_in["marked"] is True
    assert "ended" not in record


def test_a_table_nobody_is_left_at_ends_as_abandoned(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", away_grace=0.2, abandon_after=1.0) as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}], rules="generala")
        ana = new_token()
        with table_socket(client, table, ana) as a, table_socket(client, table, new_token()) as b:
            _sit(a, 0, "Ana")
            _sit(b, 1, "Beto")
            state = _state_where(b, lambda s: s["status"] == "playing", "the game start")
            state = _play_my_decision((a, b)[state["current"]], state)
        # both left: nobody plays for anyone (no one is there to see it); then the table ends
        deadline = time.monotonic() + 3 * FRAME_TIMEOUT
        while (now := client.get(f"/api/tables/{table}").json()["state"])["status"] != "finished":
            assert time.monotonic() < deadline, f"never abandoned: {now['status']}"
            assert now["version"] == state["version"], "a stand-in played at a table nobody is at"
        assert now["ended"] == "abandoned" and now["result"] is None
        record = client.get(f"/api/tables/{table}/record").json()
        assert record["ended"] == "abandoned" and len(record["actions"]) == 1
        assert verify_record(record, table=table).ok  # the seed is published and the moves so far check
        games = client.get("/api/games").json()
        assert [(g["id"], g["ended"]) for g in games] == [(table, "abandoned")]
        assert client.get("/api/leaderboard?preset=generala").json() == []  # never counts in rankings
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert sum(1 for r in hub.rooms.values() if r.status != "finished") == 0  # out of the live set
        with table_socket(client, table, ana) as a:  # coming back late: the game is over
            shown = next_frame(a, "state")
            a.send_json({"type": "act", "version": shown["version"], "action": {"roll": []}})
            refused = next_frame(a, "error")
    assert refused["code"] == "game-over" and "abandoned" in refused["message"]


@pytest.mark.parametrize(("present", "away"), [(set(), {0, 1}), ({1}, {0}), ({0, 1}, set())])
def test_the_absence_clock_counts_from_when_each_seat_lost_its_connection(present: set[int], away: set[int]) -> None:
    clock = AbsenceClock()
    clock.update([0, 1], set(), 100.0)
    clock.update([0, 1], present, 130.0)
    assert clock.away(159.0, 60.0) == set()
    assert clock.away(160.0, 60.0) == away
    assert clock.nobody_since([0, 1]) == (100.0 if not present else None)
    due = clock.next_due([0, 1], 130.0, 60.0, 600.0)
    assert due == (160.0 if away else None)
