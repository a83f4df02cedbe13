"""The score sheet for real dice (web/sheets.py) on SQLite and PostgreSQL: a whole Generala typed in from two
phones on one link, the rules' points (RULES.md: armada full 30, poker 40, escalera 20, generala 50, doble
100), a tie that goes to a tie-break hand, a servida Generala that wins at once, undo only from the phone that
typed, stale versions and bad dice refused with the scorekeeper's reasons, and the finished game's record."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.conftest import sqlite_url
from tests.web.inproc import new_token, running_app

from cubilete.engine.record import from_record
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.play.scorekeeper import Scorekeeper
from cubilete.web import sheets

# one box per turn, dice that make it on the second throw (armada: no servida value, no instant win)
TURNS = [
    ("1", [1, 1, 1, 2, 3], 3), ("2", [2, 2, 4, 5, 6], 4), ("3", [3, 3, 3, 1, 2], 9), ("4", [4, 4, 4, 4, 2], 16),
    ("5", [5, 1, 2, 3, 3], 5), ("6", [6, 6, 6, 1, 1], 18), ("escalera", [1, 2, 3, 4, 5], 20),
    ("full", [2, 2, 3, 3, 3], 30), ("poker", [4, 4, 4, 4, 1], 40), ("generala", [6, 6, 6, 6, 6], 50),
    ("doble", [5, 5, 5, 5, 5], 100),
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _step(client: TestClient, sheet: str, token: str, state: dict[str, Any], **step: Any) -> dict[str, Any]:
    answer = client.post(f"/api/sheets/{sheet}/steps", json={"version": state["version"], **step},
                         headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def _new(client: TestClient, token: str, players: list[str]) -> dict[str, Any]:
    made = client.post("/api/sheets", json={"rules": "generala", "players": players}, headers=bearer(token))
    assert made.status_code == 201, made.text
    return client.get(f"/api/sheets/{made.json()['id']}").json()  # type: ignore[no-any-return]


def test_a_whole_generala_typed_from_two_phones_with_a_tie_break(db_url: str) -> None:
    ana, bea = new_token(), new_token()
    with running_app(db_url) as client:
        state = _new(client, ana, ["Ana", "Bea"])
        sheet = state["id"]
        assert state["phase"] == "start" and state["start"] == {"seat": 0, "dice": 1}
        state = _step(client, sheet, ana, state, kind="start", dice=[2])
        state = _step(client, sheet, bea, state, kind="start", dice=[5])  # the higher die starts
        assert state["phase"] == "play" and state["current"] == 1 and state["order"] == [1, 0]
        phones = {0: ana, 1: bea}
        for slot, dice, points in TURNS:
            for _ in range(2):  # both write the same: a tie
                who = state["current"]
                shown = client.post(f"/api/sheets/{sheet}/preview", json={"dice": dice, "throw": 2}).json()
                assert shown["points"][slot] == points and not shown["wins_at_once"]
                state = _step(client, sheet, phones[who], state, kind="enter", dice=dice, throw=2, slot=slot)
                assert state["cards"][who][[x["slot"] for x in state["slots"]].index(slot)] == points
        upper = 3 + 4 + 9 + 16 + 5 + 18
        assert state["totals"] == [upper + 20 + 30 + 40 + 50 + 100] * 2
        assert state["phase"] == "tiebreak" and state["current"] == 1  # the order of play again
        state = _step(client, sheet, bea, state, kind="hand", dice=[4, 4, 4, 1, 2], throw=2)
        state = _step(client, sheet, ana, state, kind="hand", dice=[4, 4, 4, 4, 2], throw=2)  # poker beats
        assert state["phase"] == "over" and state["winners"] == [0] and state["reason"] == "tie-break"
        record = client.get(f"/api/sheets/{sheet}/record")
        assert record.status_code == 200
        game = from_record(record.json())
        assert game.is_over and list(game.state.winners) == [0] and game.totals() == state["totals"]


def test_a_servida_generala_wins_at_once(db_url: str) -> None:
    ana = new_token()
    with running_app(db_url) as client:
        state = _new(client, ana, ["Ana", "Bea"])
        state = _step(client, state["id"], ana, state, kind="start", dice=[6])
        state = _step(client, state["id"], ana, state, kind="start", dice=[1])
        assert state["current"] == 0
        shown = client.post(f"/api/sheets/{state['id']}/preview", json={"dice": [3] * 5, "throw": 1}).json()
        assert shown["wins_at_once"] is True
        state = _step(client, state["id"], ana, state, kind="enter", dice=[3] * 5, throw=1, slot="generala")
        assert state["phase"] == "over" and state["winners"] == [0] and state["reason"] == "instant-win"


def test_undo_only_from_the_phone_that_typed_and_refusals_change_nothing(db_url: str) -> None:
    ana, bea = new_token(), new_token()
    with running_app(db_url) as client:
        state = _new(client, ana, ["Ana", "Bea"])
        sheet = state["id"]
        state = _step(client, sheet, ana, state, kind="start", dice=[6])
        state = _step(client, sheet, ana, state, kind="start", dice=[2])
        before = _step(client, sheet, ana, state, kind="enter", dice=[2, 2, 3, 3, 3], throw=1, slot="full")
        assert before["cards"][0][7] == 35  # a servida full
        seen_by_bea = client.get(f"/api/sheets/{sheet}", headers=bearer(bea)).json()
        assert seen_by_bea["can_undo"] is False
        refused = client.post(f"/api/sheets/{sheet}/undo", json={"version": before["version"]}, headers=bearer(bea))
        assert refused.status_code == 403
        stale = client.post(f"/api/sheets/{sheet}/steps", headers=bearer(bea), json={
            "version": state["version"], "kind": "enter", "dice": [1, 1, 1, 1, 1], "throw": 2, "slot": "1"})
        assert stale.status_code == 409
        bad = [
            ({"dice": [1, 2, 3], "throw": 1, "slot": "1"}, "5 dice"),
            ({"dice": [1, 2, 3, 4, 6], "throw": 2, "slot": "full"}, "do not make"),
            ({"dice": [1, 2, 3, 4, 6], "throw": 4, "slot": "1"}, "beyond"),
            ({"dice": [1, 2, 3, 4, 7], "throw": 1, "slot": "1"}, "not a die face"),
            ({"dice": [1, 2, 3, 4, 5], "throw": 1, "slot": "nope"}, "no box nope"),
        ]
        for body, words in bad:
            answer = client.post(f"/api/sheets/{sheet}/steps", headers=bearer(bea),
                                 json={"version": before["version"], "kind": "enter", **body})
            assert answer.status_code == 422 and words in answer.json()["error"], (body, answer.text)
        spoken = client.post(f"/api/sheets/{sheet}/steps?lang=es", headers=bearer(bea), json={
            "version": before["version"], "kind": "enter", "dice": [1, 2, 3, 4, 6], "throw": 2, "slot": "full"})
        assert spoken.status_code == 422 and "no forman Full; tachalo para anotar 0" in spoken.json()["error"]
        assert client.get(f"/api/sheets/{sheet}").json()["version"] == before["version"]  # nothing written
        mine = client.get(f"/api/sheets/{sheet}", headers=bearer(ana)).json()
        assert mine["can_undo"] is True
        back = client.post(f"/api/sheets/{sheet}/undo", json={"version": before["version"]}, headers=bearer(ana))
        assert back.status_code == 200 and back.json()["cards"][0][7] is None and back.json()["current"] == 0
        assert client.post("/api/sheets", json={"rules": "generala", "players": ["Ana", "ana"]},
                           headers=bearer(ana)).status_code == 422
        assert client.post("/api/sheets", json={"rules": "generala", "players": ["Ana"] * 9},
                           headers=bearer(ana)).status_code == 422
        assert client.get("/api/sheets/zzzzzzzz").status_code == 404
        assert client.get(f"/api/sheets/{sheet}/record").status_code == 409


def test_a_sheet_typed_forever_stops_at_its_most_steps(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ties for who starts can be typed without end, and every request replays every step: a sheet is bounded."""
    monkeypatch.setattr(sheets, "MAX_STEPS", 6)
    ana = new_token()
    with running_app(db_url) as client:
        state = _new(client, ana, ["Ana", "Bea"])
        for _ in range(6):  # ties, round after round
            state = _step(client, state["id"], ana, state, kind="start", dice=[3])
        refused = client.post(f"/api/sheets/{state['id']}/steps", headers=bearer(ana),
                              json={"version": state["version"], "kind": "start", "dice": [3]})
        assert refused.status_code == 422 and "6 steps" in refused.json()["error"]
        assert client.get(f"/api/sheets/{state['id']}").json()["version"] == state["version"]  # nothing written


