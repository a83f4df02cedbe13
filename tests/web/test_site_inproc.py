"""Two apps on one PostgreSQL database in the test process (as two ``serve`` processes would be): a person
connected to one plays against a bot driven by the other; an undo made through one reaches the other,
which replays the shortened game and lets its bot play on; both show the same table at every version."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

import pytest
from tests.web.inproc import choose, create, new_token, next_frame, running_app, state_at_least, table_socket
from tests.web.test_lobby import lobby_socket
from tests.web.test_rematch import SEATS, SHORT, bearer
from tests.web.test_undo import _human_turn

from cubilete.engine.rules.profile import rules_from_toml
from cubilete.store.webdb import WebStore

GREEDY = {"kind": "bot", "level": "greedy"}


def _shown(state: dict[str, Any]) -> dict[str, Any]:
    """What both processes must agree on (whose sockets are connected is known per process only, and so is the
    solving queue: the "being solved" notice shows only where the table was created, docs/WEB.md)."""
    kept = {k: v for k, v in state.items() if k not in ("type", "deadline", "win_chance_exact", "solving")}
    kept["seats"] = [{k: v for k, v in s.items() if k not in ("connected", "win_chance")} for s in state["seats"]]
    return kept


def _state_at(ws: Any, version: int) -> dict[str, Any]:
    """The watcher's state frame of exactly ``version`` (the same version must show the same game in both
    processes; a frame of a later version first means the watcher skipped it: a failure)."""
    frame = state_at_least(ws, version)
    assert frame["version"] == version, f"the watcher went from below {version} to {frame['version']}"
    return frame


def test_undo_through_one_process_is_replayed_by_the_bots_process(fresh_pg_url: str) -> None:
    """Ana (through B) writes a box; A drives the bot, which waits ``undo_window`` before throwing. Her undo
    through B reaches A, which replays the shortened game: both show the same table at every version, and
    the bot plays on from her new box."""
    with running_app(fresh_pg_url, undo_window=600.0) as a, running_app(fresh_pg_url, undo_window=600.0) as b:
        table = create(a, [{"kind": "human"}, GREEDY], rules="generala-sin-gana")  # A leases it: A's bot
        assert table in a.app.state.hub.site.owned  # type: ignore[attr-defined]
        with table_socket(b, table, new_token()) as person, table_socket(a, table) as watcher:
            next_frame(person, "welcome")
            next_frame(watcher, "welcome")
            person.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state = _human_turn(person, 1)
            person.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            thrown = state_at_least(person, state["version"] + 1)
            slots = [s["slot"] for s in thrown["sheet"] if s["state"] in ("usable", "scratch-only")]
            person.send_json({"type": "act", "version": thrown["version"], "action": {"score": slots[0]}})
            written = state_at_least(person, thrown["version"] + 1)
            assert written["undo"] is True and written["current"] == 1  # A's bot waits
            seen = _state_at(watcher, written["version"])
            assert _shown(seen) == _shown(written)

            person.send_json({"type": "undo", "version": written["version"]})  # through B
            undone = state_at_least(person, written["version"] + 1)
            assert undone["current"] == 0 and undone["turn"] == thrown["turn"] and undone["undos"] == 1
            seen = _state_at(watcher, undone["version"])  # A replayed the shortened game
            assert _shown(seen) == _shown(undone)

            person.send_json({"type": "act", "version": undone["version"], "action": {"score": slots[1]}})
            after = state_at_least(person, undone["version"] + 1)
            seen = _state_at(watcher, after["version"])
            assert _shown(seen) == _shown(after) and after["seats"][0]["card"] != written["seats"][0]["card"]
    store = WebStore(fresh_pg_url)
    try:
        row = store.load_table(table)
        assert row is not None and row.version == after["version"] and row.undos == 1
    finally:
        store.close()


TWO_ROUNDS = rules_from_toml('base = "generala-sin-gana"\nrounds = 2\n', "two-rounds")


def test_the_turn_timer_runs_in_the_lease_holder_and_moves_on_when_it_stops(fresh_pg_url: str) -> None:
    """Ana sits through B and never moves. A made the table, so A's timer plays her first turn; A then
    stops (its leases go), B takes the table over and B's timer plays her second turn."""
    with contextlib.ExitStack() as stack_a, running_app(fresh_pg_url, site_poll=0.2) as b:
        a = stack_a.enter_context(running_app(fresh_pg_url, site_poll=0.2))
        hub_a = a.app.state.hub  # type: ignore[attr-defined]
        room = a.portal.call(hub_a.create, TWO_ROUNDS, [("human", None), ("bot", "greedy")], 3, False)  # type: ignore[union-attr]
        table = str(room.id)
        assert table in hub_a.site.owned
        with table_socket(b, table, new_token()) as ana:
            next_frame(ana, "welcome")
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state = state_at_least(ana, 1)
            clocks = []
            while not (state["round"] == 2 and state["current"] == 0):
                if state["current"] == 0 and state["status"] == "playing":
                    clocks.append(state["deadline"])
                state = next_frame(ana, "state", timeout=30)
            assert clocks and all(isinstance(c, int | float) for c in clocks)  # B shows the clock A runs
            assert sum(v is not None for v in state["seats"][0]["card"]) == 1  # A's stand-in wrote her box
            version = state["version"]
            stack_a.close()  # A stops cleanly: its lease goes, B takes the table over
            store = WebStore(fresh_pg_url)
            try:
                row = store.load_table(table)
                assert row is not None and row.version == version, "A played her turn before it stopped"
            finally:
                store.close()
            while state["status"] != "finished":
                state = next_frame(ana, "state", timeout=30)
    assert sum(v is not None for v in state["seats"][0]["card"]) == 2  # B's stand-in wrote her second box
    assert state["result"] is not None


