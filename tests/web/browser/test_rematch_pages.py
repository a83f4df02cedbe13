"""A rematch at a house-rule table with two people: one asks, both pages move to the new table, each in
their own seat."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import create_table, open_table, play_turn, sit, table_state, wait_my_turn_or_end
from tests.web.servers import LiveServer

# one box each and a shared win on a tie: a whole game is one turn each
ONE_TURN = 'base = "generala"\nname = "una-vuelta"\ntie_break = "shared"\n' \
           'remove = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble"]\n'


def play_out(base: str, table_id: str, pages: tuple[Page, Page]) -> None:
    """Each person plays their turn when the server says it is theirs, until the game is over (waiting on the
    table's state, never on a clock: a page's Roll button may go between looking at it and using it)."""
    deadline = time.monotonic() + 300
    while (state := table_state(base, table_id)["state"])["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        mover, seat = pages[state["current"]], state["current"]
        if wait_my_turn_or_end(mover):
            play_turn(mover)
        while (now := table_state(base, table_id)["state"])["status"] != "finished" and now["current"] == seat:
            assert time.monotonic() < deadline, "the turn was never written"
            time.sleep(0.05)


def test_both_pages_follow_the_rematch_to_their_own_seats(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "human"}], profile=ONE_TURN)
    ana, bea = new_page(), new_page(locale="es-AR")
    open_table(ana, web.url, table_id)
    open_table(bea, web.url, table_id)
    sit(ana, 0, "Ana")
    sit(bea, 1, "Bea")
    play_out(web.url, table_id, (ana, bea))
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
