"""Players who leave, on a site of two processes on one PostgreSQL (docs/WEB.md, "Players who leave"):
absence is judged by the whole site. Ana plays through process A (which made the table, so it drives it),
Beto through process B: Beto is not absent while his connection to B lives, however long A's grace time;
once he leaves, A's stand-in plays his turn and Ana sees the label."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from typing import Any

import httpx
from tests.web.servers import ServerFactory
from tests.web.test_crash import FRAME_TIMEOUT, Player, choose
from websockets.exceptions import ConnectionClosed

GRACE = 1.0
SITE = {"CUBILETE_SITE_POLL": "0.2", "CUBILETE_AWAY_GRACE": str(GRACE)}
PROFILE = 'base = "generala-sin-gana"\nrounds = 3\n'  # small: the stand-in's tables solve at once


def _state_where(p: Player, test: Any, what: str, limit: float = 4 * FRAME_TIMEOUT) -> dict[str, Any]:
    end = time.monotonic() + limit
    while not test(p.state):
        assert time.monotonic() < end, f"never saw {what}; last state {p.state.get('version')}"
        p.recv_state()
    return p.state


def _act(p: Player, others: list[Player]) -> None:
    version = p.send_act(choose(p.state))
    for q in [p, *others]:
        q.wait_version(version + 1)


def test_a_player_on_the_other_process_is_not_absent_until_he_leaves(fresh_pg_url: str,
                                                                      server_factory: ServerFactory) -> None:
    a = server_factory(fresh_pg_url, env=SITE)
    b = server_factory(fresh_pg_url, env=SITE)
    body = {"profile": PROFILE, "seats": [{"kind": "human"}, {"kind": "human"}], "timer": None, "coach": False}
    made = httpx.post(f"{a.url}/api/tables", json=body, timeout=FRAME_TIMEOUT)
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    ana = Player(a, table, secrets.token_hex(16)).connect()
    beto = Player(b, table, secrets.token_hex(16)).connect()
    ana.send({"type": "sit", "seat": 0, "name": "Ana"})
    _state_where(ana, lambda s: s["seats"][0]["name"] == "Ana", "Ana seated")
    beto.send({"type": "sit", "seat": 1, "name": "Beto"})
    _state_where(ana, lambda s: s["status"] == "playing", "the game start")
    _state_where(beto, lambda s: s["version"] >= ana.state["version"], "Beto at the start")
    while ana.state["current"] == 0:  # Ana's turn first if the seed says so: then it is Beto's
        _act(ana, [beto])
    # process A (the driver) shows Beto connected through B: the presence crossed the site
    deadline = time.monotonic() + FRAME_TIMEOUT
    while not httpx.get(f"{a.url}/api/tables/{table}", timeout=FRAME_TIMEOUT).json()["state"]["seats"][1]["connected"]:
        assert time.monotonic() < deadline, "A never saw Beto's connection to B"
    # Beto thinks for three times the grace time: nobody plays for him, nobody is marked away
    version = ana.state["version"]
    assert ana.ws is not None
    end = time.monotonic() + 3 * GRACE
    while (left := end - time.monotonic()) > 0:
        try:
            frame = json.loads(ana.ws.recv(timeout=left))
        except TimeoutError:
            break
        assert frame["type"] in ("presence", "pong", "state"), frame
        if frame["type"] == "state":
            assert frame["version"] == version and not frame["seats"][1]["away"], frame
        assert frame.get("connected", True), frame  # never shown gone
    _act(beto, [ana])  # Beto plays himself
    # Beto leaves: after the grace time A's stand-in plays for him, labelled
    beto.close()
    labelled = _state_where(ana, lambda s: s["seats"][1]["away"], "Beto marked away")
    assert labelled["current"] == 1
    done = _state_where(ana, lambda s: s["current"] == 0, "the stand-in finishing Beto's turn")
    assert done["last"]["seat"] == 1 and "score" in done["last"]["action"] and done["seats"][1]["away"]
    with contextlib.suppress(ConnectionClosed):
        ana.close()
