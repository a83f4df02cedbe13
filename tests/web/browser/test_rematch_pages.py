"""A rematch at a house-rule table with two people: one asks, both pages move to the new table, each in
their own seat."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import create_table, open_table, play_turn, sit, table_state
from tests.web.servers import LiveServer

# one box each and a shared win on a tie: a whole game is one turn each
ONE_TURN = 'base = "generala"\nname = "una-vuelta"\ntie_break = "shared"\n' \
           'remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble"]\n'


def my_turn(page: Page) -> bool:
    roll = page.get_by_test_id("roll")
    return roll.count() > 0 and roll.is_enabled()


def test_both_pages_follow_the_rematch_to_their_own_seats(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "human"}], profile=ONE_TURN)
    ana, bea = new_page(), new_page(locale="es-AR")
    open_table(ana, web.url, table_id)
    open_table(bea, web.url, table_id)
    sit(ana, 0, "Ana")
    sit(bea, 1, "Bea")
    for _ in range(40):
        if ana.get_by_test_id("result").count():
            break
        for page in (ana, bea):
            if my_turn(page):
                play_turn(page)
        ana.wait_for_timeout(100)
    expect(ana.get_by_test_id("result")).to_be_visible()
    expect(bea.get_by_test_id("result")).to_be_visible()
    bea.get_by_test_id("rematch").click()  # house rules: the button is there too
    same = re.compile(rf"/t/{table_id}$")
    expect(bea).not_to_have_url(same)
    expect(ana).not_to_have_url(same)  # Ana's page followed without a click
    new_id = bea.url.rstrip("/").rsplit("/", 1)[1]
    assert ana.url.rstrip("/").rsplit("/", 1)[1] == new_id
    expect(ana.get_by_test_id("col-0")).to_have_class(re.compile(r"\byou\b"))
    expect(bea.get_by_test_id("col-1")).to_have_class(re.compile(r"\byou\b"))
    new = table_state(web.url, new_id)
    assert new["table"]["rules"]["name"] == "una-vuelta"
    assert [s["name"] for s in new["state"]["seats"]] == ["Ana", "Bea"]
    assert new["state"]["status"] == "playing"
