"""A club in real browsers (web/static/club.js): an organiser makes one with its house rules and keeps the
secret link (gone from the address bar, remembered by that browser); Ana and Bea join by the club's link;
Ana opens a club game with the house rules, both play it, and the club's standings count it; the organiser
removes a member; a member never sees the organiser's tools."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import SHORT_PROFILE, play_turn, sit, table_state, wait_my_turn_or_end
from tests.web.servers import LiveServer


def test_a_club_from_its_making_to_its_standings(web: LiveServer, new_page: NewPage) -> None:
    org = new_page()
    org.goto(f"{web.url}/")
    org.get_by_test_id("clubs-home").click()
    org.get_by_test_id("club-name").fill("Club del Bar")
    org.locator("details summary").click()
    org.get_by_test_id("club-house-name").fill("la corta")
    org.get_by_test_id("club-house").fill(SHORT_PROFILE)
    org.get_by_test_id("club-create").click()
    expect(org.get_by_test_id("club-title")).to_have_text("Club del Bar")
    expect(org).to_have_url(re.compile(r"/clubs/[a-z0-9]{8}$"))  # the key left the address bar
    expect(org.get_by_test_id("club-organiser")).to_be_visible()
    secret = org.get_by_test_id("club-key").input_value()
    assert re.search(r"#key=[A-Za-z0-9_-]{20,}$", secret)
    share = org.get_by_test_id("club-share").input_value()
    assert "#key" not in share

    ana, bea = new_page(locale="es-AR"), new_page(locale="pt-BR", viewport=(390, 844))
    for page, name in ((ana, "Ana"), (bea, "Bea")):
        page.goto(share)
        expect(page.get_by_test_id("club-organiser")).to_have_count(0)  # the join link manages nothing
        page.get_by_test_id("club-join-name").fill(name)
        page.get_by_test_id("club-join").click()
        expect(page.get_by_test_id("club-leave")).to_be_visible()
    assert bea.evaluate("() => document.documentElement.scrollWidth") <= 390

    ana.get_by_test_id("club-game-rules").select_option("house:la corta")
    ana.get_by_test_id("club-new-game").click()
    ana.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    expect(ana.get_by_test_id("col-0")).to_contain_text("Ana")
    bea.goto(ana.url)
    sit(bea, 1, "Bea")
    table_id = ana.url.rsplit("/", 1)[1]
    while (state := table_state(web.url, table_id)["state"])["status"] != "finished":  # turn by turn, two each
        player = (ana, bea)[state["current"]]
        if wait_my_turn_or_end(player):
            play_turn(player)

    ana.goto(share)
    expect(ana.get_by_test_id("club-row-0")).to_contain_text("1")
    rows = [ana.get_by_test_id(f"club-row-{i}").inner_text() for i in (0, 1)]
    assert {("Ana" in r, "Bea" in r) for r in rows} == {(True, False), (False, True)}
    expect(ana.get_by_test_id("club-games").locator("li")).to_have_count(1)

    org.reload()  # the organiser's browser remembers the key
    expect(org.get_by_test_id("club-members").locator("li")).to_have_count(2)
    org.locator("[data-testid^=club-remove-]").first.click()
    expect(org.get_by_test_id("club-members").locator("li")).to_have_count(1)
