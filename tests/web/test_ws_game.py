"""End to end through the real app: two WebSocket clients play a whole game, reconnect, a spectator
watches, and the server's dice are the ones its published commitment promised."""

from __future__ import annotations

from typing import Any

from tests.web.inproc import choose, create, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.engine.actions import action_from_json
from cubilete.engine.dice import SeededDice
from cubilete.engine.fairness import commitment, verify_record
from cubilete.engine.game import Game
from cubilete.engine.record import from_record
from cubilete.engine.rules import find_rules


def _sit(ws: Any, seat: int, name: str) -> dict[str, Any]:
    ws.send_json({"type": "sit", "seat": seat, "name": name})
    return next_frame(ws, "state")


def test_two_clients_play_a_whole_game_and_every_throw_is_the_committed_seeds(db_url: str) -> None:
    with running_app(db_url) as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}])
        ana, bea = new_token(), new_token()
        with table_socket(client, table, ana) as a, \
                table_socket(client, table, bea) as b:
            welcome = next_frame(a, "welcome")
            published = welcome["table"]["commitment"]
            assert welcome["you"] == {"seat": None, "pid": welcome["you"]["pid"], "held": None}
            _sit(a, 0, "Ana")
            _sit(b, 1, "Bea")
            state = state_at_least(a, 2)
            assert state["status"] == "playing" and state["seed"] is None  # the seed stays secret while playing
            socks = {0: a, 1: b}
            played: list[tuple[dict[str, Any], list[int]]] = []
            while state["status"] != "finished":
                mover = socks[state["current"]]
                action = choose(state)
                mover.send_json({"type": "act", "version": state["version"], "action": action})
                state = state_at_least(a, state["version"] + 1)
                other = state_at_least(b, state["version"])
                assert other == state  # both players see the same table
                played.append((action, state["turn"]["dice"]))
            seed = state["seed"]
            assert commitment(seed) == published
            record = client.get(f"/api/tables/{table}/record").json()
    # the same seed and the same actions in a local engine give every die the clients saw
    game = Game(find_rules("generala"), ["Ana", "Bea"], seed)
    for action, dice in played:
        game.apply(action_from_json(action))
        if "roll" in action:
            assert list(game.state.turn.dice) == dice
    assert game.totals() == state["result"]["totals"] == record["totals"]
    assert [list(SeededDice(seed).throw(i, len(t))) for i, t in enumerate(record["throws"])] == record["throws"]
    assert from_record(record).totals() == game.totals()
    assert verify_record(record).ok


def test_a_player_who_leaves_gets_the_seat_back_from_the_same_browser(tmp_path: Any) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = create(client, [{"kind": "human"}, {"kind": "human"}])
        tokens = [new_token(), new_token()]
        with table_socket(client, table, tokens[0]) as first:
            _sit(first, 0, "Ana")
            with table_socket(client, table, tokens[1]) as second:
                _sit(second, 1, "Bea")
                state = state_at_least(first, 2)
                mover = state["current"]  # the start throw decides who begins
                sock, other = (first, second) if mover == 0 else (second, first)
                sock.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
                state = state_at_least(other, 3)
                if mover == 0:  # leave with the mover's socket; keep the other one open to watch
                    second, first = first, second
                second.close()
                # the mover's tab closed: the other player sees the seat disconnected (a presence frame),
                # the table waits
                assert next_frame(first, "presence") == {"type": "presence", "seat": mover, "connected": False}
                assert client.get(f"/api/tables/{table}").json()["state"]["turn"] == state["turn"]
                with table_socket(client, table, tokens[mover]) as again:
                    welcome = next_frame(again, "welcome")
                    assert welcome["you"]["seat"] == mover
                    back = next_frame(again, "state")
                    assert back["turn"] == state["turn"] and back["seats"][mover]["connected"]
                    again.send_json({"type": "act", "version": back["version"], "action": {"roll": [0]}})
                    after = state_at_least(first, back["version"] + 1)
                    assert after["turn"]["throws"] == 2 and after["turn"]["dice"][0] == back["turn"]["dice"][0]


def test_a_spectator_watches_but_cannot_sit_or_play(tmp_path: Any) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(client, table) as watcher, \
                table_socket(client, table, new_token()) as a:
            assert next_frame(watcher, "welcome")["you"] == {"seat": None, "pid": None, "held": None}
            watcher.send_json({"type": "sit", "seat": 0, "name": "Eve"})
            assert next_frame(watcher, "error")["code"] == "not-seated"
            state = _sit(a, 0, "Ana")
            while state["current"] != 0 or state["turn"]["throws"] != 0:  # the bot may begin: wait for Ana
                state = next_frame(a, "state")
            watched = state_at_least(watcher, state["version"])
            assert watched["status"] == "playing" and watched["seats"][0]["name"] == "Ana"
            watcher.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            assert next_frame(watcher, "error")["code"] == "not-seated"
            a.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            seen = state_at_least(watcher, state["version"] + 1)
            assert seen["current"] == 0 and seen["turn"]["throws"] == 1 and len(seen["turn"]["dice"]) == 5


def test_a_game_against_a_bot_runs_to_the_end_and_lands_in_history_and_rankings(tmp_path: Any) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as client:
        table = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        token = new_token()
        with table_socket(client, table, token) as a:
            pid = next_frame(a, "welcome")["you"]["pid"]
            state = _sit(a, 0, "Ana")
            while state["status"] != "finished":
                if state["current"] == 0:
                    a.send_json({"type": "act", "version": state["version"], "action": choose(state)})
                state = next_frame(a, "state")
        totals = state["result"]["totals"]
        games = client.get("/api/games").json()
        assert [g["id"] for g in games] == [table]
        assert [p["total"] for p in games[0]["players"]] == totals
        # a game against a bot is in the history and the player's page, not in the ranking (tests/web/test_rankings.py)
        assert client.get("/api/leaderboard", params={"preset": "generala"}).json() == []
        me = client.get(f"/api/players/{pid}").json()
        assert me["names"] == ["Ana"] and me["stats"]["generala"]["games"] == 1
        assert token not in str(me) and token not in str(games)  # the token is never shown
