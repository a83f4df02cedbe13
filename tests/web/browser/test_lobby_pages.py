"""The lobby in real browsers (web/static/lobby.js): two people press "Play now" for the same game and land at
one table, seated; a table open to anyone shows in the lobby and a third person joins it from there; a lone
seeker is offered bots and plays them; the home page leads to the lobby; the lobby reads in Spanish."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import http_json, table_state
from tests.web.conftest import sqlite_url
from tests.web.servers import LiveServer, start_server

TABLE_URL = re.compile(r"/t/([a-z0-9]{8})$")


@pytest.fixture(scope="module")
def lobby_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose lobby rounds are quick and whose seekers are offered a bot after a second."""
    folder = tmp_path_factory.mktemp("lobby-server")
    env = {"CUBILETE_LOBBY_REFRESH": "0.2", "CUBILETE_SEEK_BOT_AFTER": "1"}
    server = start_server(sqlite_url(folder / "web.sqlite3"), env=env, log_path=folder / "server.log")
    yield server
    server.stop()


def _seek(page: Page, base: str, name: str, rules: str = "generala", players: int = 2) -> None:
    page.goto(f"{base}/lobby")
    expect(page.get_by_test_id("lobby-open-none").or_(page.get_by_test_id("lobby-open"))).to_be_visible()
    page.get_by_test_id("lobby-name").fill(name)
    page.get_by_test_id("lobby-rules").select_option(rules)
    page.get_by_test_id("lobby-players").select_option(str(players))
    page.get_by_test_id("lobby-seek").click()
    # seeking, or already matched (someone was waiting: the page goes to the table at once)
    expect(page.get_by_test_id("lobby-seeking").or_(page.get_by_test_id("sheet"))).to_be_visible()


def _table_id(page: Page) -> str:
    expect(page).to_have_url(TABLE_URL)
    found = TABLE_URL.search(page.url)
    assert found is not None
    return found.group(1)


def test_two_people_pressing_play_now_meet_at_one_table(lobby_web: LiveServer, new_page: NewPage) -> None:
    ana, bea = new_page(), new_page()
    _seek(ana, lobby_web.url, "Ana", "yatzy")
    _seek(bea, lobby_web.url, "Bea", "yatzy")
    table = _table_id(ana)
    assert _table_id(bea) == table
    for page, name in ((ana, "Ana"), (bea, "Bea")):
        expect(page.get_by_test_id("sheet")).to_be_visible()
        expect(page.locator("[data-testid^=col-].you")).to_contain_text(name)  # seated by the match
    state = table_state(lobby_web.url, table)
    assert [s["name"] for s in state["state"]["seats"]] == ["Ana", "Bea"] and state["state"]["status"] == "playing"
    assert state["table"]["coach"] is False and state["table"]["listed"] is True


def test_an_open_table_is_joined_from_the_lobby(lobby_web: LiveServer, new_page: NewPage) -> None:
    made = http_json(f"{lobby_web.url}/api/tables", {"rules": "generala", "seats": [{"kind": "human"}] * 2,
                                                     "listed": True})
    carla = new_page(locale="es-AR")
    carla.goto(f"{lobby_web.url}/lobby")
    expect(carla.get_by_role("heading", level=1)).to_have_text("Salón")
    carla.get_by_test_id(f"lobby-join-{made['id']}").click()
    expect(carla).to_have_url(re.compile(f"/t/{made['id']}$"))
    carla.get_by_test_id("seat-name-input-0").fill("Carla")
    carla.get_by_test_id("sit-0").click()
    expect(carla.get_by_test_id("col-0")).to_contain_text("Carla")
    dan = new_page()
    dan.goto(f"{lobby_web.url}/lobby")
    expect(dan.get_by_test_id(f"lobby-open-{made['id']}")).to_contain_text("Carla")  # pushed as it changed


def test_a_lone_seeker_is_offered_bots(lobby_web: LiveServer, new_page: NewPage) -> None:
    eva = new_page()
    eva.goto(lobby_web.url)
    eva.get_by_test_id("play-now").click()
    expect(eva).to_have_url(re.compile("/lobby$"))
    _seek(eva, lobby_web.url, "Eva", "bozo", 3)
    eva.get_by_test_id("lobby-bot").click()  # offered after the server's wait (a second here)
    table = _table_id(eva)
    expect(eva.get_by_test_id("col-0")).to_contain_text("Eva")
    seats = table_state(lobby_web.url, table)["state"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
