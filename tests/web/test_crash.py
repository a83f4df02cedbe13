"""Crash tests: SIGKILL the real server mid-game, restart it on the same database, and check
that no acknowledged move is lost, none is played twice, and the game finishes and verifies.

Two human players are two real WebSocket clients; an action counts as acknowledged once its
sender has received the broadcast state carrying the new version (docs/WEB.md, "No lost moves").
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections import Counter
from typing import Any

import httpx
import pytest
from tests.web.servers import LiveServer, ServerFactory
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cubilete.engine.actions import action_from_json, action_to_json
from cubilete.engine.fairness import verify_record
from cubilete.engine.record import from_record

# Generala where a servida Generala does not end the game at once: every game lasts all its
# rounds, so a crash "after 15 actions, mid-turn" always happens during play.
RULES = "generala-sin-gana"
FRAME_TIMEOUT = 15.0  # seconds to wait for an expected frame
# each connection may send 20 frames/s, bursts to 40 (docs/WEB.md): the players keep below that
# with a bucket of their own, so that the rate limit never answers instead of the game
SEND_RATE, SEND_BURST = 16.0, 30.0
MAX_ACTIONS = 400  # a 2-player game needs ~90; more means the test's player is stuck

State = dict[str, Any]


class Player:
    """One browser: a token, a WebSocket to the table, the last state it received."""

    def __init__(self, server: LiveServer, table: str, token: str) -> None:
        self.server, self.table, self.token = server, table, token
        self.ws: ClientConnection | None = None
        self._stack = contextlib.ExitStack()
        self.seat: int | None = None
        self.state: State = {}
        self._tokens, self._stamp = SEND_BURST, time.monotonic()

    def connect(self) -> Player:
        """Open the socket; read the welcome and the first state."""
        url = f"{self.server.ws_url}/ws/{self.table}?lang=en"
        self._stack = contextlib.ExitStack()
        # proxy=None: loopback, whatever proxy the environment names
        self.ws = self._stack.enter_context(connect(url, open_timeout=FRAME_TIMEOUT, close_timeout=2, proxy=None))
        self.ws.send(json.dumps({"type": "hello", "token": self.token}))  # the token never goes in the URL
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["you"]["seat"]
        self.state = self.recv_state()
        return self

    def close(self) -> None:
        """Drop the socket (after a crash it is already broken)."""
        with contextlib.suppress(ConnectionClosed, OSError):
            self._stack.close()
        self.ws = None

    def recv(self) -> dict[str, Any]:
        """The next frame; an error frame fails the test with the server's message."""
        assert self.ws is not None
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=FRAME_TIMEOUT))
        if frame.get("type") == "error":
            raise AssertionError(f"server refused a frame of seat {self.seat}: {frame}")
        return frame

    def recv_state(self) -> State:
        """The next state frame (other frames, e.g. pongs, are passed over)."""
        while True:
            frame = self.recv()
            if frame["type"] == "state":
                self.state = frame
                return frame

    def wait_version(self, version: int) -> State:
        """Read states until one is at least ``version``."""
        while self.state.get("version", -1) < version:
            self.recv_state()
        return self.state

    def send(self, frame: dict[str, Any]) -> None:
        """Send one frame, waiting first if this connection is near the rate limit."""
        assert self.ws is not None
        now = time.monotonic()
        self._tokens = min(SEND_BURST, self._tokens + (now - self._stamp) * SEND_RATE)
        self._stamp = now
        if self._tokens < 1:
            time.sleep((1 - self._tokens) / SEND_RATE)
        self._tokens -= 1
        self.ws.send(json.dumps(frame))

    def send_act(self, action: dict[str, Any]) -> int:
        """Send an action on the version this player saw; that version."""
        version: int = self.state["version"]
        self.send({"type": "act", "version": version, "action": action})
        return version


