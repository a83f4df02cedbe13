"""Undo at a table of one person against bots: accepted there (the bots' moves after the person's decision go
too), refused at a table of two people, with nothing to undo, on a stale version and once the game is over;
the undone actions leave the database in the same transaction (a restart resumes the undone state) and the
finished game's record still verifies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.web.inproc import choose, create, new_token, next_frame, running_app, state_at_least, table_socket

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


def test_undo_against_bots_restart_and_verify(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    token = new_token()
    with running_app(url, rate=1000.0, burst=1000.0) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        commitment = app.get(f"/api/tables/{table}").json()["table"]["commitment"]
        with table_socket(app, table, token) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            assert start["undo"] is False
            assert "nothing to undo" in _refused(ws, {"type": "undo", "version": start["version"]}, "undo-refused")

            # a throw taken back: the state is the one before it, and the throw again gives the same dice
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            assert thrown["undo"] is True and thrown["turn"]["throws"] == 1
            _refused(ws, {"type": "undo", "version": start["version"]}, "stale")
            ws.send_json({"type": "undo", "version": thrown["version"]})
            back = state_at_least(ws, thrown["version"] + 1)
            assert back["version"] == thrown["version"] + 1
            assert _same(back) == _same(start)
            ws.send_json({"type": "act", "version": back["version"], "action": {"roll": []}})
            again = state_at_least(ws, back["version"] + 1)
            assert again["turn"]["dice"] == thrown["turn"]["dice"]

            # a score, then the bot's whole turn: undo takes back the bot's moves and the score
            before_score = again
            ws.send_json({"type": "act", "version": again["version"], "action": choose(again, throws_wanted=1)})
            mine = _human_turn(ws, again["version"] + 2)
            assert mine["seats"][1]["card"] != before_score["seats"][1]["card"]  # the bot has written something
            ws.send_json({"type": "undo", "version": mine["version"]})
            undone = state_at_least(ws, mine["version"] + 1)
            assert _same(undone) == _same(before_score)
        stored = WebStore(url).load_table(table)
        assert stored is not None and stored.version == undone["version"]
        mine_stored = [json.loads(text) for seat, text in stored.actions if seat == 0]
        assert mine_stored == [{"roll": []}]  # the throw kept; the one taken back and the score are gone

    # a restart replays the stored actions: the undone state, not the one before the undo
    with running_app(url, rate=1000.0, burst=1000.0) as app, table_socket(app, table, token) as ws:
        resumed = next_frame(ws, "state")
        assert resumed["version"] == undone["version"] and _same(resumed) == _same(undone)
        assert resumed["undo"] is True
        state, undone_late = resumed, False
        while state["status"] != "finished":  # play to the end; an undo on the way
            ws.send_json({"type": "act", "version": state["version"], "action": choose(state, throws_wanted=1)})
            state = _human_turn(ws, state["version"] + 1)
            if not undone_late and state["round"] == 5 and state["undo"]:
                undone_late = True
                ws.send_json({"type": "undo", "version": state["version"]})
                state = state_at_least(ws, state["version"] + 1)
        assert undone_late and state["undo"] is False
        assert _refused(ws, {"type": "undo", "version": state["version"]}, "game-over")
        record = app.get(f"/api/tables/{table}/record").json()
    report = verify_record(record, published=commitment, table=table)
    assert not report.problems, report.problems
    assert report.throws == len(record["throws"]) > 0


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
    with running_app(db_url, rate=1000.0, burst=1000.0) as app:
        table = create(app, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        with table_socket(app, table, new_token()) as ws:
            ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            start = _human_turn(ws, 1)
            ws.send_json({"type": "act", "version": start["version"], "action": {"roll": []}})
            thrown = state_at_least(ws, start["version"] + 1)
            _run_sql(db_url, REFUSE_DELETE[backend])
            _refused(ws, {"type": "undo", "version": thrown["version"]}, "server-error")
            now = app.get(f"/api/tables/{table}").json()["state"]
            assert now["version"] == thrown["version"] and _same(now) == _same(thrown)
            _run_sql(db_url, ALLOW_DELETE[backend])
            ws.send_json({"type": "undo", "version": thrown["version"]})
            back = state_at_least(ws, thrown["version"] + 1)
            assert back["version"] == thrown["version"] + 1 and _same(back) == _same(start)
