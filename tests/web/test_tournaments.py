"""Tournaments on the site (web/tournaments.py, web/tournaments_api.py) on SQLite and PostgreSQL: an organiser
makes one, people and bots join, the rounds are made and seated by themselves, a person who never comes is
played by the stand-in (and the results say so), the standings follow the tables' results, the results export
as JSON and CSV, and a restart picks a tournament up where it was. Refusals are specific and change nothing."""

from __future__ import annotations

import csv
import io
import itertools
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import new_token, running_app

FAST = {"tournament_poll": 0.1}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _make(client: TestClient, organiser: str, **spec: Any) -> str:
    body = {"name": "Viernes de Generala", "rules": "generala", "format": "swiss", "rounds": 2, **spec}
    answer = client.post("/api/tournaments", json=body, headers=bearer(organiser))
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _until(client: TestClient, tid: str, status: str, deadline: float = 240.0) -> dict[str, Any]:
    """The tournament once it reaches ``status`` (its bots play at once; the deadline is for a loaded machine)."""
    end = time.monotonic() + deadline
    while True:
        view: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
        if view["status"] == status or time.monotonic() > end:
            assert view["status"] == status, view
            return view
        time.sleep(0.05)


def test_a_swiss_of_four_bots_plays_two_rounds_and_ranks_by_the_tables_results(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        org = new_token()
        tid = _make(client, org)
        added = client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 4}, headers=bearer(org))
        assert added.status_code == 201 and len(added.json()["added"]) == 4
        started = client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
        assert started.status_code == 200, started.text
        view = _until(client, tid, "finished")
        assert [r["round"] for r in view["rounds"]] == [1, 2] and view["rounds_planned"] == 2
        pairs = [frozenset(s["entrant"] for s in table["seats"]) for r in view["rounds"] for table in r["tables"]]
        assert len(pairs) == 4 and len(set(pairs)) == 4  # no rematch in round 2
        for r in view["rounds"]:
            assert sorted(s["entrant"] for t in r["tables"] for s in t["seats"]) == [0, 1, 2, 3]
        # round 2 seats the round-1 winners together (the Swiss promise), unless a shared win muddles it
        first_winners = {s["entrant"] for t in view["rounds"][0]["tables"] for s in t["seats"] if s["winner"]}
        if len(first_winners) == 2:
            assert frozenset(first_winners) in pairs[2:]
        # points are the tables' wins (a shared win halves), totals the sum of each entrant's scores
        points: dict[int, float] = dict.fromkeys(range(4), 0.0)
        totals: dict[int, int] = dict.fromkeys(range(4), 0)
        for r in view["rounds"]:
            for t in r["tables"]:
                assert t["status"] == "finished" and t["url"] == f"/t/{t['table']}"
                won = [s for s in t["seats"] if s["winner"]]
                for s in t["seats"]:
                    totals[s["entrant"]] += s["total"]
                    points[s["entrant"]] += 1 / len(won) if s in won else 0
        lines = view["standings"]
        assert [s["place"] for s in lines] == [1, 2, 3, 4]
        assert all(s["points"] == pytest.approx(points[s["entrant"]]) and s["total"] == totals[s["entrant"]]
                   for s in lines)
        assert all((a["points"], a["total"]) >= (b["points"], b["total"]) for a, b in itertools.pairwise(lines))
        # each table is an ordinary finished game: its record replays
        record = client.get(f"/api/tables/{view['rounds'][1]['tables'][0]['table']}/record")
        assert record.status_code == 200 and record.json()["rules"]["name"] == "generala"
        # the exports say the same
        exported = client.get(f"/api/tournaments/{tid}/results.json").json()
        assert exported["standings"] == lines and "organiser" not in exported
        rows = list(csv.reader(io.StringIO(client.get(f"/api/tournaments/{tid}/results.csv").text)))
        assert rows[0][:3] == ["place", "name", "points"] and [r[1] for r in rows[1:]] == [s["name"] for s in lines]
        listed = client.get("/api/tournaments").json()
        assert any(t["id"] == tid and t["status"] == "finished" and t["entrants"] == 4 for t in listed)


