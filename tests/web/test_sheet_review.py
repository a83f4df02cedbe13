"""The coach's review and the replay of a finished real-dice sheet (web/sheets.py, web/sheet_replay.py), on SQLite
and PostgreSQL: only what was typed at the table is judged or shown (each entry's dice, the throw the player
stopped on, the box), never the earlier throws the scorekeeper invents so the engine can replay the game; 409
before the end, 404 for unknown ids, sheet ids and table ids never mixed, and a clear "no review" for rules the
solver cannot solve exactly."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import create, new_token, running_app
from tests.web.test_sheets import _step, bearer

from cubilete.engine.record import from_record
from cubilete.engine.rules import find_rules
from cubilete.play import coach

GENERALA = find_rules("generala")
EMPTY: tuple[int | None, ...] = (None,) * len(GENERALA.slots)
SOLVE_DEADLINE = 600.0  # a bound for a hung solve, never a speed check


def _review(client: TestClient, sheet: str, lang: str = "en") -> dict[str, Any]:
    """The review, asked again while the server still solves the rules (each ask waits on the solve itself)."""
    deadline = time.monotonic() + SOLVE_DEADLINE
    while True:
        answer = client.get(f"/api/sheets/{sheet}/review", params={"lang": lang})
        if answer.status_code != 503 or time.monotonic() > deadline:
            assert answer.status_code == 200, answer.text
            return answer.json()  # type: ignore[no-any-return]


def _sheet(client: TestClient, token: str, entries: list[tuple[list[int], int, str]],
           rules: dict[str, Any] | None = None) -> str:
    """A sheet for Ana and Bea (Ana starts), the entries typed in turn; its id."""
    made = client.post("/api/sheets", json={**(rules or {"rules": "generala"}), "players": ["Ana", "Bea"]},
                       headers=bearer(token))
    assert made.status_code == 201, made.text
    sheet = made.json()["id"]
    state = client.get(f"/api/sheets/{sheet}").json()
    state = _step(client, sheet, token, state, kind="start", dice=[6])
    state = _step(client, sheet, token, state, kind="start", dice=[1])
    for dice, throw, slot in entries:
        state = _step(client, sheet, token, state, kind="enter", dice=dice, throw=throw, slot=slot)
    return str(sheet)


def _loss(card: tuple[int | None, ...], dice: tuple[int, ...], throw: int, slot: str) -> tuple[float, str]:
    """The coach's own numbers for one entry: the best option's expected final score minus the box's, and the
    best option in words (every option: the boxes, and keeping dice to throw again below the last throw)."""
    options = coach.advise_hand(GENERALA, card, dice, throw, top=1000)
    box = next(o for o in options if o.kind == "score" and o.slot == slot)
    return options[0].expected - box.expected, options[0].describe(GENERALA)


# Ana writes a servida escalera in Unos (a clear mistake: Escalera is open and pays 25 servida, RULES.md), Bea
# writes a full made on the second throw, Ana then throws a servida Generala: it wins at once (no box chosen)
MISTAKE = [([1, 2, 3, 4, 5], 1, "1"), ([2, 2, 3, 3, 3], 2, "full"), ([4, 4, 4, 4, 4], 1, "generala")]


def test_the_review_judges_each_typed_entry_against_every_option_open_then(db_url: str) -> None:
    ana = new_token()
    with running_app(db_url) as client:
        sheet = _sheet(client, ana, MISTAKE[:2])
        assert client.get(f"/api/sheets/{sheet}/review").status_code == 409  # before the end
        assert client.get(f"/api/sheets/{sheet}/replay").status_code == 409
        state = client.get(f"/api/sheets/{sheet}").json()
        _step(client, sheet, ana, state, kind="enter", dice=[4, 4, 4, 4, 4], throw=1, slot="generala")
        review = _review(client, sheet)
        ana_loss, ana_best = _loss(EMPTY, (1, 2, 3, 4, 5), 1, "1")
        bea_loss, _best = _loss(EMPTY, (2, 2, 3, 3, 3), 2, "full")
        assert ana_best == "score Escalera (25)" and ana_loss > 10
        assert review["reviewed"] is True and review["exact"] is True
        assert review["players"] == [{"name": "Ana", "loss": round(ana_loss, 2), "decisions": 1},
                                     {"name": "Bea", "loss": round(bea_loss, 2), "decisions": 1}]
        worst = next(w for w in review["worst"] if w["player"] == "Ana")
        assert worst == {"player": "Ana", "seat": 0, "turn": 1, "dice": [1, 2, 3, 4, 5], "throw": 1, "servida": True,
                         "slot": "1", "box": "Unos", "points": 1, "chosen": "score Unos (1)",
                         "best": "score Escalera (25)", "best_kind": "score", "best_slot": "escalera", "best_keep": [],
                         "loss": round(ana_loss, 2)}
        assert review["chances"]["players"] == ["Ana", "Bea"] and review["chances"]["turns"] == [0, 1, 2, 3]
        assert review["chances"]["chances"][-1] == [1.0, 0.0]  # Ana's servida Generala won
        assert _review(client, sheet) == review  # kept for this version
        assert _review(client, sheet, "es")["worst"][0]["best"] == "anotar Escalera (25)"


def test_the_review_never_depends_on_the_invented_throws(db_url: str) -> None:
    """Two sheets with the same dice typed in another order: the scorekeeper invents other earlier throws (it keeps
    the first four dice typed), so the engine's review of its game judges other keeps; the sheet's review, of
    what was typed, is the same."""
    ana = new_token()
    with running_app(db_url) as client:
        typed = [([6, 6, 1, 3, 5], 3, "6"), ([2, 2, 3, 3, 3], 2, "full"), ([4, 4, 4, 4, 4], 1, "generala")]
        turned = [([5, 3, 1, 6, 6], 3, "6"), ([3, 2, 3, 2, 3], 2, "full"), ([4, 4, 4, 4, 4], 1, "generala")]
        first, second = _sheet(client, ana, typed), _sheet(client, ana, turned)
        games = [from_record(client.get(f"/api/sheets/{s}/record").json()) for s in (first, second)]
        engine = [coach.review(game, ["Ana", "Bea"]).total_loss for game in games]
        assert engine[0] != engine[1]  # the invented keeps differ, and so would a review of them
        review = _review(client, first)
        assert _review(client, second) == review
        assert [p["decisions"] for p in review["players"]] == [1, 1]  # the winning Generala chose no box


def test_the_replay_shows_only_the_typed_dice(db_url: str) -> None:
    ana = new_token()
    with running_app(db_url) as client:
        sheet = _sheet(client, ana, MISTAKE)
        shown = client.get(f"/api/sheets/{sheet}/replay").json()
        assert shown["players"] == ["Ana", "Bea"] and shown["winners"] == [0] and shown["reason"] == "instant-win"
        assert shown["start"] == [{"seat": 0, "dice": [6]}, {"seat": 1, "dice": [1]}]
        steps = shown["steps"]
        assert [(s["seat"], s["dice"], s["throw"], s["servida"], s["slot"], s["points"], s["wins_at_once"])
                for s in steps] == [(0, [1, 2, 3, 4, 5], 1, True, "1", 1, False),
                                    (1, [2, 2, 3, 3, 3], 2, False, "full", 30, False),
                                    (0, [4, 4, 4, 4, 4], 1, True, "generala", 0, True)]
        assert [s["totals"] for s in steps] == [[1, 0], [1, 30], [1, 30]]
        assert steps[1]["card"][GENERALA.slots.index("full")] == 30
        assert shown["rules"]["slots"][0]["labels"]["es"] == "Unos"


def test_ids_never_mix_and_unknown_ids_are_404(db_url: str) -> None:
    ana = new_token()
    with running_app(db_url) as client:
        sheet = _sheet(client, ana, MISTAKE)
        assert client.get(f"/api/sheets/{sheet}/replay").status_code == 200 and _review(client, sheet)["reviewed"]
        table = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        for url in (f"/api/sheets/{table}/review", f"/api/sheets/{table}/replay", "/api/sheets/zzzzzzzz/review",
                    "/api/sheets/zzzzzzzz/replay"):
            assert client.get(url).status_code == 404, url
        for url in (f"/api/tables/{sheet}", f"/api/games/{sheet}/review"):
            assert client.get(url).status_code == 404, url


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_rules_the_solver_cannot_solve_get_no_review(db_url: str) -> None:
    """Maxi-Yatzy (six dice, carried throws: RULES.md) is played on a sheet, but the solver cannot solve it."""
    ana = new_token()
    with running_app(db_url) as client:
        maxi = find_rules("maxi-yatzy")
        assert not coach.is_solvable(maxi)
        made = client.post("/api/sheets", json={"rules": "maxi-yatzy", "players": ["Ana"]}, headers=bearer(ana))
        sheet = made.json()["id"]
        state = client.get(f"/api/sheets/{sheet}").json()
        for slot in maxi.slots:
            state = _step(client, sheet, ana, state, kind="enter", dice=[1, 1, 1, 1, 1, 1], throw=1, slot=slot,
                          scratch=slot not in state_points(client, sheet))
        assert state["phase"] == "over"
        answer = client.get(f"/api/sheets/{sheet}/review")
        assert answer.status_code == 200
        assert answer.json()["reviewed"] is False and "no review for these rules" in answer.json()["reason"]


def state_points(client: TestClient, sheet: str) -> dict[str, int]:
    """The boxes six ones make points in now."""
    found: dict[str, int] = client.post(f"/api/sheets/{sheet}/preview", json={"dice": [1] * 6, "throw": 1}).json()[
        "points"]
    return {slot: points for slot, points in found.items() if points > 0}
