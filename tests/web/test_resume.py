"""A restart resumes every unfinished table; one whose stored moves no longer replay is left out, not fatal."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.store.webdb import actions


def test_a_table_that_no_longer_replays_does_not_stop_the_others(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    token = new_token()
    with running_app(url) as client:
        good, bad = (create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]) for _ in range(2))
        for table in (good, bad):
            with table_socket(client, table, token) as ws:
                ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
                state = state_at_least(ws, 1)
                while state["current"] != 0:
                    state = next_frame(ws, "state")
                ws.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
                state_at_least(ws, state["version"] + 1)
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # a move the rules refuse, as if written by a broken version
        conn.execute(actions.update().where(actions.c.table_id == bad).values(action_json='{"score": "nope"}'))
    engine.dispose()
    with running_app(url) as client:
        assert client.get(f"/api/tables/{good}").json()["state"]["turn"]["throws"] == 1
        with table_socket(client, good, token) as ws:
            assert next_frame(ws, "welcome")["you"]["seat"] == 0
        broken = client.get(f"/api/tables/{bad}")
        assert broken.status_code == 500 and "cannot be loaded" in broken.json()["error"]
