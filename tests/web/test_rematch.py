"""A rematch at the web table (web/rematch.py): the same rules (house rules too), seats, timer and coach;
only the table's own players may ask; everyone connected is sent to the new table and each person
connected keeps their seat there (their token claims it); the seat of someone gone is kept for their token
for a while, and their name at that table always; two requests at once make one table."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import choose, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.store.webdb import WebStore

# one box a player: a whole game is a turn each
SHORT = (
    'base = "generala"\nname = "corta"\ntitle = "Corta"\ntie_break = "shared"\n'
    'remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble"]\n'
)
SOLVE_WAIT = 120.0  # a bot waits for its rules to be solved in a worker process (first use: compiles)
SEATS = [{"kind": "human"}, {"kind": "human"}]  # no bot: nothing waits for the house rules' solve


def _create(client: TestClient) -> str:
    made = client.post("/api/tables", json={"profile": SHORT, "seats": SEATS, "timer": 60, "coach": False})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _play_out(socks: dict[int, Any], watcher: Any) -> dict[str, Any]:
    """Ana (seat 0) and Bea (seat 1) sit and play until the game is over; the last state."""
    socks[0].send_json({"type": "sit", "seat": 0, "name": "Ana"})
    socks[1].send_json({"type": "sit", "seat": 1, "name": "Bea"})
    state = state_at_least(watcher, 2)
    while state["status"] != "finished":
        action = choose(state)
        socks[state["current"]].send_json({"type": "act", "version": state["version"], "action": action})
        state = state_at_least(watcher, state["version"] + 1)
    return state


def bearer(token: str) -> dict[str, str]:
    """The header a person's page sends with a call made for them."""
    return {"Authorization": f"Bearer {token}"}


def test_only_a_person_seated_at_the_table_may_ask_for_its_rematch(db_url: str) -> None:
    # finished ids are public (/api/games): an outsider's rematch moved everyone to a table where the
    # outsider then sat in the absent player's seat under that player's name
    with running_app(db_url) as client:
        table = _create(client)
        ana, bea, outsider = new_token(), new_token(), new_token()
        with table_socket(client, table, ana) as a, table_socket(client, table, bea) as b:
            _play_out({0: a, 1: b}, a)
            nobody = client.post(f"/api/tables/{table}/rematch", json={})
            assert nobody.status_code == 401 and "Bearer" in nobody.headers["www-authenticate"]
            assert client.post(f"/api/tables/{table}/rematch", json={},
                               headers={"Authorization": "Bearer not a token"}).status_code == 401
            stranger = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(outsider))
            assert stranger.status_code == 403 and "seated at this table" in stranger.json()["error"]
            in_url = client.post(f"/api/tables/{table}/rematch?token={ana}", json={})
            assert in_url.status_code == 401  # a token in the URL is never read
            assert client.get(f"/api/tables/{table}").json()["state"]["status"] == "finished"
            made = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana))
            assert made.status_code == 200
            assert next_frame(b, "rematch")["table"] == made.json()["id"]


def test_everyone_follows_to_the_rematch_and_keeps_their_seat(db_url: str) -> None:
    with running_app(db_url) as client:
        table = _create(client)
        ana, bea, someone = new_token(), new_token(), new_token()
        with table_socket(client, table, ana) as a, table_socket(client, table, bea) as b, \
                table_socket(client, table) as spectator:
            refused = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana))
            assert refused.status_code == 409  # not before the game is over
            _play_out({0: a, 1: b}, spectator)
            made = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana))
            assert made.status_code == 200, made.text
            new = made.json()["id"]
            assert new != table
            for sock in (a, b, spectator):
                assert next_frame(sock, "rematch") == {"type": "rematch", "table": new}
            again = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(bea))
            assert again.json()["id"] == new  # Bea's click (or her page's) gives the same table
        info = client.get(f"/api/tables/{new}").json()
        old = client.get(f"/api/tables/{table}").json()
        assert info["table"]["rules"]["name"] == "corta" and info["table"]["rules"]["preset"] is None
        assert info["table"]["rules"] == old["table"]["rules"]
        assert (info["table"]["timer"], info["table"]["coach"]) == (60, False)
        seats = [(s["kind"], s["level"]) for s in info["table"]["seats"]]
        assert seats == [("human", None), ("human", None)]
        assert [s["name"] for s in info["state"]["seats"]] == ["Ana", "Bea"]
        assert info["state"]["status"] == "playing"  # everyone is seated: the game starts
        assert info["table"]["commitment"] != old["table"]["commitment"]  # new dice
        with table_socket(client, new, bea) as b2, table_socket(client, new, ana) as a2, \
                table_socket(client, new, someone) as other:
            assert next_frame(b2, "welcome")["you"]["seat"] == 1
            assert next_frame(a2, "welcome")["you"]["seat"] == 0
            assert next_frame(other, "welcome")["you"]["seat"] is None


