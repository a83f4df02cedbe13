"""Undo in the browser at a table of one person against a bot: the button appears once the player has
played, takes back a throw (thrown again, the same dice come) and, from the keyboard, a written slot with the
bot's turn after it; a table of two people never shows it."""

from __future__ import annotations

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    NO_SUDDEN_END,
    create_table,
    dice,
    open_table,
    roll,
    sit,
    table_state,
    wait_my_turn_or_end,
    write_best,
)
from tests.web.servers import LiveServer

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}


def test_undo_button_takes_back_a_throw_and_a_written_slot(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Rita")
    assert wait_my_turn_or_end(page)
    expect(page.get_by_test_id("undo")).to_have_count(0)  # nothing of ours to take back yet
    before = table_state(web.url, table_id)["state"]

    first = roll(page)
    expect(page.get_by_test_id("undo")).to_be_enabled()
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo")).to_have_count(0)
    after = table_state(web.url, table_id)["state"]
    assert after["version"] == before["version"] + 2
    assert (after["turn"], after["throws"]) == (before["turn"], before["throws"])
    assert roll(page) == first  # the dice come from the seed and the throw's index: the same faces again

    slot, _points = write_best(page)
    assert wait_my_turn_or_end(page)  # the bot has played its turn
    index = [s["slot"] for s in table_state(web.url, table_id)["table"]["rules"]["slots"]].index(slot)
    assert table_state(web.url, table_id)["state"]["seats"][0]["card"][index] is not None
    expect(page.get_by_test_id("undo")).to_have_attribute("aria-keyshortcuts", "U")
    page.keyboard.press("u")  # the keyboard reaches it too
    expect(page.get_by_test_id(f"slot-{slot}")).to_be_visible()  # our dice are back, the slot open again
    assert dice(page) == first
    state = table_state(web.url, table_id)["state"]
    assert state["seats"][0]["card"][index] is None and state["current"] == 0


def test_no_undo_button_at_a_table_of_two_people(web: LiveServer, new_page: NewPage) -> None:
    table_id = create_table(web.url, [HUMAN, HUMAN], rules=NO_SUDDEN_END)
    ana, bea = new_page(), new_page()
    open_table(ana, web.url, table_id)
    open_table(bea, web.url, table_id)
    sit(ana, 0, "Ana")
    sit(bea, 1, "Bea")
    mover = ana if table_state(web.url, table_id)["state"]["current"] == 0 else bea
    assert wait_my_turn_or_end(mover)
    roll(mover)
    expect(mover.get_by_test_id("roll")).to_be_visible()
    expect(mover.get_by_test_id("undo")).to_have_count(0)
