"""Issue 10, break 6: the leaderboard counted a one-person table (which always wins) and a profile
named "generala" with a 100,000-point box topped the generala board.

Now a game is ranked only if its rules are the official preset *by hash*, and it had at least two
seats held by at least two different people (a bot's level is the creator's choice: a game against
bots proves nothing). House-rule games are listed as such.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import choose, new_token, next_frame, running_app, table_socket

FORGED = 'name = "generala"\ntitle = "Generala (Argentina)"\n[box.generala]\nvalue = 100000\n'


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("web") / "w.sqlite3"
    with running_app(f"sqlite:///{path}", rate=1000.0, burst=1000.0) as client:
        yield client


def play(app: TestClient, body: dict[str, Any], names: list[str]) -> tuple[str, dict[str, Any], list[str]]:
    """Create a table, seat one browser per name, play it to the end; (id, final state, pids)."""
    r = app.post("/api/tables", json={"coach": False, **body})  # a body's own "coach" wins
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    with ExitStack() as stack:
        socks = [stack.enter_context(table_socket(app, table_id, new_token())) for _ in names]
        pids = [next_frame(ws, "welcome")["you"]["pid"] for ws in socks]
        state: dict[str, Any] = {}
        for seat, (ws, name) in enumerate(zip(socks, names, strict=True)):
            ws.send_json({"type": "sit", "seat": seat, "name": name})
            state = next_frame(ws, "state")
        watcher = socks[0]
        while state["status"] != "finished":
            if state["status"] == "playing" and state["current"] is not None and state["current"] < len(socks):
                socks[state["current"]].send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = next_frame(watcher, "state")
    return table_id, state, pids


def board(app: TestClient, preset: str = "generala") -> list[dict[str, Any]]:
    r = app.get("/api/leaderboard", params={"preset": preset})
    assert r.status_code == 200, r.text
    return list(r.json())


def test_a_game_alone_does_not_count(app: TestClient) -> None:
    _, state, (pid,) = play(app, {"rules": "generala", "seats": [{"kind": "human"}]}, ["Solo"])
    assert state["result"]["winners"] == [0]  # the attack: a one-seat table always wins ...
    assert pid not in {row["pid"] for row in board(app)}  # ... and is not ranked
    me = app.get(f"/api/players/{pid}").json()
    assert me["stats"]["generala"]["games"] == 1  # the player's own page still has it


def test_a_game_against_a_bot_does_not_count(app: TestClient) -> None:
    _, _, (pid,) = play(app, {"rules": "generala", "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]},
                        ["Botbeater"])
    assert pid not in {row["pid"] for row in board(app)}


def test_a_profile_named_generala_is_house_rules_not_generala(app: TestClient) -> None:
    table_id, _, pids = play(app, {"profile": FORGED, "seats": [{"kind": "human"}, {"kind": "human"}]},
                             ["Forger", "Friend"])
    assert not set(pids) & {row["pid"] for row in board(app)}
    game = next(g for g in app.get("/api/games").json() if g["id"] == table_id)
    assert game["house_rules"] is True and game["preset"] is None and game["rules"] == "generala"
    assert game["title"] == "Generala (Argentina) (house rules)"
    me = app.get(f"/api/players/{pids[0]}").json()
    assert list(me["stats"]) == ["generala (house rules)"]


def test_a_game_with_the_coach_on_does_not_count(app: TestClient) -> None:
    _, _, pids = play(app, {"rules": "generala", "coach": True, "seats": [{"kind": "human"}, {"kind": "human"}]},
                      ["Coached", "Helped"])
    assert not set(pids) & {row["pid"] for row in board(app)}  # hints are practice, as in the ratings
    assert app.get(f"/api/players/{pids[0]}").json()["stats"]["generala"]["games"] == 1  # still on their page


def test_a_game_between_two_people_on_the_official_preset_counts(app: TestClient) -> None:
    table_id, state, pids = play(app, {"rules": "generala", "seats": [{"kind": "human"}, {"kind": "human"}]},
                                 ["Ana", "Bea"])
    totals, winners = state["result"]["totals"], state["result"]["winners"]
    rows = {row["pid"]: row for row in board(app)}
    for seat, pid in enumerate(pids):
        assert rows[pid]["games"] == 1 and rows[pid]["best"] == totals[seat]
        assert rows[pid]["wins"] == int(seat in winners)
    game = next(g for g in app.get("/api/games").json() if g["id"] == table_id)
    assert game["house_rules"] is False and game["preset"] == "generala"


def test_only_official_presets_have_a_board(app: TestClient) -> None:
    r = app.get("/api/leaderboard", params={"preset": "mesa-del-club"})
    assert r.status_code == 404 and "only official presets are ranked" in r.json()["error"]
    assert app.get("/api/leaderboard", params={"preset": "kniffel"}).status_code == 404  # an alias is not a board
