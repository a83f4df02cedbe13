"""Undo at a table of one person (against bots, or alone) takes back only their last box, and only until the
next throw appears (web/undo.py): a throw is never taken back, nor a box once a die has shown after it;
refused at a table of two people, on a stale version and once the game is over; the undone action leaves
the database in the same transaction (a restart resumes the undone state), the table counts its undos, and
the finished record says how many (and still verifies)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.engine.fairness import verify_record
from cubilete.store.webdb import WebStore

VOLATILE = ("version", "last", "deadline", "win_chance_exact", "undo")


def _same(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what changes with every frame (version, last action, chances to win)."""
    kept = {k: v for k, v in state.items() if k not in VOLATILE and k != "type"}
    kept["seats"] = [{k: v for k, v in s.items() if k != "win_chance"} for s in state["seats"]]
    return kept


def _refused(ws: Any, frame: dict[str, Any], code: str) -> str:
    ws.send_text(json.dumps(frame))
    error = next_frame(ws, "error")
    assert error["code"] == code, error
    return str(error["message"])


def _human_turn(ws: Any, version: int) -> dict[str, Any]:
    """The first state at ``version`` or later where the person (seat 0) is to move, or the game is over."""
    while True:
        state = state_at_least(ws, version)
        if state["status"] == "finished" or state["current"] == 0:
            return state
        version = state["version"] + 1


TWO_BOXES = ('base = "generala"\nname = "dos"\ntitle = "Dos"\n'
             'remove = ["1", "2", "3", "4", "5", "6", "escalera", "generala", "doble"]\n')  # full and poker
LONG_WINDOW = 600.0  # seconds the bot waits after a person's box before it throws (no test waits it out)


def _score(state: dict[str, Any], nth: int = 0) -> dict[str, Any]:
    return {"score": [s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only")][nth]}


def test_a_throw_is_never_taken_back(db_url: str) -> None:
    """The attack: throw all five dice, undo, choose what to keep: the faces were the ones already seen."""
    with running_app(db_url, rate=1000.0, burst=1000.0, undo_window=LONG_WINDOW) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            assert start["undo"] is False
            assert "nothing to undo" in _refused(ws, {"type": "undo", "version": start["version"]}, "undo-refused")
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            assert thrown["undo"] is False and thrown["turn"]["throws"] == 1
            _refused(ws, {"type": "undo", "version": start["version"]}, "undo-refused")  # stale, and nothing anyway
            message = _refused(ws, {"type": "undo", "version": thrown["version"]}, "undo-refused")
            assert "dice once shown stay" in message
            now = app.get(f"/api/tables/{table}").json()["state"]
            assert now["version"] == thrown["version"] and now["turn"] == thrown["turn"] and now["undos"] == 0


def test_a_box_is_taken_back_until_the_bot_throws_and_never_after(db_url: str) -> None:
    """The attack: write a box, watch the bot's whole turn, undo. Now the box can be taken back while the
    bot waits (``undo_window``), and once the bot's throw has shown, never."""
    with running_app(db_url, rate=1000.0, burst=1000.0, undo_window=LONG_WINDOW) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            ws.send_json({"type": "act", "version": thrown["version"], "action": _score(thrown)})
            written = state_at_least(ws, thrown["version"] + 1)
            assert written["current"] == 1 and written["undo"] is True  # the bot waits: the box may go back
            _refused(ws, {"type": "undo", "version": thrown["version"]}, "stale")
            ws.send_json({"type": "undo", "version": written["version"]})
            back = state_at_least(ws, written["version"] + 1)
            assert back["version"] == written["version"] + 1 and back["undos"] == 1
            assert _same({**back, "undos": 0}) == _same(thrown)  # the same dice: the throw stays
            ws.send_json({"type": "act", "version": back["version"], "action": _score(back, 1)})
            again = state_at_least(ws, back["version"] + 1)
            assert again["seats"][0]["card"] != written["seats"][0]["card"]  # another box this time
        stored = WebStore(db_url).load_table(table)
        assert stored is not None and stored.undos == 1 and stored.version == again["version"]
        assert [json.loads(text) for _, text in stored.actions][-2:] == [{"roll": []}, _score(back, 1)]

    # the bot throws at once after this box: from its throw on, the box is written for good
    with running_app(db_url, rate=1000.0, burst=1000.0, undo_window=0.0) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            ws.send_json({"type": "act", "version": thrown["version"], "action": _score(thrown)})
            state = state_at_least(ws, thrown["version"] + 2)  # the bot's first throw
            assert state["current"] == 1 or state["turn"]["throws"] == 0  # (or its whole turn already)
            assert state["undo"] is False
            message = _refused(ws, {"type": "undo", "version": state["version"]}, "undo-refused")
            assert "dice once shown stay" in message


def test_undo_alone_restart_record_and_statistics(db_url: str) -> None:
    """A person alone: a box taken back until their own next throw; the undone state and the count survive
    a restart; the finished record says how many undos (signed with the rest) and verifies; the game is
    listed with its undos and left out of the player's statistics."""
    token = new_token()
    with running_app(db_url, rate=1000.0, burst=1000.0) as app:
        made = app.post("/api/tables", json={"profile": TWO_BOXES, "seats": [{"kind": "human"}], "coach": False})
        assert made.status_code == 201, made.text
        table, commitment = made.json()["id"], made.json()["commitment"]
        with table_socket(app, table, token) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = state_at_least(ws, 1)
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            ws.send_json({"type": "act", "version": thrown["version"], "action": _score(thrown)})
            written = state_at_least(ws, thrown["version"] + 1)
            assert written["undo"] is True and written["round"] == 2
            ws.send_json({"type": "undo", "version": written["version"]})
            back = state_at_least(ws, written["version"] + 1)
            assert back["round"] == 1 and back["turn"] == thrown["turn"] and back["undos"] == 1
    with running_app(db_url, rate=1000.0, burst=1000.0) as app, table_socket(app, table, token) as ws:
        resumed = next_frame(ws, "state")
        assert _same(resumed) == _same(back) and resumed["undo"] is False  # the throw stays: nothing to undo
        ws.send_json({"type": "act", "version": resumed["version"], "action": _score(resumed)})
        state = state_at_least(ws, resumed["version"] + 1)
        ws.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})  # her own next throw
        state = state_at_least(ws, state["version"] + 1)
        assert state["undo"] is False
        assert "dice once shown stay" in _refused(ws, {"type": "undo", "version": state["version"]}, "undo-refused")
        ws.send_json({"type": "act", "version": state["version"], "action": _score(state)})
        state = state_at_least(ws, state["version"] + 1)
        assert state["status"] == "finished" and state["undo"] is False and state["undos"] == 1
        record = app.get(f"/api/tables/{table}/record").json()
        listed = [g for g in app.get("/api/games").json() if g["id"] == table]
        pid = next(s["pid"] for s in state["seats"] if s["pid"])
        player = app.get(f"/api/players/{pid}").json()
    assert record["undos"] == 1
    report = verify_record(record, published=commitment, table=table)
    assert not report.problems, report.problems
    assert listed and listed[0]["undos"] == 1
    (stats,) = player["stats"].values()
    assert stats == {"games": 0, "games_with_undo": 1}  # no measure of skill: out of the statistics


