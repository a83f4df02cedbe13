"""A turn-based game in real browsers (web/turnbased.py): Ana makes one from the home form (a day per turn),
Bea sits by the link; each plays their turn and leaves, and comes back from the home page, where "Your games"
says whose turn it is; the table shows the time per turn and when the turn runs out. The clock running out
is tested in-process (tests/web/test_turn_based.py: the desk's clock moved forward, not slept)."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import play_turn, sit, table_state, wait_my_turn_or_end
from tests.web.servers import LiveServer


def _come_back_and_play(context: BrowserContext, base: str, table_id: str) -> None:
    """A new page of the same browser: the home page lists the game as its turn; play one turn there, leave."""
    page = context.new_page()
    page.goto(f"{base}/")
    game = page.get_by_test_id(f"my-game-{table_id}")
    expect(game).to_contain_text(re.compile("your turn|te toca"))
    game.locator("a").click()
    expect(page.get_by_test_id("turn-based-line")).to_contain_text(re.compile("1 day|1 día"))
    assert wait_my_turn_or_end(page)
    play_turn(page)
    page.close()


def test_a_game_over_days_is_played_across_reconnects(web: LiveServer, new_page: NewPage) -> None:
    ana = new_page()
    ana.goto(f"{web.url}/")
    ana.get_by_test_id("name").fill("Ana")
    ana.get_by_test_id("rules").select_option("generala-sin-gana")
    ana.get_by_test_id("seat-kind-1").select_option("human")
    ana.get_by_test_id("timer").select_option("days:1")
    ana.get_by_test_id("create").click()
    ana.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    table_id = ana.url.rsplit("/", 1)[1]
    expect(ana.get_by_test_id("col-0")).to_contain_text("Ana")

    bea: Page = new_page(locale="es-AR")
    bea.goto(f"{web.url}/t/{table_id}")
    sit(bea, 1, "Bea")
    expect(bea.get_by_test_id("turn-based-line")).to_contain_text("1 día(s) por turno")
    assert table_state(web.url, table_id)["table"]["turn_hours"] == 24
    contexts = {0: ana.context, 1: bea.context}
    ana.close()
    bea.close()
    for _ in range(4):  # two turns each, everyone away in between
        state = table_state(web.url, table_id)["state"]
        assert state["status"] == "playing" and not any(s["away"] for s in state["seats"])
        _come_back_and_play(contexts[state["current"]], web.url, table_id)
    state = table_state(web.url, table_id)["state"]
    assert [sum(v is not None for v in s["card"]) for s in state["seats"]] == [2, 2]
    assert state["turn_based"]["deadline"] > 0
