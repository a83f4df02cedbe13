"""Keys on the web, as in the terminal: R rolls, 1-5 hold, H asks the coach, A follows its first advice (the
same holds as tapping it). The replay's keys: test_accessibility.py."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from tests.web.browser.conftest import NewPage
from tests.web.browser.play import SHORT_PROFILE, create_table, open_table, sit, wait_my_turn_or_end
from tests.web.servers import LiveServer


def _held(page: Page) -> list[bool]:
    return [v == "true" for v in page.eval_on_selector_all("[data-testid^=die-]", "els => els.map(e => e.ariaPressed)")]


def test_the_table_plays_from_the_keyboard(web: LiveServer, new_page: NewPage) -> None:
    table = create_table(web.url, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], profile=SHORT_PROFILE,
                         coach=True)
    page = new_page()
    open_table(page, web.url, table)
    sit(page, 0, "Ana")
    assert wait_my_turn_or_end(page)
    page.locator("body").press("r")
    expect(page.locator("[data-testid=die-0]")).not_to_have_attribute("data-face", "0")  # thrown
    page.locator("body").press("1")
    expect(page.get_by_test_id("die-0")).to_have_attribute("aria-pressed", "true")
    page.locator("body").press("1")
    expect(page.get_by_test_id("die-0")).to_have_attribute("aria-pressed", "false")
    page.locator("body").press("h")
    first = page.get_by_test_id("advice-0")
    expect(first).to_be_visible()
    first.locator("button.advice-text").click()  # the mouse's way: hold what the coach keeps
    tapped = _held(page)
    for i, held in enumerate(tapped):
        if held:
            page.locator("body").press(str(i + 1))
    expect(page.locator("[data-testid^=die-][aria-pressed=true]")).to_have_count(0)
    page.locator("body").press("a")  # the keyboard's way: the same holds
    expect(page.locator("[data-testid^=die-][aria-pressed=true]")).to_have_count(sum(tapped))
    assert _held(page) == tapped

    if not any(tapped):  # the coach's first advice was a box (the click wrote it) or to throw every die again
        return
    page.reload()  # the dice held from the keyboard are remembered as tapped ones are
    expect(page.locator("[data-testid=die-0]")).not_to_have_attribute("data-face", "0")
    expect(page.locator("[data-testid^=die-][aria-pressed=true]")).to_have_count(sum(tapped))
    assert _held(page) == tapped