def test_a_finished_sheet_is_listed_with_the_games_marked_as_real_dice_and_never_ranked(db_url: str) -> None:
    ana = new_token()
    with running_app(db_url) as client:
        state = _new(client, ana, ["Ana", "Bea"])
        sheet = state["id"]
        assert all(g["id"] != sheet for g in client.get("/api/games").json())  # not while it is played
        state = _step(client, sheet, ana, state, kind="start", dice=[6])
        state = _step(client, sheet, ana, state, kind="start", dice=[1])
        state = _step(client, sheet, ana, state, kind="enter", dice=[3] * 5, throw=1, slot="generala")
        assert state["phase"] == "over"
        listed = [g for g in client.get("/api/games").json() if g["id"] == sheet]
        assert len(listed) == 1
        game = listed[0]
        assert (game["kind"], game["url"], game["preset"], game["house_rules"]) == (
            "real-dice", f"/sheet/{sheet}", "generala", False)
        assert [(p["name"], p["winner"], p["pid"]) for p in game["players"]] == [("Ana", True, None),
                                                                                ("Bea", False, None)]
        assert game["players"][0]["total"] == state["totals"][0]
        assert [g["id"] for g in client.get("/api/games?preset=generala").json()].count(sheet) == 1
        assert all(g["id"] != sheet for g in client.get("/api/games?preset=yahtzee").json())
        board = client.get("/api/leaderboard?preset=generala").json()
        assert all(e["name"] not in ("Ana", "Bea") for e in board)  # typed results are never ranked
        # an undo of the last entry takes it off the list again
        back = client.post(f"/api/sheets/{sheet}/undo", json={"version": state["version"]}, headers=bearer(ana))
        assert back.status_code == 200
        assert all(g["id"] != sheet for g in client.get("/api/games").json())


