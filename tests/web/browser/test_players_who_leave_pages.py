"""Players who leave, in two browsers (two contexts: two players): a timer that runs out says so on both
pages, each in its own language; a player who closes the page is shown "away" with a bot playing for them
on the other's page, once the grace time (1 s here) has passed. Every wait is on page state."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import SHORT_PROFILE, create_table, open_table, sit, table_state
from tests.web.conftest import sqlite_url
from tests.web.servers import LiveServer, start_server

TIMER = 10  # the shortest turn timer the API takes
WAIT_MS = (TIMER + 20) * 1000  # the timer, and room for a busy machine; never asserted as a duration


@pytest.fixture
def leaving_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose grace time before a stand-in is 1 s."""
    env = {"CUBILETE_AWAY_GRACE": "1", "CUBILETE_CONNECTS_PER_ADDRESS": "10000/minute"}
    server = start_server(sqlite_url(tmp_path / "web.sqlite3"), bot_delay=0.0, env=env,
                          log_path=tmp_path / "server.log")
    yield server
    server.stop()


def _console_errors(page: Page, into: list[str]) -> None:
    """Collect the page's console errors (every one: the CSP's refusal of the chance bars' widths is fixed)."""
    page.on("console", lambda msg: into.append(msg.text) if msg.type == "error" else None)


def test_the_notice_and_the_stand_in_label_reach_the_other_page(leaving_server: LiveServer,
                                                                new_page: NewPage) -> None:
    base = leaving_server.url
    table = create_table(base, [{"kind": "human"}, {"kind": "human"}], profile=SHORT_PROFILE, timer=TIMER)
    errors: list[str] = []
    ana, beto = new_page("en-US"), new_page("es-AR")
    for page in (ana, beto):
        _console_errors(page, errors)
    open_table(ana, base, table)
    sit(ana, 0, "Ana")
    open_table(beto, base, table)
    sit(beto, 1, "Beto")
    first = table_state(base, table)["state"]["current"]
    names = ["Ana", "Beto"]
    # nobody moves: the first player's timer runs out; both pages say so, each in its language
    expect(ana.get_by_test_id("notice")).to_have_text(f"Time's up: a bot played for {names[first]}", timeout=WAIT_MS)
    expect(beto.get_by_test_id("notice")).to_have_text(f"Se acabó el tiempo: un bot jugó por {names[first]}",
                                                       timeout=WAIT_MS)
    # the other player, whose turn it is now, closes the page: the first one sees a bot playing for them
    leaver = 1 - first
    stayer = (ana, beto)[first]
    (ana, beto)[leaver].goto("about:blank")
    label = "away · a bot plays" if stayer is ana else "ausente · juega un bot"
    expect(stayer.get_by_test_id(f"col-{leaver}")).to_contain_text(label, timeout=WAIT_MS)
    # the stand-in plays the leaver's turn: it is the stayer's turn again
    expect(stayer.get_by_test_id(f"col-{first}")).to_have_class(re.compile(r"\bcurrent\b"), timeout=WAIT_MS)
    state = table_state(base, table)["state"]
    assert state["seats"][leaver]["away"] and sum(v is not None for v in state["seats"][leaver]["card"]) == 1
    assert not errors, "\n".join(errors)
