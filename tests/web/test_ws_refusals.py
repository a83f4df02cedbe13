"""Every bad frame gets an error frame and changes nothing; the server keeps serving."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.web.inproc import create, new_token, next_frame, receive_json, running_app, state_at_least, table_socket

from cubilete.web.protocol import MAX_FRAME, Act, ProtocolError, parse_frame


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(f"sqlite:///{tmp_path_factory.mktemp('web') / 'w.sqlite3'}", rate=1000.0, burst=1000.0,
                     connects_per_address="100000/minute") as c:  # the fuzz test reconnects often
        yield c


@pytest.fixture
def table(app: TestClient) -> Iterator[tuple[str, dict[str, Any], dict[int, Any]]]:
    """A started 2-human table: (id, state, sockets by seat)."""
    table_id = create(app, [{"kind": "human"}, {"kind": "human"}])
    with table_socket(app, table_id, new_token()) as a, \
            table_socket(app, table_id, new_token()) as b:
        a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        state_at_least(a, 1)
        b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
        state = state_at_least(a, 2)
        state_at_least(b, 2)
        yield table_id, state, {0: a, 1: b}


def _refused(ws: Any, frame: object, code: str) -> dict[str, Any]:
    ws.send_text(frame if isinstance(frame, str) else json.dumps(frame))
    error = next_frame(ws, "error")
    assert error["code"] == code, error
    assert error["message"]
    return error


def _unchanged(app: TestClient, table_id: str, before: dict[str, Any]) -> None:
    now = app.get(f"/api/tables/{table_id}").json()["state"]
    assert now["version"] == before["version"] and now["turn"] == before["turn"]
    assert [s["card"] for s in now["seats"]] == [s["card"] for s in before["seats"]]


def test_out_of_turn_stale_illegal_and_forged_actions_are_refused(app: TestClient, table: Any) -> None:
    table_id, state, socks = table
    mover, waiting = socks[state["current"]], socks[1 - state["current"]]
    _refused(waiting, {"type": "act", "version": state["version"], "action": {"roll": []}}, "not-your-turn")
    _refused(mover, {"type": "act", "version": state["version"] - 1, "action": {"roll": []}}, "stale")
    _refused(mover, {"type": "act", "version": state["version"], "action": {"score": "generala"}}, "illegal")
    _refused(mover, {"type": "act", "version": state["version"], "action": {"roll": [9]}}, "illegal")
    _refused(mover, {"type": "act", "version": state["version"], "action": {"fly": 1}}, "bad-message")
    # a seat field is not part of the protocol: nobody can act for another seat by naming it
    _refused(waiting, {"type": "act", "seat": state["current"], "version": state["version"],
                       "action": {"roll": []}}, "bad-message")
    _refused(waiting, {"type": "sit", "seat": state["current"], "name": "Mallory"}, "already-seated")
    _unchanged(app, table_id, state)
    mover.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
    assert state_at_least(waiting, state["version"] + 1)["turn"]["throws"] == 1


def test_seats_and_names_are_checked(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "greedy"}])
    with table_socket(app, table_id, new_token()) as a, \
            table_socket(app, table_id, new_token()) as b:
        a.send_json({"type": "sit", "seat": 0, "name": "<script>x()</script>"})
        state = state_at_least(a, 1)
        assert state["seats"][0]["name"] == "<script>x()</script>"  # kept as text; pages insert it as text
        _refused(b, {"type": "sit", "seat": 0, "name": "Bea"}, "seat-taken")
        _refused(b, {"type": "sit", "seat": 2, "name": "Bea"}, "seat-taken")  # the bot's seat
        _refused(b, {"type": "sit", "seat": 5, "name": "Bea"}, "bad-message")
        _refused(b, {"type": "sit", "seat": 1, "name": "<SCRIPT>X()</SCRIPT>"}, "name-taken")
        _refused(b, {"type": "sit", "seat": 1, "name": "greedy BOT"}, "name-taken")
        _refused(b, {"type": "sit", "seat": 1, "name": "x" * 25}, "bad-message")
        _refused(b, {"type": "sit", "seat": 1, "name": "   "}, "bad-message")
        _refused(b, {"type": "sit", "seat": 1, "name": "tab\there"}, "bad-message")
        _refused(a, {"type": "act", "version": 1, "action": {"roll": []}}, "not-started")
        b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
        assert state_at_least(b, 2)["status"] == "playing"


def test_the_coach_answers_only_the_player_to_move_and_only_where_allowed(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}, {"kind": "human"}], coach=False)
    with table_socket(app, table_id, new_token()) as a:
        _refused(a, {"type": "hint"}, "coach-off")


def test_oversized_binary_and_non_json_frames_get_error_frames(app: TestClient, table: Any) -> None:
    table_id, state, socks = table
    ws = socks[0]
    _refused(ws, "x" * (MAX_FRAME + 1), "too-big")
    _refused(ws, "{not json", "bad-json")
    _refused(ws, "[1, 2]", "bad-message")
    _refused(ws, '{"type": "act"}', "bad-message")
    _refused(ws, "1" * 5000, "too-big")
    ws.send_bytes(b'{"type": "ping"}')
    assert next_frame(ws, "error")["code"] == "bad-message"
    ws.send_json({"type": "ping"})
    assert next_frame(ws, "pong") == {"type": "pong"}
    _unchanged(app, table_id, state)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
frames = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "sit", "hint", "ping", "chat", ""])},
        optional={"version": json_values, "action": json_values, "seat": json_values, "name": json_values},
    ).map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.just("act"), "version": st.integers(-3, 3),
         "action": st.one_of(st.fixed_dictionaries({"roll": st.lists(st.integers(-2, 7), max_size=6)}),
                             st.fixed_dictionaries({"score": st.text(max_size=10)}),
                             st.fixed_dictionaries({"stand": json_values}))},
    ).map(json.dumps),
)


@pytest.fixture(scope="module")
def fuzz_table(app: TestClient) -> str:
    return create(app, [{"kind": "human"}, {"kind": "human"}])


def _is_ping(text: str) -> bool:
    try:
        return bool(json.loads(text) == {"type": "ping"})
    except (ValueError, RecursionError):
        return False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=frames)
def test_fuzzed_frames_are_answered_and_the_server_keeps_serving(app: TestClient, fuzz_table: str, frame: str) -> None:
    # a spectator may do nothing but ping: every other frame, valid or not, gets exactly one error frame
    with table_socket(app, fuzz_table) as ws:
        next_frame(ws, "welcome")
        before = next_frame(ws, "state")
        ws.send_text(frame)
        answer = receive_json(ws)
        assert answer["type"] == ("pong" if _is_ping(frame) else "error"), (frame, answer)
        ws.send_json({"type": "ping"})
        assert receive_json(ws) == {"type": "pong"}
    _unchanged(app, fuzz_table, before)


def test_a_flood_is_rate_limited_and_the_connection_survives(tmp_path: Path) -> None:
    with running_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", rate=5.0, burst=10.0) as client:
        table_id = create(client, [{"kind": "human"}, {"kind": "human"}])
        with table_socket(client, table_id) as ws:
            next_frame(ws, "welcome")
            for _ in range(30):
                ws.send_json({"type": "ping"})
            answers = [receive_json(ws)["type"] for _ in range(30)]
            assert answers.count("pong") >= 10 and "error" in answers
            assert set(answers) <= {"pong", "error", "state"}


def test_unknown_tables_and_bad_tokens_close_the_socket_with_a_code(app: TestClient) -> None:
    with table_socket(app, "nosuchtable") as ws, pytest.raises(WebSocketDisconnect) as gone:
        receive_json(ws)
    assert gone.value.code == 4404
    table_id = create(app, [{"kind": "human"}])
    with table_socket(app, table_id, "short") as ws, pytest.raises(WebSocketDisconnect) as bad:
        receive_json(ws)
    assert bad.value.code == 4400


def test_a_token_in_the_url_is_refused_so_it_never_reaches_access_logs(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}])
    with app.websocket_connect(f"/ws/{table_id}?token={new_token()}") as ws, \
            pytest.raises(WebSocketDisconnect) as refused:
        receive_json(ws)
    assert refused.value.code == 4400 and "hello" in str(refused.value.reason)


def test_the_first_frame_must_be_hello(app: TestClient) -> None:
    table_id = create(app, [{"kind": "human"}])
    with app.websocket_connect(f"/ws/{table_id}") as ws, pytest.raises(WebSocketDisconnect) as refused:
        ws.send_json({"type": "ping"})
        receive_json(ws)
    assert refused.value.code == 4400


def _act_of_size(size: int, pad_char: str = "x", version: int = 0) -> str:
    """An act frame of exactly ``size`` UTF-8 bytes, padded inside its action with ``pad_char`` (then ``x``)."""
    head, tail = f'{{"type": "act", "version": {version}, "action": {{"roll": [], "pad": "', '"}}'
    room = size - len((head + tail).encode("utf-8"))
    width = len(pad_char.encode("utf-8"))
    pad = pad_char * (room // width) + "x" * (room % width)
    frame = head + pad + tail
    assert len(frame.encode("utf-8")) == size
    return frame


def test_the_frame_limit_counts_utf8_bytes_and_allows_exactly_max_frame() -> None:
    exact = parse_frame(_act_of_size(MAX_FRAME))
    assert isinstance(exact, Act) and exact.action["roll"] == []
    assert isinstance(parse_frame(_act_of_size(MAX_FRAME, "ñ")), Act)
    with pytest.raises(ProtocolError) as over:
        parse_frame(_act_of_size(MAX_FRAME + 1))
    assert over.value.code == "too-big"
    # 2-byte letters: far fewer than MAX_FRAME characters, yet more than MAX_FRAME bytes
    multibyte = _act_of_size(MAX_FRAME + 2, "ñ")
    assert len(multibyte) < MAX_FRAME * 0.6
    with pytest.raises(ProtocolError) as wide:
        parse_frame(multibyte)
    assert wide.value.code == "too-big"
    four_byte = _act_of_size(MAX_FRAME + 4, "🎲")
    assert len(four_byte) < MAX_FRAME * 0.3
    with pytest.raises(ProtocolError, match=f"at most {MAX_FRAME} bytes"):
        parse_frame(four_byte)


def test_over_the_socket_the_limit_is_bytes_and_exactly_max_frame_is_read(app: TestClient, table: Any) -> None:
    table_id, state, socks = table
    ws = socks[state["current"]]
    # up to MAX_FRAME bytes a frame is read and parsed: refused for the "pad" in its action, not its size
    v = state["version"]
    for frame in (_act_of_size(200, version=v), _act_of_size(MAX_FRAME, version=v),
                  _act_of_size(MAX_FRAME, "ñ", version=v)):
        assert "unknown action" in _refused(ws, frame, "bad-message")["message"]
    _refused(ws, _act_of_size(MAX_FRAME + 1, version=v), "too-big")
    _refused(ws, _act_of_size(MAX_FRAME + 2, "ñ", version=v), "too-big")
    _refused(ws, _act_of_size(MAX_FRAME + 4, "🎲", version=v), "too-big")
    _unchanged(app, table_id, state)
