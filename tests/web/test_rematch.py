"""A rematch at the web table: the same rules (house rules too), seats, timer and coach; everyone connected
is sent to the new table and each person connected keeps their seat there (their token claims it)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import choose, new_token, next_frame, running_app, state_at_least, table_socket

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


def test_the_seat_of_someone_gone_stays_open(db_url: str) -> None:
    with running_app(db_url) as client:
        table = _create(client)
        ana, bea = new_token(), new_token()
        with table_socket(client, table, ana) as a:
            with table_socket(client, table, bea) as b:
                _play_out({0: a, 1: b}, a)
            # Bea closed her page; Ana asks for the rematch
            made = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(ana))
            assert made.status_code == 200
            assert next_frame(a, "rematch")["table"] == made.json()["id"]
        info = client.get(f"/api/tables/{made.json()['id']}").json()
        assert [s["name"] for s in info["state"]["seats"]] == ["Ana", None]
        assert info["state"]["status"] == "waiting"
        with table_socket(client, made.json()["id"], bea) as b2:
            assert next_frame(b2, "welcome")["you"]["seat"] is None  # she sits again by hand, as at any table


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
