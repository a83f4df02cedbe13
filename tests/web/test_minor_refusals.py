"""Issue 10, the minor list: a roll with a repeated position, 0-based positions in the error text,
look-alike names at one table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.web.inproc import create, new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.engine.actions import Roll, action_from_json
from cubilete.engine.errors import IllegalActionError
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.web.names import check_name, skeleton
from cubilete.web.protocol import ProtocolError


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("web") / "w.sqlite3"
    with running_app(f"sqlite:///{path}", rate=1000.0, burst=1000.0) as client:
        yield client


def _error(ws: Any, frame: dict[str, Any]) -> dict[str, Any]:
    ws.send_text(json.dumps(frame))
    return next_frame(ws, "error")


def test_a_roll_with_a_repeated_position_is_refused_not_merged(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}, {"kind": "human"}])
    with table_socket(app, table_id, new_token()) as a, \
            table_socket(app, table_id, new_token()) as b:
        a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        state_at_least(a, 1)
        b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
        state = state_at_least(a, 2)
        mover = {0: a, 1: b}[state["current"]]
        mover.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
        state = state_at_least(mover, 3)
        error = _error(mover, {"type": "act", "version": state["version"], "action": {"roll": [0, 0, 0]}})
        assert error["code"] == "illegal" and "listed twice" in error["message"]
        error = _error(mover, {"type": "act", "version": state["version"], "action": {"roll": [5]}})
        assert error["code"] == "illegal" and "0 to 4, counted from 0" in error["message"]
        now = app.get(f"/api/tables/{table_id}").json()["state"]
        assert now["version"] == state["version"] and now["turn"] == state["turn"]  # nothing was played


def test_the_engine_keeps_a_repeated_position_to_refuse_it() -> None:
    action = action_from_json({"roll": [0, 0, 0]})
    assert action == Roll((0, 0, 0))
    game = Game(find_rules("generala"), ["Ana"], seed=1)
    game.apply(Roll())
    with pytest.raises(IllegalActionError, match="listed twice"):
        game.apply(action)
    with pytest.raises(IllegalActionError, match="dice positions are 0 to 4, counted from 0"):
        game.apply(Roll((5,)))


def test_a_name_mixing_scripts_is_refused() -> None:
    with pytest.raises(ProtocolError) as refused:
        check_name("\u0410na", ["Ana"])  # a Cyrillic А, then Latin
    assert refused.value.code == "bad-name"
    # all Cyrillic "Ана" has the shape of "Aha", not of "Ana": a different-looking name
    assert check_name("\u0410\u043d\u0430", ["Ana"]) == "\u0410\u043d\u0430"


@pytest.mark.parametrize(("name", "seated"), [
    ("\u0430\u043e", ["ao"]),  # Cyrillic а о
    ("ANA", ["ana"]),
    ("Ána", ["Ana"]),
    ("\uff21\uff4e\uff41", ["Ana"]),  # full-width: NFKC makes it "Ana"
    ("B0b", ["Bob"]),
    ("Al", ["A1"]),
])
def test_names_that_look_the_same_as_a_seated_name_are_refused(name: str, seated: list[str]) -> None:
    with pytest.raises(ProtocolError) as refused:
        check_name(name, seated)
    assert refused.value.code == "name-taken"


def test_names_are_nfkc_normalised_and_distinct_ones_pass() -> None:
    assert check_name("\uff21\uff4e\uff41", []) == "Ana"
    assert check_name("Bea", ["Ana"]) == "Bea"
    assert check_name("山田さん", ["Ana"]) == "山田さん"  # Han and Hiragana are written together
    assert skeleton("José") == skeleton("jose")
    with pytest.raises(ProtocolError):
        check_name("An\u200ba", [])  # an invisible zero-width space


def test_a_cyrillic_look_alike_cannot_sit_beside_ana(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}, {"kind": "human"}])
    with table_socket(app, table_id, new_token()) as a, \
            table_socket(app, table_id, new_token()) as b:
        a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        state_at_least(a, 1)
        assert _error(b, {"type": "sit", "seat": 1, "name": "\u0410na"})["code"] == "bad-name"
        assert _error(b, {"type": "sit", "seat": 1, "name": "\u0430na"})["code"] == "bad-name"
        assert _error(b, {"type": "sit", "seat": 1, "name": "ÁNA"})["code"] == "name-taken"
        b.send_json({"type": "sit", "seat": 1, "name": "\uff22\uff45\uff41"})  # full-width Bea
        state = state_at_least(a, 2)
        assert [s["name"] for s in state["seats"]] == ["Ana", "Bea"]
