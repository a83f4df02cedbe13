"""Ratings on the pages (docs/RATINGS.md): after a ranked game between two people the leaderboard shows both
ratings for each (results with their uncertainty, points lost per decision), sortable, and each player's
page shows their rating with a chart of its history; in Spanish too."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import http_json
from tests.web.servers import LiveServer
from tests.web.test_crash import RULES, Match


def _ranked_game(web: LiveServer) -> list[dict[str, object]]:
    match = Match(web)
    match.sit()
    while match.state["status"] != "finished":
        match.step()
    match.drop()
    deadline = time.monotonic() + 120  # rated in a worker thread after the last move
    while len(rated := http_json(f"{web.url}/api/ratings?preset={RULES}")) < 2:
        assert time.monotonic() < deadline, "the game was never rated"
        time.sleep(0.1)
    return [r for r in rated if r["name"] in ("P0", "P1")]  # type: ignore[index]


def test_the_leaderboard_and_the_player_page_show_both_ratings(web: LiveServer, new_page: NewPage) -> None:
    rated = _ranked_game(web)
    page = new_page(locale="es-AR")
    page.goto(f"{web.url}/leaderboard?preset={RULES}")
    expect(page.get_by_test_id("ratings")).to_be_visible()
    first = page.get_by_test_id("rating-row-0")
    expect(first).to_contain_text("±")
    page.get_by_test_id("ratings-sort").select_option("decision")
    expect(page.get_by_test_id("rating-row-0")).to_be_visible()
    pid = str(rated[0]["pid"])
    page.goto(f"{web.url}/p/{pid}")
    card = page.get_by_test_id(f"player-rating-{RULES}")
    expect(card).to_contain_text("Rating")
    expect(card.locator("svg.rating-chart polyline")).to_have_count(1)
    assert card.locator("svg.rating-chart").get_attribute("aria-label") == "El rating después de cada una de 1 partidas"
