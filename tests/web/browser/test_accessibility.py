"""axe-core (the bundled axe.min.js of the axe-playwright-python package) on every page, in English and
Spanish: no serious or critical violation. The page's CSP never lets an injected script run, so axe is
evaluated through Playwright (the browser's debugging protocol, which the CSP does not govern)."""

from __future__ import annotations

import importlib.resources
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import (
    SHORT_PROFILE,
    create_table,
    open_table,
    play_to_end,
    roll,
    sit,
    wait_my_turn_or_end,
    write_best,
)
from tests.web.servers import LiveServer

AXE = importlib.resources.files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")
# records every text of the live region (the bot's move follows the player's at once: watch, not poll)
HEAR = """() => { window.__heard = []; const spoken = document.querySelector('[data-testid=announce]');
  new MutationObserver(() => window.__heard.push(spoken.textContent))
    .observe(spoken, { childList: true, characterData: true, subtree: true }); }"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Serious and critical violations of the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(f"() => {{ {AXE}\n; window.axe = axe; }}")
    found = page.evaluate("async () => (await window.axe.run(document, {resultTypes: ['violations']})).violations")
    return [v for v in found if v.get("impact") in SERIOUS]


def _describe(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:4]]}"
                     for v in violations)


@pytest.fixture(scope="module")
def finished(web: LiveServer, browser: Any) -> str:
    """One game played to its end with the coach on (for the end screen, the replay and the player's page)."""
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE,
                         coach=True)
    context = browser.new_context()
    page = context.new_page()
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    play_to_end(page)
    context.close()
    return table


@pytest.mark.parametrize("locale", ["en-US", "es-AR"])
def test_no_page_has_a_serious_accessibility_violation(web: LiveServer, new_page: NewPage, finished: str,
                                                        locale: str) -> None:
    page = new_page(locale=locale)
    problems: dict[str, str] = {}

    def check(name: str) -> None:
        found = axe_violations(page)
        if found:
            problems[name] = _describe(found)

    page.goto(f"{web.url}/")
    expect(page.get_by_test_id("create")).to_be_visible()
    check("home")
    page.get_by_test_id("rules").select_option("__profile__")
    expect(page.get_by_test_id("house-on-doble")).to_be_visible()
    check("home, house rules")
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE,
                         coach=True)
    open_table(page, web.url, table)
    check("table, waiting")
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    roll(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("advice-0")).to_be_visible()
    check("table in play, hints open")
    page.goto(f"{web.url}/t/{finished}")
    expect(page.get_by_test_id("result")).to_be_visible()
    check("end screen")
    pid = page.get_by_test_id("standings").locator("li").first.get_attribute("data-testid")
    assert pid is not None
    for name, path, ready in (("games", "/games", "games"), ("leaderboard", "/leaderboard", None),
                              ("lobby", "/lobby", None), ("daily", "/daily", None),
                              ("replay", f"/replay/{finished}", "replay-step")):
        page.goto(f"{web.url}{path}")
        if ready:
            expect(page.get_by_test_id(ready).first).to_be_visible()
        else:
            expect(page.locator("main h1").first).to_be_visible()
        check(name)
    page.goto(f"{web.url}/games")
    player = page.locator("a[href^='/p/']").first
    expect(player).to_be_visible()
    player.click()
    expect(page).to_have_url(re.compile(r"/p/[0-9a-f]{16}$"))
    expect(page.locator("main h1").first).to_be_visible()
    check("player")
    assert not problems, "\n\n".join(f"{name}:\n{text}" for name, text in problems.items())


def test_the_check_sees_a_violation(web: LiveServer, new_page: NewPage) -> None:
    page = new_page()
    page.goto(f"{web.url}/")
    expect(page.get_by_test_id("create")).to_be_visible()
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")  # no name
    assert "button-name" in {v["id"] for v in axe_violations(page)}


def test_a_screen_reader_hears_each_throw_with_its_faces_and_each_box(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE)
    page = new_page()
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    faces = roll(page)
    announce = page.get_by_test_id("announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text(f"Ana threw (servida) — dice: {' '.join(map(str, faces))}")
    die = page.get_by_test_id("die-0")
    expect(die).to_have_attribute("aria-label", re.compile(rf"^Die 1: {faces[0]}"))  # a named button
    expect(die).to_have_attribute("aria-pressed", "false")
    page.evaluate(HEAR)
    write_best(page)
    page.wait_for_function("() => window.__heard.some((t) => /^Ana (wrote|scratched) /.test(t))")  # then the bot's
