"""How a process of a site catches up with a table moved by another (web/site.py): from the moves its
announcements carry (in any order), from the database past a gap (only what follows its own actions, or the
whole table after an undo), before a seat or a move that needs the newer version; and the chances to win come
from the lease holder only. Every version shown is the game the database holds at that version.

The "other process" here is a plain store whose sessions announce nothing (as a process whose
announcements were lost would be): the test then hands the process exactly the announcements it wants."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from tests.web.inproc import create, new_token, next_frame, receive_json, running_app, state_at_least, table_socket
from tests.web.test_site_inproc import _shown

from cubilete.engine.actions import action_to_json
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.codec import rules_from_dict
from cubilete.store.webdb import SeatRow, WebStore
from cubilete.web.hub import player_id, token_hash
from cubilete.web.room import Room
from cubilete.web.settings import Settings

RULES = "generala-sin-gana"


@pytest.fixture
def quiet(fresh_pg_url: str) -> Iterator[WebStore]:
    """A store on the site's database that announces nothing (its sessions never set ``cubilete.notify``)."""
    store = WebStore(fresh_pg_url)
    yield store
    store.close()


def stored(store: WebStore, table: str) -> Room:
    """The table as the database holds it, replayed afresh (the reference every shown state must match)."""
    row = store.load_table(table)
    assert row is not None
    return Room(row, rules_from_dict(json.loads(row.rules_json), "stored"), store, Settings(db_url=store.url))


def quiet_move(store: WebStore, table: str) -> str:
    """Commit the next legal move of the table without announcing it; the announcement it would have had."""
    room = stored(store, table)
    assert room.game is not None
    game = room.game
    seat, action = game.state.current, game.legal_actions()[0]
    game.apply(action)
    text = json.dumps(action_to_json(action))
    store.append_action(table, room.version + 1, len(game.history), seat, text)
    return f"{table} {room.version + 1} {len(game.history)} {seat} {text}"


def announce(client: Any, payloads: list[str]) -> None:
    """Hand the process these announcements, all in one turn of its event loop."""
    site = client.app.state.hub.site

    async def go() -> None:
        for payload in payloads:
            site.announced(payload)

    client.portal.call(go)


