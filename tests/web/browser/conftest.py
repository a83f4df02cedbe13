"""Fixtures for the browser tests: one headless Chromium and one live ``cubilete serve`` per session.

Chromium is Debian's (/usr/bin/chromium); the machine is offline, so ``playwright install`` is never used.
Every page a test opens fails the test on an uncaught JavaScript error, an error on the console (a style or
script the CSP blocked, a failed fetch) or a request that failed, except those the test says it expects.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from tests.web.conftest import sqlite_url
from tests.web.servers import LiveServer, start_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
]  # fmt: skip
TIMEOUT_MS = 60_000  # a bound for a hung page on a loaded 2-core machine (load 11 passed 15 s); never a speed check
expect.set_options(timeout=TIMEOUT_MS)  # expect() has its own default (5 s), separate from the pages'


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium for the whole session."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package", pytrace=False)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server (SQLite, no bot delay) shared by the browser tests; each test makes its own tables."""
    folder = tmp_path_factory.mktemp("browser-server")
    # the whole browser suite comes from one address: per-address limits as for a busy proxy's many users
    relaxed = {"CUBILETE_TABLES_PER_ADDRESS": "10000/minute", "CUBILETE_CONNECTS_PER_ADDRESS": "10000/minute",
               "CUBILETE_SOCKETS_PER_ADDRESS": "1000"}
    server = start_server(sqlite_url(folder / "web.sqlite3"), bot_delay=0.0, env=relaxed,
                          log_path=folder / "server.log")
    yield server
    server.stop()


NewPage = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """``new_page(locale="en-US", viewport=(1280, 900), expected=())``: a page in a fresh context (its own
    localStorage).

    Each call is a separate browser profile, i.e. another player. JavaScript errors, console errors and failed
    requests fail the test, except those matching a regular expression of ``expected`` (a 404 the test asks for).
    """
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(
        locale: str = "en-US", viewport: tuple[int, int] = (1280, 900), expected: Sequence[str] = ()
    ) -> Page:
        ctx = browser.new_context(locale=locale, viewport={"width": viewport[0], "height": viewport[1]})
        ctx.set_default_timeout(TIMEOUT_MS)
        contexts.append(ctx)
        page = ctx.new_page()

        def error(text: str) -> None:
            if not any(re.search(pattern, text) for pattern in expected):
                errors.append(text)

        page.on("pageerror", lambda exc: error(f"uncaught: {exc}"))
        page.on("console", lambda msg: error(f"console: {msg.text} ({msg.location.get('url', '')})")
                if msg.type == "error" else None)
        page.on("requestfailed", lambda req: error(f"request failed: {req.method} {req.url} {req.failure}")
                if req.failure and "ERR_ABORTED" not in req.failure else None)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"errors in the page: {errors}"
