"""axe-core on every page of the site, in English and Spanish: no ``serious`` or ``critical`` violation.

axe's JavaScript comes from the ``axe-playwright-python`` package (the ``test`` extra). The site's CSP
(``script-src 'self'``) blocks injected script tags, so the source is run through ``page.evaluate`` (a
DevTools evaluation, which the CSP does not apply to).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import SHORT_PROFILE, create_table, open_table, play_to_end, roll, sit, table_state
from tests.web.servers import LiveServer

BLOCKING = ("serious", "critical")


@cache
def axe_source() -> str:
    return files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [v for v in found if v.get("impact") in BLOCKING]


def describe(where: str, violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{where}: {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:  # what axe measured on each element says what to change
            why = "; ".join(check["message"] for check in node["any"] + node["all"] + node["none"])
            lines.append(f"    {' '.join(node['target'])}: {why}")
    return "\n".join(lines)


@pytest.mark.parametrize("locale", ["en-US", "es-AR"])
def test_no_serious_violation_on_any_page(web: LiveServer, new_page: NewPage, locale: str) -> None:
    page = new_page(locale=locale)
    problems: list[str] = []

    def check(where: str) -> None:
        found = axe_violations(page)
        if found:
            problems.append(describe(where, found))

    page.goto(f"{web.url}/")
    expect(page.locator("main h1").first).to_be_visible()
    check("home")

    table_id = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
                            profile=SHORT_PROFILE, coach=True)  # fmt: skip
    open_table(page, web.url, table_id)
    sit(page, 0, "Axel")
    roll(page)
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("advice-0")).to_be_visible()
    check("table in play, hints open")

    play_to_end(page)
    expect(page.get_by_test_id("result")).to_be_visible()
    check("end screen")
    pid = table_state(web.url, table_id)["state"]["seats"][0]["pid"]

    page.goto(f"{web.url}/games")
    expect(page.get_by_test_id(f"game-{table_id}")).to_be_visible()
    check("games")
    page.goto(f"{web.url}/leaderboard")
    expect(page.locator("main h1").first).to_be_visible()
    check("leaderboard")
    page.goto(f"{web.url}/p/{pid}")
    expect(page.get_by_test_id(f"game-{table_id}")).to_be_visible()
    check("player")
    page.goto(f"{web.url}/replay/{table_id}")
    expect(page.get_by_test_id("replay-step")).to_be_visible()
    check("replay")

    assert not problems, "axe found serious or critical violations:\n" + "\n".join(problems)