def exactly(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    frame = state_at_least(ws, version)
    assert frame["version"] == version, f"went from below {version} to {frame['version']}"
    return frame


def playing_table(client: Any, people: list[str]) -> tuple[str, list[str]]:
    """A two-person table made (and leased) through ``client``, both seats taken; its id and the tokens."""
    tokens = [new_token() for _ in people]
    hub = client.app.state.hub
    room = client.portal.call(hub.create, find_rules(RULES), [("human", None)] * len(people), None, False,
                              [(name, token_hash(t), player_id(t)) for name, t in zip(people, tokens, strict=True)])
    return str(room.id), tokens


def test_catching_up_reads_only_past_a_gap_and_applies_announced_moves_in_any_order(
        fresh_pg_url: str, quiet: WebStore) -> None:
    with running_app(fresh_pg_url) as a:
        table, _ = playing_table(a, ["Ana", "Bea"])
        site = a.app.state.hub.site  # type: ignore[attr-defined]
        with table_socket(a, table) as watcher:
            exactly(watcher, 0)
            notes = [quiet_move(quiet, table) for _ in range(3)]
            applied, read = site.applied, site.read
            announce(a, notes[2:])  # versions 1 and 2 never announced: a gap, read from the database
            frame = exactly(watcher, 3)
            assert _shown(frame) == _shown({"type": "state", **stored(quiet, table).state()})
            assert (site.applied, site.read) == (applied, read + 1)

            later = [quiet_move(quiet, table) for _ in range(2)]
            announce(a, [later[1], later[0]])  # out of order: both applied as announced, nothing read
            exactly(watcher, 4)
            frame = exactly(watcher, 5)
            assert _shown(frame) == _shown({"type": "state", **stored(quiet, table).state()})
            assert (site.applied, site.read) == (applied + 2, read + 1)

            announce(a, later)  # announced again (a process hears its own moves, too): nothing happens
            ref = stored(quiet, table)
            assert ref.game is not None
            keep = len(ref.game.history) - 2  # an undo, then a new move: not an extension of A's game
            quiet.undo_actions(table, 6, keep, 1)
            quiet_move(quiet, table)
            announce(a, [f"{table} 7"])  # the trigger's plain announcement only
            frame = exactly(watcher, 7)
            ref = stored(quiet, table)
            assert ref.game is not None and len(ref.game.history) == keep + 1
            assert _shown(frame) == _shown({"type": "state", **ref.state()})  # the whole table was reloaded
            assert site.read == read + 2


def test_a_seat_taken_through_another_process_meanwhile_is_taken_in_and_the_sit_goes_through(
        fresh_pg_url: str, quiet: WebStore) -> None:
    with running_app(fresh_pg_url) as a, running_app(fresh_pg_url) as b:
        table = create(a, [{"kind": "human"}, {"kind": "human"}], rules=RULES)
        with table_socket(b, table, new_token()) as bea:
            assert next_frame(bea, "state")["version"] == 0  # B has the table at version 0
            ana = new_token()
            quiet.sit(table, 1, SeatRow(0, "human", None, "Ana", token_hash(ana), player_id(ana)), "waiting")
            bea.send_json({"type": "sit", "seat": 1, "name": "Bea"})  # B's copy is behind: a stale write first
            while True:
                frame = receive_json(bea)
                assert frame["type"] != "error", frame
                if frame["type"] == "state" and frame["version"] >= 2:
                    break
    assert frame["version"] == 2 and frame["status"] == "playing"
    assert [s["name"] for s in frame["seats"]] == ["Ana", "Bea"]


def test_a_move_on_a_version_this_process_has_not_seen_yet_waits_for_it(fresh_pg_url: str, quiet: WebStore) -> None:
    with running_app(fresh_pg_url) as a, running_app(fresh_pg_url) as b:
        table, tokens = playing_table(a, ["Ana", "Bea"])
        start = stored(quiet, table)
        assert start.game is not None
        first = start.game.state.current  # the start throw decides who begins
        with table_socket(b, table, tokens[first]) as ana:
            assert next_frame(ana, "state")["version"] == 0
            quiet_move(quiet, table)  # her first throw, committed (as through A) but not yet heard of by B
            ref = stored(quiet, table)
            assert ref.game is not None and ref.game.state.current == first
            action = ref.game.legal_actions()[0]
            ana.send_json({"type": "act", "version": 1, "action": action_to_json(action)})  # seen through A
            while True:
                frame = receive_json(ana)
                assert frame["type"] != "error", frame
                if frame["type"] == "state" and frame["version"] >= 2:
                    break
    assert frame["version"] == 2
    assert _shown(frame) == _shown({"type": "state", **stored(quiet, table).state()})


def test_only_the_lease_holder_computes_the_chances_and_the_others_show_them(fresh_pg_url: str) -> None:
    with running_app(fresh_pg_url, win_chances=True) as a, running_app(fresh_pg_url, win_chances=True) as b:
        table = create(a, [{"kind": "human"}, {"kind": "human"}], rules="general-4-columns")  # A holds it
        with table_socket(b, table, new_token()) as ana, table_socket(b, table, new_token()) as bea:
            ana.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            bea.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(ana, 2)
            mover = ana if state["current"] == 0 else bea
            mover.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
            while "win_chance_exact" not in state or state["version"] < 3:
                frame = receive_json(ana)
                assert frame["type"] != "error", frame
                if frame["type"] == "state":
                    state = frame
            assert a.app.state.hub.chances.tables_computed > 0  # type: ignore[attr-defined]
            assert b.app.state.hub.chances.tables_computed == 0  # type: ignore[attr-defined]  # (only its warm-up)
    chances = [s["win_chance"] for s in state["seats"]]
    assert sum(chances) == pytest.approx(1.0, abs=1e-5) and all(0 < c < 1 for c in chances)
