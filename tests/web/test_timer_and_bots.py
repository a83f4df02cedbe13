"""The turn timer and the bots: a human who does nothing has the turn played by a stand-in bot once the
deadline passes; the deadline shows while (and only while) a human is to move; a table of bots plays
itself to the end while a spectator watches.

Tables with a 1-second timer are made through the app's hub (HTTP accepts 10-600 s only)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from tests.web.inproc import FRAME_TIMEOUT, create, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.rules.profile import rules_from_toml

# generala without the servida win (no game ends early) in one round: a whole game is one turn per seat
ONE_ROUND = rules_from_toml('base = "generala-sin-gana"\nrounds = 1\n', "one-round")


def _table(client: TestClient, rules: Rules, seats: list[tuple[str, str | None]], timer: int) -> str:
    """A table made by the hub in the app's own event loop; its id."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = client.portal.call(hub.create, rules, seats, timer, True)  # type: ignore[union-attr]
    return str(room.id)


def _play_to_the_end(ws: Any, name: str) -> list[dict[str, Any]]:
    """Sit at seat 0, then only watch: every state frame from the game's start to its end."""
    next_frame(ws, "welcome")
    ws.send_json({"type": "sit", "seat": 0, "name": name})
    frames = []
    state = next_frame(ws, "state")
    while state["status"] != "finished":
        if state["status"] == "playing":
            frames.append(state)
        state = next_frame(ws, "state")
    return [*frames, state]


def test_a_stand_in_plays_the_whole_turn_of_a_human_who_does_nothing(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = _table(client, ONE_ROUND, [("human", None), ("bot", "greedy")], timer=1)
        with table_socket(client, table, new_token()) as ws:
            frames = _play_to_the_end(ws, "Ana")
    *playing, end = frames
    assert playing, "the game never showed a playing state"
    for state in playing:
        if state["seats"][state["current"]]["kind"] == "human":
            assert isinstance(state["deadline"], int | float) and 0 <= state["deadline"] <= 1, state["deadline"]
        else:
            assert state["deadline"] is None, state  # no clock on a bot's turn
    assert end["deadline"] is None and end["result"] is not None
    # Ana never sent an action, yet her turn was played from its first throw to a written box
    hers = [s["last"]["action"] for s in frames if s["last"] and s["last"]["seat"] == 0]
    assert hers and "roll" in hers[0] and any("score" in a for a in hers)
    assert sum(v is not None for v in end["seats"][0]["card"]) == 1
    # the turn passed: the bot wrote its box too
    assert sum(v is not None for v in end["seats"][1]["card"]) == 1


def test_the_deadline_counts_down_while_the_human_is_to_move(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = _table(client, ONE_ROUND, [("human", None)], timer=2)
        with table_socket(client, table, new_token()) as ws:
            next_frame(ws, "welcome")
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = state_at_least(ws, 1)
            assert start["status"] == "playing" and start["current"] == 0
            assert isinstance(start["deadline"], int | float) and 0 < start["deadline"] <= 2
            # the same version seen again later shows less time left (until the stand-in moves)
            seen = []
            give_up = time.monotonic() + FRAME_TIMEOUT
            while True:
                assert time.monotonic() < give_up, f"the deadline never went down nor the turn moved on: {seen[:5]}"
                now = client.get(f"/api/tables/{table}").json()["state"]
                if now["version"] != start["version"]:
                    break
                seen.append(now["deadline"])
                if now["deadline"] < seen[0]:
                    break
            assert len(seen) >= 2 and seen[-1] < seen[0], seen
            assert seen == sorted(seen, reverse=True)  # never goes up within the turn
            state = start
            while state["status"] != "finished":
                state = next_frame(ws, "state")
    assert state["deadline"] is None
    assert state["seats"][0]["card"].count(None) == len(ONE_ROUND.slots) - 1


def test_a_table_of_bots_plays_itself_to_the_end_for_a_spectator(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"},
                 {"kind": "bot", "level": "heuristic"}]
        table = create(client, seats, rules="generala-sin-gana", timer=10)
        with table_socket(client, table) as watcher:
            assert next_frame(watcher, "welcome")["you"] == {"seat": None, "pid": None, "held": None}
            state = next_frame(watcher, "state")
            while state["status"] != "finished":
                assert state["deadline"] is None  # nobody human: no clock, even on a timed table
                state = next_frame(watcher, "state")
        rules = find_rules("generala-sin-gana")
        assert state["result"] is not None and state["seed"] is not None and state["deadline"] is None
        # no servida win in these rules: every bot filled its whole card
        cards = [seat["card"] for seat in state["seats"]]
        assert len(cards) == 3 and all(len(card) == len(rules.slots) and None not in card for card in cards)
        got = client.get(f"/api/tables/{table}").json()["state"]
        assert got["status"] == "finished" and got["version"] == state["version"]
        assert [g["id"] for g in client.get("/api/games").json()] == [table]
