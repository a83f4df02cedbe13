"""After its day, a daily challenge game replays beside the optimal player's game on the same dice: the
sheet has the optimal player's column turn by turn and the page says what the optimal player did in the
turn shown, and its final score; the page's own dice check passes on duplicate dice (it said the first
throw did not match the seed)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.conftest import sqlite_url
from tests.web.inproc import new_token, next_frame, running_app, state_at_least, table_socket
from tests.web.servers import ServerFactory

from cubilete.engine.record import DUPLICATE
from cubilete.engine.rules import find_rules
from cubilete.play.coach import solution_for
from cubilete.store import daily as daily_store
from cubilete.web.hub import player_id, token_hash


def _yesterdays_game(db: str) -> tuple[str, str]:
    """Ana's Generala of yesterday's challenge, played to its end (throw once, first open box); (table, seed)."""
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    token = new_token()
    with running_app(db) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        seed, _ = daily_store.challenge(hub.store, yesterday, "generala")
        room = client.portal.call(lambda: hub.create(
            find_rules("generala"), [("human", None)], None, False, [("Ana", token_hash(token), player_id(token))],
            seed=seed, dice=DUPLICATE, daily=f"{yesterday}/generala"))
        with table_socket(client, room.id, token) as ws:
            state = next_frame(ws, "state")
            while state["status"] != "finished":
                ws.send_json({"type": "act", "version": state["version"], "action": {"roll": []}})
                state = state_at_least(ws, state["version"] + 1)
                if state["status"] == "finished":
                    break
                slot = next(s["slot"] for s in state["sheet"] if s["state"] in ("usable", "scratch-only"))
                ws.send_json({"type": "act", "version": state["version"], "action": {"score": slot}})
                state = state_at_least(ws, state["version"] + 1)
        return room.id, seed


def test_a_past_daily_game_replays_beside_the_optimal_players(
        tmp_path: Path, server_factory: ServerFactory, new_page: NewPage, bots_solver_cache: Path) -> None:
    solution_for(find_rules("generala"))  # servers only load solved tables: solved once a session, here
    db = sqlite_url(tmp_path / "daily.sqlite3")
    table, _seed = _yesterdays_game(db)
    server = server_factory(db, env={"CUBILETE_CACHE_DIR": str(bots_solver_cache)})
    page = new_page(locale="es-AR")
    page.goto(f"{server.url}/replay/{table}")
    beside = page.get_by_test_id("optimal-beside")
    expect(beside).to_be_visible()
    expect(page.get_by_test_id("col-1")).to_contain_text("Jugador óptimo")
    expect(page.get_by_test_id("verify-result")).to_have_class(re.compile(r"\bok\b"))  # duplicate dice check out
    page.locator("body").press("Home")
    page.locator("body").press("ArrowRight")  # Ana's first throw: the optimal player's first turn beside it
    expect(beside.locator("li").first).to_contain_text("Jugador óptimo")
    expect(beside.locator("li").last).to_contain_text("anotó")  # its turn ends with a box
    page.locator("body").press("End")
    expect(beside).to_contain_text("El jugador óptimo terminó con")
    optimal = beside.inner_text().split("terminó con ")[1].split(" ")[0]
    expect(page.get_by_test_id("total-1")).to_have_text(optimal)
