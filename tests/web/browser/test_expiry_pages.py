"""A table nobody comes to sit at expires (issue 26): both people on its page are told, in their language, and
its link then finds no table. Waits on the pages' state; the server's expiry time is short for the test."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import create_table, open_table, sit
from tests.web.conftest import ServerFactory

HUMAN = {"kind": "human"}
# after the expiry the page's socket is closed and its reconnections find no table: expected, not page errors
GONE = [r"WebSocket connection to .* failed", r"status of 404", r"status of 410"]


def test_a_table_nobody_joins_expires_for_everyone_on_it(server_factory: ServerFactory, new_page: NewPage) -> None:
    server = server_factory(env={"CUBILETE_WAITING_EXPIRY": "3"})
    table_id = create_table(server.url, [HUMAN, HUMAN])
    ana = new_page(expected=GONE)
    open_table(ana, server.url, table_id)
    sit(ana, 0, "Ana")  # one seat of two: the table waits for a second person who never comes
    beto = new_page(locale="es-AR", expected=GONE)
    open_table(beto, server.url, table_id)  # looking, not sitting
    expect(ana.locator("#toast")).to_contain_text("Nobody sat down in time: this table has expired.")
    expect(beto.locator("#toast")).to_contain_text("Nadie se sentó a tiempo: esta mesa venció.")
    with pytest.raises(urllib.error.HTTPError) as gone:  # the link finds no table any more
        urllib.request.urlopen(f"{server.url}/api/tables/{table_id}", timeout=30)
    assert gone.value.code == 404