def test_a_knockout_of_five_heads_up_ends_with_one_champion(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        org = new_token()
        tid = _make(client, org, format="knockout", rounds=None)
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 5}, headers=bearer(org))
        assert client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)).status_code == 200
        view = _until(client, tid, "finished")
        sizes = [[len(t["seats"]) for t in r["tables"]] for r in view["rounds"]]
        assert sizes == [[2, 2, 1], [2, 1], [2]]  # 5 -> 3 -> 2 -> 1, a bye when the count is odd
        final = view["rounds"][-1]["tables"][0]
        champion = view["standings"][0]
        assert champion["entrant"] in {s["entrant"] for s in final["seats"]} and champion["reached"] == 4
        # who went on from each table: a winner (the better total on a shared win)
        for before, after in zip(view["rounds"], view["rounds"][1:], strict=False):
            on = {s["entrant"] for t in after["tables"] for s in t["seats"]}
            for t in before["tables"]:
                best = max(t["seats"], key=lambda s: (s["winner"], s["total"] or 0))
                assert best["entrant"] in on


def test_a_person_who_never_comes_is_played_by_the_stand_in_and_the_results_say_so(db_url: str) -> None:
    org, ana = new_token(), new_token()
    # first a server whose stand-in waits an hour: her table stays in play while we look at it (with a short
    # grace the stand-in and the bot could finish the game before the next request on a loaded machine)
    with running_app(db_url, away_grace=3600.0, **FAST) as client:
        tid = _make(client, org, format="round-robin", rounds=None)
        assert client.post(f"/api/tournaments/{tid}/join", json={"name": "Ana"}, headers=bearer(ana)).status_code == 201
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 1}, headers=bearer(org))
        client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
        mine = client.get(f"/api/tournaments/{tid}", headers=bearer(ana)).json()
        assert mine["me"] == 0 and mine["your_table"] is not None  # her table, for her page to send her to
        assert client.get(f"/api/tournaments/{tid}").json()["your_table"] is None  # not for a stranger
    with running_app(db_url, away_grace=0.2, **FAST) as client:  # she never came: the stand-in plays her turns
        view = _until(client, tid, "finished")
        ana_line = next(s for s in view["standings"] if s["name"] == "Ana")
        assert ana_line["stand_in_moves"] > 0 and ana_line["games"] == 1
        seat = next(s for s in view["rounds"][0]["tables"][0]["seats"] if s["name"] == "Ana")
        assert seat["stand_in_moves"] == ana_line["stand_in_moves"]


def test_a_restart_picks_the_tournament_up_where_it_was(db_url: str) -> None:
    org, ana, bea = new_token(), new_token(), new_token()
    with running_app(db_url, away_grace=3600.0, **FAST) as client:  # nobody comes: nothing is played
        tid = _make(client, org, format="round-robin", rounds=None)
        for token, name in ((ana, "Ana"), (bea, "Bea")):
            client.post(f"/api/tournaments/{tid}/join", json={"name": name}, headers=bearer(token))
        client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
        before = client.get(f"/api/tournaments/{tid}").json()
        assert before["status"] == "playing" and before["rounds"][0]["tables"][0]["status"] == "playing"
    with running_app(db_url, away_grace=0.2, **FAST) as client:  # the stand-ins play both seats now
        view = _until(client, tid, "finished")
        assert view["rounds"][0]["tables"][0]["table"] == before["rounds"][0]["tables"][0]["table"]
        assert {s["name"] for s in view["standings"]} == {"Ana", "Bea"}