def test_undo_is_refused_at_a_table_of_two_people(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", rate=1000.0, burst=1000.0) as app:
        table = create(app, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as a, table_socket(app, table, new_token()) as b, \
                table_socket(app, table) as watcher:
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
            b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(a, 2)
            while state["current"] not in (0, 1):  # the bot may have won the start throw: let it play its turn
                state = state_at_least(a, state["version"] + 1)
            mover = {0: a, 1: b}[state["current"]]
            mover.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            played = state_at_least(a, state["version"] + 1)
            assert played["undo"] is False
            message = _refused(mover, {"type": "undo", "version": played["version"]}, "undo-refused")
            assert "one person against bots" in message
            _refused(watcher, {"type": "undo", "version": played["version"]}, "not-seated")
            now = app.get(f"/api/tables/{table}").json()["state"]
            assert now["version"] == played["version"] and now["turn"] == played["turn"]


REFUSE_DELETE = {
    "sqlite": ["CREATE TRIGGER refuse_undo BEFORE DELETE ON web_actions BEGIN SELECT RAISE(ABORT, 'no'); END"],
    "postgresql": [
        "CREATE FUNCTION refuse_undo() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no'; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER refuse_undo BEFORE DELETE ON web_actions FOR EACH ROW EXECUTE FUNCTION refuse_undo()",
    ],
}
ALLOW_DELETE = {
    "sqlite": ["DROP TRIGGER refuse_undo"],
    "postgresql": ["DROP TRIGGER refuse_undo ON web_actions", "DROP FUNCTION refuse_undo()"],
}


def _run_sql(db_url: str, statements: list[str]) -> None:
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            for sql in statements:
                conn.execute(sa.text(sql))
    finally:
        engine.dispose()


def test_an_undo_the_database_refuses_changes_nothing(db_url: str) -> None:
    """The rows' deletion and the version bump are one transaction: when the deletion fails, the version
    stays too (the same undo goes through later), and nothing is broadcast."""
    backend = sa.make_url(db_url).get_backend_name()
    with running_app(db_url, rate=1000.0, burst=1000.0, undo_window=LONG_WINDOW) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            ws.send_json({"type": "act", "version": thrown["version"], "action": _score(thrown)})
            written = state_at_least(ws, thrown["version"] + 1)
            _run_sql(db_url, REFUSE_DELETE[backend])
            _refused(ws, {"type": "undo", "version": written["version"]}, "server-error")
            now = app.get(f"/api/tables/{table}").json()["state"]
            assert now["version"] == written["version"] and _same(now) == _same(written) and now["undos"] == 0
            _run_sql(db_url, ALLOW_DELETE[backend])
            ws.send_json({"type": "undo", "version": written["version"]})
            back = state_at_least(ws, written["version"] + 1)
            assert back["version"] == written["version"] + 1 and _same({**back, "undos": 0}) == _same(thrown)
