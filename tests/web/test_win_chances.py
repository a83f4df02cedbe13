"""The state frame carries every seat's chance to win once computed for that version (off the event loop)."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from tests.web.inproc import choose, create, new_token, next_frame, running_app, state_at_least, table_socket


def with_chances(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The first state frame at ``version`` that carries the chances (later versions fail the test)."""
    while True:
        frame = state_at_least(ws, version)
        assert frame["version"] == version
        if "win_chance_exact" in frame:
            return frame


def _sit(ws: WebSocketTestSession, seat: int, name: str) -> None:
    ws.send_json({"type": "sit", "seat": seat, "name": name})
    next_frame(ws, "state")


def play_and_check(client: Any, rules: str, moves: int) -> list[dict[str, Any]]:
    """Two people sit and play ``moves`` actions; the frame with the chances of every version."""
    table = create(client, [{"kind": "human"}, {"kind": "human"}], rules=rules)
    seen = []
    with table_socket(client, table, new_token()) as a, \
            table_socket(client, table, new_token()) as b:
        _sit(a, 0, "Ana")
        _sit(b, 1, "Bea")
        state = state_at_least(a, 2)
        socks = {0: a, 1: b}
        for _ in range(moves):
            state = with_chances(a, state["version"])
            seen.append(state)
            socks[state["current"]].send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = state_at_least(a, state["version"] + 1)
        seen.append(with_chances(a, state["version"]))
    return seen


def test_the_seats_chances_sum_to_one_and_are_marked_estimated_for_large_rules(db_url: str) -> None:
    with running_app(db_url, win_chances=True) as client:
        seen = play_and_check(client, "general-4-columns", 6)
    first = seen[0]
    assert [s["win_chance"] for s in first["seats"]] == [0.5, 0.5]  # the same position for both, nothing thrown
    for frame in seen:
        chances = [s["win_chance"] for s in frame["seats"]]
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0, abs=1e-5)
        assert frame["win_chance_exact"] is False  # 52 rounds: no exact tables


def test_a_waiting_table_has_no_chances(db_url: str) -> None:
    with running_app(db_url, win_chances=True) as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}], rules="general-4-columns")
        with table_socket(client, table, new_token()) as a:
            state = next_frame(a, "state")
    assert state["status"] == "waiting"
    assert "win_chance_exact" not in state and all("win_chance" not in s for s in state["seats"])


@pytest.mark.slow
def test_generala_chances_with_three_players_are_marked_estimated(db_url: str) -> None:
    with running_app(db_url, win_chances=True) as client:
        seen = play_and_check(client, "generala", 3)
    for frame in seen:
        assert frame["win_chance_exact"] is False  # exact only heads-up, from the two-player table
        assert sum(s["win_chance"] for s in frame["seats"]) == pytest.approx(1.0, abs=1e-5)


def test_the_coach_hint_gives_advice_for_points_and_to_win(db_url: str) -> None:
    with running_app(db_url, win_chances=True) as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}], rules="generala", coach=True)
        with table_socket(client, table, new_token()) as a, \
                table_socket(client, table, new_token()) as b:
            _sit(a, 0, "Ana")
            _sit(b, 1, "Bea")
            state = state_at_least(a, 2)
            mover = {0: a, 1: b}[state["current"]]
            mover.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            state_at_least(mover, state["version"] + 1)
            mover.send_json({"type": "hint"})
            frame = next_frame(mover, "hint")
    assert frame["exact"] is True and frame["advice"]
    lines = frame["to_win"]
    assert lines[0].startswith("For points: " + frame["advice"][0]["text"])
    assert lines[1].startswith("To win: ")
    assert len(lines) in (2, 3)


def test_the_review_of_a_finished_game_has_the_chances_and_the_chance_given_up(db_url: str) -> None:
    with running_app(db_url, win_chances=True) as client:
        table = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], rules="generala")
        with table_socket(client, table, new_token()) as a:
            _sit(a, 0, "Ana")
            state = state_at_least(a, 1)
            while state["status"] != "finished":
                if state["current"] == 0 and state["status"] == "playing":
                    a.send_json({"type": "act", "version": state["version"], "action": choose(state)})
                state = state_at_least(a, state["version"] + 1)
        review = client.get(f"/api/games/{table}/review").json()
        result = state["result"]
    line = review["chances"]
    assert line["players"] == ["Ana", "Greedy bot"] or line["players"][0] == "Ana"
    assert line["exact"] is False  # heads-up Generala without its two-player table here: estimated
    assert line["turns"][0] == 0 and line["turns"] == sorted(line["turns"])
    for row in line["chances"]:
        assert sum(row) == pytest.approx(1.0, abs=1e-3)
    winners = result["winners"]
    assert line["chances"][-1] == [(1.0 / len(winners)) if i in winners else 0.0 for i in range(2)]
    win = review["win"]
    assert [p["name"] for p in win["players"]] == ["Ana"]  # only the person's decisions are judged
    assert win["players"][0]["loss"] >= 0.0
    assert all(w["player"] == "Ana" and w["loss"] > 0 for w in win["worst"])
