"""The daily duplicate challenge (web/daily.py): today's challenges with their commitments (and tomorrow's,
published in advance); two people playing today's game see the same dice turn by turn, and the same choices
give the same score; one game a day; the day's games stay private (no spectators, record, review or listing)
and its seed secret until the day ends; then the standings show the seed, each game and the optimal score,
and a game's record verifies on its duplicate dice."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.web.inproc import new_token, next_frame, running_app, state_at_least, table_socket

from cubilete import Game
from cubilete.engine.dice import DuplicateDice
from cubilete.engine.fairness import commitment, verify_record
from cubilete.engine.record import DUPLICATE
from cubilete.engine.rules import find_rules
from cubilete.play.bots import make_bot
from cubilete.store import daily as daily_store
from cubilete.web.daily_result import judged

HEX64 = re.compile(r"^[0-9a-f]{64}$")
SEED = "judged-day"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _play_whole_game(client: TestClient, table: str, token: str) -> list[dict[str, Any]]:
    """Throw once and write the first open box, every turn; the state after each first throw, and the end."""
    seen = []
    with table_socket(client, table, token) as ws:
        state = next_frame(ws, "state")
        while state["status"] != "finished":
            ws.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            state = state_at_least(ws, state["version"] + 1)
            seen.append(state)
            if state["status"] == "finished":
                break
            slot = next(s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only"))
            ws.send_json({"type": "act", "version": state["version"], "action": {"score": slot}})
            state = state_at_least(ws, state["version"] + 1)
        seen.append(state)
    return seen


def test_todays_challenges_are_published_with_tomorrows_commitment(db_url: str) -> None:
    with running_app(db_url) as client:
        first = client.get("/api/daily").json()
        assert [c["preset"] for c in first] == ["generala", "yahtzee", "yatzy"]
        assert all(c["date"] == _today() and HEX64.match(c["commitment"]) and HEX64.match(c["tomorrow"])
                   and c["commitment"] != c["tomorrow"] and c["players"] == 0 for c in first)
        assert client.get("/api/daily").json() == first  # made once, the same for everyone
        assert client.get("/api/daily/2026-13-40/generala").status_code == 404
        assert client.get(f"/api/daily/{_today()}/bozo").status_code == 404
        tomorrow = (datetime.now(UTC).date() + timedelta(days=1)).isoformat()
        assert client.get(f"/api/daily/{tomorrow}/generala").status_code == 404  # not started


def test_two_people_play_the_same_dice_once_and_the_day_stays_private(db_url: str) -> None:
    today = _today()
    with running_app(db_url) as client:
        ana, bea = new_token(), new_token()
        made = {}
        for token, name in ((ana, "Ana"), (bea, "Bea")):
            answer = client.post(f"/api/daily/{today}/yatzy/play", json={"name": name}, headers=bearer(token))
            assert answer.status_code == 201, answer.text
            made[name] = answer.json()["id"]
        again = client.post(f"/api/daily/{today}/yatzy/play", json={"name": "Ana"}, headers=bearer(ana))
        assert again.status_code == 200 and again.json()["id"] == made["Ana"]  # her game in play, not a second
        assert client.post(f"/api/daily/{today}/yatzy/play", json={"name": "X"}).status_code == 401
        yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
        closed = client.post(f"/api/daily/{yesterday}/yatzy/play", json={"name": "Ana"}, headers=bearer(ana))
        assert closed.status_code == 409

        games = {name: _play_whole_game(client, table, token)
                 for (name, table), token in zip(made.items(), (ana, bea), strict=True)}
        firsts = {name: [s["turn"]["dice"] for s in seen if s["turn"]["throws"] == 1 and s["status"] == "playing"]
                  for name, seen in games.items()}
        assert firsts["Ana"] == firsts["Bea"] and len(firsts["Ana"]) == find_rules("yatzy").turns
        ends = {name: seen[-1] for name, seen in games.items()}
        assert ends["Ana"]["result"]["totals"] == ends["Bea"]["result"]["totals"]  # same dice, same choices
        assert ends["Ana"]["seed"] is None  # told when the day ends

        table = made["Ana"]
        assert client.get(f"/api/tables/{table}/record").status_code == 409
        assert client.get(f"/api/games/{table}/review").status_code == 409
        assert all(g["id"] not in made.values() for g in client.get("/api/games").json())
        with pytest.raises(WebSocketDisconnect) as closed_ws, table_socket(client, table) as spectator:
            next_frame(spectator, "state")
        assert closed_ws.value.code == 4403
        second = client.post(f"/api/daily/{today}/yatzy/play", json={"name": "Ana"}, headers=bearer(ana))
        assert second.status_code == 409 and "one game a day" in second.json()["error"]

        board = client.get(f"/api/daily/{today}/yatzy").json()
        assert board["over"] is False and board["seed"] is None and "optimal" not in board
        total = ends["Ana"]["result"]["totals"][0]
        assert [(line["name"], line["score"]) for line in board["standings"]] in (
            [("Ana", total), ("Bea", total)], [("Bea", total), ("Ana", total)])
        assert all("table" not in line and "first_difference" not in line for line in board["standings"])
        assert [c["players"] for c in client.get("/api/daily").json() if c["preset"] == "yatzy"] == [2]


def test_after_the_day_the_seed_games_and_optimal_score_are_shown_and_records_verify(db_url: str) -> None:
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    with running_app(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        seed, committed = daily_store.challenge(hub.store, yesterday, "yatzy")
        token = new_token()
        room = client.portal.call(lambda: hub.create(  # type: ignore[union-attr]
            find_rules("yatzy"), [("human", None)], None, False, [("Ana", "h" * 64, "p" * 16)], seed=seed,
            dice=DUPLICATE, daily=f"{yesterday}/yatzy"))
        assert daily_store.claim(hub.store, yesterday, "yatzy", "p" * 16, "Ana", room.id, 1.0) is None
        del token
        assert room.private() is False  # its day is over: anyone may watch, the seed is told
        with table_socket(client, room.id) as spectator:
            assert next_frame(spectator, "state")["daily"] == f"{yesterday}/yatzy"
        diff = {"turn": 2, "dice": [1, 1, 5, 6, 6], "chosen": "keep 6 6", "best": "keep 1 1", "loss": 0.8}
        daily_store.finish(hub.store, room.id, 123, 1.5, 13, json.dumps(diff))
        board = client.get(f"/api/daily/{yesterday}/yatzy").json()
        assert board["over"] is True and board["seed"] == seed and commitment(seed) == committed
        assert board["standings"] == [{"pid": "p" * 16, "name": "Ana", "score": 123, "finished": True,
                                       "loss_per_decision": 1.5, "decisions": 13, "table": room.id,
                                       "first_difference": diff}]
        assert "optimal" in board and (board["optimal"] is None or 0 < board["optimal"] <= 374)  # yatzy: at most 374


def test_a_finished_daily_record_verifies_on_duplicate_dice(db_url: str) -> None:
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    with running_app(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        seed, committed = daily_store.challenge(hub.store, yesterday, "yatzy")
        token = new_token()
        from cubilete.web.hub import player_id, token_hash

        room = client.portal.call(lambda: hub.create(  # type: ignore[union-attr]
            find_rules("yatzy"), [("human", None)], None, False, [("Ana", token_hash(token), player_id(token))],
            seed=seed, dice=DUPLICATE, daily=f"{yesterday}/yatzy"))
        end = _play_whole_game(client, room.id, token)[-1]
        assert end["seed"] == seed
        record = client.get(f"/api/tables/{room.id}/record").json()
    assert record["dice"] == "duplicate"
    report = verify_record(record, published=committed, table=room.id)
    assert not report.problems, report.problems


def test_a_game_is_judged_against_optimal_play_on_its_dice(bots_solver_cache: Path) -> None:
    """The optimal bot loses nothing and never leaves optimal play; the beginner, which slips, loses points
    and its first slip is named (turn, dice, its choice, the best, the cost)."""
    rules = find_rules("generala-sin-gana")
    for level in ("optimal", "beginner"):
        game = Game(rules, [level], SEED, DuplicateDice(SEED))
        bot = make_bot(f"bot:{level}", seed=SEED)
        while not game.is_over:
            game.apply(bot.choose(game))
        score, loss, decisions, diff = judged(game)
        assert score == game.totals()[0] and decisions >= rules.turns and loss is not None
        if level == "optimal":
            assert loss == 0.0 and diff is None
        else:
            first = json.loads(diff or "null")
            assert loss > 0 and first["loss"] > 0 and first["chosen"] != first["best"] and 1 <= first["turn"] <= 11



def test_after_the_day_the_optimal_players_game_on_the_same_dice_is_shown(
        db_url: str, bots_solver_cache: Path) -> None:
    from cubilete.play.coach import solution_for

    solution_for(find_rules("generala"))  # the server only loads solved tables: solved here, once a session
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    with running_app(db_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        early = client.get(f"/api/daily/{_today()}/generala/optimal")
        assert early.status_code == 409 and "still secret" in early.json()["error"]
        seed, _committed = daily_store.challenge(hub.store, yesterday, "generala")
        found = client.get(f"/api/daily/{yesterday}/generala/optimal").json()
        record = found["record"]
        assert record["seed"] == seed and record["dice"] == DUPLICATE  # the day's own dice
        assert verify_record(record).ok
        assert found["score"] == record["totals"][0] == client.get(f"/api/daily/{yesterday}/generala").json()[
            "optimal"]
        # the optimal bot's own game, move for move, on the same dice
        game = Game(find_rules("generala"), ["optimal"], seed, DuplicateDice(seed))
        bot = make_bot("bot:optimal", seed=seed)
        while not game.is_over:
            game.apply(bot.choose(game))
        assert found["card"] == list(game.state.seats[0].card) and found["score"] == game.totals()[0]