def test_a_takeover_runs_on_the_turn_clock_it_showed(fresh_pg_url: str) -> None:
    """Ana (through B) is thinking on A's table; A stops. B takes the table over and plays her turn when the
    clock it has been showing her runs out, not after a whole turn again."""
    with contextlib.ExitStack() as stack_a, running_app(fresh_pg_url, site_poll=0.2) as b:
        a = stack_a.enter_context(running_app(fresh_pg_url, site_poll=0.2))
        hub_a, hub_b = a.app.state.hub, b.app.state.hub  # type: ignore[attr-defined]
        room = a.portal.call(hub_a.create, TWO_ROUNDS, [("human", None), ("bot", "greedy")], 600, False)  # type: ignore[union-attr]
        table = str(room.id)
        with table_socket(b, table, new_token()) as ana:
            next_frame(ana, "welcome")
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state = state_at_least(ana, 1)
            while state["current"] != 0:  # the bot may start: its turn first
                state = next_frame(ana, "state", timeout=30)
            assert state["status"] == "playing" and 0 < state["deadline"] <= 600
            room_b = b.portal.call(hub_b.room, table)
            shown = room_b.deadline  # B shows the clock of the turn A runs
            assert shown is not None and not room_b.drives
            stack_a.close()  # A stops: its lease goes
            for _ in range(300):
                if table in hub_b.site.owned and room_b.drives:
                    break
                b.portal.call(asyncio.sleep, 0.1)
            assert room_b.drives, "B took the table over"
            assert room_b.deadline == shown  # the same deadline: not refilled
            assert room_b._timer_task is not None and not room_b._timer_task.done()  # and B's timer runs to it


@pytest.mark.slow
def test_a_process_that_loses_its_site_connections_gets_them_back_and_misses_nothing(fresh_pg_url: str) -> None:
    """The database ends A's lease and listening sessions mid-game (as a network cut or a server restart
    would): A's leases are gone, so the bot table is driven again by whoever takes it next, and A listens
    again and shows every move to its spectator, up to the end."""
    with running_app(fresh_pg_url, site_poll=0.2, bot_delay=0.05) as a, running_app(fresh_pg_url, site_poll=0.2) as b:
        table = create(a, [GREEDY, GREEDY], rules="generala-sin-gana")
        site_a = a.app.state.hub.site  # type: ignore[attr-defined]
        with table_socket(a, table) as watcher:
            next_frame(watcher, "welcome")
            state = state_at_least(watcher, 10, timeout=30)
            pids = [site_a.lease.info.backend_pid, site_a._listener.info.backend_pid]
            store = WebStore(fresh_pg_url)
            try:
                with store.engine.begin() as conn:
                    ended = conn.exec_driver_sql(
                        f"SELECT count(*) FROM pg_stat_activity WHERE pid IN ({pids[0]}, {pids[1]}) "
                        "AND pg_terminate_backend(pid)").scalar()
                assert ended == 2
            finally:
                store.close()
            versions = [state["version"]]
            while state["status"] != "finished":
                state = next_frame(watcher, "state", timeout=30)
                versions.append(state["version"])
        assert versions == sorted(versions) and state["result"] is not None
        got = b.get(f"/api/tables/{table}/record")
        assert got.status_code == 200 and len(got.json()["actions"]) == state["version"]
        # A connects again (its retry may come after the game's end, which the other process drove)
        deadline = time.monotonic() + 120
        while (lease := site_a.lease) is None or lease.closed or lease.info.backend_pid in pids:
            assert time.monotonic() < deadline, "A never connected its lease again"
            time.sleep(0.1)


