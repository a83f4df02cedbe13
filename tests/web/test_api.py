"""The HTTP API (docs/WEB.md): every refused table creation says why and creates nothing; tables, records,
reviews, players and presets answer as documented; the pages are the HTML shell; a finished game's review
agrees with the coach run on its record."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.web.inproc import choose, create, new_token, next_frame, running_app, table_socket

from cubilete.engine.record import from_record
from cubilete.engine.rules import all_presets, find_rules
from cubilete.play import coach
from cubilete.store import webdb

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}
# the first words of every option the coach describes (cubilete.play.coach.describe_option), per language
ENGLISH = ("score ", "scratch ", "keep ", "throw every die again", "stand ")
SPANISH = ("anotar ", "tachar ", "apartar ", "volver a tirar todos los dados", "plantarse ")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # one app for the whole module: many tables from one address (the limits have their own tests)
    with running_app(f"sqlite:///{tmp_path_factory.mktemp('api') / 'w.sqlite3'}",
                     tables_per_address="1000/minute") as client:
        yield client


@pytest.fixture(scope="module")
def finished(app: TestClient) -> dict[str, Any]:
    """Ana plays a whole generala game against a greedy bot: table id, her pid, her decisions, the last state."""
    table = create(app, [HUMAN, GREEDY])
    decisions = 0
    with table_socket(app, table, new_token()) as ws:
        pid = next_frame(ws, "welcome")["you"]["pid"]
        ws.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        state = next_frame(ws, "state")
        while state["status"] != "finished":
            if state["current"] == 0:
                # coach.review judges a choice made after a throw in normal play (not the turn's first throw)
                if state["phase"] == "play" and state["turn"]["throws"] > 0:
                    decisions += 1
                ws.send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = next_frame(ws, "state")
    return {"id": table, "pid": pid, "decisions": decisions, "state": state}


def _rows(client: TestClient) -> tuple[int, int]:
    """How many tables and seats the database holds."""
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        tables = conn.execute(sa.select(sa.func.count()).select_from(webdb.tables)).scalar_one()
        seats = conn.execute(sa.select(sa.func.count()).select_from(webdb.seats)).scalar_one()
    return tables, seats


def _body(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


GOOD = {"rules": "generala", "seats": [HUMAN, GREEDY]}
REFUSED = [
    pytest.param(b"{not json", 400, ["not valid JSON"], id="not-json"),
    pytest.param(b"", 400, ["not valid JSON"], id="empty"),
    pytest.param(json.dumps([GOOD]).encode(), 422, ["body"], id="array"),
    pytest.param(_body(**GOOD, colour="red"), 422, ["colour"], id="unknown-field"),
    pytest.param(_body(**GOOD, profile=""), 422, ["either", "rules", "profile"], id="rules-and-profile"),
    pytest.param(_body(seats=[HUMAN]), 422, ["either", "rules", "profile"], id="neither"),
    pytest.param(_body(rules="generalisima", seats=[HUMAN]), 422, ["unknown rules 'generalisima'"], id="preset"),
    pytest.param(_body(profile='# mesa\n\nthrows = "tres"\n', seats=[HUMAN]), 422, ["profile:3:", "throws"],
                 id="profile-value"),
    pytest.param(_body(profile='base = "yatzy"\nthrows =\n', seats=[HUMAN]), 422, ["not valid TOML", "line 2"],
                 id="profile-syntax"),
    pytest.param(_body(rules="generala", seats=[]), 422, ["seats"], id="no-seats"),
    pytest.param(_body(rules="generala", seats=[HUMAN] * 9), 422, ["seats"], id="nine-seats"),
    pytest.param(_body(profile="max_players = 2\n", seats=[HUMAN, HUMAN, GREEDY]), 422, ["1 to 2 players, not 3"],
                 id="too-many-players"),
    pytest.param(_body(rules="generala", seats=[HUMAN, {"kind": "bot", "level": "godlike"}]), 422,
                 ["unknown bot level 'godlike'"], id="bot-level"),
    pytest.param(_body(rules="generala", seats=[{"kind": "alien"}]), 422, ["seats.0.kind"], id="seat-kind"),
    pytest.param(_body(**GOOD, timer=5), 422, ["timer"], id="timer-5"),
    pytest.param(_body(**GOOD, timer=601), 422, ["timer"], id="timer-601"),
    pytest.param(_body(**GOOD, timer="60"), 422, ["timer"], id="timer-text"),
    pytest.param(_body(**GOOD, coach="yes"), 422, ["coach"], id="coach-yes"),
    pytest.param(_body(**GOOD, note="x" * (64 * 1024)), 413, ["65536 bytes"], id="too-big"),
]


@pytest.mark.parametrize(("body", "status", "words"), REFUSED)
def test_a_refused_table_says_why_and_creates_nothing(
    app: TestClient, body: bytes, status: int, words: list[str]
) -> None:
    before_rows, before_games = _rows(app), app.get("/api/games").json()
    r = app.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    error = r.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    for word in words:
        assert word in error
    assert _rows(app) == before_rows
    assert app.get("/api/games").json() == before_games


def test_a_good_body_creates_one_table_with_its_seats(app: TestClient) -> None:
    """The control for the refusals above: the same request without the fault is accepted."""
    tables, seats = _rows(app)
    r = app.post("/api/tables", content=_body(**GOOD, timer=60, coach=False),
                 headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text
    answer = r.json()
    assert answer["url"] == f"/t/{answer['id']}" and len(answer["commitment"]) == 64
    assert _rows(app) == (tables + 1, seats + 2)
    info = app.get(f"/api/tables/{answer['id']}").json()["table"]
    assert (info["timer"], info["coach"], info["commitment"]) == (60, False, answer["commitment"])


def test_a_house_rule_profile_makes_a_table_of_those_rules(app: TestClient) -> None:
    profile = 'base = "yatzy"\nname = "mesa"\ntitle = "Mesa corta"\nthrows = 2\n'
    r = app.post("/api/tables", json={"profile": profile, "seats": [HUMAN]})
    assert r.status_code == 201, r.text
    got = app.get(f"/api/tables/{r.json()['id']}").json()
    rules = got["table"]["rules"]
    yatzy = find_rules("yatzy")
    assert rules["name"] == "mesa" and rules["title"]["en"] == "Mesa corta"
    assert (rules["dice"], rules["throws"]) == (yatzy.dice, 2)
    assert [s["slot"] for s in rules["slots"]] == list(yatzy.slots)
    assert got["state"]["status"] == "waiting" and got["state"]["turn"]["allowance"] == 2


@pytest.mark.parametrize("table_id", ["zzzzzzzz", "x", "..", "a" * 40])
def test_an_unknown_table_is_404(app: TestClient, table_id: str) -> None:
    for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record", f"/api/games/{table_id}/review"):
        r = app.get(path)
        assert r.status_code == 404, (path, r.text)
        assert r.json()["error"]


def test_record_and_review_wait_for_the_end(app: TestClient) -> None:
    table = create(app, [HUMAN, GREEDY])
    for path, word in ((f"/api/tables/{table}/record", "record"), (f"/api/games/{table}/review", "review")):
        r = app.get(path)
        assert r.status_code == 409, r.text
        assert word in r.json()["error"]


@pytest.mark.parametrize("pid", ["zz", "0123456789abcdef", "0123456789ABCDEF", "0123456789abcdef0"])
def test_an_unknown_or_malformed_player_is_404(app: TestClient, pid: str) -> None:
    r = app.get(f"/api/players/{pid}")
    assert r.status_code == 404
    assert r.json()["error"]


def test_presets_list_every_preset_with_titles_in_three_languages(app: TestClient) -> None:
    got = app.get("/api/presets").json()
    presets = all_presets()
    assert [p["name"] for p in got] == [r.name for r in presets]
    for entry, rules in zip(got, presets, strict=True):
        assert set(entry["title"]) == {"es", "pt", "en"}
        assert all(isinstance(t, str) and t for t in entry["title"].values())
        assert entry["title"]["en"] == rules.title
        assert (entry["min_players"], entry["max_players"]) == (rules.min_players, rules.max_players)
    # the coach solves every preset but the two too large for the exact solver (cubilete.play.coach's docs)
    assert {p["name"] for p in got if not p["coach"]} == {"maxi-yatzy", "maxi-yatzy-no-saved", "general-4-columns"}
    yatzy = next(p for p in got if p["name"] == "yatzy")
    assert yatzy["title"]["es"] != yatzy["title"]["en"]  # translated, not the English title three times


@pytest.mark.parametrize("path", ["/", "/t/x", "/games", "/leaderboard", "/p/x", "/replay/x"])
def test_pages_are_the_html_shell(app: TestClient, path: str) -> None:
    r = app.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "<html" in r.text.lower()


@pytest.mark.parametrize(("method", "path"), [("GET", "/api/nothing"), ("GET", "/api/tables"),
                                               ("POST", "/api/nothing"), ("GET", "/api/tables/x/y/z")])
def test_an_unknown_api_path_is_json(app: TestClient, method: str, path: str) -> None:
    r = app.request(method, path)
    assert 400 <= r.status_code < 500 and r.status_code in (404, 405)
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["error"]


def test_health(app: TestClient) -> None:
    assert app.get("/api/health").json()["ok"] is True


SOLVE_WAIT = 300.0  # seconds: a first solve of generala in a worker process on a loaded machine


def test_the_review_of_a_finished_game_agrees_with_the_coach(app: TestClient, finished: dict[str, Any]) -> None:
    table = finished["id"]
    deadline = time.monotonic() + SOLVE_WAIT  # while generala is being solved the review is approximate
    while app.get(f"/api/tables/{table}").json()["state"]["solving"] is not None:
        assert time.monotonic() < deadline, "generala was never solved"
        time.sleep(0.2)
    review = app.get(f"/api/games/{table}/review").json()
    assert review["exact"] is True  # generala is solved exactly
    # only the human is reviewed; every choice she made after a throw is one judged decision
    assert [p["name"] for p in review["players"]] == ["Ana"]
    assert review["players"][0]["decisions"] == finished["decisions"] > 0
    assert review["players"][0]["loss"] >= 0
    worst = review["worst"]
    assert all(w["player"] == "Ana" for w in worst)
    assert [w["loss"] for w in worst] == sorted((w["loss"] for w in worst), reverse=True)
    assert all(w["loss"] >= 0 and 1 <= w["turn"] <= find_rules("generala").turns for w in worst)
    assert all(w["chosen"].startswith(ENGLISH) and w["best"].startswith(ENGLISH) for w in worst)
    # the same game reviewed locally from its record: same loss, same three worst moments
    local = coach.review(from_record(app.get(f"/api/tables/{table}/record").json()), ["Ana"])
    assert len(local.decisions) == finished["decisions"]
    assert review["players"][0]["loss"] == round(local.total_loss["Ana"], 2)
    assert [(w["turn"], w["loss"]) for w in worst] == [(d.turn, round(d.loss, 2)) for d in local.worst["Ana"]]
    # first-usable-slot play always loses points somewhere in a whole game
    assert worst


def test_the_review_speaks_the_asked_language(app: TestClient, finished: dict[str, Any]) -> None:
    english = app.get(f"/api/games/{finished['id']}/review").json()
    spanish = app.get(f"/api/games/{finished['id']}/review", params={"lang": "es"}).json()
    assert spanish["worst"]
    for en, es in zip(english["worst"], spanish["worst"], strict=True):
        assert (es["turn"], es["loss"]) == (en["turn"], en["loss"])
        assert es["chosen"].startswith(SPANISH) and es["best"].startswith(SPANISH), es
    assert spanish["players"] == english["players"]


def test_a_finished_game_is_in_history_and_the_players_page(app: TestClient, finished: dict[str, Any]) -> None:
    state = finished["state"]
    games = app.get("/api/games").json()
    mine = next(g for g in games if g["id"] == finished["id"])
    assert mine["preset"] == "generala"
    assert set(mine["title"]) == {"es", "pt", "en"} and mine["title"]["en"] == find_rules("generala").title
    assert [p["total"] for p in mine["players"]] == state["result"]["totals"]
    assert [p["bot"] for p in mine["players"]] == [False, True]
    me = app.get(f"/api/players/{finished['pid']}").json()
    assert me["pid"] == finished["pid"] and me["names"] == ["Ana"]
    assert finished["id"] in [g["id"] for g in me["games"]]


def test_a_bad_query_parameter_is_an_error_json(app: TestClient) -> None:
    r = app.get("/api/games", params={"limit": "abc"})
    assert r.status_code == 422
    assert set(r.json()) == {"error"} and "limit" in r.json()["error"]