def create_table(server: LiveServer) -> tuple[str, str]:
    """A 2-human table over HTTP; its id and the published commitment to its seed."""
    body = {"rules": RULES, "seats": [{"kind": "human"}, {"kind": "human"}], "timer": None, "coach": False}
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=FRAME_TIMEOUT)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["commitment"]


def choose(state: State) -> dict[str, Any]:
    """A legal action from the state frame alone: roll up to the allowance keeping the most
    common face, then score the first slot that may be written; in a tie-break, throw once and stand."""
    turn = state["turn"]
    if state["phase"] == "tiebreak":
        return {"stand": True} if state["can_stand"] else {"roll": []}
    dice: list[int] = turn["dice"]
    if not dice:
        return {"roll": []}
    face, count = Counter(dice).most_common(1)[0]
    if state["can_roll"] and count < len(dice):  # keeping every die is no throw at all
        return {"roll": [i for i, d in enumerate(dice) if d == face]}
    for slot in state["sheet"]:
        if slot["state"] in ("usable", "scratch-only"):
            return {"score": slot["slot"]}
    raise AssertionError(f"no slot to write in state {state}")


def essential(state: State) -> State:
    """What a crash must not change: the state without connection flags and the timer (and the "being
    solved" notice: a restarted server solves the rules again if the first solve had not ended)."""
    out = {k: v for k, v in state.items() if k not in ("deadline", "type", "solving")}
    out["seats"] = [{k: v for k, v in seat.items() if k != "connected"} for seat in state["seats"]]
    return out


def normal(action: dict[str, Any]) -> dict[str, object]:
    """An action in the engine's canonical JSON (keep positions sorted)."""
    return action_to_json(action_from_json(action))


