"""Issue 26: a table whose house rules are still being solved opens at once, says "approximate while
solving" in the page's language, and drops the notice when the solve is done (no move needed)."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import create_table, open_table, table_state
from tests.web.servers import LiveServer

from cubilete.web.solving_words import SOLVING_WORDS

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "level": "greedy"}
SOLVE_WAIT_MS = 300_000  # the solve and its win tables take about 25 s on a busy 2-core machine; bounded


def test_the_page_says_approximate_while_solving_then_upgrades(web: LiveServer, new_page: NewPage) -> None:
    # house rules never solved before in this session's cache (a value of the generala no preset has): a real
    # solve of a few seconds of CPU. Kept small: the win tables grow with the scores' range (a Generala of
    # several thousand points took minutes)
    value = 61 + secrets.randbelow(39)
    profile = f'base = "generala"\nname = "solving-{value}"\n[box.generala]\nvalue = {value}\n'
    table_id = create_table(web.url, [HUMAN, GREEDY], profile=profile, coach=True)
    assert table_state(web.url, table_id)["state"]["solving"] == SOLVING_WORDS
    page = new_page(locale="es-AR")
    open_table(page, web.url, table_id)
    notice = page.get_by_test_id("solving")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Aproximado mientras se resuelven estas reglas")
    expect(notice).to_be_hidden(timeout=SOLVE_WAIT_MS)  # the upgrade's state frame, not a reload
    assert table_state(web.url, table_id)["state"]["solving"] is None
