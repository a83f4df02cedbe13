"""Clubs (web/clubs.py) on SQLite and PostgreSQL: an organiser makes a club with its house rules and gets a
secret link (only its hash is stored); people join by link; only members (or the organiser) make the club's
games and tournaments; the standings count the members' finished club games; the organiser renames, sets
the house rules and removes members with the key, anyone else is refused; bad input is refused specifically."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.web.inproc import choose, new_token, next_frame, running_app, state_at_least, table_socket

HOUSE = 'base = "generala"\nname = "la-del-club"\n[box.generala]\nvalue = 80\n'


def bearer(token: str, key: str | None = None) -> dict[str, str]:
    out = {"Authorization": f"Bearer {token}"}
    if key is not None:
        out["X-Club-Key"] = key
    return out


def _play(client: TestClient, table: str, tokens: list[str], names: list[str]) -> dict[str, Any]:
    """Two people sit and play the whole game; its last state."""
    with table_socket(client, table, tokens[0]) as a, table_socket(client, table, tokens[1]) as b:
        next_frame(a, "welcome")
        next_frame(b, "welcome")
        a.send_json({"type": "sit", "seat": 0, "name": names[0]})
        state_at_least(a, 1)
        b.send_json({"type": "sit", "seat": 1, "name": names[1]})
        state = state_at_least(a, 2)
        while state["status"] != "finished":
            (a, b)[state["current"]].send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = state_at_least(a, state["version"] + 1)
        return state


def test_a_club_with_house_rules_members_games_and_standings(db_url: str) -> None:
    org, ana, bea, eve = new_token(), new_token(), new_token(), new_token()
    with running_app(db_url) as client:
        made = client.post("/api/clubs", json={"name": "Club del Bar", "profiles": [{"name": "la del club",
                                                                                     "toml": HOUSE}]},
                           headers=bearer(org))
        assert made.status_code == 201, made.text
        club, key = made.json()["id"], made.json()["key"]
        assert made.json()["manage_url"] == f"/clubs/{club}#key={key}"
        stored = client.app.state.hub.store  # type: ignore[attr-defined]
        with stored.engine.connect() as conn:  # the key itself is nowhere in the database
            row = conn.execute(sa.text("SELECT key_hash FROM web_clubs WHERE id = :id"), {"id": club}).scalar_one()
        assert key not in row
        for token, name in ((ana, "Ana"), (bea, "Bea")):
            assert client.post(f"/api/clubs/{club}/join", json={"name": name}, headers=bearer(token)).status_code == 201
        again = client.post(f"/api/clubs/{club}/join", json={"name": "Ana 2"}, headers=bearer(ana))
        assert again.status_code == 409
        look = client.post(f"/api/clubs/{club}/join", json={"name": "ANA"}, headers=bearer(eve))
        assert look.status_code == 422
        view = client.get(f"/api/clubs/{club}", headers=bearer(ana)).json()
        assert view["member"] and not view["organiser"] and [m["name"] for m in view["members"]] == ["Ana", "Bea"]
        assert view["profiles"][0]["name"] == "la del club" and view["profiles"][0]["toml"] == HOUSE
        assert client.get(f"/api/clubs/{club}", headers=bearer(org, key)).json()["organiser"] is True
        # only members make the club's games
        body = {"profile": HOUSE, "seats": [{"kind": "human"}, {"kind": "human"}], "coach": False, "club": club}
        assert client.post("/api/tables", json=body, headers=bearer(eve)).status_code == 403
        assert client.post("/api/tables", json=body).status_code == 401
        table = client.post("/api/tables", json=body, headers=bearer(ana)).json()["id"]
        end = _play(client, table, [ana, bea], ["Ana", "Bea"])
        assert end["club"] == club
        totals = {s["name"]: s["total"] for s in end["seats"]}
        winner = {s["name"] for s in end["seats"] if s["index"] in end["result"]["winners"]}
        deadline = time.monotonic() + 60
        while (lines := client.get(f"/api/clubs/{club}").json()["standings"])[0]["games"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert {x["name"]: (x["games"], x["total"]) for x in lines} == {n: (1, t) for n, t in totals.items()}
        assert {x["name"] for x in lines if x["wins"] == 1} == winner
        assert lines[0]["name"] in winner
        assert client.get(f"/api/clubs/{club}").json()["games"][0]["id"] == table
        # a club tournament, made by the organiser's key
        tour = client.post("/api/tournaments", json={"name": "Copa del Club", "rules": "generala",
                                                      "format": "knockout", "club": club}, headers=bearer(org, key))
        assert tour.status_code == 201, tour.text
        assert client.get(f"/api/clubs/{club}").json()["tournaments"][0]["name"] == "Copa del Club"
        stranger = client.post("/api/tournaments", json={"name": "x", "rules": "generala", "format": "knockout",
                                                          "club": club}, headers=bearer(eve))
        assert stranger.status_code == 403


def test_only_the_secret_link_manages_the_club(db_url: str) -> None:
    org, ana = new_token(), new_token()
    with running_app(db_url) as client:
        made = client.post("/api/clubs", json={"name": "Los Viernes"}, headers=bearer(org)).json()
        club, key = made["id"], made["key"]
        client.post(f"/api/clubs/{club}/join", json={"name": "Ana"}, headers=bearer(ana))
        pid = client.get(f"/api/clubs/{club}").json()["members"][0]["pid"]
        for path, body in ((f"/api/clubs/{club}/rename", {"name": "Otro"}),
                           (f"/api/clubs/{club}/remove", {"pid": pid}),
                           (f"/api/clubs/{club}/profiles", {"profiles": []})):
            for headers in (bearer(ana), bearer(ana, "wrong-key"), bearer(ana, key[:-1])):
                assert client.post(path, json=body, headers=headers).status_code == 403
        assert client.get(f"/api/clubs/{club}").json()["name"] == "Los Viernes"
        assert client.post(f"/api/clubs/{club}/rename", json={"name": "Los Sábados"},
                           headers=bearer(org, key)).json() == {"name": "Los Sábados"}
        bad = client.post(f"/api/clubs/{club}/profiles", json={"profiles": [{"name": "mala", "toml": "dice = 99"}]},
                          headers=bearer(org, key))
        assert bad.status_code == 422 and "profiles.0 (mala)" in bad.json()["error"]
        assert client.post(f"/api/clubs/{club}/remove", json={"pid": pid}, headers=bearer(org, key)).status_code == 200
        view = client.get(f"/api/clubs/{club}").json()
        assert view["name"] == "Los Sábados" and view["members"] == [] and view["profiles"] == []
        refused = [({"name": ""}, "name"), ({"name": "x\u200b"}, "invisible"), ({"name": "x", "extra": 1}, "extra"),
                   ({"name": "x", "profiles": [{"name": "p", "toml": "base = 'nope'"}]}, "profiles.0")]
        for body, words in refused:
            answer = client.post("/api/clubs", json=body, headers=bearer(org))
            assert answer.status_code == 422 and words in answer.json()["error"], (body, answer.text)
        assert client.get("/api/clubs/nope!!").status_code == 404
