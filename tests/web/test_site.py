"""One site over several processes on one PostgreSQL (docs/WEB.md, "Several processes"): two real
``cubilete serve`` processes on one database are one site. A player on each plays a whole game and sees
the other's moves; a bot table made through one plays on while watched through the other; SIGKILL of the
process holding a table hands it to the survivor, where its players find their seats and every
acknowledged move; and two writers on one table never both commit (the compare-and-set, at store level).
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.web.pg import free_port
from tests.web.servers import START_TIMEOUT, LiveServer, ServerFactory
from tests.web.test_crash import FRAME_TIMEOUT, Match
from tests.web.test_crash import essential as _essential
from websockets.sync.client import connect

from cubilete.cli import main
from cubilete.engine.errors import StaleWrite, StoreError
from cubilete.engine.fairness import verify_record
from cubilete.store.webdb import SeatRow, TableRow, WebStore

SITE = {"CUBILETE_SITE_POLL": "0.2"}  # lease rounds every 0.2 s: a dead process's tables move on quickly


def essential(state: dict[str, Any]) -> dict[str, Any]:
    """What a crash must not change, without the chances to win (each process computes them in its own time
    and sends them in a second frame of the version)."""
    out = _essential(state)
    out.pop("win_chance_exact", None)
    out["seats"] = [{k: v for k, v in seat.items() if k != "win_chance"} for seat in out["seats"]]
    return out


def _pair(factory: ServerFactory, db_url: str, bot_delay: float = 0.0) -> tuple[LiveServer, LiveServer]:
    return factory(db_url, bot_delay=bot_delay, env=SITE), factory(db_url, bot_delay=bot_delay, env=SITE)


def _table_row(table_id: str) -> TableRow:
    seats = (SeatRow(0, "human", None, "A", "h0", "p0"), SeatRow(1, "human", None, "B", "h1", "p1"))
    return TableRow(table_id, 1.0, "generala", "{}", "seed", "commit", None, False, "playing", 0, None, seats)


def _race(stores: tuple[WebStore, WebStore], version: int) -> list[str]:
    """Both stores commit action ``version`` of table race2345 at the same moment; what each got."""
    barrier = threading.Barrier(2)
    outcome = ["", ""]

    def write(who: int) -> None:
        barrier.wait()
        try:
            stores[who].append_action("race2345", version, version, who, json.dumps({"roll": [who]}))
            outcome[who] = "committed"
        except StaleWrite:
            outcome[who] = "stale"
        except StoreError as exc:
            outcome[who] = f"refused otherwise: {exc}"

    threads = [threading.Thread(target=write, args=(who,)) for who in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(FRAME_TIMEOUT)
    return outcome


def test_two_writers_on_one_table_never_both_commit(fresh_pg_url: str) -> None:
    """Two stores (as two processes have) race to commit the next action of the same table, again and
    again: exactly one commit per version; the other is refused as stale and leaves nothing behind."""
    first, second = WebStore(fresh_pg_url), WebStore(fresh_pg_url)
    try:
        first.migrate()
        first.create_table(_table_row("race2345"))
        winners = []
        for version in range(1, 21):
            outcome = _race((first, second), version)
            assert sorted(outcome) == ["committed", "stale"], (version, outcome)
            winners.append(outcome.index("committed"))
        row = second.load_table("race2345")
        assert row is not None and row.version == 20
        # the stored actions are the winners' and only theirs, one per version
        assert [seat for seat, _ in row.actions] == winners
        assert [json.loads(text) for _, text in row.actions] == [{"roll": [w]} for w in winners]
    finally:
        first.close()
        second.close()


def test_a_player_on_each_process_plays_a_whole_game(fresh_pg_url: str, server_factory: ServerFactory) -> None:
    a, b = _pair(server_factory, fresh_pg_url)
    match = Match(a)  # the table is made through A; seat 1's browser talks to B
    match.players[1].server = b
    match.sit()  # each sits through its own process and sees the other sit
    record = match.finish()  # every move reaches the other process's player (the steps wait for both)
    assert len(record["actions"]) == len(match.acked) > 40
    # B serves the same finished table and record
    answer = httpx.get(f"{b.url}/api/tables/{match.table}/record", timeout=FRAME_TIMEOUT)
    assert answer.status_code == 200 and answer.json()["actions"] == record["actions"]


def _watch(server: LiveServer, table: str, until: Any, limit: float = 60.0) -> list[dict[str, Any]]:
    """States seen by a spectator of ``table`` through ``server`` until ``until(state)`` holds."""
    states: list[dict[str, Any]] = []
    url = f"{server.ws_url}/ws/{table}?lang=en"
    with connect(url, open_timeout=FRAME_TIMEOUT, close_timeout=2, proxy=None) as ws:
        ws.send(json.dumps({"type": "hello"}))
        end = time.monotonic() + limit
        while time.monotonic() < end:
            frame = json.loads(ws.recv(timeout=FRAME_TIMEOUT))
            if frame["type"] == "state":
                states.append(frame)
                if until(frame):
                    return states
    raise AssertionError(f"not reached in {limit} s; last state version {states[-1]['version'] if states else None}")


def _bot_table(server: LiveServer) -> str:
    body = {"rules": "generala-sin-gana", "seats": [{"kind": "bot", "level": "greedy"}] * 2, "timer": None,
            "coach": False}
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=FRAME_TIMEOUT)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _check_record(server: LiveServer, table: str, last: dict[str, Any]) -> None:
    answer = httpx.get(f"{server.url}/api/tables/{table}/record", timeout=FRAME_TIMEOUT)
    assert answer.status_code == 200, answer.text
    record = answer.json()
    report = verify_record(record)
    assert report.ok, report.problems
    # one version per action after the start: no action was committed twice nor lost
    assert len(record["actions"]) == last["version"]
    assert record["seed"] == last["seed"]


@pytest.mark.slow
def test_a_bot_table_made_through_one_process_plays_on_watched_through_the_other(
    fresh_pg_url: str, server_factory: ServerFactory
) -> None:
    a, b = _pair(server_factory, fresh_pg_url, bot_delay=0.02)
    table = _bot_table(a)
    states = _watch(b, table, lambda s: s["status"] == "finished")
    versions = [s["version"] for s in states]
    assert versions == sorted(versions) and versions[-1] > 40
    assert states[-1]["result"] is not None
    _check_record(b, table, states[-1])


@pytest.mark.slow
def test_the_survivor_takes_over_the_tables_of_a_killed_process(
    fresh_pg_url: str, server_factory: ServerFactory
) -> None:
    """A plays a bot table (it made it, so it holds the lease) while B only shows it; A is SIGKILLed mid-game:
    B takes the lease and the bots play on to the end, with no move lost or played twice."""
    a, b = _pair(server_factory, fresh_pg_url, bot_delay=0.05)
    table = _bot_table(a)
    seen = _watch(b, table, lambda s: s["version"] >= 10)[-1]
    a.kill()
    states = _watch(b, table, lambda s: s["status"] == "finished")
    assert states[0]["version"] >= seen["version"]
    _check_record(b, table, states[-1])


@pytest.mark.slow
def test_players_of_a_killed_process_reconnect_to_the_survivor_with_every_move(
    fresh_pg_url: str, server_factory: ServerFactory
) -> None:
    a, b = _pair(server_factory, fresh_pg_url)
    match = Match(a)
    match.players[1].server = b
    match.sit()
    for _ in range(15):
        match.step()
    acknowledged = essential(match.state)

    a.kill()  # seat 0's process and the table's lease holder
    match.players[0].close()
    match.players[0].server = b
    match.players[0].connect()
    assert match.players[0].seat == 0, "the token did not get its seat back through the other process"
    for p in match.players:
        assert essential(p.state) == acknowledged
    match.server = b  # the record is asked of the survivor
    match.finish()


def test_workers_on_sqlite_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["serve", "--workers", "2", "--port", str(free_port()), "--db", f"sqlite:///{tmp_path / 'w.sqlite3'}"])
    out, err = capsys.readouterr()
    assert code != 0 and out == "" and err.count("\n") == 1, (code, out, err)
    assert "--workers 2 needs PostgreSQL" in err and "Traceback" not in err


@pytest.mark.parametrize("text", ["0", "65", "two"])
def test_a_bad_number_of_workers_is_refused(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", text]) == 2
    assert f"'{text}' is not a number of workers" in capsys.readouterr().err


class Workers(LiveServer):
    """``cubilete serve --workers 2``: a supervising parent and two serving children."""

    def argv(self) -> list[str]:
        return [*super().argv(), "--workers", "2"]

    def children(self) -> list[int]:
        assert self.proc is not None
        text = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        return sorted(int(pid) for pid in text.split())


def _two_children(server: Workers, gone: frozenset[int] = frozenset()) -> list[int]:
    end = time.monotonic() + START_TIMEOUT
    while time.monotonic() < end:
        found = server.children()
        if len(found) == 2 and not set(found) & gone:
            return found
        time.sleep(0.1)
    raise AssertionError(f"workers: {server.children()}\n{server.tail()}")


@pytest.mark.slow
def test_serve_workers_is_one_site_and_replaces_a_killed_worker(fresh_pg_url: str, tmp_path: Path) -> None:
    server = Workers(fresh_pg_url, free_port(), tmp_path / "workers.log", 0.0, SITE)
    try:
        server.start()
        first = _two_children(server)
        match = Match(server)  # each connection lands on either worker: they are one site
        match.sit()
        for _ in range(12):
            match.step()
        acknowledged = essential(match.state)
        os.kill(first[0], signal.SIGKILL)  # one worker dies: the parent starts another one
        replaced = _two_children(server, frozenset({first[0]}))
        assert first[1] in replaced
        for p in match.players:  # both come back (through whichever worker) with their seats and every move
            p.close()
            p.connect()
        for seat, p in enumerate(match.players):
            assert p.seat == seat and essential(p.state) == acknowledged
        match.finish()
    finally:
        server.stop()
    assert "starting another" in server.log()