def test_refusals_are_specific_and_change_nothing(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        org, ana, eve = new_token(), new_token(), new_token()
        bad = [
            ({"name": "x", "rules": "generala", "format": "swiss"}, "rounds"),
            ({"name": "x", "rules": "generala", "format": "knockout", "rounds": 3}, "only a Swiss"),
            ({"name": "x", "rules": "generala", "format": "league"}, "format"),
            ({"name": "", "rules": "generala", "format": "knockout"}, "name"),
            ({"name": "x", "rules": "nope", "format": "knockout"}, "nope"),
            ({"name": "x", "format": "knockout"}, "either"),
            ({"name": "x", "rules": "generala", "format": "knockout", "table_size": 9}, "table_size"),
            ({"name": "x", "rules": "generala", "format": "knockout", "starts_at": "tomorrow"}, "starts_at"),
            ({"name": "x", "rules": "generala", "format": "knockout", "starts_at": "2030-01-01T21:00"}, "offset"),
            ({"name": "x\u202e", "rules": "generala", "format": "knockout"}, "invisible"),
        ]
        for body, words in bad:
            answer = client.post("/api/tournaments", json=body, headers=bearer(org))
            assert answer.status_code == 422 and words in answer.json()["error"], (body, answer.text)
        assert client.post("/api/tournaments", json={"name": "x", "rules": "generala", "format": "knockout"}
                           ).status_code == 401  # who is the organiser?
        assert client.get("/api/tournaments").json() == []
        tid = _make(client, org)
        assert client.get("/api/tournaments/nope!").status_code == 404
        assert client.post(f"/api/tournaments/{tid}/join", json={"name": "Ana"}, headers=bearer(ana)).status_code == 201
        again = client.post(f"/api/tournaments/{tid}/join", json={"name": "Ana2"}, headers=bearer(ana))
        assert again.status_code == 409 and "already" in again.json()["error"]
        same = client.post(f"/api/tournaments/{tid}/join", json={"name": "ANA"}, headers=bearer(eve))
        assert same.status_code == 422 and "already called" in same.json()["error"]
        assert client.post(f"/api/tournaments/{tid}/start", headers=bearer(ana)).status_code == 403
        not_org = client.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}, headers=bearer(eve))
        assert not_org.status_code == 403
        few = client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
        assert few.status_code == 409 and "two entrants" in few.json()["error"]
        level = client.post(f"/api/tournaments/{tid}/bots", json={"level": "exact"}, headers=bearer(org))
        assert level.status_code == 422 and "not a bot level offered here" in level.json()["error"]
        assert client.post(f"/api/tournaments/{tid}/leave", headers=bearer(eve)).status_code == 404
        assert client.post(f"/api/tournaments/{tid}/leave", headers=bearer(ana)).json() == {"left": True}
        view = client.get(f"/api/tournaments/{tid}").json()
        assert view["players"] == [] and view["status"] == "open" and view["rounds"] == []
        client.post(f"/api/tournaments/{tid}/join", json={"name": "Ana"}, headers=bearer(ana))
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random"}, headers=bearer(org))
        assert client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)).status_code == 200
        late = client.post(f"/api/tournaments/{tid}/join", json={"name": "Eve"}, headers=bearer(eve))
        assert late.status_code == 409 and "started" in late.json()["error"]
        gone = client.post(f"/api/tournaments/{tid}/leave", headers=bearer(ana))
        assert gone.status_code == 409 and "stand-in" in gone.json()["error"]
        twice = client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
        assert twice.status_code == 409



def test_a_tournament_with_a_start_time_starts_by_itself_then(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        org = new_token()
        at = datetime.now(UTC) + timedelta(hours=2)
        tid = _make(client, org, format="knockout", rounds=None, starts_at=at.isoformat())
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 2}, headers=bearer(org))
        desk = client.app.state.hub.tournaments  # type: ignore[attr-defined]
        client.portal.call(desk.advance, tid)  # type: ignore[union-attr]
        assert client.get(f"/api/tournaments/{tid}").json()["status"] == "open"  # not yet
        desk.ahead = 3 * 3600.0  # the clock moved past the start time
        client.portal.call(desk.advance, tid)  # type: ignore[union-attr]
        assert _until(client, tid, "finished")["rounds"][0]["round"] == 1