def test_a_rematch_asked_through_both_processes_at_once_is_one_table_and_everyone_is_told(
        fresh_pg_url: str) -> None:
    """Ana plays through A, Bea through B; both ask for the rematch at the same moment, each through her own
    process: one new table (the database decides), both get it, and each process tells its own players."""
    with running_app(fresh_pg_url, site_poll=0.2) as a, running_app(fresh_pg_url, site_poll=0.2) as b:
        made = a.post("/api/tables", json={"profile": SHORT, "seats": SEATS, "timer": 60, "coach": False})
        table = made.json()["id"]
        ana, bea = new_token(), new_token()
        with table_socket(a, table, ana) as sa_, table_socket(b, table, bea) as sb:
            next_frame(sa_, "welcome")
            next_frame(sb, "welcome")
            sa_.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(sa_, 1)
            sb.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(sa_, 2)
            while state["status"] != "finished":
                mover = {0: sa_, 1: sb}[state["current"]]
                mover.send_json({"type": "act", "version": state["version"], "action": choose(state)})
                state = state_at_least(sa_, state["version"] + 1)
            deadline = time.monotonic() + 60  # A knows Bea is on a page through B (a presence round)
            while not a.get(f"/api/tables/{table}").json()["state"]["seats"][1]["connected"]:
                assert time.monotonic() < deadline, "A never saw Bea's connection through B"
                time.sleep(0.05)
            barrier = threading.Barrier(2)
            answers: list[Any] = [None, None]

            def ask(i: int, app: Any, token: str) -> None:
                barrier.wait()
                answers[i] = app.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(token))

            threads = [threading.Thread(target=ask, args=(0, a, ana)), threading.Thread(target=ask, args=(1, b, bea))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
            new = answers[0].json()["id"]
            assert answers[1].json()["id"] == new
            assert next_frame(sa_, "rematch")["table"] == new
            assert next_frame(sb, "rematch")["table"] == new
        for app in (a, b):
            info = app.get(f"/api/tables/{new}").json()
            assert [s["name"] for s in info["state"]["seats"]] == ["Ana", "Bea"]  # both were on a page
    store = WebStore(fresh_pg_url)
    try:
        assert store.unfinished_ids() == [new]  # one rematch table, not two
        assert store.rematch_of(table) == new
    finally:
        store.close()



def test_people_seeking_through_two_processes_are_matched(fresh_pg_url: str) -> None:
    """Ana seeks through A, Bea through B: one site, one list of seekers, one table, both told."""
    with running_app(fresh_pg_url, site_poll=0.2, lobby_refresh=0.05) as a, \
            running_app(fresh_pg_url, site_poll=0.2, lobby_refresh=0.05) as b:
        with lobby_socket(a, new_token()) as ana, lobby_socket(b, new_token()) as bea:
            ana.send_json({"type": "seek", "rules": "generala", "players": 2, "name": "Ana"})
            next_frame(ana, "seeking")
            bea.send_json({"type": "seek", "rules": "generala", "players": 2, "name": "Bea"})
            matched_bea = next_frame(bea, "matched")  # B matched them: Bea at once, Ana at A's next round
            matched_ana = next_frame(ana, "matched")
        assert matched_ana["table"] == matched_bea["table"] and (matched_ana["seat"], matched_bea["seat"]) == (0, 1)
        for app in (a, b):
            info = app.get(f"/api/tables/{matched_ana['table']}").json()
            assert [s["name"] for s in info["state"]["seats"]] == ["Ana", "Bea"]


def test_the_daily_challenge_and_the_ratings_are_the_same_on_both_processes(fresh_pg_url: str) -> None:
    """Today's commitments are made once for the site (whichever process is asked first); a ranked game
    finished through one process is rated once and both processes show the same ratings."""
    with running_app(fresh_pg_url) as a, running_app(fresh_pg_url) as b:
        assert a.get("/api/daily").json() == b.get("/api/daily").json()
        table = create(a, [{"kind": "human"}, {"kind": "human"}], rules="generala-sin-gana", coach=False)
        with table_socket(a, table, new_token()) as ana, table_socket(b, table, new_token()) as bea:
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(ana, 1)
            bea.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(ana, 2)
            while state["status"] != "finished":
                (ana, bea)[state["current"]].send_json({"type": "act", "version": state["version"],
                                                        "action": choose(state)})
                state = state_at_least(ana, state["version"] + 1)
        # rated in a worker thread of the process that took the last move; a bound for a hang only: on a cold
        # fresh clone the review's compiled query may first be compiled there (over 120 s once under load)
        deadline = time.monotonic() + 600
        while len(rated := a.get("/api/ratings?preset=generala-sin-gana").json()) < 2:
            assert time.monotonic() < deadline, "never rated"
            time.sleep(0.05)
        assert b.get("/api/ratings?preset=generala-sin-gana").json() == rated
        assert all(r["games"] == 1 for r in rated)
