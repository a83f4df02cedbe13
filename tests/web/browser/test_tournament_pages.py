"""A tournament in real browsers (web/static/tournament.js): an organiser makes a Swiss of two rounds from the
form, Ana joins by the shared link on a phone in Portuguese, bots fill the other seats, the organiser starts
it; Ana is sent to her table each round, plays it, goes back to the tournament from the table, and sees the
final standings (the winner marked, the results to download)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import play_to_end
from tests.web.servers import LiveServer


def _play_my_round(ana: Page, round_no: int) -> None:
    expect(ana.get_by_test_id("tour-status")).to_contain_text(f"Rodada {round_no} de 2")
    ana.get_by_test_id("tour-your-table").click()
    expect(ana).to_have_url(re.compile(r"/t/[a-z0-9]{8}$"))
    play_to_end(ana)
    ana.get_by_test_id("tournament-link").click()
    expect(ana).to_have_url(re.compile(r"/tournaments/[a-z0-9]{8}$"))


def test_a_swiss_of_two_rounds_with_bots_from_the_forms(web: LiveServer, new_page: NewPage) -> None:
    org = new_page()
    org.goto(f"{web.url}/tournaments")
    expect(org.get_by_test_id("tour-form")).to_be_visible()  # (other tests may have made tournaments here)
    org.get_by_test_id("tour-name").fill("Noche de Generala")
    org.get_by_test_id("tour-rules").select_option("generala")
    org.get_by_test_id("tour-format").select_option("swiss")
    org.get_by_test_id("tour-rounds").fill("2")
    org.get_by_test_id("tour-create").click()
    expect(org).to_have_url(re.compile(r"/tournaments/[a-z0-9]{8}$"))
    expect(org.get_by_test_id("tour-status")).to_have_text("Open for entries")
    link = org.get_by_test_id("tour-share").input_value()

    ana = new_page(locale="pt-BR", viewport=(390, 844))
    ana.goto(link)
    ana.get_by_test_id("tour-join-name").fill("Ana")
    ana.get_by_test_id("tour-join").click()
    expect(ana.get_by_test_id("tour-entrants")).to_contain_text("Ana (você)")
    assert ana.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone

    expect(org.get_by_test_id("tour-entrants")).to_contain_text("Ana")  # the organiser's page follows
    org.get_by_test_id("tour-bot-level").select_option("random")
    org.get_by_test_id("tour-bot-count").fill("3")
    org.get_by_test_id("tour-add-bots").click()
    expect(org.get_by_test_id("tour-entrants").locator("li")).to_have_count(4)
    org.get_by_test_id("tour-start").click()
    expect(org.get_by_test_id("tour-status")).to_have_text("Round 1 of 2")
    expect(org.get_by_test_id("tour-round-1").locator("li")).to_have_count(2)  # two tables of two

    _play_my_round(ana, 1)
    _play_my_round(ana, 2)
    expect(ana.get_by_test_id("tour-status")).to_have_text("Encerrado")
    standings = ana.get_by_test_id("tour-standings")
    expect(standings.locator("tbody tr")).to_have_count(4)
    expect(ana.get_by_test_id("tour-row-0")).to_contain_text("🏆")
    expect(standings).to_contain_text("Ana")
    expect(ana.get_by_test_id("tour-csv")).to_have_attribute("href", re.compile(r"/results\.csv$"))
    # every table of both rounds is over, with a winner marked
    for round_no in (1, 2):
        for table in range(2):
            card = ana.get_by_test_id(f"tour-table-{round_no}-{table}")
            expect(card).to_contain_text("encerrada")
            expect(card.locator(".winner").first).to_be_visible()
