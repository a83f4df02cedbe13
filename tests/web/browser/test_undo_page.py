"""Undo in the browser at a table of one person against a bot (web/undo.py): no button after a throw (dice
once seen stay), the button after a box while the bot waits, and from the keyboard it takes the box back
with the same dice on the table; a table of two people never shows it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
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
from tests.web.conftest import sqlite_url
from tests.web.servers import LiveServer, start_server

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}


@pytest.fixture(scope="module")
def waiting_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose bots wait long after a person's box before throwing (``undo_window``), so the page
    shows the undo button for as long as the test needs; nothing here waits the window out."""
    folder = tmp_path_factory.mktemp("undo-server")
    server = start_server(sqlite_url(folder / "web.sqlite3"), env={"CUBILETE_UNDO_WINDOW": "600"},
                          log_path=folder / "server.log")
    yield server
    server.stop()


def test_undo_takes_back_a_box_but_never_a_throw(waiting_bot: LiveServer, new_page: NewPage) -> None:
    web = waiting_bot
    table_id = create_table(web.url, [HUMAN, GREEDY], rules=NO_SUDDEN_END)
    page = new_page()
    open_table(page, web.url, table_id)
    sit(page, 0, "Rita")
    assert wait_my_turn_or_end(page)
    expect(page.get_by_test_id("undo")).to_have_count(0)  # nothing of ours to take back yet

    first = roll(page)
    expect(page.get_by_test_id("roll")).to_be_visible()
    expect(page.get_by_test_id("undo")).to_have_count(0)  # a throw is never taken back: its dice were seen

    slot, _points = write_best(page)
    expect(page.get_by_test_id("undo")).to_be_enabled()  # the bot waits before its throw
    index = [s["slot"] for s in table_state(web.url, table_id)["table"]["rules"]["slots"]].index(slot)
    assert table_state(web.url, table_id)["state"]["seats"][0]["card"][index] is not None
    expect(page.get_by_test_id("undo")).to_have_attribute("aria-keyshortcuts", "U")
    page.keyboard.press("u")  # the keyboard reaches it too
    expect(page.get_by_test_id(f"slot-{slot}")).to_be_visible()  # our dice are back, the slot open again
    assert dice(page) == first
    expect(page.get_by_test_id("undo")).to_have_count(0)
    state = table_state(web.url, table_id)["state"]
    assert state["seats"][0]["card"][index] is None and state["current"] == 0 and state["undos"] == 1


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
