"""``POST /api/profiles/check``: the create form's house rules, checked as they are typed (in process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import running_app

GOOD = 'base = "generala"\nname = "mesa"\ntitle = "Mesa del club"\nremove = ["doble"]\n[box.generala]\nvalue = 60\n'


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}") as c:
        yield c


def check(client: TestClient, text: str, lang: str = "en") -> dict[str, object]:
    resp = client.post("/api/profiles/check", json={"profile": text, "lang": lang})
    assert resp.status_code == 200
    data = resp.json()
    assert isinstance(data, dict)
    return data


def test_a_good_profile_says_what_rules_it_makes(client: TestClient) -> None:
    data = check(client, GOOD)
    assert data["ok"] is True
    assert data["name"] == "mesa" and data["boxes"] == 10  # Generala's 11 boxes without Doble
    assert data["title"] == {"es": "Mesa del club", "pt": "Mesa del club", "en": "Mesa del club"}
    assert (data["min_players"], data["max_players"]) == (1, 8)


def test_a_mistake_names_its_line(client: TestClient) -> None:
    data = check(client, 'base = "generala"\n\n[box.generala]\nvalue = "sixty"\n')
    assert data["ok"] is False
    assert data["line"] == 4
    assert "value" in str(data["error"]) and not str(data["error"]).startswith("profile")


def test_broken_toml_is_explained_in_the_page_language(client: TestClient) -> None:
    data = check(client, 'base = "generala"\nvalue = [\n', lang="es")
    assert data["ok"] is False
    assert str(data["error"]).startswith("no es TOML válido")
    assert data["line"] == 2  # the text ends inside the list opened on line 2


def test_broken_toml_names_the_line_where_it_breaks(client: TestClient) -> None:
    data = check(client, 'base = "generala"\nname = "mesa"\nrounds = = 3\n')
    assert (data["ok"], data["line"]) == (False, 3)
    assert str(data["error"]).startswith("not valid TOML")


def test_an_unknown_base_is_refused(client: TestClient) -> None:
    data = check(client, 'base = "nope"\n')
    assert data["ok"] is False and "nope" in str(data["error"])


def test_a_checked_profile_creates_its_table(client: TestClient) -> None:
    assert check(client, GOOD)["ok"] is True
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    made = client.post("/api/tables", json={"profile": GOOD, "seats": seats})
    assert made.status_code == 201
    info = client.get(f"/api/tables/{made.json()['id']}").json()
    assert info["table"]["rules"]["name"] == "mesa"
    assert info["table"]["rules"]["preset"] is None  # house rules: no rematch by preset name


def test_rules_over_the_budget_fail_the_check_as_they_would_fail_the_table(tmp_path: Path) -> None:
    # the form's live check said "Good: 8 dice" and the table was then refused below the fold, in English
    eight = 'base = "generala"\nname = "ocho"\ndice = 8\n'
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", max_dice=6) as small:
        data = check(small, eight, lang="es")
        assert data["ok"] is False and data["budget"] is True and data["line"] is None
        assert "presupuesto" in str(data["error"]) and "8" in str(data["error"]) and "6" in str(data["error"])
        made = small.post("/api/tables", json={"profile": eight, "seats": [{"kind": "human"}]})
        assert made.status_code == 422 and "8 dice; at most 6 (max_dice)" in made.json()["error"]
        assert check(small, eight.replace("dice = 8", "dice = 6"))["ok"] is True


def test_a_preset_detail_gives_the_fields_their_start(client: TestClient) -> None:
    detail = client.get("/api/presets/generala").json()
    boxes = {b["id"]: b for b in detail["rules"]["boxes"]}
    assert boxes["generala"]["value"] == 50 and boxes["generala"]["instant_win"] is True  # RULES.md: Generala
    assert boxes["full"]["first_throw_value"] == 35 and detail["rules"]["throws"] == 3
    assert detail["labels"]["doble"]["es"] == "Doble Generala" and set(detail["labels"]) == set(boxes)
    missing = client.get("/api/presets/nope")
    assert missing.status_code == 404 and "no preset" in missing.json()["error"]


def test_house_rules_tables_say_what_they_change(client: TestClient) -> None:
    made = client.post("/api/tables", json={"profile": GOOD, "seats": [{"kind": "human"}]})
    house = client.get(f"/api/tables/{made.json()['id']}").json()["table"]["rules"]["house"]
    assert house["base"] == "generala"
    changes = house["changes"]["en"]
    assert changes[1].startswith("Generala: 5 equal dice: 60; ") and "no Doble Generala" in changes
    assert "sin Doble Generala" in house["changes"]["es"]
    preset = client.post("/api/tables", json={"rules": "generala", "seats": [{"kind": "human"}]})
    assert client.get(f"/api/tables/{preset.json()['id']}").json()["table"]["rules"]["house"] is None