class Match:
    """Two players at one table, with every acknowledged action in order."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.table, self.commitment = create_table(server)
        self.players = [Player(server, self.table, secrets.token_hex(16)) for _ in range(2)]
        self.acked: list[dict[str, object]] = []

    def sit(self) -> None:
        """Both connect and sit; the game starts."""
        for p in self.players:
            p.connect()
        for seat, p in enumerate(self.players):
            p.send({"type": "sit", "seat": seat, "name": f"P{seat}"})
            p.seat = seat
            self.sync(p.recv_state()["version"])
        while self.players[0].state["status"] == "waiting":  # the start may be a state of its own
            self.sync(self.players[0].recv_state()["version"])
        assert self.players[0].state["status"] == "playing", self.players[0].state

    def sync(self, version: int) -> None:
        """Every player reads up to ``version``."""
        for p in self.players:
            p.wait_version(version)

    @property
    def state(self) -> State:
        """The state both players have seen."""
        return self.players[0].state

    def mover(self) -> Player:
        """The player whose turn it is."""
        current = self.state["current"]
        return next(p for p in self.players if p.seat == current)

    def step(self) -> State:
        """The current player acts and waits for the acknowledgement; the new state."""
        action = choose(self.state)
        version = self.mover().send_act(action)
        self.sync(version + 1)
        new = self.state
        assert new["version"] == version + 1, (version, new)
        assert new["last"] is not None and normal(new["last"]["action"]) == normal(action), (action, new["last"])
        self.acked.append(normal(action))
        return new

    def drop(self) -> None:
        """Close both sockets (the server is gone)."""
        for p in self.players:
            p.close()

    def reconnect(self) -> None:
        """Both players come back with their tokens, as the page does after a crash."""
        for seat, p in enumerate(self.players):
            p.connect()
            assert p.seat == seat, f"token of seat {seat} got seat {p.seat} back"
        assert self.players[0].state["version"] == self.players[1].state["version"]

    def finish(self) -> dict[str, Any]:
        """Play to the end; the record, checked against every acknowledged action."""
        for _ in range(MAX_ACTIONS):
            if self.state["status"] == "finished":
                break
            self.step()
        else:
            raise AssertionError(f"game not over after {MAX_ACTIONS} actions: {self.state}")
        assert self.state["phase"] == "over" and self.state["result"] is not None
        answer = httpx.get(f"{self.server.url}/api/tables/{self.table}/record", timeout=FRAME_TIMEOUT)
        assert answer.status_code == 200, answer.text
        record: dict[str, Any] = answer.json()
        # no lost moves and no doubled ones: the record holds exactly the acknowledged actions
        assert [normal(a) for a in record["actions"]] == self.acked
        game = from_record(record)
        assert game.is_over and game.totals() == self.state["result"]["totals"]
        assert record["seed"] == self.state["seed"]
        assert record["commitment"] == self.commitment  # the seed is the one promised before the first throw
        report = verify_record(record)
        assert report.ok, report.problems
        assert report.commitment_checked and report.throws == len(record["throws"]) == self.state["throws"]
        return record


def crash_and_restart(match: Match) -> None:
    """SIGKILL the server, start it again on the same port and database, reconnect both players."""
    match.server.kill()
    match.drop()
    match.server.restart()
    match.reconnect()


def test_kill_after_acknowledged_actions_loses_nothing(db_url: str, server_factory: ServerFactory) -> None:
    match = Match(server_factory(db_url))
    match.sit()
    # play until >= 15 acknowledged actions and the mover holds dice with throws left
    for _ in range(MAX_ACTIONS):
        state = match.step()
        turn = state["turn"]
        if len(match.acked) >= 15 and turn["held"] and turn["throws"] < turn["allowance"] and state["can_roll"]:
            break
    acknowledged = essential(match.state)
    assert acknowledged["turn"]["held"] and acknowledged["status"] == "playing"

    crash_and_restart(match)

    for p in match.players:
        assert essential(p.state) == acknowledged
    match.finish()


@pytest.mark.parametrize(
    ("kind", "wait"),
    [("roll", "nothing"), ("roll", "other-player"), ("score", "other-player")],
)
def test_kill_before_the_ack_keeps_before_or_after(
    db_url: str, server_factory: ServerFactory, kind: str, wait: str
) -> None:
    """Kill with an act in flight. ``wait="nothing"``: kill at once (either outcome is right);
    ``"other-player"``: kill once the other player has seen the new state, before the sender
    has read its ack: the server broadcast it, so it must have been written and must survive."""
    match = Match(server_factory(db_url))
    match.sit()
    # up to a moment where the chosen action is a roll that keeps dice, or a score
    for _ in range(MAX_ACTIONS):
        action = choose(match.state)
        if len(match.acked) >= 10 and kind in action and (kind != "roll" or action["roll"]):
            break
        match.step()
    before = essential(match.state)
    mover = match.mover()
    other = next(p for p in match.players if p is not mover)
    version = mover.send_act(action)
    if wait == "other-player":
        other.wait_version(version + 1)
    match.server.kill()  # the sender never reads its acknowledgement
    match.drop()
    match.server.restart()
    match.reconnect()

    after = match.state
    if wait == "other-player":
        assert after["version"] == version + 1, "an action broadcast to the table was lost in the crash"
    if after["version"] == version:
        assert essential(after) == before, "not applied, yet the state changed"
    else:
        assert after["version"] == version + 1, f"version {version} became {after['version']}"
        assert after["last"] == {"seat": mover.seat, "action": after["last"]["action"]}
        assert normal(after["last"]["action"]) == normal(action)
        seat_before, seat_after = before["seats"][mover.seat], after["seats"][mover.seat]
        if kind == "score":
            assert after["current"] != before["current"], "a score passes the turn to the other player"
            written = sum(c is not None for c in seat_after["card"]) - sum(c is not None for c in seat_before["card"])
            assert written == 1
        else:
            assert after["current"] == before["current"]
            assert after["turn"]["throws"] == before["turn"]["throws"] + 1
            kept = [before["turn"]["dice"][i] for i in action["roll"]]
            assert sorted(after["turn"]["dice"][i] for i in after["turn"]["held"]) == sorted(kept)
            assert seat_after["card"] == seat_before["card"]
        match.acked.append(normal(action))
    match.finish()
