"""Turn-based games (web/turnbased.py, web/turns_api.py) on SQLite and PostgreSQL: hours per turn; the game
waits for each player with nobody connected (no stand-in, never abandoned), over several reconnects; a turn
whose time runs out (the desk's clock moved forward, not slept) is played by the labelled stand-in and
everyone is told; the clock survives a restart; "your turn" e-mails reach a local SMTP server, once per turn;
each person lists their games with those where it is their turn; refusals are specific."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session
from fastapi.testclient import TestClient
from tests.web.inproc import new_token, next_frame, running_app, state_at_least, table_socket

from cubilete.store import turns

FAST = {"away_grace": 0.05, "abandon_after": 0.2, "turn_poll": 3600.0}  # people "leave" at once; sweeps by hand
NO_SUDDEN_END = "generala-sin-gana"


class Inbox:
    """A local SMTP server's received mail."""

    def __init__(self) -> None:
        self.mail: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: object, session: Session, envelope: Envelope) -> str:
        self.mail.append((list(envelope.rcpt_tos), bytes(envelope.content or b"")))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (the controller checks its server by connecting to it)
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _make(client: TestClient, hours: float = 24) -> str:
    answer = client.post("/api/tables", json={"rules": NO_SUDDEN_END, "seats": [{"kind": "human"}, {"kind": "human"}],
                                              "coach": False, "turn_based": {"hours": hours}})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _sit(client: TestClient, table: str, token: str, seat: int, name: str) -> dict[str, Any]:
    with table_socket(client, table, token) as ws:
        next_frame(ws, "welcome")
        ws.send_json({"type": "sit", "seat": seat, "name": name})
        state = next_frame(ws, "state")
        while not any(s["name"] == name for s in state["seats"]):
            state = next_frame(ws, "state")
        return state