def test_advice_on_house_rules_still_being_solved_waits_or_says_so_never_a_500(tmp_path: Path) -> None:
    """Advice asked the moment a house-rules sheet is made: its rules are being solved in a worker process, so the
    coach either answers once they are (the request waits a bounded time) or says 503 with Retry-After. (SQLite
    only: the database plays no part, and each run solves new rules twice.)"""
    ana = new_token()
    db_url = sqlite_url(tmp_path / "web.sqlite3")
    value = 61 + secrets.randbelow(39)  # a Generala value no preset has: rules never solved in this session
    profile = f'base = "generala"\nname = "advice-{value}"\n[box.generala]\nvalue = {value}\n'
    with running_app(db_url) as client:
        made = client.post("/api/sheets", json={"profile": profile, "players": ["Ana", "Bea"]}, headers=bearer(ana))
        assert made.status_code == 201, made.text
        sheet = made.json()["id"]
        state = client.get(f"/api/sheets/{sheet}").json()
        state = _step(client, sheet, ana, state, kind="start", dice=[6])
        state = _step(client, sheet, ana, state, kind="start", dice=[1])
        asked = client.post(f"/api/sheets/{sheet}/advice", json={"dice": [1, 2, 3, 4, 6], "throw": 1},
                            headers=bearer(ana))
        assert asked.status_code in (200, 503), asked.text
        if asked.status_code == 503:
            assert int(asked.headers["Retry-After"]) > 0
            assert "solving" in asked.json()["error"]
        else:  # the coach's own advice on the same rules, asked outside the server
            keeper = Scorekeeper(rules_from_toml(profile, "profile"), ["Ana", "Bea"])
            keeper.start_throw([6])
            keeper.start_throw([1])
            direct = keeper.suggest([1, 2, 3, 4, 6], 1, 3)
            shown = asked.json()["options"]
            assert [(o["slot"], o["keep"], o["expected"]) for o in shown] == [
                (a.slot, list(a.keep_faces), round(a.expected, 2)) for a in direct]