def test_the_seat_of_someone_gone_is_kept_for_them(db_url: str) -> None:
    """Bea closed her page before Ana asked: the new table keeps her seat for her token (an outsider cannot
    sit there, nor take her name), and her page, coming back, is told which seat is hers."""
    with running_app(db_url) as client:
        table = _create(client)
        ana, bea, outsider = new_token(), new_token(), new_token()
        with table_socket(client, table, ana) as a:
            with table_socket(client, table, bea) as b:
                _play_out({0: a, 1: b}, a)
            made = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana))
            assert made.status_code == 200
            new = made.json()["id"]
            assert next_frame(a, "rematch")["table"] == new
        info = client.get(f"/api/tables/{new}").json()
        assert [s["name"] for s in info["state"]["seats"]] == ["Ana", None]
        assert info["state"]["seats"][1]["held"] == "Bea" and info["state"]["status"] == "waiting"
        assert client.get(f"/api/tables/{table}").json()["state"]["rematch"] == new  # a reload finds it
        with table_socket(client, new, outsider) as o:
            assert next_frame(o, "welcome")["you"]["held"] is None
            o.send_json({"type": "sit", "seat": 1, "name": "Carla"})
            error = next_frame(o, "error")
            assert error["code"] == "seat-held" and "Bea" in error["message"]
        with table_socket(client, new, bea) as b2:
            welcome = next_frame(b2, "welcome")
            assert welcome["you"]["seat"] is None and welcome["you"]["held"] == {"seat": 1, "name": "Bea"}
            b2.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(b2, 1)
            assert state["status"] == "playing" and state["seats"][1]["name"] == "Bea"


def test_once_the_hold_ends_anyone_may_sit_but_not_under_the_absent_players_name(db_url: str) -> None:
    with running_app(db_url, rematch_hold=0.0) as client:
        table = _create(client)
        ana, bea, outsider = new_token(), new_token(), new_token()
        with table_socket(client, table, ana) as a:
            with table_socket(client, table, bea) as b:
                _play_out({0: a, 1: b}, a)
            new = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana)).json()["id"]
        with table_socket(client, new, outsider) as o:
            o.send_json({"type": "sit", "seat": 1, "name": "BEA"})
            assert next_frame(o, "error")["code"] == "name-taken"
            o.send_json({"type": "sit", "seat": 1, "name": "Carla"})
            state = state_at_least(o, 1)
            assert state["seats"][1]["name"] == "Carla" and state["status"] == "playing"


def test_two_requests_at_once_make_one_rematch(db_url: str) -> None:
    """Ana's click and Bea's at the same moment (two threads): one new table, both told the same."""
    with running_app(db_url) as client:
        table = _create(client)
        ana, bea = new_token(), new_token()
        with table_socket(client, table, ana) as a, table_socket(client, table, bea) as b:
            _play_out({0: a, 1: b}, a)
            barrier = threading.Barrier(2)
            answers: list[Any] = [None, None]

            def ask(i: int, token: str) -> None:
                barrier.wait()
                answers[i] = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(token))

            threads = [threading.Thread(target=ask, args=(i, t)) for i, t in enumerate((ana, bea))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert [r.status_code for r in answers] == [200, 200]
            assert answers[0].json()["id"] == answers[1].json()["id"]
        assert len(client.get("/api/games").json()) == 1  # the finished one
    store = WebStore(db_url)
    try:
        assert len(store.unfinished_ids()) == 1  # one rematch table, not two
    finally:
        store.close()


@pytest.mark.slow  # two bots play a whole Generala (the bots wait for its solve)
def test_a_table_of_bots_has_nobody_who_may_ask_for_its_rematch(db_url: str) -> None:
    with running_app(db_url) as client:
        seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
        table = client.post("/api/tables", json={"rules": "generala-sin-gana", "seats": seats}).json()["id"]
        with table_socket(client, table) as watcher:
            state = next_frame(watcher, "state")
            while state["status"] != "finished":
                state = next_frame(watcher, "state", SOLVE_WAIT)
        refused = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(new_token()))
        assert refused.status_code == 403


def test_no_rematch_of_an_unknown_table(db_url: str) -> None:
    with running_app(db_url) as client:
        assert client.post("/api/tables/nope1234/rematch", json={}).status_code == 404
