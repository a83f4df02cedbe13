"""The daily challenge in real browsers (web/static/daily.js): two people play today's Yatzy from the daily
page on the same dice (every turn's first throw the same), the same choices give the same score, the
standings page shows both, and a second game of the day is refused with a clear message."""

from __future__ import annotations

import re

from playwright.sync_api import Page, Route, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import roll, wait_my_turn_or_end, write_best
from tests.web.servers import LiveServer


def _play_today(page: Page, base: str, name: str) -> list[list[int]]:
    """From the daily page, play today's Yatzy: throw once, write the best box; every turn's first throw."""
    page.goto(f"{base}/daily")
    expect(page.get_by_test_id("daily-play-yatzy")).to_be_visible()  # the list is in: the field stays put
    page.get_by_test_id("daily-name").fill(name)
    page.get_by_test_id("daily-play-yatzy").click()
    expect(page).to_have_url(re.compile(r"/t/[a-z0-9]{8}$"))
    firsts = []
    while wait_my_turn_or_end(page):
        firsts.append(roll(page))
        write_best(page)
    return firsts


def test_two_people_play_todays_challenge_on_the_same_dice(web: LiveServer, new_page: NewPage) -> None:
    ana, bea = new_page(), new_page(locale="pt-BR", expected=[r"409 \(Conflict\).*/play"])  # the second game
    firsts_ana = _play_today(ana, web.url, "Ana")
    firsts_bea = _play_today(bea, web.url, "Bea")
    assert firsts_ana == firsts_bea and len(firsts_ana) == 15  # yatzy: 15 turns, each first throw shared
    bea.goto(f"{web.url}/daily")
    expect(bea.get_by_test_id("daily-yatzy")).to_contain_text("2 jogaram hoje")
    bea.get_by_test_id("daily-play-yatzy").click()
    expect(bea.get_by_test_id("toast")).to_contain_text("uma partida por dia")  # one game a day, in her language
    bea.get_by_test_id("daily-standings-yatzy").click()
    expect(bea.get_by_test_id("daily-row-1")).to_be_visible()
    rows = [bea.get_by_test_id(f"daily-row-{i}").inner_text() for i in (0, 1)]
    assert {("Ana" in r, "Bea" in r) for r in rows} == {(True, False), (False, True)}
    points = {re.findall(r"\b\d{2,3}\b", r)[0] for r in rows}
    assert len(points) == 1  # the same dice and the same choices: the same score
    expect(bea.get_by_test_id("daily-seed")).to_contain_text(re.compile("Compromisso: [0-9a-f]{64}"))


def test_the_name_typed_while_the_list_arrives_keeps_its_text_and_caret(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    held: list[Route] = []
    page.route("**/api/daily", lambda route: held.append(route))  # the list waits until the name is half typed
    page.goto(f"{web.url}/daily")
    field = page.get_by_test_id("daily-name")
    field.click()
    page.keyboard.type("An")
    while not held:  # the held request reaches the handler while the driver is spoken to
        page.wait_for_timeout(20)
    held[0].continue_()
    expect(page.get_by_test_id("daily-play-yatzy")).to_be_visible()  # the page was drawn again
    page.keyboard.type("a")  # no click: the caret is still in the field
    expect(field).to_have_value("Ana")
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == "daily-name"
