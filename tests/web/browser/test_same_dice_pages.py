"""Same dice for everyone in real browsers (web/duplicate.py): two people play a same-dice game, the rematch
is the match's second game with the seats swapped (each page takes its new seat by itself), and at its end
both pages show the match: both games per person and who decided better."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import http_json, open_table, sit, table_state
from tests.web.browser.test_rematch_pages import ONE_TURN, play_out
from tests.web.servers import LiveServer


def test_a_same_dice_match_of_two_games_in_the_browser(web: LiveServer, new_page: NewPage) -> None:
    made = http_json(f"{web.url}/api/tables", {"profile": ONE_TURN, "seats": [{"kind": "human"}] * 2,
                                               "coach": False, "same_dice": True})
    first = str(made["id"])
    ana, bea = new_page(), new_page(locale="pt-BR")
    open_table(ana, web.url, first)
    open_table(bea, web.url, first)
    sit(ana, 0, "Ana")
    sit(bea, 1, "Bea")
    expect(ana.get_by_test_id("same-dice")).to_have_count(0)  # said at the end, with the rematch button
    play_out(web.url, first, (ana, bea))
    expect(ana.get_by_test_id("same-dice")).to_be_visible()
    ana.get_by_test_id("rematch").click()
    expect(bea).not_to_have_url(re.compile(rf"/t/{first}$"))
    expect(ana).not_to_have_url(re.compile(rf"/t/{first}$"))
    second = ana.url.rstrip("/").rsplit("/", 1)[1]
    expect(ana.get_by_test_id("col-1")).to_have_class(re.compile(r"\byou\b"))  # seats swapped
    expect(bea.get_by_test_id("col-0")).to_have_class(re.compile(r"\byou\b"))
    assert table_state(web.url, second)["state"]["match_of"] == first
    play_out(web.url, second, (bea, ana))
    for page in (ana, bea):
        expect(page.get_by_test_id("match-result")).to_contain_text(re.compile(r"Ana \d+ – Bea \d+|Bea \d+ – Ana \d+"))