def _one_turn(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """Connect, throw once, write the first open box, leave; the state after the box."""
    with table_socket(client, table, token) as ws:
        next_frame(ws, "welcome")
        state = next_frame(ws, "state")
        ws.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
        state = state_at_least(ws, state["version"] + 1)
        slot = next(s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only"))
        ws.send_json({"type": "act", "version": state["version"], "action": {"score": slot}})
        return state_at_least(ws, state["version"] + 1)


def _state(client: TestClient, table: str) -> dict[str, Any]:
    return client.get(f"/api/tables/{table}").json()["state"]  # type: ignore[no-any-return]


def _sweep(client: TestClient, hours_ahead: float) -> int:
    desk = client.app.state.hub.turns  # type: ignore[attr-defined]
    desk.clock.ahead = hours_ahead * 3600.0
    return int(client.portal.call(desk.sweep))  # type: ignore[union-attr]


def test_the_game_waits_days_for_each_player_and_the_stand_in_plays_a_turn_that_ran_out(db_url: str) -> None:
    ana, bea = new_token(), new_token()
    with running_app(db_url, **FAST) as client:
        table = _make(client)
        _sit(client, table, ana, 0, "Ana")
        started = _sit(client, table, bea, 1, "Bea")
        assert started["status"] == "playing" and started["turn_based"]["hours"] == 24
        deadline = started["turn_based"]["deadline"]
        assert deadline == pytest.approx(time.time() + 24 * 3600, abs=120)
        first = started["current"]
        # nobody connected, far past the away grace and the abandon time: the game waits, nobody plays for them
        time.sleep(0.5)
        assert _sweep(client, 23) == 0
        waiting = _state(client, table)
        assert waiting["status"] == "playing" and waiting["version"] == started["version"]
        assert not any(s["away"] for s in waiting["seats"])
        mine = client.get("/api/my/tables", headers=bearer(ana if first == 0 else bea)).json()
        assert mine[0]["id"] == table and mine[0]["your_turn"] and mine[0]["deadline"] == pytest.approx(deadline)
        theirs = client.get("/api/my/tables", headers=bearer(bea if first == 0 else ana)).json()
        assert theirs[0]["id"] == table and not theirs[0]["your_turn"]
        # the first player comes back, plays a turn, leaves
        after = _one_turn(client, table, ana if first == 0 else bea)
        second = after["current"]
        assert second != first and after["turn_based"]["deadline"] > deadline
        # the second player's turn runs out (the clock moved a day and a bit): the stand-in plays it, labelled
        assert _sweep(client, 25) == 1
        played = _state(client, table)
        assert played["current"] == first and played["version"] > after["version"]
        record_moves = client.app.state.hub.store.made_for(table)  # type: ignore[attr-defined]
        assert record_moves and all(seat == second and by == "timer" for _, seat, by in record_moves)
    # a restart keeps the turn's clock: the deadline is the stored one, not a fresh day
    with running_app(db_url, **FAST) as client:
        again = _state(client, table)
        assert again["turn_based"]["deadline"] == pytest.approx(played["turn_based"]["deadline"], abs=1)
        _one_turn(client, table, ana if first == 0 else bea)  # and play goes on
        assert _state(client, table)["current"] == second


def test_your_turn_e_mails_reach_the_mail_server_once_per_turn(db_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    ana, bea = new_token(), new_token()
    mail = {"smtp_host": "127.0.0.1", "smtp_port": port, "site_url": "https://generala.example", **FAST}
    with running_app(db_url, **mail) as client:
        table = _make(client)
        _sit(client, table, ana, 0, "Ana")
        assert client.get(f"/api/tables/{table}").json()["table"]["notices"] is True
        stranger = client.post(f"/api/tables/{table}/notices", json={"email": "x@example.org"}, headers=bearer(bea))
        assert stranger.status_code == 403  # not seated (yet)
        started = _sit(client, table, bea, 1, "Bea")
        first = started["current"]
        tokens = {0: ana, 1: bea}
        addresses = {0: "ana@example.org", 1: "bea@example.org"}
        for seat in (0, 1):
            ok = client.post(f"/api/tables/{table}/notices", json={"email": addresses[seat]},
                             headers=bearer(tokens[seat]))
            assert ok.status_code == 200 and ok.json() == {"seat": seat, "email": addresses[seat]}
        bad = client.post(f"/api/tables/{table}/notices", json={"email": "not an address"}, headers=bearer(ana))
        assert bad.status_code == 422 and "not an e-mail address" in bad.json()["error"]
        # the first turn passed before any address was given: its notice, even one still on its way (a busy
        # machine), finds nobody to tell
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        assert turns.claim_notice(store, table, first, started["version"]) is None
        _one_turn(client, table, tokens[first])
        other = 1 - first
        end = time.monotonic() + 60  # the mail goes out from a worker thread
        while not inbox.mail and time.monotonic() < end:
            time.sleep(0.02)
        assert [to for to, _ in inbox.mail] == [[addresses[other]]]
        message = message_from_bytes(inbox.mail[0][1])
        assert f"https://generala.example/t/{table}" in message.get_payload()
        assert message["Subject"].startswith("Your turn")
        time.sleep(0.3)
        assert len(inbox.mail) == 1  # one notice for that turn


def test_refusals_are_specific(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        cases = [
            ({"turn_based": {"hours": 24}, "timer": 60}, "not a timer"),
            ({"turn_based": {"hours": 10_000}}, "at most"),
            ({"turn_based": {"hours": 0}}, "turn_based.hours"),
            ({"turn_based": {"days": 1}}, "turn_based.hours: Field required"),
            ({"turn_based": {"hours": 24}, "seats": [{"kind": "bot", "level": "random"}] * 2}, "nobody to wait"),
        ]
        for extra, words in cases:
            answer = client.post("/api/tables", json={"rules": "generala", "seats": seats, **extra})
            assert answer.status_code == 422 and words in answer.json()["error"], (extra, answer.text)
        plain = client.post("/api/tables", json={"rules": "generala", "seats": seats}).json()["id"]
        ana = new_token()
        _sit(client, plain, ana, 0, "Ana")
        answer = client.post(f"/api/tables/{plain}/notices", json={"email": "a@example.org"}, headers=bearer(ana))
        assert answer.status_code == 409 and "not turn-based" in answer.json()["error"]
        table = _make(client)
        _sit(client, table, ana, 0, "Ana")
        answer = client.post(f"/api/tables/{table}/notices", json={"email": "a@example.org"}, headers=bearer(ana))
        assert answer.status_code == 409 and "sends no e-mail" in answer.json()["error"]
        assert client.get("/api/my/tables").status_code == 401


def test_a_turn_based_table_waits_for_its_players_a_turns_time_not_minutes(db_url: str) -> None:
    with running_app(db_url, **FAST) as client:
        quick = client.post("/api/tables", json={"rules": "generala", "seats": [{"kind": "human"}] * 2}).json()["id"]
        slow = _make(client, hours=48)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        from cubilete.web.expiry import expire_once

        an_hour_later = time.time() + 3600
        assert client.portal.call(expire_once, hub, an_hour_later) == 1  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{quick}").status_code == 404
        assert _state(client, slow)["status"] == "waiting"
        assert client.portal.call(expire_once, hub, time.time() + 49 * 3600) == 1  # type: ignore[union-attr]
        assert client.get(f"/api/tables/{slow}").status_code == 404
